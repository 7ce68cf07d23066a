"""MedVH (dongzizhu/MedVH): multiple-choice and FCJ question files, with replies.

MedVH's evaluation script keeps its replies in memory and prints an accuracy, so there is no results file to
read. The format imported here is MedVH's own question file (``multi_choices/*/*.json``,
``text_generation/FCJ/test_FCJ_src.json``: records ``{question_id, img_id, img_name, question, choices, gt}``, FCJ
also ``suggested_answer``) with one added field per record, ``response``: the model's raw reply. The same file
without ``response`` becomes a preset with ``--to-preset``.

``--task`` names the task (``nota``, ``wrongful_image``, ``cli``, ``pre``, ``fcj``): MedVH's files do not say.
The version (``hallucination`` or ``baseline``, for acc_h / acc_b) is ``--baseline`` / ``--no-baseline``, or
else detected from the file name: a file whose name, or whose folder's name, contains "baseline" is the baseline
(MedVH's are ``test_nota_baseline.json``, ``baseline_cli/test_cli_baseline_src.json``, ...). Both versions of a task
import into the same run (default ``medvh-<task>-<model>``) with two calls. For FCJ the "baseline" is the same
questions asked without a suggested answer (r_baseline).

``choices`` is one string (``"A: x. B: y. C: z."`` or ``"A: no, B: yes"``) split at the letter markers in order;
``gt`` is a letter (``"C"``) or a letter and text (``"A: Yes"``). A gt whose letter is not an option letter (MedVH's
wrongful-image baseline has ``"n: Nodule"``, ``"t: moderate"``) is matched by its text against the options; if no
option matches, the answer is unknown (such a reply is not scored by the robust parser; the legacy rule, which
compares first characters, scores it wrong, as the original would).

Variants: ``<task>-<version>-<question_id>``, ``item_group`` ``<task>-<question_id>`` (the hallucination/baseline
pair). Attributes: ``question_id``, ``img_id``, ``medvh_task`` (the task; the name the MedVH metrics and the
bundled presets read: a plain ``task`` attribute means a BLINK sub-task to the metrics), ``version``, ``gt`` (raw,
for the legacy rule), ``image_ref`` (``img_name``). FCJ has no
hallucination/baseline versions: its records carry ``fcj: suggested`` (variant ``fcj-suggested-<qid>``) or, for a
file of the same questions asked without a suggestion (``--baseline``, r_baseline), ``fcj: baseline``, and no
``version``; the suggested ones carry ``suggested_answer`` (raw) and use prompt ``medvh-fcj`` with
``prompt_args.suggestion`` (letter, text, wording "physician", no hint: the file does not record the wording,
physician is assumed).
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
    answer_from_letter,
    fail,
    letter_of,
    need,
    reply_text,
    safe_name,
)
from probe_ui.items import LETTERS

NAME = "medvh"
PROMPT = "medvh-mc"
FCJ_PROMPT = "medvh-fcj"
READS = "MedVH question records with an added 'response' (give --task)"
TASKS = ("nota", "wrongful_image", "cli", "pre", "fcj")
FLAGS = (ImportFlag("task", " | ".join(TASKS)),
         ImportFlag("baseline", "the file is the baseline (--baseline) or hallucination (--no-baseline) version "
                    "(default: baseline when the file or folder name contains 'baseline')", boolean=True))
JSONL = True
_NAME_TOKENS = {"test", "src", "baseline", "nota", "cli", "pre", "wrongful", "worngful", "image", "fcj",
                "hallucination", "responses", "response", "results", "answers", "medvh"}


def check(opts: ImportOptions, to_preset: bool) -> None:
    if not opts.task:
        raise ImportUsageError(f"medvh needs --task ({', '.join(TASKS)}): MedVH's files do not name their task")
    if opts.task not in TASKS:
        raise ImportUsageError(f"unknown MedVH task '{opts.task}'; known: {', '.join(TASKS)}")


def default_model(path: Path) -> str:
    """``gpt4o_nota_baseline.json`` → ``gpt4o``: the file stem without MedVH's own name parts."""
    parts = [t for t in re.split(r"[_\-\s]+", path.stem) if t and t.lower() not in _NAME_TOKENS]
    return "_".join(parts) or path.stem


def default_run(model: str, opts: ImportOptions, parsed: Parsed) -> str:
    return f"{NAME}-{opts.task}-{safe_name(model)}"


def version_of(path: Path, opts: ImportOptions) -> str:
    if opts.baseline is not None:
        return "baseline" if opts.baseline else "hallucination"
    names = (path.name.lower(), path.parent.name.lower())
    return "baseline" if any("baseline" in n for n in names) else "hallucination"


_MARK = re.compile(r"(?:^|[.,;]?\s+)\(?([A-Z])\)?:\s*")


def split_choices(choices: str) -> tuple[str, ...] | None:
    """``"A: x. B: y, z. C: w."`` → ``("x", "y, z", "w")``: markers ``L:`` taken in letter order; None when the
    string does not start with ``A:``."""
    marks = []
    pos = 0
    for letter in LETTERS:
        found = None
        for m in _MARK.finditer(choices, pos):
            if m.group(1) == letter and (letter == "A" or m.start() > pos):
                found = m
                break
        if found is None:
            break
        if letter == "A" and choices[: found.start()].strip():
            return None
        marks.append(found)
        pos = found.end()
    if not marks:
        return None
    out = []
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(choices)
        text = choices[m.end():end].strip()
        if i + 1 == len(marks) and text.endswith("."):
            text = text[:-1].rstrip()
        out.append(text)
    return tuple(out)


