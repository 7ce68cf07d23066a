"""Inspect AI (UKGovernmentBEIS/inspect_ai): a set as a task, and its eval logs back as a run.

Export (``probe-ui export-set PRESET --to inspect --out DIR``)::

    DIR/task.py          an @task over samples.jsonl: probe_ui_generate() (one generation with the sample's token
                         budget, temperature 0, the set's seed) and probe_ui_reader() (probe-ui's robust reader when
                         probe-ui is importable, else Inspect's pattern() on the reply's first word)
    DIR/samples.jsonl    one Inspect sample per variant, in Inspect's own JSON form: ``id`` (the variant id),
                         ``input`` (the chat messages a batch sends: system prompt, few-shot turns, then the user turn
                         with its images, ``{"type": "image", "image": "images/<sha256>.png"}``, before the text;
                         Inspect resolves the paths against the dataset file), ``target`` (the answer as the model
                         should write it: a letter, yes/no or a label; "" when unknown), ``choices`` (option texts of
                         a multiple-choice item) and ``metadata`` (below)
    DIR/images/, DIR/probe-ui-set.json   the set (probe_ui.interop.benchset)

Each sample's metadata maps its answer back: ``probe_ui_set`` (set id), ``variant_id``, ``item_id``, ``condition``,
``group``, ``kind``, ``template`` (the prompt template), ``max_tokens``, ``labels``, ``options``, ``answer_label``,
``question``, ``image_ids`` (sha256 of every image sent), ``seed``, ``preset``, ``preset_sha256`` and ``unit`` (its
unit of evidence in words, "pair mc-03": the task's ``stderr(cluster="unit")`` counts a unit's variants together,
as probe-ui's intervals do).

Import (``probe-ui import inspect LOG``): a ``.eval`` or ``.json`` log, read with ``inspect_ai.log.read_eval_log``.
The model is the log's (``openai/gpt-4o``: the same name a batch gives ``--model openai/gpt-4o``); the set is found
in the folder the task ran it from (the task's metadata ``probe_ui_set_dir``), beside the log's task file, or given
with ``--set DIR``. Per sample: the reply
(``output.completion``), the sample's error if it has one (an error cell), epoch N as sample N-1, token usage and
time, and the first score as the harness's verdict (C/I/N, or 1/0).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from probe_ui import __version__, safe_write
from probe_ui.importers.common import ImportFileError
from probe_ui.interop import register_harness
from probe_ui.interop.benchset import BenchmarkSet, SetSample
from probe_ui.interop.exporting import Written
from probe_ui.interop.importing import HarnessAnswer, HarnessResults, read_file, sha256, verdict_of
from probe_ui.interop.templates import fill

NAME = "inspect"
TITLE = "Inspect AI"
TASK_FILE = "task.py"
SAMPLES_FILE = "samples.jsonl"
SCORER = "probe_ui_reader"


def sample_record(bset: BenchmarkSet, s: SetSample, unit: str | None = None) -> dict[str, Any]:
    """One Inspect sample in the JSON form ``inspect_ai.dataset.json_dataset`` reads; ``unit``: its unit of
    evidence in words (:func:`probe_ui.metrics.units.labels_of`), the cluster of the task's standard error."""
    messages: list[dict[str, Any]] = []
    for t in s.turns:
        if t.images and t.role == "user":
            content: Any = [{"type": "image", "image": f"images/{h}.png"} for h in t.images]
            content.append({"type": "text", "text": t.text})
        else:
            content = t.text
        messages.append({"role": t.role, "content": content})
    v = s.variant
    rec: dict[str, Any] = {"id": v.id, "input": messages, "target": s.answer_label or ""}
    if v.kind == "choice" and s.template != "free":
        rec["choices"] = list(v.options)
    rec["metadata"] = {
        "probe_ui_set": bset.set_id, "variant_id": v.id, "item_id": v.item_id, "condition": v.condition,
        "group": v.group, "kind": v.kind, "template": s.template, "max_tokens": s.max_tokens,
        "labels": list(s.labels), "options": list(v.options), "answer_label": s.answer_label,
        "question": v.question, "image_ids": list(s.image_ids), "seed": bset.seed, "preset": bset.preset["name"],
        "preset_sha256": bset.preset["sha256"], "unit": unit or f"item {v.item_id}",
    }
    return rec


def write(bset: BenchmarkSet, out: Path) -> Written:
    from probe_ui.metrics.units import labels_of

    units = labels_of(s.variant for s in bset.samples)
    with safe_write.atomic_file(out / SAMPLES_FILE) as f:
        for s, unit in zip(bset.samples, units):
            f.write(json.dumps(sample_record(bset, s, unit), ensure_ascii=False) + "\n")
    safe_name = "".join(c if c.isalnum() or c in "+-_." else "_" for c in bset.name)
    safe_write.write_text(out / TASK_FILE, fill("inspect_task.py.tmpl", SET_NAME=safe_name, SET_ID=bset.set_id,
                                      WRITTEN_BY=f"probe-ui {__version__}",
                                      SET_ID_LITERAL=json.dumps(bset.set_id),
                                      SET_NAME_LITERAL=json.dumps(bset.name), SEED=str(int(bset.seed))))
    # Inspect finds tasks by globbing the path it is given, which Python < 3.13 refuses for an absolute path: name
    # the task after '@' there (an OpenAI-compatible server other than OpenAI: add -M responses_api=false)
    target = f"{out / TASK_FILE}" + ("@probe_ui_set" if out.is_absolute() else "")
    return Written(files=[SAMPLES_FILE, TASK_FILE], run=[
        f"run it with: inspect eval {target} --model openai/<model>  (needs inspect-ai: pip install "
        "'probe-ui[inspect]')",
        "then: probe-ui import inspect logs/<the .eval file>  and  probe-ui score --run "
        f"inspect-{bset.name}"])


