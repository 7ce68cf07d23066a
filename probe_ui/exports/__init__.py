"""A run as a dataset: JSONL, Parquet, CSV, or an imagefolder that ``datasets.load_dataset`` reads.

``export_run(store, run, fmt, out)`` writes one row per answer (``by="response"``) or one row per variant with every
model's answers in a list (``by="variant"``), each image once under ``out/images/<sha256>.png`` (the store's
canonical PNG bytes, so a file's name is the hash of its bytes), and a dataset card ``README.md``: YAML front matter
(licence, a ``configs`` entry for the format), the meaning of every column, the licences of the images (bundled
assets matched by hash; derived ones named with their source; anything else "user-supplied, licence unknown") and
how the run was made, with the command that makes it again.

What never leaves the machine: absolute local paths (preset paths become file names; any string mentioning the
working folder, the store's folder, the home or temp folder is rewritten relative to it; absolute paths in
``details``, ``error`` and similar bookkeeping fields become file names), API keys and the names of the variables
that hold them (:mod:`probe_ui.security.redact`: ``api_key_env`` is dropped, URLs lose user info, query and fragment,
and any key this process knows is masked in every string), and DICOM headers (the store holds none).

Layouts (``out`` must be new or empty; each is one class in :mod:`probe_ui.export_formats`, and a new format is
one more class there or in a plugin):

- ``jsonl``: ``data.jsonl``, nested values as JSON.
- ``csv``: ``data.csv``; lists and dicts as JSON strings, booleans as ``true``/``false``, missing values empty;
  text cells a spreadsheet would run as a formula (beginning with ``=``, ``+``, ``-``, ``@``, TAB or CR) start with
  an apostrophe (:mod:`probe_ui.files.spreadsheet`; ``probe-ui import dataset`` removes it). JSONL, Parquet and the
  imagefolder keep the raw text.
- ``parquet``: ``data.parquet`` (pyarrow, through pandas); lists of strings as lists, free-form nested values
  (attributes, provenance, settings, details, judge, answers) as JSON strings, since their types vary by row.
- ``imagefolder``: ``metadata.jsonl`` beside ``images/``. ``images_file_names`` lists the variant's images, loaded
  by ``datasets.load_dataset("imagefolder")`` as ``images``, a list of images: the one image column, named
  ``images`` in every format. (datasets' folder-based builder reads a list column ``file_names`` /
  ``<name>_file_names`` as images; the prefixed form, because datasets 4 reads an empty ``file_names``, a question
  without an image, as missing and fails on it.) Nested values are JSON strings as in Parquet, so that every row
  has the same types.

Judge calls (``--judge``) are not rows of their own: the latest judge call on an answer goes into that answer's
``judge`` column.
"""

from __future__ import annotations

import hashlib
import json
import math
import shlex
import shutil
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from probe_ui import __version__
from probe_ui.errors import ProbeUIError
from probe_ui.export_formats import FORMATS, format_names
from probe_ui.export_formats.base import json_text
from probe_ui.exports.licences import Licence, image_licences, licence_section, size_category
from probe_ui.files.paths import check_output_folder
from probe_ui.files.safe_write import write_bytes, write_text
from probe_ui.prompts import messages_text
from probe_ui.security import redact
from probe_ui.views.markup import md_cell
from probe_ui.views.rebuild import card_command, source_name

if TYPE_CHECKING:
    from probe_ui.store import Store

BY = ("response", "variant")
IMAGES_DIR = "images"

VARIANT_COLUMNS = ["run", "seed", "variant_id", "item_id", "condition", "group", "item_group", "source", "kind",
                   "question", "options", "answer", "answer_label", "category", "tags", "attributes", "provenance",
                   "prompt_args"]
ANSWER_COLUMNS = ["response_id", "model", "prompt", "sample", "prompt_text", "settings", "raw_text", "parsed",
                  "method", "invalid", "refusal", "sure", "reading", "confidence", "token_confidence", "correct",
                  "rating", "note", "latency_s", "input_tokens", "output_tokens", "cost", "error", "finish_reason",
                  "details", "judge"]
