"""Scoring a stored run: re-read every reply with the chosen parser, then apply the metric functions.

``score_run(store, run, parser=...)`` loads the run's full answer table and re-extracts every reply from its raw
text, so a score never depends on the parse stored at answer (or import) time:

- ``robust`` (default): :func:`probe_ui.answers.extract`, REFERENCE §3.
- ``legacy``: the benchmark's original parser, :func:`probe_ui.answers.extract_legacy`, to reproduce published
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

Replies parsed by a judge model (``method`` ``judge-...``) keep their stored parse: the judge is not re-run.

The report keeps the plain keys (run, seed, variants, items_not_loaded, models → accuracy, invalid_rate,
refusal_rate, n, answered, errors) and adds ``parser``, ``benchmark``, per model ``paper`` (the per-paper metrics
of :func:`probe_ui.metrics.paper_metrics`) and ``notes``. :func:`compare_parsers` lists every reply the two
parsers read differently.
"""

from __future__ import annotations

import inspect
import math
from typing import Any

import pandas as pd

from probe_ui import answers
from probe_ui.items import labels_for
from probe_ui.metrics import accuracy_by_model
from probe_ui.metrics.samples import majority_vote
from probe_ui.store import Store, run_variants

PARSERS = ("robust", "legacy")
# benchmark names as runs / attributes spell them → legacy mode
_MODE_ALIASES = {"mediconfusion": "mediconfusion", "probmed": "probmed", "medvh": "medvh", "blink": "blink",
                 "medblink": "blink"}
_MODE_KIND = {"mediconfusion": "choice", "medvh": "choice", "blink": "choice", "probmed": "yesno"}


class ScoringError(ValueError):
    """The run cannot be scored as asked (e.g. an unknown parser)."""


def _val(x: Any) -> Any:
    """None for pandas' missing values (NaN/None/NaT), the value otherwise."""
    if x is None:
        return None
    if isinstance(x, float) and math.isnan(x):
        return None
    try:
        if x is pd.NA or x is pd.NaT:
            return None
    except TypeError:  # pragma: no cover
        pass
    return x


_SOURCE_NAMES = (("mediconfusion", "mediconfusion"), ("probmed", "probmed"), ("medvh", "medvh"),
                 ("blink", "blink"))
_TEMPLATES = {"medvh-mc": "medvh", "blink-mc": "blink", "probmed": "probmed"}


def legacy_mode(row: dict[str, Any], run_benchmark: str | None = None, run_prompt: str | None = None) -> str | None:
    """The legacy parser that applies to one reply (module docstring), or None: read it robustly.

    ``run_benchmark`` is the run's ``settings.benchmark``, ``run_prompt`` its ``settings.prompt`` (``--prompt``).
    """
    attrs = row.get("attributes") or {}
    if not isinstance(attrs, dict):
        attrs = {}
    prompt = str(row.get("prompt") or "")
    prompt_args = row.get("prompt_args") or {}
    if prompt in ("medvh-fcj", "free") or (isinstance(prompt_args, dict) and prompt_args.get("suggestion")):
        return None
    mode = _MODE_ALIASES.get(str(attrs.get("benchmark") or "").lower()) or \
        _MODE_ALIASES.get(str(run_benchmark or "").lower())
    if mode is None:
        source = str(row.get("source") or "").lower()
        if "qa_type" in attrs and "image_type" in attrs:
            mode = "probmed"
        elif "medvh_task" in attrs:
            mode = "medvh"
        elif any(name in source for name, _ in _SOURCE_NAMES):
            mode = next(m for name, m in _SOURCE_NAMES if name in source)
        elif prompt.startswith("mediconfusion-mc/") or (prompt == "mediconfusion-mc" and run_prompt == prompt):
            mode = "mediconfusion"
        else:
            mode = _TEMPLATES.get(prompt)
    if mode is None or row.get("kind") != _MODE_KIND[mode]:
        return None
    return mode


def read_reply(row: dict[str, Any], parser: str, run_benchmark: str | None = None, run_prompt: str | None = None
               ) -> tuple[answers.Answer, str | None] | None:
    """One reply read with ``parser``: (answer, legacy mode used or None). None when the stored parse stands
    (an error row, or a judge's parse)."""
    if _val(row.get("error")) is not None:
        return None
    method = _val(row.get("method"))
    if isinstance(method, str) and method.startswith("judge-"):
        return None
    kind = "free" if row.get("prompt") == "free" else row["kind"]
    options = tuple(_val(row.get("options")) or ())
    labels = labels_for(kind, options)
    text = _val(row.get("raw_text")) or ""
    if parser == "legacy":
        mode = legacy_mode(row, run_benchmark, run_prompt)
        if mode is not None:
            gt = _val(row.get("answer_label"))
            attrs = row.get("attributes") or {}
            if mode == "medvh" and isinstance(attrs, dict) and isinstance(attrs.get("gt"), str):
                gt = attrs["gt"]
            return answers.extract_legacy(mode, text, kind, labels, options, gt), mode
    return answers.extract(text, kind, labels, options, question=_val(row.get("question"))), None


