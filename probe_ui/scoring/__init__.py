"""The one scored-answer table every view reads, and the score report built from it.

:func:`scored_answers` returns the answers of one or more runs under a parser, one row per reply: the variant
(item, condition, question, options, answer, categories, attributes, provenance, image ids), the reply, its
reading (``parsed``, ``method``, ``invalid``, ``refusal``, ``correct``, ``legacy_mode``), the ``confidence`` the
reply states (0-1, None where it states none: :mod:`probe_ui.reading.confidence`; a ``token_confidence`` column,
the provider's own probability of the chosen answer, is preferred by the calibration metrics where a provider
fills one), a ``state`` (right,
wrong, invalid, error, unknown), a judge's reading where a judge was asked, the latest ``rating`` / ``note`` of
anyone (what the rating filter and the views show), and ``rater_ratings``: ``{rater: rating}`` of each rater's
latest rating (several clinicians; what agreement and the per-rater export columns read), None when unrated.
``probe-ui score``, the Results and Stress tabs, the report and every export format read it, so a number is the
same wherever it is shown. :func:`score_frame` turns such a table into the per-model report (accuracy and the
registered metric families); :func:`score_run` is both for one stored run.

Parsers:

- ``robust`` (default): :func:`probe_ui.reading.answers.extract`, docs/reference.md §3. The parse stored with each
  answer is a cache of this reading, used only when it was written by the same parser code (``parse_version``);
  other rows are re-read (and the cache refreshed where the store is writable).
- ``legacy``: the benchmark's original parser, :func:`probe_ui.reading.answers.extract_legacy`, to reproduce published
  numbers. The benchmark of a reply is, in order:

  1. its variant's ``attributes.benchmark`` (set by importers and by presets written with ``probe-ui import ...
     --to-preset``);
  2. the run's ``settings.benchmark`` (imported runs);
  3. what its preset identifies (batch runs): ProbMed's attributes (``qa_type`` and ``image_type``), MedVH's
     (``medvh_task``), a benchmark named in the preset's file name (the variant's ``source``: ``mediconfusion``,
     ``probmed``, ``medvh``, ``blink``/``medblink``, e.g. the bundled ``mediconfusion_pairs.yaml``), or a
     benchmark's own prompt template (``mediconfusion-mc/<phrasing>`` → MediConfusion, ``medvh-mc`` → MedVH,
     ``blink-mc`` → BLINK, ``probmed`` → ProbMed; ``mediconfusion-mc`` itself only when given with ``--prompt``,
     since it is also the default template of every multiple-choice item).

  A legacy rule applies only to the kind it was written for (MediConfusion, MedVH, BLINK: multiple choice;
  ProbMed: yes/no); MedVH's FCJ replies (prompt ``medvh-fcj``, for which MedVH published no scoring code) and
  free-form replies are read robustly. Every other reply, and every reply of a plain batch run, is read robustly
  under ``legacy`` too (the report's ``notes`` say so). The legacy rules that decide correctness from the ground
  truth get it: ProbMed the yes/no answer, MedVH the file's raw ``gt`` (``attributes.gt``) or else the answer
  letter.

A judge model's reading (the batch's ``--judge``: stored on the judge call's own row) replaces the parser's for the
answer it judged, under both parsers; the judge is not re-run. The fallback judge (``score/export/report --judge
MODEL``, :mod:`probe_ui.scoring.fallback`) counts only when named (``judge=``), only under the robust parser, and only
for answers the rules leave invalid: its answer takes their place with the method ``judge``.

Metric definitions (:mod:`probe_ui.metrics.registry`): ``definition="auto"`` reports every family under the
paper's exact definition with ``--parser legacy`` and under ours (the clean one, where a family has one)
otherwise; "paper" or "clean" asks for one explicitly. Each family's block says which it used (``definition``).

The report keeps the plain keys (run, seed, variants, items_not_loaded, models → accuracy, invalid_rate,
refusal_rate, n, answered, errors) and adds ``parser``, ``definition``, ``benchmark``, per model ``paper`` (the
registered families' blocks), ``notes`` and, when someone rated an answer, ``rater_agreement`` (the clinicians'
kappas and their majority against the parser: :mod:`probe_ui.metrics.agreement`). :func:`compare_parsers` lists
every reply the two parsers read
differently.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Iterable, Protocol, Sequence, TypeVar, cast

import numpy as np
import pandas as pd

from probe_ui.errors import ProbeUIError
from probe_ui.items import labels_for, suggested_letter
from probe_ui.metrics import accuracy_by_model
from probe_ui.metrics.frame import value_or_none
from probe_ui.metrics.samples import majority_vote
from probe_ui.reading import answers
from probe_ui.reading.confidence import CONFIDENCE, TOKEN_CONFIDENCE, confidence_column
from probe_ui.registry import Registry
from probe_ui.scoring.pushback import apply_turns, pushback_ids
from probe_ui.store import Store, run_variants
from probe_ui.store.schema import rater_name

if TYPE_CHECKING:
    from probe_ui.benchmark import Benchmark

class ScoringError(ProbeUIError, ValueError):
    """The run cannot be scored as asked (e.g. an unknown parser)."""


class ReplyReader(Protocol):
    """What reads one reply in its own way under a parser: a benchmark's legacy parser (a
    :class:`~probe_ui.benchmarks.Benchmark`) or anything with the same three members."""

    @property
    def legacy_mode(self) -> str: ...

    def legacy_gt(self, gt: str | None, attrs: dict[str, Any]) -> str | None: ...

    def parse_legacy(self, text: str, kind: str, labels: Sequence[str], options: Sequence[str] = (),
                     gt: str | None = None) -> answers.Answer: ...


#: A parser: given a reply (a scored-answer row), the run's ``settings.benchmark`` and its ``--prompt``, the reader
#: that reads this reply in its own way, or None: the robust reading (whose stored cache is reused).
Parser = Callable[[dict[str, Any], "str | None", "str | None"], "ReplyReader | None"]

#: the answer parsers by name (``--parser``, the Results tab's choice), in menu order: one decorated function adds one
PARSERS: Registry[Parser] = Registry("parser", error=ScoringError, ordered=True)

_P = TypeVar("_P", bound=Callable[..., Any])


def register_parser(name: str, label: str = "") -> Callable[[_P], _P]:
    """``@PARSERS.register(name)`` that also gives the parser its ``label``, its name as a page shows it
    (:func:`probe_ui.labels.parser`; a parser without one is shown with its name in words)."""
    def deco(fn: _P) -> _P:
        if label:
            fn.label = label  # type: ignore[attr-defined]
        PARSERS.register(name)(fn)
        return fn
    return deco


@register_parser("robust", "robust (reads the answer however it is written)")
def robust_parser(row: dict[str, Any], run_benchmark: str | None = None, run_prompt: str | None = None
                  ) -> ReplyReader | None:
    """Every reply read by :func:`probe_ui.reading.answers.extract` (docs/reference.md §3)."""
    return None


def check_parser(parser: str) -> Parser:
    """The parser registered as ``parser``; a ScoringError naming the known ones otherwise."""
    return PARSERS.get(parser)


def records(df: pd.DataFrame) -> list[dict[str, Any]]:
    """A frame's rows as dicts keyed by column name (pandas types the keys ``Hashable``; these frames' columns are
    names)."""
    return cast("list[dict[str, Any]]", df.to_dict("records"))




def legacy_mode(row: dict[str, Any], run_benchmark: str | None = None, run_prompt: str | None = None) -> str | None:
    """The legacy parser that applies to one reply (module docstring), or None: read it robustly.

    ``run_benchmark`` is the run's ``settings.benchmark``, ``run_prompt`` its ``settings.prompt`` (``--prompt``).
    """
    bench = legacy_benchmark(row, run_benchmark, run_prompt)
    return bench.legacy_mode if bench is not None else None


@register_parser("legacy", "legacy (each paper's own parser, to quote beside the paper)")
def legacy_benchmark(row: dict[str, Any], run_benchmark: str | None = None, run_prompt: str | None = None
                     ) -> Benchmark | None:
    """The benchmark whose legacy parser reads one reply (:func:`legacy_mode`), or None.

    Each benchmark's detection rule is its own (:class:`probe_ui.benchmarks.Benchmark`); they are asked in turn,
    benchmarks in their order: the benchmark the variant or the run names, then the variant's attributes, then
    its source (preset or file name), then the prompt template. A reply of another kind than the parser reads is
    read robustly."""
    from probe_ui.benchmark import legacy_parsers

    attrs = row.get("attributes") or {}
    if not isinstance(attrs, dict):
        attrs = {}
    prompt = str(row.get("prompt") or "")
    prompt_args = row.get("prompt_args") or {}
    if prompt in ("medvh-fcj", "free") or (isinstance(prompt_args, dict) and prompt_args.get("suggestion")):
        return None
    parsers = list(legacy_parsers().values())
    named = [str(attrs.get("benchmark") or "").lower(), str(run_benchmark or "").lower()]
    source = str(row.get("source") or "").lower()
    found = next((b for name in named for b in parsers if name in b.names), None) \
        or next((b for b in parsers if b.by_attributes(attrs)), None) \
        or next((b for b in parsers if any(s in source for s in b.source_names)), None) \
        or next((b for b in parsers if b.by_prompt(prompt, run_prompt)), None)
    if found is None or row.get("kind") != found.legacy_kind:
        return None
    return found


@register_parser("settled", "settled (a clinician's reading where one settled the reply, else robust)")
def settled_parser(row: dict[str, Any], run_benchmark: str | None = None, run_prompt: str | None = None
                   ) -> ReplyReader | None:
    """The robust reading, replaced by a clinician's where one settled the reply (:func:`apply_settlements`)."""
    return None


