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

Import (``probe-ui import inspect LOG``): a ``.eval`` or ``.json`` log, read with ``inspect_ai.log`` within bounds
(:func:`read_results`: a ``.eval``'s members are size-checked before they are inflated, its samples read one at a
time).
The model is the log's (``openai/gpt-4o``: the same name a batch gives ``--model openai/gpt-4o``); the set is found
in the folder the task ran it from (the task's metadata ``probe_ui_set_dir``), beside the log's task file, or given
with ``--set DIR``. Per sample: the reply
(``output.completion``), the sample's error if it has one (an error cell), epoch N as sample N-1, token usage and
time, and the first score as the harness's verdict (C/I/N, or 1/0).
"""

from __future__ import annotations

import io
import json
import sys
import zipfile
from pathlib import Path
from typing import Any, Iterator

from probe_ui import __version__
from probe_ui.files import safe_write
from probe_ui.importers.common import ImportFileError
from probe_ui.interop import register_harness
from probe_ui.interop.benchset import BenchmarkSet, SetSample
from probe_ui.interop.exporting import Written
from probe_ui.interop.importing import HarnessAnswer, HarnessResults, read_file, sha256, verdict_of
from probe_ui.interop.templates import fill

NAME = "inspect"
TITLE = "Inspect AI"
#: what `probe-ui import inspect` reads
READS = "an Inspect AI log of the exported task (.eval or .json)"
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
    """An Inspect log (.eval or .json) as harness answers.

    Bounded (issue 52: a 2.6 MB ``.eval`` drove the whole-log read to 2.8 GB): a ``.eval`` is a zip whose members'
    sizes are checked against :data:`MAX_MEMBER_BYTES` and :data:`MAX_LOG_BYTES` from its directory, before anything
    is decompressed; then each member is inflated in chunks, never past the size it declares (:func:`_member`): the
    header, and the samples one at a time, each without its events, attachments and store, which the import does not
    use. A ``.json`` log is read whole, so it may hold at most :data:`MAX_JSON_LOG_BYTES`."""
    data = read_file(path, "Inspect log")
    try:
        from inspect_ai.log import EvalSample, read_eval_log
    except ImportError:
        raise ImportFileError(f"{path}: reading Inspect logs needs inspect-ai, which is not installed: pip install "
                              "'probe-ui[inspect]'") from None
    archive = _archive(path, data)
    answers: list[tuple[tuple[int, str], HarnessAnswer]] = []
    try:
        if archive is None:
            if len(data) > MAX_JSON_LOG_BYTES:
                raise ImportFileError(f"{path}: a JSON log of {len(data):,} bytes, over the {MAX_JSON_LOG_BYTES:,}-"
                                      "byte limit for one read whole: let Inspect write the .eval format")
            log = read_eval_log(str(path))
            samples: Iterator[Any] = iter(log.samples or [])
        else:
            log = read_eval_log(io.BytesIO(data), header_only=True)
            samples = _samples(archive, EvalSample)
        spec = log.eval
        task_md = spec.metadata or {}
        set_id = task_md.get("probe_ui_set")
        for s in samples:  # one at a time: only its answer is kept
            md = s.metadata if isinstance(s.metadata, dict) else {}
            if not answers and not isinstance(set_id, str) and "variant_id" not in md:
                raise ImportFileError(f"{path}: a log of task '{spec.task}', not of a probe-ui set (no "
                                      "'probe_ui_set' in the task's metadata, no 'variant_id' in its samples' "
                                      "metadata): run the task.py that 'probe-ui export-set --to inspect' wrote")
            answers.append(((s.epoch, s.id if isinstance(s.id, str) else str(s.id).zfill(20)), _answer(path, s)))
    except ImportFileError:
        raise
    except Exception as exc:  # inspect_ai raises its own, pydantic's, zipfile's, json's...
        text = str(exc).strip().splitlines()
        raise ImportFileError(f"{path}: not an Inspect log that inspect_ai can read ({type(exc).__name__}"
                              f"{': ' + text[0][:200] if text else ''})") from None
    finally:
        if archive is not None:
            archive.close()
    if not answers and not isinstance(set_id, str):
        raise ImportFileError(f"{path}: a log of task '{spec.task}', not of a probe-ui set (no 'probe_ui_set' in the "
                              "task's metadata, no 'variant_id' in its samples' metadata): run the task.py that "
                              "'probe-ui export-set --to inspect' wrote")
    if not answers:
        raise ImportFileError(f"{path}: the log holds no samples (status '{log.status}')")
    samples_n = len(answers)
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
        warnings.append(f"the eval ended with status '{log.status}'{why}; its {samples_n} samples are imported")
    config = spec.model_generate_config.model_dump(exclude_none=True) if spec.model_generate_config else {}
    settings = {"inspect_ai": spec.packages.get("inspect_ai"), "task": spec.task, "status": log.status,
                "eval_id": spec.eval_id, "created": spec.created, "generation": config}
    return HarnessResults(harness=NAME, path=path, sha256=sha256(data), model=spec.model,
                          answers=[a for _, a in sorted(answers, key=lambda ka: ka[0])],  # Inspect's order
                          set_id=set_id if isinstance(set_id, str) else None, set_hints=hints, settings=settings,
                          warnings=warnings)


#: the most one member of a ``.eval`` (a sample, the header) may hold once decompressed
MAX_MEMBER_BYTES = 64 * 1024 * 1024
#: the most all the members of a ``.eval`` may hold once decompressed
MAX_LOG_BYTES = 1024 * 1024 * 1024
#: the largest ``.json`` log (read whole by inspect_ai)
MAX_JSON_LOG_BYTES = 128 * 1024 * 1024
#: sample fields the import never reads, left out before validation (the events repeat every model call's input)
_UNREAD = ("events", "events_data", "attachments", "store", "timelines")


def _archive(path: Path, data: bytes) -> zipfile.ZipFile | None:
    """The ``.eval`` zip, its members' declared sizes checked (nothing decompressed); None for a JSON log."""
    if not data.startswith(b"PK"):
        return None
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, OSError) as exc:
        raise ImportFileError(f"{path}: not an Inspect log that inspect_ai can read (a damaged zip: {exc})") from None
    total = 0
    for info in zf.infolist():
        total += info.file_size
        if info.file_size > MAX_MEMBER_BYTES:
            zf.close()
            raise ImportFileError(f"{path}: member '{info.filename[:200]}' decompresses to {info.file_size:,} bytes, "
                                  f"over the {MAX_MEMBER_BYTES:,}-byte limit for one member of an Inspect log")
        if total > MAX_LOG_BYTES:
            zf.close()
            raise ImportFileError(f"{path}: its members decompress to more than {MAX_LOG_BYTES:,} bytes, the limit "
                                  "for an Inspect log")
    try:  # the members inspect_ai reads itself (the header, reductions) read whole there: checked here, in chunks
        for info in zf.infolist():
            if not info.filename.startswith("samples/"):
                _member(zf, info.filename, keep=False)
    except Exception as exc:  # zipfile's: a bad CRC, a truncated member, a compression or encryption it lacks
        zf.close()
        text = str(exc).strip().splitlines()
        raise ImportFileError(f"{path}: not an Inspect log that inspect_ai can read ({type(exc).__name__}"
                              f"{': ' + text[0][:200] if text else ''})") from None
    return zf


