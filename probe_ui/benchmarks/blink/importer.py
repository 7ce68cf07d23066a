"""BLINK / MedBLINK (zeyofu/BLINK_Benchmark): saved predictions and item files.

Saved predictions (one file per sub-task in ``saved_outputs/<model>/<Task>.json``, or any file in that shape)::

    {"val": [{"idx": "val_Relative_Depth_1", "answer": "(A)", "full_prediction": "<raw text>",
              "prediction": "(B)"}], "test": [...]}

Only ``full_prediction`` is read; the stored ``prediction`` (BLINK's extraction, possibly by a GPT-3.5 judge) is
kept in ``details.file_parse`` and never used. ``--split`` picks ``val`` (default: what ``evaluate.py`` scores),
``test`` (answers are "hidden": imported unscored) or ``all``.

BLINK's own predictions do not carry the question or the choices. ``--dataset ITEMS.json`` (BLINK items:
``idx``, ``question``, ``choices``, optionally ``sub_task``, ``prompt``, ``image_1``..``image_4``; a list, a
``{split: [...]}`` object, or an object keyed by idx) supplies them. Without it, the number of options must come
from the file itself, because both parsers accept only the item's own letters (a reply "(C)" is out of range for
a two-option item and ambiguous with "(A)" for a three-option one), so a guessed count changes scores:

- a record's ``choices`` list (its length and option texts), else
- its ``prompt`` or ``question`` text when it lists the choices as BLINK's prompts do (``(A) ...`` lines after
  "Select from the following choices.", consecutive letters from A; the last such list when there are several).

A sub-task in which any record has neither cannot be scored: its replies are imported unscored (no ground truth;
the file's answer letter is kept in ``attributes.file_answer``) and a warning names the file, the sub-task and its
first such record. A count read from the file that leaves out the record's own answer letter is an error.

Variants: ``<idx>``; attributes ``idx``, ``split``, ``task`` (the ``sub_task``, else derived from ``idx`` as
``evaluate.py`` does: ``val_Relative_Depth_1`` → ``Relative_Depth``), ``image_ref`` (the item's image names when the
dataset gives them as text; BLINK's own runner saves them as ``<idx>_<k>.jpg``, tried under ``--images``).
"""

from __future__ import annotations

import re
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
from probe_ui.items import LETTERS

NAME = "blink"
PROMPT = "blink-mc"
READS = 'saved predictions {"val": [{idx, answer, full_prediction}]}'
SPLITS = ("val", "test", "all")
FLAGS = (ImportFlag("dataset", "the items (question, choices)", metavar="FILE"),
         ImportFlag("split", "which split (default val)", choices=SPLITS))
JSONL = False
BLINK_TASKS = ("Visual_Similarity", "Counting", "Relative_Depth", "Jigsaw", "Art_Style", "Functional_Correspondence",
               "Semantic_Correspondence", "Spatial_Relation", "Object_Localization", "Visual_Correspondence",
               "Multi-view_Reasoning", "Relative_Reflectance", "Forensic_Detection", "IQ_Test")


def check(opts: ImportOptions, to_preset: bool) -> None:
    if opts.split is not None and opts.split not in SPLITS:
        raise ImportUsageError(f"--split must be one of {', '.join(SPLITS)}, not '{opts.split}'")
    if to_preset and opts.dataset:
        raise ImportUsageError("with --to-preset give the items file itself as the file; --dataset is for "
                               "prediction files")


def default_model(path: Path) -> str:
    """``GPT4o/Counting.json`` → ``GPT4o`` (BLINK's per-task layout); ``gpt4o_predictions.json`` → ``gpt4o``."""
    stem = path.stem.replace(" ", "_")
    if stem in BLINK_TASKS or stem.replace("_concat", "") in BLINK_TASKS:
        return path.resolve().parent.name
    return model_from_name(path, ("_predictions", "_prediction", "_preds", "_outputs", "_output"))