def read_reply(row: dict[str, Any], parser: str, run_benchmark: str | None = None, run_prompt: str | None = None
               ) -> tuple[answers.Answer, str | None] | None:
    """One reply read with ``parser``: (answer, legacy mode used or None); None for an error row (no reply)."""
    if value_or_none(row.get("error")) is not None:
        return None
    kind = "free" if row.get("prompt") == "free" else row["kind"]
    options = tuple(value_or_none(row.get("options")) or ())
    labels = labels_for(kind, options)
    text = value_or_none(row.get("raw_text")) or ""
    reader = check_parser(parser)(row, run_benchmark, run_prompt)
    if reader is not None:
        attrs = row.get("attributes") or {}
        gt = reader.legacy_gt(value_or_none(row.get("answer_label")), attrs if isinstance(attrs, dict) else {})
        if kind == "free":
            return answers.Answer(None, "free_text", invalid=False, refusal=answers.is_refusal(text)), \
                reader.legacy_mode
        return reader.parse_legacy(text, kind, labels, options, gt), reader.legacy_mode
    return answers.extract(text, kind, labels, options, question=value_or_none(row.get("question")),
                           suggested=suggested_letter(row.get("prompt_args"), row.get("attributes"))), None


def _gt_label(row: dict[str, Any]) -> str | None:
    return None if row.get("prompt") == "free" or row.get("kind") == "free" else value_or_none(row.get("answer_label"))