RESPONSE_ROW = ["run", "seed", "response_id", "model", "prompt", "sample", "item_id", "variant_id", "condition",
                "group", "item_group", "source", "kind", "question", "options", "answer", "answer_label", "category",
                "tags", "attributes", "provenance", "prompt_args", "prompt_text", "settings", "raw_text", "parsed",
                "method", "invalid", "refusal", "sure", "reading", "confidence", "token_confidence", "correct",
                "rating", "note", "latency_s", "input_tokens", "output_tokens", "cost", "error", "finish_reason",
                "details", "judge", "images"]
VARIANT_ROW = [*VARIANT_COLUMNS, "images", "n_answers", "answers"]
#: one column per rater (several clinicians): ``rating:<rater>``, after ``note``; a rating nobody put a name to
#: (made before raters were recorded) goes under ``rating:(unnamed)``
RATER_PREFIX = "rating:"
UNNAMED_RATER = "(unnamed)"
#: likewise one column per clinician who settled readings (issue 46): ``settled:<who>``, after ``reading``
SETTLER_PREFIX = "settled:"

COLUMN_DOCS: dict[str, tuple[str, str]] = {
    "run": ("string", "the run's name in the probe-ui store"),
    "seed": ("int", "the run's seed: perturbations and the random baseline derive their randomness from it"),
    "response_id": ("int", "the answer's id in the store (what a rating refers to)"),
    "model": ("string", "the model's name: a catalogue name or provider/model"),
    "prompt": ("string", "the prompt template's name (see probe-ui's README, Prompts)"),
    "sample": ("int", "which sample of this variant and model (0 unless --samples N)"),
    "item_id": ("string", "the item's id in its preset"),
    "variant_id": ("string", "content hash of the variant (question, options, answer, image hashes, provenance)"),
    "condition": ("string", "'original', or the perturbation condition that made this variant (suite conditions "
                            "are named suite/condition)"),
    "group": ("string", "the variants of one item under one suite (scored together, e.g. group consistency)"),
    "item_group": ("string", "the item's own group from the preset (a pair, a gt/hallucination pair), or null"),
    "source": ("string", "the preset's file name (never a path)"),
    "kind": ("string", "choice (answer with a letter), yesno, label (answer with one of the labels) or free"),
    "question": ("string", "the question as asked (after perturbations)"),
    "options": ("list[string]", "answer options of a choice item (shown as A, B, ...) or the labels of a label item"),
    "answer": ("string", "the correct answer as option text / label / yes / no; null when unknown"),
    "answer_label": ("string", "the correct answer as the model should write it (a letter for choice items)"),
    "category": ("list[string]", "the item's categories"),
    "tags": ("list[string]", "the item's tags"),
    "attributes": ("object", "free-form attributes of the item (benchmark fields, dots, findings, ...)"),
    "provenance": ("list[object]", "the perturbation chain that made this variant from the item: "
                                   "{op, params, seed, answer: [before, after]} per step; empty for the original"),
    "prompt_args": ("object", "arguments a perturbation gave the prompt (chain of thought, a suggested answer), "
                              "or null"),
    "prompt_text": ("string", "the exact text sent: each message under a [role] header, images marked "
                              "<image N> where they sat"),
    "settings": ("object", "generation settings of the call: temperature, max_tokens, top_p, seed, timeout_s, "
                           "stream, provider, model, base_url"),
    "raw_text": ("string", "the model's reply, verbatim"),
    "parsed": ("string", "the answer read from the reply (a letter, yes/no or a label); null when none"),
    "method": ("string", "the rule that read the answer (declaration, final_verdict, option_text, language, "
                         "question_subject, judge, ambiguous, ...: the card's 'How answers were read' lists those of "
                         "this export in words)"),
    "invalid": ("bool", "no answer could be read from the reply"),
    "refusal": ("bool", "the reply refuses to answer"),
    "sure": ("bool", "the reading is one a careful clinician would not doubt (no hedge, reversal, negation, "
                     "contradiction, refusal or cut-off around it); false: the reader's best guess; null when the "
                     "reply could not be stored or read"),
    "reading": ("string", "how the reading was settled: sure (the reader is sure), unsure (the reader's best guess) or "
                          "settled (a clinician read the reply: the settled:<who> columns); null for a failed call or "
                          "a free-text reply"),
    "confidence": ("float", "the confidence the reply states in its answer, 0-1 ('Confidence: 90%'); null where it "
                            "states none"),
    "token_confidence": ("float", "the probability the provider gave the answer read (logprobs, or an hf/ model's "
                                  "option probabilities), 0-1; null where it gave none"),
    "correct": ("bool", "parsed equals answer_label (null when the ground truth is unknown or the call failed)"),
    "rating": ("string", "the latest rating of this answer by anyone: correct, incorrect or unsure; null if unrated "
                         "(each rater's own is in the rating:<rater> columns)"),
    "note": ("string", "the note given with the rating"),
    "latency_s": ("float", "seconds the call took (0 for an answer reused from the cache)"),
    "input_tokens": ("int", "prompt tokens reported by the provider"),
    "output_tokens": ("int", "reply tokens reported by the provider"),
    "cost": ("float", "the call's cost in USD where the catalogue gives prices"),
    "error": ("string", "why the call failed; null for an answer"),
    "finish_reason": ("string", "why generation stopped, as the provider reports it"),
    "details": ("object", "provider extras (option probabilities, resize records, cache origin); absolute paths "
                          "reduced to file names"),
    "judge": ("object", "the latest judge call on this answer (batch --judge, or the fallback judge of score/"
                        "export --judge for replies the rules could not read): {model, prompt, raw_text (the judge's "
                        "reply), parsed, method, correct, error}, or null"),
    "images": ("list[string]", "the variant's images, in the order sent: images/<sha256>.png, relative to this "
                               "folder"),
    "n_answers": ("int", "how many answers the variant has in this run"),
    "answers": ("list[object]", "every answer to this variant: {response_id, model, prompt, sample, prompt_text, "
                                "settings, raw_text, parsed, method, invalid, refusal, sure, reading, confidence, "
                                "token_confidence, settled (who settled the reading, and how), correct, rating, "
                                "note, ratings, "
                                "latency_s, input_tokens, output_tokens, cost, error, finish_reason, details, judge}"),
}