def default_run(model: str, opts: ImportOptions, parsed: Parsed) -> str:
    return f"{NAME}-{safe_name(model)}"


def task_of(idx: str, split: str) -> str:
    """The sub-task as BLINK's ``evaluate.py`` derives it from an idx ("" when no split is known)."""
    if not split:  # str.split("") raises; an idx without a val_/test_ prefix names no sub-task
        return ""
    try:
        return "_".join(idx.split(split)[1][1:].split("_")[:-1])
    except IndexError:
        return ""


def _split_records(path: Path, data: Any, split: str, *, what: str) -> list[tuple[str, str, Any]]:
    """(split, where, record) for the chosen split(s): ``{"val": [...], "test": [...]}`` or a plain list."""
    if isinstance(data, list):
        return [("", f"record {i + 1}", r) for i, r in enumerate(data)]
    if not isinstance(data, dict):
        raise fail(path, "top level", f"expected {what}")
    splits = [s for s in ("val", "test") if s in data]
    if splits:
        out = []
        for s in splits:
            if not isinstance(data[s], list):
                raise fail(path, f"'{s}'", "expected a list of records")
            if split in (s, "all"):
                out += [(s, f"{s} record {i + 1}", r) for i, r in enumerate(data[s])]
        return out
    # keyed by idx
    return [("", f"item '{k}'", dict(v, idx=v.get("idx", k)) if isinstance(v, dict) else v) for k, v in data.items()]


def _where(where: str, r: Any) -> str:
    return f"{where} ({r['idx']})" if isinstance(r, dict) and isinstance(r.get("idx"), str) and r["idx"] else where


def _split_of(idx: str, given: str) -> str:
    if given:
        return given
    m = re.match(r"(val|test|dev|train)_", idx)
    return m.group(1) if m else ""


_CHOICE_LINE = re.compile(r"(?m)^[ \t]*\(([A-Z])\)[ \t]*(\S.*?)?[ \t]*$")


def choices_in_text(text: str) -> tuple[str, ...] | None:
    """The option texts listed in a BLINK-style prompt ("(A) A is closer\n(B) B is closer"), or None.

    Lines "(A) ...", "(B) ..." with consecutive letters from A form a list; with several lists (worked examples
    before the question), the last one is the question's own. Fewer than two options is no list.
    """
    runs: list[list[str]] = []
    for m in _CHOICE_LINE.finditer(text):
        k = ord(m.group(1)) - ord("A")
        if k == 0:
            runs.append([m.group(2) or ""])
        elif runs and k == len(runs[-1]):
            runs[-1].append(m.group(2) or "")
        elif runs:
            runs.append([])  # a letter out of sequence ends the list
    runs = [r for r in runs if len(r) >= 2]
    return tuple(runs[-1]) if runs else None


def _file_choices(r: dict[str, Any]) -> tuple[tuple[str, ...], str] | None:
    """(option texts, where they were read) from a prediction record's own fields, or None."""
    ch = r.get("choices")
    if isinstance(ch, list) and len(ch) >= 2 and all(isinstance(c, str) for c in ch) and len(ch) <= len(LETTERS):
        return tuple(ch), "choices"
    for key in ("prompt", "question"):
        text = r.get(key)
        if isinstance(text, str):
            found = choices_in_text(text)
            if found is not None:
                return found, key
    return None


def _question_of(r: dict[str, Any]) -> str:
    """The question text of a prediction record that carries one (BLINK's prompt without its choice list)."""
    for key in ("question", "prompt"):
        text = r.get(key)
        if isinstance(text, str) and text.strip():
            head = re.split(r"(?im)^[ \t]*(?:select from the following choices\.?|\([A-Z]\)[ \t]).*$", text)[0]
            return head.strip() or text.strip()
    return ""


def _task(r: dict[str, Any], idx: str, split: str) -> str:
    """A record's sub-task: its ``sub_task`` field, else derived from the idx as ``evaluate.py`` does."""
    return r["sub_task"] if isinstance(r.get("sub_task"), str) and r["sub_task"] else task_of(idx, split)