_PARSE = ("parsed", "method", "invalid", "refusal", "sure", "correct")
STATES = ("right", "wrong", "invalid", "error", "unknown")
JUDGE_COLUMNS = ("judge_model", "judge_prompt", "judge_text", "judge_error", "judge_parsed", "judge_method",
                 "judge_correct")
UNRATED = "unrated"
RATING_CHOICES = ("correct", "incorrect", "unsure", UNRATED)  # the store's RATINGS, plus "no rating yet"


def reparse(df: pd.DataFrame, parser: str, run_benchmark: str | None = None, run_prompt: str | None = None
            ) -> tuple[pd.DataFrame, set[str], list[dict[str, Any]]]:
    """A copy of an answers frame (``full=True``) with parsed/method/invalid/refusal/correct read by ``parser``
    (the cached robust reading where it is current), a ``legacy_mode`` column and a ``confidence`` column (the
    confidence the reply states, 0-1, None where none: :func:`probe_ui.reading.confidence.confidence_column`,
    whatever the parser); also the legacy modes used and the fresh robust readings to cache (``id`` + the parse
    columns + ``parse_version``)."""
    rule = check_parser(parser)
    out = df.copy()
    out["legacy_mode"] = pd.Series([None] * len(out), index=out.index, dtype=object)
    out[CONFIDENCE] = confidence_column(out)  # read on the fly, never cached: cheap, and not the parser's
    if out.empty:
        return out, set(), []
    version = answers.parser_version()
    stale = out["parse_version"].ne(version).to_numpy() if "parse_version" in out.columns \
        else [True] * len(out)
    cols: dict[str, list[Any]] = {c: [value_or_none(x) for x in out[c]] if c in out.columns else [None] * len(out)
                                  for c in (*_PARSE, "legacy_mode")}  # missing is None, never NaN
    used: set[str] = set()
    fresh: list[dict[str, Any]] = []
    for i, row in enumerate(records(out)):
        if row.get("kind") == "point" and row.get("prompt") != "free":
            # coordinates read against the region when stored (probe_ui.reading.pointing): no parser reads text
            continue
        reader = rule(row, run_benchmark, run_prompt)
        mode = reader.legacy_mode if reader is not None else None
        if mode is None and not stale[i]:
            continue  # the cached robust reading is current
        got = read_reply(row, parser, run_benchmark, run_prompt)
        if got is None:
            continue
        ans, mode = got
        correct = answers.is_correct(ans, _gt_label(row))
        values = {"parsed": ans.choice, "method": ans.method, "invalid": ans.invalid, "refusal": ans.refusal,
                  "sure": ans.sure, "correct": correct}
        for c, v in values.items():
            cols[c][i] = v
        if mode:
            used.add(mode)
            cols["legacy_mode"][i] = mode
        elif "response_id" in row:
            fresh.append({"id": int(row["response_id"]), **values, "parse_version": version})
    for c, column in cols.items():
        out[c] = pd.Series(column, index=out.index, dtype=object)
    return out, used, fresh


