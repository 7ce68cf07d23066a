"""MediConfusion (AIF4S/MediConfusion): results files and ``dataset.json``.

Results file, as ``BaseAnsweringModel.evaluate`` writes it (``Results/<model>/<model>_<mode>.json``)::

    {"10001": {"answer": {"im1": {"full_answer": "<raw text>", "A": 10, "B": 0},
                          "im2": {"full_answer": "<raw text>", "A": 0, "B": 10}},
               "score": {...}}, ...}

Only ``full_answer`` is read. ``A``/``B`` (the original parser's 10/0 scores, or a judge's 1-10 scores in free-form
``gpt4`` mode), ``gpt_reason`` and ``score`` are kept in ``details.file_parse`` and never used. The questions,
options and answers are not in the results file: ``--dataset dataset.json`` is required.

Each pair becomes two variants, ``<key>-im1`` and ``<key>-im2``: kind ``choice``, options ``[option_A,
option_B]``, answer the option text of ``im_<n>_correct``, ``category`` the image's own categories,
``item_group`` the pair key. Attributes: ``pair`` (the key), ``pair_member`` (1/2), ``categories`` (the image's
own), ``category_1``/``category_2`` (both images', as the original adds a pair to every category of both),
``gt`` (the letter), ``image_ref`` (``im_<n>``), ``image_local`` (``im_<n>_local``). Under ``--images DIR`` an image
is looked up as ``DIR/<im_n>``, ``DIR/<basename>``, ``DIR/<im_n_local>.jpg`` (the original's local layout) and
``DIR/roco-dataset/data/<im_n>``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from probe_ui.importers.common import (
    ImageRef,
    ImportFlag,
    ImportOptions,
    ImportUsageError,
    Parsed,
    Record,
    fail,
    model_from_name,
    need,
    read_json,
    reply_text,
    safe_name,
)

NAME = "mediconfusion"
PROMPT = "mediconfusion-mc"
READS = "Results/<model>/<model>_mc.json, with --dataset dataset.json"
FLAGS = (ImportFlag("dataset", "dataset.json (required for results)", metavar="FILE"),)
JSONL = False
MODES = ("mc", "gpt4", "greedy", "prefix")  # the original's answering modes, the results file's suffix


def check(opts: ImportOptions, to_preset: bool) -> None:
    if to_preset:
        if opts.dataset:
            raise ImportUsageError("with --to-preset give dataset.json itself as the file; --dataset is for "
                                   "results files")
    elif not opts.dataset:
        raise ImportUsageError("mediconfusion results need --dataset dataset.json (the questions, options and "
                               "answers are there, not in the results file)")


def default_model(path: Path) -> str:
    return model_from_name(path, tuple(f"_{m}" for m in MODES))


def default_run(model: str, opts: ImportOptions, parsed: Parsed) -> str:
    return f"{NAME}-{safe_name(model)}"


def _pairs(path: Path, data: Any) -> dict[str, dict[str, Any]]:
    if not isinstance(data, dict) or not data:
        raise fail(path, "top level", "expected an object of pairs keyed '10001', '10002', ... (dataset.json)")
    out = {}
    for key, e in data.items():
        where = f"pair '{key}'"
        need(path, where, e, "question")
        for f in ("option_A", "option_B", "im_1", "im_2"):
            need(path, where, e, f)
        for n in (1, 2):
            c = need(path, where, e, f"im_{n}_correct")
            if c not in ("A", "B"):
                raise fail(path, where, f"field 'im_{n}_correct' should be \"A\" or \"B\", got {c!r}")
            cats = need(path, where, e, f"category_{n}", list)
            if not all(isinstance(x, str) for x in cats):
                raise fail(path, where, f"field 'category_{n}' should be a list of category names")
        out[str(key)] = e
    return out


def _records(key: str, e: dict[str, Any]) -> list[Record]:
    options = (e["option_A"], e["option_B"])
    recs = []
    for n in (1, 2):
        gt = e[f"im_{n}_correct"]
        local = e.get(f"im_{n}_local")
        alts = tuple(x for x in (f"{local}.jpg" if local is not None else "",
                                 f"roco-dataset/data/{e[f'im_{n}']}") if x)
        attrs: dict[str, Any] = {
            "pair": key, "pair_member": n, "categories": list(e[f"category_{n}"]),
            "category_1": list(e["category_1"]), "category_2": list(e["category_2"]), "gt": gt,
            "image_ref": e[f"im_{n}"],
        }
        if local is not None:
            attrs["image_local"] = local
        recs.append(Record(
            key=f"pair '{key}' im{n}", item_id=f"{key}-im{n}", question=e["question"], kind="choice",
            options=options, answer=options[0 if gt == "A" else 1], category=tuple(e[f"category_{n}"]),
            group=key, attributes=attrs, images=(ImageRef(e[f"im_{n}"], alts),),
        ))
    return recs


def read_questions(path: Path, data: Any, opts: ImportOptions) -> Parsed:
    pairs = _pairs(path, data)
    recs = [r for key, e in pairs.items() for r in _records(key, e)]
    return Parsed(recs, preset={
        "name": f"mediconfusion_{safe_name(path.stem)}",
        "description": f"MediConfusion confusing pairs from {path.name}: the same question and options on two "
                       "images whose correct option differs; score with set accuracy, individual accuracy and "
                       "confusion (probe-ui score).",
    })


def read_results(path: Path, data: Any, opts: ImportOptions) -> Parsed:
    assert opts.dataset is not None
    dpath = Path(opts.dataset)
    dataset, dsha = read_json(dpath, what="MediConfusion dataset file")
    pairs = _pairs(dpath, dataset)
    if not isinstance(data, dict) or not data:
        raise fail(path, "top level", "expected an object of results keyed by pair ('10001': {\"answer\": ...})")
    recs: list[Record] = []
    free_form = 0
    for key, res in data.items():
        key = str(key)
        where = f"pair '{key}'"
        if key not in pairs:
            raise fail(path, where, f"not in the dataset {dpath}")
        ans = need(path, where, res, "answer", dict)
        pair_recs = _records(key, pairs[key])
        for n, rec in zip((1, 2), pair_recs):
            im = ans.get(f"im{n}")
            if not isinstance(im, dict):
                raise fail(path, f"{where}: answer.im{n}", "missing, or not an object with 'full_answer'")
            rec.raw_text = reply_text(path, f"{where}: answer.im{n}", im, "full_answer")
            rec.file_parse = {k: v for k, v in im.items() if k != "full_answer"} or None
            free_form += "gpt_reason" in im
            recs.append(rec)
    warnings = []
    missing = [k for k in pairs if k not in data]
    if missing:
        warnings.append(f"{len(missing)} of the dataset's {len(pairs)} pairs have no answer in {path.name} "
                        f"(e.g. '{missing[0]}'); the original code divides by all {len(pairs)} pairs, we divide by "
                        "the pairs answered")
    if free_form:
        warnings.append(f"{free_form} replies carry 'gpt_reason': free-form (gpt4-mode) output that the original "
                        "scored with a judge; parsing it by rule (robust or legacy) will not reproduce those scores")
    mode = next((m for m in MODES if path.stem.lower().endswith(f"_{m}")), None)
    return Parsed(recs, warnings, settings={"dataset": {"path": str(dpath.resolve()), "sha256": dsha},
                                            "mode": mode})