def _options(texts: tuple[str, ...]) -> tuple[str, ...]:
    """Option texts as read from a file, or "option (A)" ... placeholders when they are blank or repeat."""
    if all(t.strip() for t in texts) and len(set(texts)) == len(texts):
        return texts
    return tuple(f"option ({L})" for L in LETTERS[: len(texts)])


def _letter(ans: str) -> str | None:
    m = re.fullmatch(r"\s*\(?([A-Z])\)?\s*", ans)
    return m.group(1) if m else None


def _item_images(r: dict[str, Any], idx: str) -> tuple[ImageRef, ...]:
    refs = []
    for k in ("image_1", "image_2", "image_3", "image_4"):
        v = r.get(k)
        if isinstance(v, str) and v:
            refs.append(ImageRef(v, (f"{idx}_{k[-1]}.jpg",)))
        elif isinstance(v, dict) and isinstance(v.get("path"), str) and v["path"]:
            refs.append(ImageRef(v["path"], (f"{idx}_{k[-1]}.jpg",)))
    return tuple(refs)


def _item(path: Path, where: str, r: Any, split: str) -> Record:
    idx = need(path, where, r, "idx")
    if not idx.strip():
        raise fail(path, where, "field 'idx' is empty")
    question = need(path, where, r, "question")
    choices = need(path, where, r, "choices", list)
    if len(choices) < 2 or not all(isinstance(c, str) for c in choices):
        raise fail(path, where, "field 'choices' should be a list of at least two option texts")
    if len(choices) > len(LETTERS):
        raise fail(path, where, f"field 'choices' has {len(choices)} options; at most {len(LETTERS)} (A-Z)")
    split = _split_of(idx, split)
    task = _task(r, idx, split)
    answer = None
    ans = r.get("answer")
    if isinstance(ans, str) and ans != "hidden":
        letter = _letter(ans)
        if letter is None or letter not in LETTERS[: len(choices)]:
            raise fail(path, where, f"field 'answer' {ans!r} is not one of the choices' letters")
        answer = choices[LETTERS.index(letter)]
    attrs: dict[str, Any] = {"idx": idx, "split": split, "task": task}
    if isinstance(r.get("prompt"), str):
        attrs["original_prompt"] = r["prompt"]
    return Record(key=where, item_id=idx, question=question, kind="choice", options=tuple(choices), answer=answer,
                  attributes=attrs, images=_item_images(r, idx))


def _dataset(path: Path) -> dict[str, Record]:
    data, _ = read_json(path, what="BLINK items file")
    out = {}
    for split, where, r in _split_records(path, data, "all", what="a list of BLINK items"):
        rec = _item(path, _where(where, r), r, split)
        out[rec.item_id] = rec
    return out


def read_questions(path: Path, data: Any, opts: ImportOptions) -> Parsed:
    split = opts.split or "all"
    recs = [_item(path, _where(where, r), r, s)
            for s, where, r in _split_records(path, data, split, what="a list of BLINK items")]
    return Parsed(recs, preset={
        "name": f"blink_{safe_name(path.stem)}",
        "description": f"BLINK-style items from {path.name}; accuracy per sub-task (attributes.task), overall the "
                       "unweighted mean over sub-tasks.",
    })