def token_confidence(df: pd.DataFrame, details: dict[int, Any]) -> pd.DataFrame:
    """The ``token_confidence`` column: the probability the provider gave the answer read (its ``option_probs``:
    an ``hf/`` model's gd or ps mode, an OpenAI-compatible server asked for logprobs), None where it gave none; a
    table without any gets no column."""
    if not details:
        return df
    out = df.copy()
    values = []
    for rid, parsed in zip(out["response_id"], out["parsed"]):
        probs = (details.get(int(rid)) or {}).get("option_probs")
        p = probs.get(parsed) if isinstance(probs, dict) and parsed is not None else None
        values.append(float(p) if isinstance(p, (int, float)) else None)
    out[TOKEN_CONFIDENCE] = pd.Series(values, index=out.index, dtype=object)
    return out


def _apply_judges(df: pd.DataFrame, judges: pd.DataFrame) -> pd.DataFrame:
    """The judge's reading replaces the parser's for every answer a judge read without error; the ``judge_*``
    columns keep the judge call itself (model, prompt, raw text, error, and its own reading)."""
    for c in JUDGE_COLUMNS:
        df[c] = pd.Series([None] * len(df), index=df.index, dtype=object)
    if judges.empty or df.empty:
        return df
    j = judges.drop_duplicates("parent_id", keep="last").set_index("parent_id")
    j = j.assign(judge_parsed=j["parsed"], judge_method=j["method"], judge_correct=j["correct"])
    rid = df["response_id"]
    hit = rid.isin(j.index).to_numpy()
    if not hit.any():
        return df
    sel = j.reindex(rid[hit].to_numpy())
    for c in JUDGE_COLUMNS:
        df.loc[hit, c] = sel[c].to_numpy(dtype=object)
    ok = hit.copy()
    ok[hit] = sel["judge_error"].isna().to_numpy() & df.loc[hit, "error"].isna().to_numpy()
    if ok.any():
        okj = j.reindex(rid[ok].to_numpy())
        for c in ("parsed", "method", "invalid", "correct"):
            df.loc[ok, c] = pd.Series(okj[c].to_numpy(dtype=object), index=df.index[ok], dtype=object)
        if "sure" in df.columns:
            df.loc[ok, "sure"] = False  # a judge's reading is not one nobody would doubt
    for c in (*_PARSE, *JUDGE_COLUMNS):  # missing is None, never NaN (as reparse leaves them)
        df[c] = pd.Series([value_or_none(x) for x in df[c]], index=df.index, dtype=object)
    return df


def _apply_fallback(df: pd.DataFrame, judged: pd.DataFrame) -> pd.DataFrame:
    """A fallback judge's decisions (:mod:`probe_ui.scoring.fallback`) on the answers the rules leave invalid: its
    answer (method ``judge``) or its "none" (method ``judge-none``), and the call itself in the ``judge_*`` columns.
    Answers the rules read, failed calls and failed judge calls keep their reading."""
    if judged.empty or df.empty:
        return df
    j = judged.drop_duplicates("parent_id", keep="last").set_index("parent_id")
    j = j.assign(judge_parsed=j["parsed"], judge_method=j["method"], judge_correct=j["correct"])
    invalid = (df["parsed"].isna() | df["invalid"].map({True: True}).fillna(False).astype(bool)).to_numpy()
    hit = df["response_id"].isin(j.index).to_numpy() & invalid & df["error"].isna().to_numpy()
    if hit.any():
        sel = j.reindex(df.loc[hit, "response_id"].to_numpy())
        ok = sel["judge_error"].isna().to_numpy()
        idx = df.index[hit][ok]
        sel = sel[ok]
        for c in JUDGE_COLUMNS:
            df.loc[idx, c] = pd.Series(sel[c].to_numpy(dtype=object), index=idx, dtype=object)
        for c in ("parsed", "method", "invalid", "correct"):
            df.loc[idx, c] = pd.Series(sel[c].to_numpy(dtype=object), index=idx, dtype=object)
        if "sure" in df.columns:
            df.loc[idx, "sure"] = False  # a judge's reading is not one nobody would doubt
    for c in (*_PARSE, *JUDGE_COLUMNS):  # missing is None, never NaN
        df[c] = pd.Series([value_or_none(x) for x in df[c]], index=df.index, dtype=object)
    return df


