"""``probe-ui import <harness> PATH``: a harness's answers to an exported set, stored as a probe-ui run.

A harness module reads its results file into :class:`HarnessResults` (one :class:`HarnessAnswer` per reply, each
naming the variant it answers); this module finds the set those answers came from (``--set DIR``, else the folders
the results file names), checks that every answer maps to one of its variants, and only then writes: the set's
variants (ids, image hashes, provenance exactly as a batch stores them), its item errors, and one response per
answer with the prompt template and messages of the set's sample. Nothing is written when any answer does not map
(one line naming the file, the record and the field).

Rules shared with :mod:`probe_ui.importers.common`: the raw reply is stored and read by probe-ui's robust reader
at import (the parse cache a batch writes too), and again by ``score`` with the parser asked for; a response's
``request_hash`` is namespaced so the request cache never serves imported text; importing the same file again adds
nothing (a response is keyed by run, variant, model, prompt, sample); a different reply for a stored cell is kept
out, with a warning. The harness's own verdict goes to ``details.harness`` and is never read as the answer:
``score`` compares it with probe-ui's reading (:mod:`probe_ui.scoring.verdicts`).

A run holds answers to one set from one harness: importing another set or another harness's results into it, or
into a batch run, is refused.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from probe_ui.importers.common import CellKey, ImportFileError, ImportSummary, ImportUsageError, store_replies
from probe_ui.interop import get_harness, importable
from probe_ui.interop.benchset import BenchmarkSet, SetError, SetSample, find_manifest, load_set

if TYPE_CHECKING:
    from probe_ui.store import Store


@dataclass
class HarnessAnswer:
    """One reply as a harness logged it, in our terms."""

    where: str  # "sample 'abc' (epoch 1)", "line 7", "row 5 (index 3)": for messages and provenance
    variant_id: str
    sample: int = 0  # which answer of this variant and model (Inspect's epoch - 1)
    raw_text: str | None = None
    error: str | None = None  # the harness could not get a reply
    verdict: bool | None = None  # the harness's own correctness, None when it gave none
    harness_answer: str | None = None  # what the harness read from the reply
    scorer: str | None = None  # which of the harness's scorers gave the verdict
    set_id: str | None = None  # the set the record says it belongs to
    prompt_text: str | None = None  # the prompt text the harness logged: it must hold the set's last user turn
    input_tokens: int | None = None
    output_tokens: int | None = None
    latency_s: float | None = None
    finish_reason: str | None = None


@dataclass
class HarnessResults:
    harness: str
    path: Path
    sha256: str
    answers: list[HarnessAnswer]
    model: str | None = None  # the model the results file names
    set_id: str | None = None  # the set the file says it ran
    set_hints: list[Path] = field(default_factory=list)  # folders the file names that may hold the set
    settings: dict[str, Any] = field(default_factory=dict)  # recorded with the import in the run's settings
    prompt: str | None = None  # a harness that builds its own prompt: the name its replies are stored under
    messages: Callable[[SetSample], list[dict[str, Any]]] | None = None  # and what it sent
    warnings: list[str] = field(default_factory=list)


def read_file(path: Path, what: str, limit: int | None = None) -> bytes:
    """A results file's bytes (size-checked: ``limit``, default :data:`~probe_ui.importers.common.MAX_FILE_BYTES`);
    :class:`ImportFileError` naming it when it cannot be read. Only a regular file is read: a FIFO, a device (a link
    to ``/dev/zero``) or a socket is refused from its ``fstat`` after a non-blocking open, so it neither hangs the
    import nor fills the memory; no more than ``limit`` bytes are read, whatever the size said."""
    from probe_ui.importers.common import MAX_FILE_BYTES

    cap = MAX_FILE_BYTES if limit is None else limit
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise ImportFileError(f"{path}: no such {what}") from None
    except OSError as exc:
        raise ImportFileError(f"{path}: cannot be read: {exc.strerror or type(exc).__name__}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ImportFileError(f"{path}: {_kind(st.st_mode)}, not a regular file: the {what} is read only from a "
                                  "file")
        if st.st_size > cap:
            raise ImportFileError(f"{path}: {st.st_size:,} bytes, over the {cap:,}-byte limit for the {what}")
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, min(1 << 20, cap + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > cap:  # grew while being read
                raise ImportFileError(f"{path}: over the {cap:,}-byte limit for the {what}")
        return b"".join(chunks)
    except OSError as exc:
        raise ImportFileError(f"{path}: cannot be read: {exc.strerror or type(exc).__name__}") from None
    finally:
        os.close(fd)


def _kind(mode: int) -> str:
    """What a path that is not a regular file is, in words."""
    for test, words in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                        (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                        (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return words
    return "not a file"


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def verdict_of(value: Any) -> bool | None:
    """A harness's correctness value as a bool: True/1/"C"/"correct", False/0/"I"/"incorrect"; else None."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        v = value.strip().lower()
        if v in ("c", "correct", "true", "1", "1.0", "yes"):
            return True
        if v in ("i", "incorrect", "false", "0", "0.0", "no"):
            return False
    return None