def read_results(path: Path, data: Any, opts: ImportOptions) -> Parsed:
    split = opts.split or "val"
    items = _dataset(Path(opts.dataset)) if opts.dataset else {}
    rows = _split_records(path, data, split, what='{"val": [...], "test": [...]} saved predictions')
    if not rows:
        raise fail(path, "top level", f"no '{split}' predictions in the file")
    parsed_rows = []
    for s, where, r in rows:
        where = _where(where, r)
        idx = need(path, where, r, "idx")
        ans = need(path, where, r, "answer")
        raw = reply_text(path, where, r, "full_prediction")
        parsed_rows.append((s, where, r, idx, ans, raw))
    # without the items, each record's options come from the file itself (module doc); a sub-task with any record
    # that does not say is not scored at all
    found: dict[int, tuple[tuple[str, ...], str] | None] = {}
    unknown: dict[str, list[str]] = {}
    tasks: dict[str, int] = {}
    if not items:
        for i, (s, where, r, idx, ans, raw) in enumerate(parsed_rows):
            letter = _letter(ans)
            if ans != "hidden" and letter is None:
                raise fail(path, where, f"field 'answer' {ans!r} is not a choice letter like \"(A)\"")
            t = _task(r, idx, _split_of(idx, s))
            tasks[t] = tasks.get(t, 0) + 1
            own = found[i] = _file_choices(r)
            if own is None:
                unknown.setdefault(t, []).append(idx)
            elif letter is not None and LETTERS.index(letter) >= len(own[0]):
                raise fail(path, where, f"field 'answer' {ans!r} is not one of the {len(own[0])} choices listed in "
                                        f"its '{own[1]}'")
    recs = []
    for i, (s, where, r, idx, ans, raw) in enumerate(parsed_rows):
        split_name = _split_of(idx, s)
        if items:
            if idx not in items:
                raise fail(path, where, f"idx '{idx}' is not in the items file {opts.dataset}")
            base = items[idx]
            rec = Record(key=where, item_id=idx, question=base.question, kind="choice", options=base.options,
                         answer=base.answer, attributes=dict(base.attributes), images=base.images)
            if ans != "hidden":
                letter = _letter(ans)
                if letter is None or letter not in LETTERS[: len(base.options)]:
                    raise fail(path, where, f"field 'answer' {ans!r} is not one of the item's choice letters")
                if base.answer is not None and base.options[LETTERS.index(letter)] != base.answer:
                    raise fail(path, where, f"field 'answer' {ans!r} disagrees with the items file {opts.dataset}")
                rec.answer = base.options[LETTERS.index(letter)]
        else:
            task = _task(r, idx, split_name)
            attrs: dict[str, Any] = {"idx": idx, "split": split_name, "task": task}
            letter = _letter(ans) if ans != "hidden" else None
            own = found[i]
            if task in unknown or own is None:
                # not scored: the options are BLINK's widest set (A-E), so a reply is still read and shown
                options = _options(("",) * 5)
                answer = None
                attrs.update(options_known=False, file_answer=ans)
            else:
                options = _options(own[0])
                answer = options[LETTERS.index(letter)] if letter else None
                attrs.update(options_known=True, options_from=own[1])
            rec = Record(key=where, item_id=idx, question=_question_of(r), kind="choice", options=options,
                         answer=answer, attributes=attrs)
        rec.raw_text = raw
        fp = {k: v for k, v in r.items() if k in ("prediction",)}
        rec.file_parse = fp or None
        recs.append(rec)
    warnings = []
    for t, idxs in unknown.items():
        warnings.append(f"{path}: sub-task '{t or '?'}': {len(idxs)} of its {tasks[t]} replies (first: {idxs[0]}) do "
                        f"not say how many options the item has (no 'choices', no '(A) ...' list in 'prompt' or "
                        f"'question'); the sub-task is imported unscored, not scored with a guessed count (give "
                        f"--dataset ITEMS.json)")
    hidden = sum(1 for rec in recs if rec.answer is None and rec.attributes.get("options_known", True))
    if hidden:
        warnings.append(f"{hidden} predictions have a hidden/unknown answer (test split): imported, not scored")
    settings: dict[str, Any] = {"split": split}
    if items and opts.dataset:  # items come from --dataset alone
        settings["dataset"] = str(Path(opts.dataset).resolve())
    elif unknown:
        settings["unscored_tasks"] = sorted(unknown)
    return Parsed(recs, warnings, settings=settings)