class ExportError(ProbeUIError, ValueError):
    """The export cannot be written: unknown run or format, an output folder that is not empty, ..."""


@dataclass
class ExportSummary:
    path: Path
    rows: int
    images: int
    files: list[str] = field(default_factory=list)  # every file written, relative to ``path``
    warnings: list[str] = field(default_factory=list)
    fmt: str = ""
    by: str = "response"
    run: str = ""
    bytes: int = 0

    def lines(self) -> list[str]:
        out = [f"exported run '{self.run}' as {self.fmt} to {self.path}: {self.rows} rows (one per {self.by}), "
               f"{self.images} images, {len(self.files)} files, {self.bytes:,} bytes"]
        fmt = FORMATS.find(self.fmt)
        if fmt is not None:
            out.append(fmt.load_hint(self.path))
        out.append(f"turn it back into a preset with: probe-ui import dataset {self.path} --with-perturbations")
        out += [f"warning: {w}" for w in self.warnings]
        return out


# ---- the entry point ----------------------------------------------------------------------------------------------

def export_run(store: Store, run: str | None, fmt: str, out: Path, *, by: str = "response", parser: str = "robust",
               judge: str | None = None) -> ExportSummary:
    """Write a run of ``store`` (None: the most recent) as a dataset in ``out`` (new or empty); the answers' reading
    (parsed, method, invalid, refusal, correct, rating) is the scored-answer table's under ``parser`` and the
    fallback ``judge``'s decisions (:func:`probe_ui.scoring.scored_answers`), the same that ``probe-ui score
    --parser ... --judge ...`` counts."""
    from probe_ui.scoring import PARSERS

    if parser not in PARSERS:
        raise ExportError(f"unknown parser '{parser}'; expected one of {', '.join(PARSERS)}")
    from probe_ui.store import StoreError

    if fmt not in FORMATS:
        raise ExportError(f"unknown export format '{fmt}'; known: {', '.join(format_names())}")
    layout = FORMATS.get(fmt)
    layout.check(ExportError)
    if by not in BY:
        raise ExportError(f"unknown row unit '{by}'; use one of: {', '.join(BY)}")
    out = Path(out)
    check_out_folder(out)
    try:
        r = store.get_run(run)
    except StoreError:
        if run:
            known = ", ".join(x.name for x in store.list_runs()) or "none yet"
            raise ExportError(f"no run named '{run}' in the store (runs: {known})") from None
        raise ExportError("no runs in the store yet: run 'probe-ui batch' first") from None

    warnings: list[str] = []
    key_vars = [m.get("api_key_env") for m in r.config.model_records]
    scrub = redact.Scrubber(redact.local_roots(store, out),
                            redact.known_secrets(v for v in key_vars if isinstance(v, str)))
    variants = _run_variants(store, r.id)
    answers = _run_answers(store, r.name, parser, judge)

    rows: list[dict[str, Any]] = []
    raters = sorted({k for a in answers for k in (a.get("rater_ratings") or {})})
    settlers = sorted({k for a in answers for k in (_settled(a) or {})})
    if by == "response":
        for a in answers:
            v = variants.get(a["variant_id"])
            if v is None:  # pragma: no cover - a response always has its variant
                continue
            rows.append(_response_row(r, v, a, scrub)
                        | {rater_column(k): x for k, x in (a.get("rater_ratings") or {}).items()}
                        | {settler_column(k): x for k, x in (_settled(a) or {}).items()})
    else:
        per_variant: dict[str, list[dict[str, Any]]] = {}
        for a in answers:
            per_variant.setdefault(a["variant_id"], []).append(_answer_entry(a, scrub))
        for vid, v in variants.items():
            entries = per_variant.get(vid, [])
            row = _variant_fields(r, v, scrub)
            row["images"] = [image_name(h) for h in v["image_ids"]]
            row["n_answers"] = len(entries)
            row["answers"] = entries
            rows.append(row)
    if not rows:
        warnings.append(f"run '{r.name}' has no {'answers' if by == 'response' else 'variants'}: the export is empty")

    used = list(dict.fromkeys(h for v in _used_variants(rows, variants) for h in v["image_ids"]))
    if layout.needs_images and not used:
        raise ExportError(f"run '{r.name}' has no images, and {fmt} needs at least one: "
                          f"export it as {_others(fmt)}")

    created = not out.exists()
    out.mkdir(parents=True, exist_ok=True)
    files: list[str] = []
    try:
        written, missing = _write_images(store, used, out / IMAGES_DIR)
        if layout.needs_images and not written:
            raise ExportError(f"none of the {len(used)} images of run '{r.name}' is in the store, and {fmt} "
                              f"needs at least one: export it as {_others(fmt)}")
        files += [f"{IMAGES_DIR}/{h}.png" for h in written]
        if missing:
            warnings.append(f"{len(missing)} image(s) are not in the store and were left out: "
                            + ", ".join(m[:12] for m in missing[:5]) + ("..." if len(missing) > 5 else ""))
            gone = {image_name(h) for h in missing}
            for row in rows:
                row["images"] = [x for x in row["images"] if x not in gone]
        columns = VARIANT_ROW
        if by == "response":
            at, after = RESPONSE_ROW.index("reading") + 1, RESPONSE_ROW.index("note") + 1
            columns = (RESPONSE_ROW[:at] + [settler_column(k) for k in settlers] + RESPONSE_ROW[at:after]
                       + [rater_column(k) for k in raters] + RESPONSE_ROW[after:])
        data_name = layout.data_file
        layout.write(out / data_name, rows, columns)
        files.append(data_name)
        licences = image_licences(used, set(written), variants)
        methods = Counter(str(a["method"]) for a in answers if a.get("method"))
        card = _card(r, fmt, by, rows, columns, licences, len(written), scrub, warnings, parser, methods=methods,
                     judge=judge)
        write_text(out / "README.md", card)
        files.append("README.md")
        warnings += redact.leak_check(out, [data_name, "README.md"], scrub)
    except BaseException:
        clean_out_folder(out, created)
        raise
    total = sum((out / f).stat().st_size for f in files)
    return ExportSummary(path=out, rows=len(rows), images=len(written), files=sorted(files), warnings=warnings,
                         fmt=fmt, by=by, run=r.name, bytes=total)