# ---- finding the set --------------------------------------------------------------------------------------------

def locate_set(res: HarnessResults, set_dir: str | os.PathLike[str] | None) -> BenchmarkSet:
    """The set the results came from: ``set_dir`` when given, else the first folder the file names that holds a
    set manifest (the task's folder, the dataset's folder, ``$LMUData``)."""
    try:
        if set_dir is not None:
            return load_set(set_dir)
        for hint in res.set_hints:
            if find_manifest(hint) is not None:
                return load_set(hint)
    except SetError as exc:
        raise ImportFileError(str(exc)) from None
    where = ", ".join(str(h) for h in res.set_hints) or "nowhere"
    raise ImportUsageError(f"{res.path}: cannot find the set these results came from (looked in {where}): give "
                           "--set DIR, the folder 'probe-ui export-set' wrote")


def check_answers(res: HarnessResults, bset: BenchmarkSet, set_dir: Any) -> None:
    """Every answer must belong to this set and map to one of its variants; the first that does not raises."""
    where_set = set_dir or "the set's folder"
    if res.set_id is not None and res.set_id != bset.set_id:
        raise ImportFileError(f"{res.path}: the results are for set {res.set_id}, but {where_set} holds set "
                              f"{bset.set_id} ('{bset.name}'): give --set with the folder that set was exported to")
    if not res.answers:
        raise ImportFileError(f"{res.path}: no answers to import")
    for a in res.answers:
        if a.set_id is not None and a.set_id != bset.set_id:
            raise ImportFileError(f"{res.path}: {a.where}: field 'probe_ui_set' is {a.set_id}, not this set's "
                                  f"{bset.set_id}: results of another set")
        s = bset.sample(a.variant_id)
        if s is None:
            raise ImportFileError(f"{res.path}: {a.where}: variant '{a.variant_id}' is not in the set '{bset.name}' "
                                  f"({bset.set_id}): the answer maps to no item")
        if a.prompt_text is not None and res.messages is None and s.user_text.strip() not in a.prompt_text:
            raise ImportFileError(f"{res.path}: {a.where}: the prompt in the results is not the set's prompt for "
                                  f"variant '{a.variant_id}' (was the task or its data edited?): export the set again "
                                  "rather than editing it")


# ---- writing ----------------------------------------------------------------------------------------------------