SETTLED = "settled"
#: how a reply's reading was settled (the ``reading`` column): by a clinician, sure, or the reader's best guess
READINGS = (SETTLED, "sure", "unsure")


def apply_settlements(df: pd.DataFrame, latest: pd.DataFrame, per_settler: pd.DataFrame, *, use: bool
                      ) -> pd.DataFrame:
    """Clinicians' settled readings (:meth:`Store.settlements_frame`) on a scored table: ``settled_by`` (``{who:
    label}``, "" a reply they read as no answer; None where nobody settled it), ``reading`` (:data:`READINGS`; None
    for a failed call or a free-text reply) and, with ``use`` (``--parser settled``), the latest settlement
    replaces the reading (method ``settled``, sure)."""
    if df.empty:
        return df.assign(settled_by=pd.Series(dtype=object), reading=pd.Series(dtype=object))
    rid = df["response_id"]
    settled_by = rater_ratings(per_settler, rid, who="settled_by", value="label")
    hit = settled_by.notna().to_numpy() & df["error"].isna().to_numpy()
    df["settled_by"] = settled_by.where(hit, None)
    if use and hit.any():
        label = rid[hit].map(dict(zip(latest["response_id"].astype(int), latest["label"].astype(str))))
        given = label.ne("").to_numpy()
        gt = df.loc[hit, "answer_label"]
        df.loc[hit, "parsed"] = pd.Series(label.where(label.ne(""), None).to_numpy(dtype=object),
                                          index=df.index[hit], dtype=object)
        df.loc[hit, "method"] = SETTLED
        df.loc[hit, "invalid"] = pd.Series(~given, index=df.index[hit], dtype=object)
        df.loc[hit, "sure"] = True
        df.loc[hit, "correct"] = pd.Series([(lab == g) if g is not None and not (isinstance(g, float) and g != g)
                                            else None for lab, g in zip(label.to_numpy(), gt.to_numpy())],
                                           index=df.index[hit], dtype=object)
        for c in _PARSE:  # missing is None, never NaN (as reparse leaves them)
            df[c] = pd.Series([value_or_none(x) for x in df[c]], index=df.index, dtype=object)
    free = (df["prompt"].eq("free") | df["kind"].eq("free")).to_numpy() if "prompt" in df.columns \
        else df["kind"].eq("free").to_numpy()
    sure = df["sure"].eq(True).to_numpy() if "sure" in df.columns else np.zeros(len(df), dtype=bool)
    reading = np.where(hit, SETTLED, np.where(sure, "sure", "unsure")).astype(object)
    reading[df["error"].notna().to_numpy() | free] = None
    df["reading"] = pd.Series(reading, index=df.index, dtype=object)
    return df


def states(df: pd.DataFrame) -> pd.Series:
    """Each row's state: "error" (no reply), "invalid" (no answer could be read), "right", "wrong", or "unknown"
    (answered, ground truth unknown)."""
    if df.empty:
        return pd.Series([], dtype=object, index=df.index)
    err = df["error"].notna().to_numpy()
    inv = (df["parsed"].isna() | df["invalid"].map({True: True}).fillna(False).astype(bool)).to_numpy()
    cor = df["correct"].map({True: 1, False: 0}).to_numpy(dtype=float, na_value=np.nan)
    out = np.where(err, "error", np.where(inv, "invalid", np.where(cor == 1, "right",
                                                                   np.where(cor == 0, "wrong", "unknown"))))
    return pd.Series(out.astype(object), index=df.index, dtype=object)


def model_columns(df: pd.DataFrame) -> pd.Series:
    """The model as views show it: ``"model · template"`` where one model answered a variant under several prompt
    templates (a run repeated with another ``--prompt``); the plain model name otherwise."""
    model = df["model"].astype(str)
    if "prompt" in df.columns and len(df):
        several = df.duplicated(["model", "variant_id"] + (["run"] if "run" in df.columns else []) +
                                (["sample"] if "sample" in df.columns else []), keep=False)
        if several.any():
            split = model.isin(set(model[several]))
            return model.where(~split, model + " · " + df["prompt"].astype(str))
    return model


def categories_of(value: Any) -> list[str]:
    """A row's categories as a list of strings (the column holds lists; tolerate None / NaN / a bare string)."""
    if isinstance(value, (list, tuple)):
        return [str(c) for c in value]
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return []
    return [str(value)]