def _member(zf: zipfile.ZipFile, name: str, keep: bool = True) -> bytes:
    """A member's bytes, decompressed 1 MiB at a time: :mod:`zipfile` stops at the size the directory declares (at
    most :data:`MAX_MEMBER_BYTES`) and raises ``BadZipFile`` when the data does not match it (its CRC), so a member
    that lies about its size is never inflated past it (``read()`` of the whole member inflates all its data at
    once). ``keep``: False to check a member without holding it."""
    out = bytearray()
    with zf.open(name) as f:
        while chunk := f.read(1 << 20):
            if keep:
                out += chunk
    return bytes(out)


def _samples(zf: zipfile.ZipFile, sample_type: Any) -> Iterator[Any]:
    """The log's samples, one member at a time (a re-logged sample: its last member)."""
    for name in dict.fromkeys(n for n in zf.namelist() if n.startswith("samples/") and n.endswith(".json")):
        doc = json.loads(_member(zf, name))
        if isinstance(doc, dict):
            for key in _UNREAD:
                doc.pop(key, None)
        yield sample_type.model_validate(doc)


def _answer(path: Path, s: Any) -> HarnessAnswer:
    where = f"sample '{s.id}' (epoch {s.epoch})"
    md = s.metadata if isinstance(s.metadata, dict) else {}
    vid = md.get("variant_id")
    if not isinstance(vid, str) or not vid:
        raise ImportFileError(f"{path}: {where}: field 'metadata.variant_id' is missing: not a sample of a probe-ui "
                              "set")
    error = None
    if s.error is not None:
        lines = str(getattr(s.error, "message", s.error)).strip().splitlines()
        error = f"inspect: {(lines or ['the sample failed, without a message'])[0][:500]}"
        if "404" in error and "/responses" in error:  # Inspect's default for OpenAI models, a chat-only server
            error += " (the server has no Responses API: run inspect eval again with -M responses_api=false)"
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
        finish_reason=_stop_reason(s.output))


def _stop_reason(output: Any) -> str | None:
    """The output's stop reason; None for a call that failed (Inspect's ``stop_reason`` reads the first choice, and a
    failed call has none: an IndexError, once taken for an unreadable log)."""
    choices = getattr(output, "choices", None) if output is not None else None
    return str(choices[0].stop_reason) if choices else None


def _user_text(messages: Any) -> str | None:
    """The text of the last user message of a sample's input (a string input is that text)."""
    if isinstance(messages, str):
        return messages
    users = [m for m in messages or [] if getattr(m, "role", None) == "user"]
    if not users:
        return None
    return users[-1].text


register_harness(sys.modules[__name__])