def check_out_folder(out: Path) -> None:
    check_output_folder(out)  # a dangling symbolic link, a file on the way
    if out.exists():
        if not out.is_dir():
            raise ExportError(f"{out} is a file: give a new or empty folder for the export")
        if any(out.iterdir()):
            raise ExportError(f"{out} is not empty: give a new or empty folder for the export")


def clean_out_folder(out: Path, created: bool) -> None:
    """Remove what a failed export wrote (the folder too, when it made it)."""
    if not out.is_dir():
        return
    if created:
        shutil.rmtree(out, ignore_errors=True)
        return
    for p in out.iterdir():
        shutil.rmtree(p, ignore_errors=True) if p.is_dir() else p.unlink(missing_ok=True)


# ---- reading the store --------------------------------------------------------------------------------------------

def _decode(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def _run_variants(store: Store, run_id: int) -> dict[str, dict[str, Any]]:
    from probe_ui.store import run_variants, variants

    q = (sa.select(variants).join(run_variants, run_variants.c.variant_id == variants.c.id)
         .where(run_variants.c.run_id == run_id).order_by(variants.c.source, variants.c.item_id,
                                                          variants.c.condition, variants.c.id))
    out: dict[str, dict[str, Any]] = {}
    with store.engine.connect() as c:
        for row in c.execute(q).mappings():
            d = dict(row)
            for k in ("options", "image_ids", "category", "tags", "attributes", "provenance", "prompt_args"):
                d[k] = _decode(d[k])
            out[d["id"]] = d
    # originals first within each item, so that a variant row lists the unperturbed question first
    return dict(sorted(out.items(), key=lambda kv: (kv[1]["source"], kv[1]["item_id"],
                                                    kv[1]["condition"] != "original", kv[1]["condition"], kv[0])))


_INT_COLUMNS = ("response_id", "sample", "input_tokens", "output_tokens")


def _run_answers(store: Store, run_name: str, parser: str, judge: str | None = None) -> list[dict[str, Any]]:
    """The run's answers as plain dicts: the scored-answer table (with what was sent and received), pandas'
    missing values back to None and counts back to ints."""
    from probe_ui.metrics.frame import value_or_none
    from probe_ui.scoring import UNRATED, scored_answers

    out = []
    for rec in scored_answers(store, run_name, parser, detail=True, judge=judge).to_dict("records"):
        d = {str(k): value_or_none(v) for k, v in rec.items()}  # keys: the table's column names
        for k in _INT_COLUMNS:
            if d.get(k) is not None:
                d[k] = int(d[k])
        if d.get("rating") == UNRATED:
            d["rating"], d["note"] = None, None
        out.append(d)
    return out


def _png(store: Store, image_id: str) -> bytes | None:
    getter = getattr(store, "image_png", None)
    try:
        if getter is not None:
            return getter(image_id)
        path = store.image_path(image_id)
        return path.read_bytes() if path.is_file() else None
    except Exception:
        return None


def _write_images(store: Store, ids: list[str], folder: Path) -> tuple[list[str], list[str]]:
    """Copy each image's stored canonical PNG once; refuse bytes that do not match their hash."""
    written, missing = [], []
    for h in ids:
        data = _png(store, h)
        if data is None or hashlib.sha256(data).hexdigest() != h:
            missing.append(h)
            continue
        folder.mkdir(parents=True, exist_ok=True)
        write_bytes(folder / f"{h}.png", data)
        written.append(h)
    return written, missing


# ---- rows ---------------------------------------------------------------------------------------------------------

def image_name(h: str) -> str:
    return f"{IMAGES_DIR}/{h}.png"


def _answer_label(v: dict[str, Any]) -> str | None:
    from probe_ui.items import LETTERS

    if v.get("answer_label") is not None:
        return v["answer_label"]
    if v.get("answer") is None:
        return None
    if v["kind"] == "choice":
        opts = list(v["options"] or [])
        return LETTERS[opts.index(v["answer"])] if v["answer"] in opts else None
    return v["answer"]


def _variant_fields(r: Any, v: dict[str, Any], scrub: redact.Scrubber) -> dict[str, Any]:
    return {
        "run": r.name, "seed": int(r.seed), "variant_id": v["id"], "item_id": v["item_id"],
        "condition": v["condition"], "group": v["group_id"], "item_group": v["item_group"],
        "source": source_name(v["source"]), "kind": v["kind"], "question": scrub.text(v["question"]),
        "options": [scrub.text(o) for o in v["options"] or []], "answer": scrub.text(v["answer"]),
        "answer_label": _answer_label(v), "category": list(v["category"] or []), "tags": list(v["tags"] or []),
        "attributes": scrub.deep(v["attributes"] or {}, paths=True),
        "provenance": scrub.deep(list(v["provenance"] or []), paths=True),
        "prompt_args": scrub.deep(v["prompt_args"], paths=True) if v["prompt_args"] else None,
    }


def rater_column(rater: str) -> str:
    """The export column of one rater's ratings: ``rating:<rater>`` (``rating:(unnamed)`` for "")."""
    return f"{RATER_PREFIX}{rater or UNNAMED_RATER}"


def settler_column(who: str) -> str:
    """The export column of one clinician's settled readings: ``settled:<who>`` (``settled:(unnamed)`` for "")."""
    return f"{SETTLER_PREFIX}{who or UNNAMED_RATER}"


def _settled(a: dict[str, Any]) -> dict[str, str] | None:
    """Who settled this answer's reading and how (a label, or "no answer"), None where nobody did."""
    from probe_ui.scoring.review import NO_ANSWER_WORDS

    v = a.get("settled_by")
    return {str(k): str(x) or NO_ANSWER_WORDS for k, x in v.items()} if isinstance(v, dict) and v else None


def _answer_entry(a: dict[str, Any], scrub: redact.Scrubber) -> dict[str, Any]:
    rating, note = a.get("rating"), a.get("note")
    judge = None
    if a.get("judge_model") is not None:
        judge = {"model": a["judge_model"], "prompt": a["judge_prompt"], "raw_text": scrub.text(a["judge_text"]),
                 "parsed": a["judge_parsed"], "method": a["judge_method"], "correct": a["judge_correct"],
                 "error": scrub.text(a["judge_error"], paths=True)}
    return {
        "response_id": a["response_id"], "model": a["model"], "prompt": a["prompt"], "sample": a["sample"],
        "prompt_text": scrub.text(messages_text(a["messages"])),
        "settings": redact.scrubbed_settings(a["settings"], scrub),
        "raw_text": scrub.text(a["raw_text"]), "parsed": a["parsed"], "method": a["method"], "invalid": a["invalid"],
        "refusal": a["refusal"], "sure": a.get("sure"), "reading": a.get("reading"),
        "confidence": _num(a.get("confidence")), "token_confidence": _num(a.get("token_confidence")),
        "settled": _settled(a), "correct": a["correct"], "rating": rating,
        "note": scrub.text(note),
        "ratings": dict(a["rater_ratings"]) if a.get("rater_ratings") else None,
        "latency_s": _num(a["latency_s"]), "input_tokens": a["input_tokens"], "output_tokens": a["output_tokens"],
        "cost": _num(a["cost"]), "error": scrub.text(a["error"], paths=True), "finish_reason": a["finish_reason"],
        "details": scrub.deep(a["details"], paths=True) if a["details"] else None, "judge": judge,
    }


def _response_row(r: Any, v: dict[str, Any], a: dict[str, Any], scrub: redact.Scrubber) -> dict[str, Any]:
    merged = {**_variant_fields(r, v, scrub), **_answer_entry(a, scrub)}
    merged["images"] = [image_name(h) for h in v["image_ids"]]
    return {k: merged.get(k) for k in RESPONSE_ROW}


def _used_variants(rows: list[dict[str, Any]], variants: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    return [variants[vid] for vid in dict.fromkeys(row["variant_id"] for row in rows) if vid in variants]


def _num(x: Any) -> Any:
    return None if isinstance(x, float) and not math.isfinite(x) else x


# ---- writers ------------------------------------------------------------------------------------------------------



# ---- the dataset card ---------------------------------------------------------------------------------------------

def _front_matter(r: Any, fmt: str, n: int) -> str:
    import yaml

    paths = FORMATS.get(fmt).data_files(IMAGES_DIR)
    data_files = [{"split": "train", "path": paths if len(paths) > 1 else paths[0]}]
    meta = {
        "license": "other",
        "license_name": "mixed",
        "pretty_name": f"probe-ui run {r.name}",
        "tags": ["probe-ui", "medical", "vision-language-models", "evaluation"],
        "task_categories": ["visual-question-answering"],
        "size_categories": [size_category(n)],
        "configs": [{"config_name": "default", "data_files": data_files}],
    }
    return "---\n" + yaml.safe_dump(meta, sort_keys=False, allow_unicode=True, width=120) + "---\n"


def _others(fmt: str) -> str:
    """The other formats, in words ("jsonl, parquet or csv")."""
    others = [n for n in format_names() if n != fmt and not FORMATS.get(n).needs_images]
    return ", ".join(others[:-1]) + (" or " if len(others) > 1 else "") + others[-1] if others else "another format"


def _methods_section(methods: Counter[str], judge: str | None) -> list[str]:
    """What each ``method`` in this export means, in words, with how many answers it read: a researcher can audit
    which rule produced a number."""
    if not methods:
        return []
    from probe_ui.reading.methods import describe

    out = ["## How answers were read", "",
           "Each answer's `method` names the rule that read it (or left it invalid):", "",
           "| method | answers | meaning |", "|---|---:|---|"]
    out += [f"| `{m}` | {n} | {md_cell(describe(m))} |" for m, n in sorted(methods.items(), key=lambda kv: -kv[1])]
    if judge:
        out += ["", f"A judge model (`{md_cell(judge)}`) read the replies the rules could not read: its answers carry "
                "the method `judge`, and its own reply is in the `judge` column."]
    return out + [""]


def _card(r: Any, fmt: str, by: str, rows: list[dict[str, Any]], columns: list[str], licences: list[Licence],
          n_images: int, scrub: redact.Scrubber, warnings: list[str], parser: str, *,
          methods: Counter[str] | None = None, judge: str | None = None) -> str:
    s = r.settings or {}
    lines = [_front_matter(r, fmt, len(rows)), f"# probe-ui run `{r.name}`", ""]
    models = [redact.public_model(m) for m in s.get("models") or [] if isinstance(m, dict)]
    unit = "answer a model gave" if by == "response" else "variant (with every model's answers in `answers`)"
    lines += [f"Answers of vision-language models to medical-image questions, exported by probe-ui {__version__} "
              f"from the run `{r.name}`: {len(rows)} rows, one per {unit}, and {n_images} images. Answers are read "
              f"with the {parser} parser (`parsed`, `correct`, ...: what `probe-ui score --parser {parser}` "
              "counts).", ""]

    lines += ["## Layout", ""]
    layout = FORMATS.get(fmt)
    lines += layout.layout(by)
    lines += [f"- `{IMAGES_DIR}/<sha256>.png`: every image once, named by the sha256 of its bytes (probe-ui's "
              "canonical PNG: 8-bit L or RGB pixels, no metadata). Rows refer to images by these names.",
              "- Judge calls (`--judge`) are not rows: the latest judge call on an answer is in its `judge` column.",
              "- No absolute paths, API keys or DICOM headers: presets appear by file name, local folders are "
              "rewritten relative to them, and key variable names are dropped.", ""]

    lines += ["## Columns", "", "| column | type | meaning |", "|---|---|---|"]
    for c, ready in layout.card_columns(columns):
        if ready is not None:
            lines.append(ready)
            continue
        typ, meaning = COLUMN_DOCS.get(c, ("", ""))
        if c.startswith(SETTLER_PREFIX):
            who = c[len(SETTLER_PREFIX):]
            typ, meaning = "string", (f"what {who} read the reply as answering (a label, or 'no answer'); null if "
                                      "they did not settle it")
        if c.startswith(RATER_PREFIX):
            who = c[len(RATER_PREFIX):]
            typ, meaning = "string", (f"the latest rating of this answer by {who}: correct, incorrect or unsure; "
                                      "null if that rater did not rate it" if who != UNNAMED_RATER else
                                      "the latest rating nobody put a name to (made before raters were recorded)")
        lines.append(f"| `{c}` | {layout.type_in(c, typ)} | {md_cell(meaning)} |")
    lines.append("")

    lines += _methods_section(methods or Counter(), judge)
    lines += licence_section(licences)

    lines += ["## How it was made", "",
              f"- probe-ui: {r.versions.get('probe-ui', 'unknown')} made the run; {__version__} exported it",
              f"- run: `{r.name}`, created {r.created_at}, last updated {r.updated_at}",
              f"- seed: {r.seed}"]
    if s.get("kind"):
        lines.append(f"- kind: {s['kind']}")
    if s.get("benchmark"):
        lines.append(f"- imported benchmark: {s['benchmark']}")
    presets = s.get("presets") or []
    if presets:
        lines.append("- presets: " + ", ".join(f"`{source_name(p.get('path') or p.get('name'))}` (sha256 "
                                                f"{str(p.get('sha256', ''))[:12]})" for p in presets))
    imports = s.get("imports") or []
    if imports:
        lines.append("- imported files: " + ", ".join(f"`{source_name(i.get('path'))}` ({i.get('format', '')}, "
                                                       f"model {i.get('model', '')})" for i in imports))
    lines.append("- suites: " + (", ".join(f"`{x}`" for x in s.get("suites") or []) or "none"))
    for key, label in (("prompt", "prompt template"), ("samples", "samples"), ("temperature", "temperature"),
                       ("answer_format", "answer format")):
        if s.get(key) is not None:
            lines.append(f"- {label}: {s[key]}")
    if s.get("judge"):
        j = redact.public_model(s["judge"])
        lines.append(f"- judge: `{j.get('name')}` ({s['judge'].get('mode', '')})")
    lines.append("- models (public configuration only; no keys):")
    for m in models:
        lines.append(f"  - `{m.get('name')}`: provider {m.get('provider')}, model {m.get('model')}"
                     + (f", base_url {m.get('base_url')}" if m.get("base_url") else "")
                     + (f", generation {json_text(m.get('generation'))}" if m.get("generation") else ""))
    versions = {k: v for k, v in (r.versions or {}).items() if k not in ("platform",)}
    if versions:
        lines.append("- package versions of the run: " + ", ".join(f"{k} {v}" for k, v in versions.items()))
    cmd = card_command(r.config, r)
    lines += ["", "To make the run again (the same seed gives the same variants and the same baseline answers):", ""]
    if cmd:
        lines += ["```bash", cmd, "```", ""]
    else:
        lines += ["(this run records no presets and models to replay, e.g. a live probe or an import)", ""]
    lines += ["Or from this export alone, with the perturbations recorded in it:", "", "```bash",
              "probe-ui import dataset . --with-perturbations --to-preset preset.yaml",
              f"probe-ui batch preset.yaml --seed {r.seed} "
              + " ".join(f"--model {shlex.quote(m['name'])}" for m in models if m.get("name")),
              "```", ""]
    if warnings:
        lines += ["## Notes", ""] + [f"- {scrub.text(w, paths=True)}" for w in warnings] + [""]
    return scrub.text("\n".join(lines))