def filter_answers(df: pd.DataFrame, *, models: Iterable[str] | None = None, conditions: Iterable[str] | None = None,
                   categories: Iterable[str] | None = None, ratings: Iterable[str] | None = None) -> pd.DataFrame:
    """The rows of a scored table that pass every non-empty filter: models, conditions (perturbations),
    categories (a row is kept when any of its categories is listed) and ratings (:data:`RATING_CHOICES`)."""
    keep = pd.Series(True, index=df.index)
    for col, wanted in (("model", models), ("condition", conditions), ("rating", ratings)):
        wanted = list(wanted or [])
        if wanted:
            keep &= df[col].isin(wanted)
    cats = set(categories or [])
    if cats:
        keep &= df["category"].map(lambda c: bool(cats.intersection(categories_of(c)))).astype(bool)
    return df[keep].reset_index(drop=True)


def run_names(runs: str | Sequence[str] | None) -> list[str | None]:
    """Distinct run names in order (a single name is accepted too); [None] (the latest run) when none is given."""
    if runs is None or runs == "":
        return [None]
    names: list[str | None] = list(dict.fromkeys([runs] if isinstance(runs, str) else list(runs)))
    return names or [None]


def scored_answers(store: Store, runs: str | Sequence[str] | None = None, parser: str = "robust", *,
                   models: Iterable[str] | None = None, conditions: Iterable[str] | None = None,
                   categories: Iterable[str] | None = None, ratings: Iterable[str] | None = None,
                   detail: bool = False, judge: str | None = None, settled_by: str | None = None) -> pd.DataFrame:
    """THE scored-answer table (module doc): the answers of ``runs`` (a name, several, or None for the most
    recent run) read by ``parser``, one row per reply, filtered by models, conditions, categories and ratings
    (each a list; empty keeps all). ``detail`` adds what was sent and received (messages, settings, details,
    finish reason). ``judge`` (a judge model's name) applies that fallback judge's stored decisions to the answers
    the rules leave invalid (robust parser only). ``settled_by`` (settled parser only): one clinician's settlements
    replace the readings, not the latest of anyone's (each clinician's own view of the figures); the ``settled_by``
    column still shows everyone's. An unknown run raises the store's StoreError, which names it."""
    if judge and parser == "legacy":
        raise ScoringError("a fallback judge reads the replies the robust rules leave invalid: use it with the "
                           "robust or settled parser, not --parser legacy")
    from probe_ui.store import StoreError

    check_parser(parser)
    if settled_by is not None and parser != "settled":
        raise ScoringError("one clinician's settlements replace readings only with the settled parser: "
                           "use --parser settled with --settled-by")
    frames = []
    for name in run_names(runs):
        if name is not None and not str(name).strip():
            raise StoreError("an empty run name was given: choose a run")
        run = store.get_run(name)
        df, used, fresh = reparse(store.answers_frame(run.id, full=True, detail=detail), parser,
                                  run.config.benchmark, run.config.prompt)
        _refresh_cache(store, fresh)
        df = apply_turns(df, store.details_of(pushback_ids(df)))
        df = _apply_judges(df, store.judge_frame(run.id))
        if judge:
            df = _apply_fallback(df, store.fallback_judge_frame(run.id, judge))
        per_settler = store.settlements_frame(run.id, per_settler=True)
        latest = store.settlements_frame(run.id) if settled_by is None \
            else per_settler[per_settler["settled_by"] == rater_name(settled_by)]
        df = apply_settlements(df, latest, per_settler, use=parser == "settled")
        df = token_confidence(df, store.details_with(run.id, "option_probs"))
        rated = store.ratings_frame(run.id)[["response_id", "rating", "note"]]
        df = df.merge(rated, on="response_id", how="left")
        df["rating"] = df["rating"].astype(object).where(df["rating"].notna(), UNRATED)
        df["note"] = df["note"].astype(object).where(df["note"].notna(), "")
        df["rater_ratings"] = rater_ratings(store.ratings_frame(run.id, per_rater=True), df["response_id"])
        df.insert(0, "run", run.name)
        df.attrs.setdefault("legacy_modes", set()).update(used)
        frames.append(df)
    out = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    out.attrs["legacy_modes"] = set().union(*(f.attrs.get("legacy_modes", set()) for f in frames))
    out["state"] = states(out)
    filtered = filter_answers(out, models=models, conditions=conditions, categories=categories, ratings=ratings)
    filtered.attrs = out.attrs
    return filtered


UNVERIFIED = " (unverified)"


