"""ProbMed (eric-ai-lab/ProbMed): response files and the question file.

Response file (``eval/response_file/<model>.json``, the input of the original ``eval/calculate_score.py``): a JSON
list (JSON lines accepted too) of question records ``{id, qa_type, image_type, question, gt_ans, response}``,
optionally ``image``. The question file (HF ``rippleripple/ProbMed`` ``test.json``) has ``answer`` instead of
``gt_ans`` and no ``response``; it becomes a preset with ``--to-preset``.

Each record becomes one yes/no variant ``<id>:<qa_type>``. The original scoring depends on the file order
(records grouped by ``image_type`` and walked in order, a new image whenever ``id`` changes), so the position is
kept: attributes ``image_id`` (``id``), ``image_type``, ``qa_type``, ``order`` (0-based position in the file) and
``image_ref`` (``image``, when present). ``item_group`` ties a gt question to its hallucinated partner:
``<id>:modality``, ``<id>:body_part``, ``<id>:entity_<k>``, ``<id>:grounding_<k>`` (a normal image's lone
``entity_hallu`` is ``<id>:entity``); abnormality questions have none. A ground truth other than yes/no is an
error (the original would silently score it as "no").
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from probe_ui.importers.common import (
    ImageRef,
    ImportFlag,
    ImportOptions,
    Parsed,
    Record,
    fail,
    model_from_name,
    need,
    reply_text,
    safe_name,
)

NAME = "probmed"
PROMPT = "yesno"
READS = "eval/response_file/<model>.json"
FLAGS: tuple[ImportFlag, ...] = ()
JSONL = True


def check(opts: ImportOptions, to_preset: bool) -> None:
    return None


def default_model(path: Path) -> str:
    return model_from_name(path, ("_responses", "_response", "_answers", "_results", "_probmed"))


def default_run(model: str, opts: ImportOptions, parsed: Parsed) -> str:
    return f"{NAME}-{safe_name(model)}"


_PAIRED = re.compile(r"^(modality|body_part|entity|grounding)_(?:gt|hallu)(?:_(\w+))?$")


def pair_group(image_id: Any, qa_type: str) -> str | None:
    m = _PAIRED.match(qa_type)
    if not m:
        return None
    return f"{image_id}:{m.group(1)}" + (f"_{m.group(2)}" if m.group(2) is not None else "")


def _read(path: Path, data: Any, *, replies: bool) -> Parsed:
    if isinstance(data, dict):
        for k in ("data", "records", "responses"):
            if isinstance(data.get(k), list):
                data = data[k]
                break
    if not isinstance(data, list):
        raise fail(path, "top level", "expected a JSON list of question records (or JSON lines)")
    recs = []
    ids_seen: dict[tuple[str, str], int] = {}
    repeated = 0
    for i, r in enumerate(data):
        where = f"record {i + 1}"
        if isinstance(r, dict) and "id" in r and "qa_type" in r:
            where += f" (id {r['id']}, {r['qa_type']})"
        image_id = need(path, where, r, "id", (int, str))
        qa_type = need(path, where, r, "qa_type")
        image_type = need(path, where, r, "image_type")
        question = need(path, where, r, "question")
        gt_key = "gt_ans" if "gt_ans" in r else "answer"
        gt = need(path, where, r, gt_key)
        if gt.strip().lower() not in ("yes", "no"):
            raise fail(path, where, f"field '{gt_key}' should be yes or no, got {gt!r}")
        attrs: dict[str, Any] = {"image_id": image_id, "image_type": image_type, "qa_type": qa_type, "order": i}
        images: tuple[ImageRef, ...] = ()
        if isinstance(r.get("image"), str) and r["image"]:
            images = (ImageRef(r["image"]),)
        rec = Record(key=where, item_id=f"{image_id}:{qa_type}", question=question, kind="yesno",
                     answer=gt.strip().lower(), group=pair_group(image_id, qa_type), attributes=attrs, images=images)
        key = (str(image_id), qa_type)
        if key in ids_seen:
            repeated += 1
            rec.item_id = f"{image_id}:{qa_type}#{i}"
        ids_seen[key] = i
        if replies:
            if "response" not in r:
                raise fail(path, where, "field 'response' (the model's reply) is missing; a question file "
                                        "without replies can become a preset with --to-preset")
            rec.raw_text = reply_text(path, where, r, "response")
        recs.append(rec)
    warnings = []
    if repeated:
        warnings.append(f"{repeated} records repeat an (id, qa_type) seen before; each is kept as its own question "
                        "(the original scoring walks them in file order)")
    return Parsed(recs, warnings)


def read_results(path: Path, data: Any, opts: ImportOptions) -> Parsed:
    return _read(path, data, replies=True)


def read_questions(path: Path, data: Any, opts: ImportOptions) -> Parsed:
    parsed = _read(path, data, replies=False)
    parsed.preset = {
        "name": f"probmed_{safe_name(path.stem)}",
        "description": f"ProbMed questions from {path.name}: each ground-truth question paired with an adversarial "
                       "one; attributes image_id, image_type, qa_type and order follow ProbMed's files.",
    }
    return parsed