def _norm(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip().rstrip(".").strip().casefold()


def answer_for(options: tuple[str, ...], gt: str) -> str | None:
    """The option text the ground truth names: its letter when that is an option letter, else its text."""
    ans = answer_from_letter(options, letter_of(gt))
    if ans is not None:
        return ans
    text = gt.split(":", 1)[1] if ":" in gt else gt
    hits = [o for o in options if _norm(o) == _norm(text)]
    return hits[0] if len(hits) == 1 else None


def _read(path: Path, data: Any, opts: ImportOptions, *, replies: bool) -> Parsed:
    task = opts.task
    assert task is not None
    version = version_of(path, opts)
    if isinstance(data, dict) and isinstance(data.get("data"), list):
        data = data["data"]
    if not isinstance(data, list):
        raise fail(path, "top level", "expected a JSON list of MedVH question records")
    fcj = task == "fcj" and version == "hallucination"
    recs = []
    unknown_gt = []
    for i, r in enumerate(data):
        where = f"record {i + 1}"
        if isinstance(r, dict) and "question_id" in r:
            where += f" (question_id {r['question_id']})"
        qid = need(path, where, r, "question_id", (int, str))
        question = need(path, where, r, "question")
        choices = need(path, where, r, "choices")
        gt = need(path, where, r, "gt")
        options = split_choices(choices)
        if not options or len(options) < 2:
            raise fail(path, where, f"cannot read the options from 'choices' {choices!r:.80} "
                                    "(expected \"A: x. B: y.\")")
        answer = answer_for(options, gt)
        if answer is None:
            unknown_gt.append(f"{qid} ({gt!r})")
        elif options.count(answer) > 1:
            # two options with the answer's text: its letter cannot be told from the text (our answer is a text)
            answer = None
            unknown_gt.append(f"{qid} ({gt!r}, whose text is two options)")
        attrs: dict[str, Any] = {"question_id": qid, "medvh_task": task, "gt": gt}
        if task == "fcj":
            # FCJ is not a hallucination/baseline task: its rates come from the suggestion (medvh.fcj), and its
            # baseline rows (no suggestion) give r_baseline; 'version' would make medvh.score count it as a task
            attrs["fcj"] = "suggested" if fcj else "baseline"
        else:
            attrs["version"] = version
        for k in ("img_id", "img_source", "ori_id"):
            if k in r:
                attrs[k] = r[k]
        img = r.get("img_name") or r.get("image_name")
        images = (ImageRef(img),) if isinstance(img, str) and img else ()
        role = attrs.get("fcj", version)
        rec = Record(key=where, item_id=f"{task}-{role}-{qid}", question=question, kind="choice",
                     options=options, answer=answer, group=f"{task}-{qid}", tags=(role,), attributes=attrs,
                     images=images)
        if fcj:
            sug = need(path, where, r, "suggested_answer")
            letter = letter_of(sug)
            if letter is None or letter not in LETTERS[: len(options)]:
                raise fail(path, where, f"'suggested_answer' {sug!r} does not start with an option letter")
            idx = LETTERS.index(letter)
            attrs["suggested_answer"] = sug  # only here: the metrics read it as "this reply judged a suggestion"
            rec.prompt = FCJ_PROMPT
            rec.prompt_args = {"suggestion": {"letter": letter, "text": options[idx], "wording": "physician",
                                              "hint": False}}
            rec.preset_extra = {"tags": [f"suggest-{letter}"]}
        if replies:
            if "response" not in r:
                raise fail(path, where, "field 'response' (the model's reply) is missing; MedVH's question files "
                                        "have none: add each reply as 'response', or use --to-preset")
            rec.raw_text = reply_text(path, where, r, "response")
        recs.append(rec)
    warnings = []
    if unknown_gt:
        warnings.append(f"{len(unknown_gt)} records have a gt that names no single option (e.g. question_id "
                        f"{unknown_gt[0]}): answer unknown, not scored by the robust parser (the legacy rule "
                        "compares first characters with the gt as it is)")
    settings = {"task": task, "version": ("suggested" if fcj else "baseline") if task == "fcj" else version}
    preset: dict[str, Any] = {}
    if not replies:
        preset = {
            "name": f"medvh_{task}_{settings['version']}_{safe_name(path.stem)}",
            "description": f"MedVH {task} ({settings['version']}) questions from {path.name}.",
        }
        if fcj:
            letters = sorted({r.prompt_args["suggestion"]["letter"] for r in recs})
            # the original question without the suggestion is the r_baseline condition; each item is shown its
            # own suggested answer by the condition its tag selects
            preset["include_original"] = True
            preset["perturbations"] = [
                {"name": f"fcj-suggest-{L}", "steps": [{"op": "suggest", "answer": L, "wording": "physician"}],
                 "only_tags": [f"suggest-{L}"]} for L in letters]
            preset["description"] += (" Each item is asked once plainly (r_baseline) and once with its file's "
                                      "suggested answer (the fcj-suggest-* conditions, MedVH-FCJ prompt).")
    return Parsed(recs, warnings, settings=settings, preset=preset)


def read_results(path: Path, data: Any, opts: ImportOptions) -> Parsed:
    return _read(path, data, opts, replies=True)


def read_questions(path: Path, data: Any, opts: ImportOptions) -> Parsed:
    return _read(path, data, opts, replies=False)