def rater_label(rater: str, verified: Any = None) -> str:
    """A rater as agreement figures and exports name them: a name typed in the app without a login (``verified``
    false: anyone could have typed it) is marked :data:`UNVERIFIED`, and is another rater than the signed-in user
    of that name."""
    unchecked = verified is not None and not (isinstance(verified, float) and verified != verified) \
        and not bool(verified)
    return f"{rater or '(unnamed)'}{UNVERIFIED}" if unchecked else rater


def rater_ratings(per_rater: pd.DataFrame, response_ids: pd.Series, *, who: str = "rater", value: str = "rating"
                  ) -> pd.Series:
    """Per answer, ``{rater: rating}`` of each rater's latest rating (:meth:`Store.ratings_frame` with
    ``per_rater``; a rater whose name was typed without a login labelled by :func:`rater_label`), None where
    nobody rated it; aligned with ``response_ids``. ``who`` and ``value`` name the columns of another judgement
    kept per person (settled readings: ``settled_by`` and ``label``)."""
    out = pd.Series([None] * len(response_ids), index=response_ids.index, dtype=object)
    if per_rater.empty:
        return out
    by_id: dict[int, dict[str, str]] = {}
    verified = per_rater["verified"] if "verified" in per_rater.columns else [None] * len(per_rater)
    for rid, rater, rating, checked in zip(per_rater["response_id"], per_rater[who], per_rater[value],
                                           verified):
        by_id.setdefault(int(rid), {})[rater_label(str(rater), checked)] = str(rating)
    hit = response_ids.isin(list(by_id)).to_numpy()
    out[hit] = [by_id[int(r)] for r in response_ids[hit]]
    return out


def _refresh_cache(store: Store, fresh: list[dict[str, Any]]) -> None:
    """Write fresh robust readings back as the answers' parse cache; a store that cannot be written (read-only,
    busy) keeps its old cache, which is only slower to read."""
    import sqlalchemy as sa

    try:
        store.cache_parses(fresh)
    except (sa.exc.SQLAlchemyError, OSError):
        pass


def score_frame(df: pd.DataFrame, parser: str = "robust", definition: str = "auto", *,
                families: tuple[str, ...] | None = None, n_boot: int = 2000) -> dict[str, Any]:
    """Per model (one table of :func:`scored_answers`, several samples reduced to their majority vote): accuracy,
    invalid and refusal rates, n, answered, errors, and ``paper``: every registered metric family with data,
    under ``definition`` (module doc). Returns ``{"models": {...}, "definition": "paper" | "clean", "notes":
    [...]}``."""
    from probe_ui.metrics import paper_metrics
    from probe_ui.metrics.registry import resolve_definition

    which = resolve_definition(definition, parser)
    voted = majority_vote(df)
    models = accuracy_by_model(voted)
    notes: list[str] = []
    if not voted.empty:
        for model, g in voted.groupby("model", sort=True):
            try:
                paper = paper_metrics(g, definition=which, n_boot=n_boot, only=families)
            except Exception as exc:  # a metric bug must not hide the accuracy report
                paper = {"error": f"{exc.__class__.__name__}: {exc}"}
                notes.append(f"per-paper metrics failed for '{model}': {exc.__class__.__name__}: {exc}")
            models[str(model)]["paper"] = jsonable(paper)
    return {"models": models, "definition": which, "notes": notes}


def jsonable(obj: Any) -> Any:
    """Plain JSON types: numpy scalars to Python, NaN/inf to None, tuples/sets to lists."""
    if isinstance(obj, dict):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple, set)):
        return [jsonable(v) for v in obj]
    if hasattr(obj, "item") and not isinstance(obj, (str, bytes)) and getattr(obj, "shape", None) == ():
        obj = obj.item()
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if obj is None or isinstance(obj, (str, int, float, bool)):
        return obj
    if hasattr(obj, "to_dict"):
        return jsonable(obj.to_dict())
    return str(obj)