# ---- import -----------------------------------------------------------------------------------------------------

def read_results(path: Path) -> HarnessResults:
    """An Inspect log (.eval or .json) as harness answers."""
    data = read_file(path, "Inspect log")
    try:
        from inspect_ai.log import read_eval_log
    except ImportError:
        raise ImportFileError(f"{path}: reading Inspect logs needs inspect-ai, which is not installed: pip install "
                              "'probe-ui[inspect]'") from None
    try:
        log = read_eval_log(str(path))
    except Exception as exc:  # inspect_ai raises its own, pydantic's, zipfile's, json's...
        text = str(exc).strip().splitlines()
        raise ImportFileError(f"{path}: not an Inspect log that inspect_ai can read ({type(exc).__name__}"
                              f"{': ' + text[0][:200] if text else ''})") from None
    spec = log.eval
    task_md = spec.metadata or {}
    samples = list(log.samples or [])
    set_id = task_md.get("probe_ui_set")
    first_md = samples[0].metadata if samples else {}
    if not isinstance(set_id, str) and not (isinstance(first_md, dict) and "variant_id" in first_md):
        raise ImportFileError(f"{path}: a log of task '{spec.task}', not of a probe-ui set (no 'probe_ui_set' in the "
                              "task's metadata, no 'variant_id' in its samples' metadata): run the task.py that "
                              "'probe-ui export-set --to inspect' wrote")
    if not samples:
        raise ImportFileError(f"{path}: the log holds no samples (status '{log.status}')")
    answers = [_answer(path, s) for s in samples]
    # the set: where the task ran it from (its metadata), else its task file, which Inspect records relative to the
    # folder it ran in: the log folder's parent for its default ./logs, or the current folder
    hints = [Path(task_md["probe_ui_set_dir"])] if isinstance(task_md.get("probe_ui_set_dir"), str) else []
    if spec.task_file:
        task_file = Path(spec.task_file)
        bases = [Path()] if task_file.is_absolute() else [path.resolve().parent.parent, Path.cwd()]
        hints += [(b / task_file).parent for b in bases]
    hints.append(path.parent)
    warnings = []
    if log.status != "success":
        error = getattr(log, "error", None)
        why = f": {error.message}" if error is not None else ""
        warnings.append(f"the eval ended with status '{log.status}'{why}; its {len(samples)} samples are imported")
    config = spec.model_generate_config.model_dump(exclude_none=True) if spec.model_generate_config else {}
    settings = {"inspect_ai": spec.packages.get("inspect_ai"), "task": spec.task, "status": log.status,
                "eval_id": spec.eval_id, "created": spec.created, "generation": config}
    return HarnessResults(harness=NAME, path=path, sha256=sha256(data), answers=answers, model=spec.model,
                          set_id=set_id if isinstance(set_id, str) else None, set_hints=hints, settings=settings,
                          warnings=warnings)


def _answer(path: Path, s: Any) -> HarnessAnswer:
    where = f"sample '{s.id}' (epoch {s.epoch})"
    md = s.metadata if isinstance(s.metadata, dict) else {}
    vid = md.get("variant_id")
    if not isinstance(vid, str) or not vid:
        raise ImportFileError(f"{path}: {where}: field 'metadata.variant_id' is missing: not a sample of a probe-ui "
                              "set")
    error = None
    if s.error is not None:
        error = f"inspect: {str(getattr(s.error, 'message', s.error)).strip().splitlines()[0][:500]}"
    raw = s.output.completion if s.output is not None and error is None else None
    verdict, answer, scorer = None, None, None
    scores = s.scores or {}
    if scores:
        scorer = SCORER if SCORER in scores else next(iter(scores))
        sc = scores[scorer]
        verdict, answer = verdict_of(sc.value), sc.answer
    usage = list((s.model_usage or {}).values())
    return HarnessAnswer(
        where=where, variant_id=vid, sample=max(int(s.epoch) - 1, 0), raw_text=raw, error=error, verdict=verdict,
        harness_answer=answer, scorer=scorer, set_id=md.get("probe_ui_set"), prompt_text=_user_text(s.input),
        input_tokens=sum(u.input_tokens for u in usage) if usage else None,
        output_tokens=sum(u.output_tokens for u in usage) if usage else None,
        latency_s=getattr(s, "working_time", None) or getattr(s, "total_time", None),
        finish_reason=getattr(s.output, "stop_reason", None) if s.output is not None else None)


def _user_text(messages: Any) -> str | None:
    """The text of the last user message of a sample's input (a string input is that text)."""
    if isinstance(messages, str):
        return messages
    users = [m for m in messages or [] if getattr(m, "role", None) == "user"]
    if not users:
        return None
    return users[-1].text


register_harness(sys.modules[__name__])