def import_harness(store: Store, harness: str, path: str | os.PathLike[str], *, set_dir: str | None = None,
                   model: str | None = None, run: str | None = None) -> ImportSummary:
    """Read a harness's results file and store its answers as (part of) a run; see the module docstring."""
    if harness not in importable():
        raise ImportUsageError(f"probe-ui cannot import {harness} results; it imports: {', '.join(importable())}")
    mod: Any = get_harness(harness)
    res: HarnessResults = mod.read_results(Path(path))
    bset = locate_set(res, set_dir)
    check_answers(res, bset, set_dir)
    model_name = (model or res.model or "").strip()
    if not model_name:
        raise ImportUsageError(f"{res.path}: the file does not name its model: give --model NAME")
    run_name = run or f"{harness}-{bset.name}"
    _check_run(store, run_name, harness, bset)

    entry = {"format": harness, "path": str(res.path.resolve()), "sha256": res.sha256, "model": model_name,
             **res.settings}
    settings = dict(bset.run_settings(), harness=harness, imports=[entry])
    r = store.ensure_run(run_name, bset.seed, settings)
    # the variants the file answers, as a batch stores the variants it asks (few-shot examples by id, in each)
    asked = {s.variant.id for a in res.answers if (s := bset.sample(a.variant_id)) is not None}
    store.add_variants(r.id, [s.variant for s in bset.samples if s.variant.id in asked])
    for e in bset.item_errors:
        store.record_item_error(r.id, e["source"], e["item_id"], e["message"])
    summary = ImportSummary(run=r.name, model=model_name, benchmark=f"{mod.TITLE}, set '{bset.name}'",
                            path=str(res.path), records=len(res.answers), variants=len(asked),
                            warnings=list(res.warnings))

    def cells() -> Iterator[tuple[CellKey, str | None, Callable[[], dict[str, Any]]]]:
        for a in res.answers:
            s = bset.sample(a.variant_id)
            assert s is not None  # check_answers made sure
            prompt = res.prompt or s.template
            yield ((s.variant.id, model_name, prompt, a.sample), a.raw_text,
                   partial(response_row, r.id, s, model_name, prompt, a, res))

    store_replies(store, r, model_name, summary, cells())
    errors = sum(1 for a in res.answers if a.error is not None)
    if errors:
        first = next(a for a in res.answers if a.error is not None)
        summary.warnings.append(f"{errors} samples have no reply ({res.harness} recorded an error, e.g. {first.where}: "
                                f"{first.error}); they are stored as error cells")
    store.touch_run(r.id)
    return summary


def _check_run(store: Store, run_name: str, harness: str, bset: BenchmarkSet) -> None:
    from probe_ui.store import StoreError

    try:
        existing = store.get_run(run_name)
    except StoreError:
        return
    s = existing.config
    have_set, have_harness = (s.benchmark_set or {}).get("id"), s.harness
    if have_set == bset.set_id and have_harness == harness:
        return
    if have_harness:
        what = f"{have_harness} answers to set {have_set}"
    elif s.benchmark:
        what = f"{s.benchmark} results"
    else:
        what = "a batch run's answers"
    raise ImportUsageError(f"run '{run_name}' holds {what}; import these {harness} answers to set {bset.set_id} into "
                           "another --run")


def response_row(run_id: int, s: SetSample, model: str, prompt: str, a: HarnessAnswer,
                 res: HarnessResults) -> dict[str, Any]:
    """The stored response: the set's request (or the harness's own prompt), the raw reply and its robust reading
    (as a batch stores them), the harness's verdict in ``details.harness``."""
    from dataclasses import replace

    from probe_ui.messages import Response
    from probe_ui.runner import score_response

    request_hash = sha256(json.dumps(["import", res.harness, res.sha256, a.where, s.variant.id, model, prompt,
                                      a.sample], ensure_ascii=False).encode())
    messages = res.messages(s) if res.messages is not None else s.request.rendered()
    settings = {"imported": True, "harness": res.harness, "format": res.harness, "path": str(res.path.resolve()),
                "sha256": res.sha256, "record": a.where, **s.request.settings.to_dict(),
                **(res.settings.get("generation") or {})}
    harness = {"name": res.harness, "verdict": a.verdict, "answer": a.harness_answer, "scorer": a.scorer}
    details: dict[str, Any] = {"imported_from": str(res.path.resolve()), "record": a.where, "harness": harness}
    resp = Response(text=a.raw_text or "", error=a.error)
    return {
        "run_id": run_id, "variant_id": s.variant.id, "model": model, "prompt": prompt, "sample": a.sample,
        "request_hash": request_hash, "messages": messages, "settings": settings,
        "raw_text": a.raw_text if a.error is None else None, "latency_s": a.latency_s,
        "input_tokens": a.input_tokens, "output_tokens": a.output_tokens, "cost": None, "error": a.error,
        "finish_reason": a.finish_reason, "details": details,
        **score_response(s.variant, replace(s.request, prompt=prompt), resp),
    }