def _gt_label(row: dict[str, Any]) -> str | None:
    return None if row.get("prompt") == "free" or row.get("kind") == "free" else _val(row.get("answer_label"))


def reparse(df: pd.DataFrame, parser: str, run_benchmark: str | None = None, run_prompt: str | None = None
            ) -> tuple[pd.DataFrame, set[str]]:
    """A copy of an answers frame (``full=True``) with parsed/method/invalid/refusal/correct re-derived from the
    raw text by ``parser``; also the legacy modes that were used."""
    if parser not in PARSERS:
        raise ScoringError(f"unknown parser '{parser}'; expected one of {', '.join(PARSERS)}")
    out = df.copy()
    if out.empty:
        return out, set()
    cols = {c: list(out[c].astype(object)) for c in ("parsed", "method", "invalid", "refusal", "correct")}
    used: set[str] = set()
    for i, row in enumerate(out.to_dict("records")):
        got = read_reply(row, parser, run_benchmark, run_prompt)
        if got is None:
            continue
        ans, mode = got
        if mode:
            used.add(mode)
        cols["parsed"][i] = ans.choice
        cols["method"][i] = ans.method
        cols["invalid"][i] = ans.invalid
        cols["refusal"][i] = ans.refusal
        cols["correct"][i] = answers.is_correct(ans, _gt_label(row))
    for c, values in cols.items():
        out[c] = pd.Series(values, index=out.index, dtype=object)
    return out, used


def _paper(df_model: pd.DataFrame, legacy: bool) -> Any:
    """The per-paper metrics of one model's answers (None when that module is not available)."""
    try:
        from probe_ui import metrics
        fn = metrics.paper_metrics  # type: ignore[attr-defined]
    except (ImportError, AttributeError):
        return None
    params = inspect.signature(fn).parameters
    takes_legacy = "legacy" in params or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    return fn(df_model, legacy=legacy) if takes_legacy else fn(df_model)


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


def score_run(store: Store, run_name: str | None = None, parser: str = "robust") -> dict[str, Any]:
    """The per-model report of a run (the most recent one when no name is given), every reply re-read by
    ``parser`` ("robust" or "legacy"); see the module docstring."""
    if parser not in PARSERS:
        raise ScoringError(f"unknown parser '{parser}'; expected one of {', '.join(PARSERS)}")
    run = store.get_run(run_name)
    benchmark = run.settings.get("benchmark")
    df, used = reparse(store.answers_frame(run.id, full=True), parser, benchmark, run.settings.get("prompt"))
    df = majority_vote(df)
    models = accuracy_by_model(df)
    notes: list[str] = []
    if parser == "legacy" and not used and not df.empty:
        notes.append("no benchmark identified for this run's replies: legacy reads them like robust")
    if not df.empty:
        for model, g in df.groupby("model", sort=True):
            try:
                paper = _paper(g, parser == "legacy")
            except Exception as exc:  # a metric bug must not hide the accuracy report
                paper = {"error": f"{exc.__class__.__name__}: {exc}"}
                notes.append(f"per-paper metrics failed for '{model}': {exc.__class__.__name__}: {exc}")
            if paper is None:
                notes.append("per-paper metrics are not available (probe_ui.metrics.paper_metrics missing)")
            models[str(model)]["paper"] = jsonable(paper) if paper is not None else {}
    return {
        "run": run.name,
        "seed": run.seed,
        "variants": store.count(run_variants, run.id),
        "items_not_loaded": len(store.item_errors(run.id)),
        "parser": parser,
        "benchmark": benchmark,
        "legacy_modes": sorted(used),
        "models": models,
        "notes": list(dict.fromkeys(notes)),
    }


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
    benchmark, prompt = run.settings.get("benchmark"), run.settings.get("prompt")
    df = store.answers_frame(run.id, full=True)
    out: list[dict[str, Any]] = []
    for row in df.to_dict("records"):
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
            "prompt": row["prompt"], "sample": int(row["sample"]), "raw_text": _val(row.get("raw_text")),
            "gt": gt, "gt_raw": attrs.get("gt") if isinstance(attrs, dict) else None, "legacy_mode": mode,
            "robust": _reading(r_ans, rc), "legacy": _reading(l_ans, lc), "right": right,
        })
    return out