def score_run(store: Store, run_name: str | None = None, parser: str = "robust", definition: str = "auto", *,
              judge: str | None = None, settled_by: str | None = None) -> dict[str, Any]:
    """The per-model report of a run (the most recent one when no name is given) from :func:`scored_answers` and
    :func:`score_frame`; see the module docstring. With ``judge`` (a fallback judge's model name) the report says
    how many answers that judge decided: ``judge`` {model, decided} and ``judged`` per model. ``settled_by``: one
    clinician's settlements only (settled parser), named in the report's ``settled_by``."""
    run = store.get_run(run_name)
    df = scored_answers(store, run.name, parser, judge=judge, settled_by=settled_by)
    used = df.attrs.get("legacy_modes", set())
    scored = score_frame(df, parser, definition)
    notes = list(scored["notes"])
    triggers = getattr(store, "foreign_triggers", None)
    if triggers:  # opened with --trust-store: these numbers are whatever the triggers left in the store
        notes.insert(0, f"the store has {', '.join(triggers)}, which probe-ui did not create: these scores read the "
                        "answers as stored, which it may have changed")
    if settled_by is not None:
        who = rater_name(settled_by)
        if not any(isinstance(v, dict) and who in v for v in df.get("settled_by", ())):
            notes.insert(0, f"{who!r} settled no reply of this run: every reading is the reader's")
    if parser == "legacy" and not used and not df.empty:
        notes.insert(0, "no benchmark identified for this run's replies: legacy reads them like robust")
    from probe_ui.metrics.agreement import rater_agreement

    agreement = rater_agreement(df)
    out = {
        "run": run.name,
        "seed": run.seed,
        "variants": store.count(run_variants, run.id),
        "items_not_loaded": len(store.item_errors(run.id)),
        "parser": parser,
        **({"settled_by": rater_name(settled_by)} if settled_by is not None else {}),
        "definition": scored["definition"],
        "benchmark": run.config.benchmark,
        "legacy_modes": sorted(used),
        "models": scored["models"],
        "notes": list(dict.fromkeys(notes)),
    }
    if agreement is not None:
        out["rater_agreement"] = jsonable(agreement)
    from probe_ui.scoring.review import judge_agreement, settler_agreement

    settled = {k: v for k, v in (("clinicians", settler_agreement(df)), ("judge", judge_agreement(df)))
               if v is not None}
    if settled:  # issue 46: how the clinicians who settled readings agree, and a judge model with them
        out["settled_agreement"] = jsonable(settled)
    if judge:
        decided: dict[str, int] = {str(m): int(n) for m, n in df.loc[(df["method"] == "judge").to_numpy(), "model"]
                                   .value_counts().items()} if len(df) else {}
        for model, r in out["models"].items():
            r["judged"] = decided.get(model, 0)
        out["judge"] = {"model": judge, "decided": sum(decided.values())}
    if run.config.harness:  # an imported harness run: its own verdicts against this reading
        from probe_ui.scoring.verdicts import harness_agreement

        out["harness_agreement"] = harness_agreement(store, run, df)
    return out


def _reading(ans: answers.Answer, correct: bool | None) -> dict[str, Any]:
    return {"choice": ans.choice, "method": ans.method, "invalid": ans.invalid, "refusal": ans.refusal,
            "correct": correct}


def compare_parsers(store: Store, run_name: str | None = None) -> list[dict[str, Any]]:
    """Every reply of a run that the robust and the legacy parser read differently (a different choice,
    validity or correctness), one dict each: variant_id, item_id, model, prompt, sample, raw_text, gt (the answer
    label), gt_raw (the file's own gt where it has one), legacy_mode, ``robust`` and ``legacy`` readings
    ({choice, method, invalid, refusal, correct}) and ``right``: which reading agrees with the ground truth
    ("robust", "legacy", "both", "neither", or "unknown" without a ground truth)."""
    run = store.get_run(run_name)
    benchmark, prompt = run.config.benchmark, run.config.prompt
    df = store.answers_frame(run.id, full=True)
    out: list[dict[str, Any]] = []
    for row in records(df):
        rob = read_reply(row, "robust", benchmark, prompt)
        leg = read_reply(row, "legacy", benchmark, prompt)
        if rob is None or leg is None or leg[1] is None:
            continue
        gt = _gt_label(row)
        r_ans, (l_ans, mode) = rob[0], leg
        rc, lc = answers.is_correct(r_ans, gt), answers.is_correct(l_ans, gt)
        if (r_ans.choice, r_ans.invalid, rc) == (l_ans.choice, l_ans.invalid, lc):
            continue
        if rc is None and lc is None:
            right = "unknown"
        elif rc and lc:
            right = "both"
        elif rc:
            right = "robust"
        elif lc:
            right = "legacy"
        else:
            right = "neither"
        attrs = row.get("attributes") or {}
        out.append({
            "variant_id": row["variant_id"], "item_id": row["item_id"], "model": row["model"],
            "prompt": row["prompt"], "sample": int(row["sample"]), "raw_text": value_or_none(row.get("raw_text")),
            "gt": gt, "gt_raw": attrs.get("gt") if isinstance(attrs, dict) else None, "legacy_mode": mode,
            "robust": _reading(r_ans, rc), "legacy": _reading(l_ans, lc), "right": right,
        })
    return out
