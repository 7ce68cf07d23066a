"""Micro-batching for one loaded model: requests gathered into batches by one worker thread.

Every request for a loaded model becomes a :class:`Job` on that model's queue. One worker thread per model takes
the first job, then gathers more of the same mode until the batch holds ``batch_size`` jobs (the smallest of the
jobs' own limits) or ``batch_wait_s`` has passed since the first job arrived, and runs them together. Jobs that
were already waiting while the previous batch ran join at once, without any wait, so a busy model runs full
batches back to back, and a lone request waits at most ``batch_wait_s`` (5 ms by default) before it runs as a
batch of one.

The worker is the only thread that touches the model, so batches never overlap (the old one-at-a-time guarantee,
now per batch), callers on any event loop or thread share it (``concurrent.futures.Future``), and an event loop
only awaits. A job whose caller gave up (a cancelled future, e.g. a timeout) is dropped before it runs. When a
batch fails as a whole, its jobs run again one by one, so an error lands only on the request that caused it
(and a batch too large for the GPU's memory still gets its answers).
"""

from __future__ import annotations

import queue
import threading
import time
from collections import deque
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Callable

from probe_ui.messages import Request
from probe_ui.providers.base import ProviderError

DEFAULT_BATCH_SIZE = 8
DEFAULT_BATCH_WAIT_MS = 5.0


@dataclass(eq=False)
class Job:
    """One request waiting for (or running in) a micro-batch."""

    request: Request
    mode: str
    label: str
    batch_size: int = DEFAULT_BATCH_SIZE
    batch_wait_s: float = DEFAULT_BATCH_WAIT_MS / 1000
    future: Future = field(default_factory=Future)
    submitted: float = field(default_factory=time.perf_counter)
    started: float = 0.0
    batched_with: int = 1  # jobs in the batch that ran it


def batch_options(options: dict[str, Any], label: str = "hf") -> tuple[int, float]:
    """``(batch_size, batch_wait_s)`` from a catalogue entry's options; ProviderError naming a bad one."""
    size = options.get("batch_size", DEFAULT_BATCH_SIZE)
    wait = options.get("batch_wait_ms", DEFAULT_BATCH_WAIT_MS)
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise ProviderError(f"{label}: options.batch_size must be a whole number >= 1, got {size!r}")
    if isinstance(wait, bool) or not isinstance(wait, (int, float)) or not 0 <= wait <= 10_000:
        raise ProviderError(f"{label}: options.batch_wait_ms must be a number of milliseconds from 0 to 10000, "
                            f"got {wait!r}")
    return size, float(wait) / 1000


class Batcher:
    """The worker thread and queue of one loaded model. ``run(jobs)`` returns one Response or exception per job."""

    def __init__(self, run: Callable[[list[Job]], list[Any]], name: str = "model") -> None:
        self._run = run
        self._queue: queue.Queue[Job | None] = queue.Queue()
        self._closed = False
        self._thread = threading.Thread(target=self._loop, name=f"probe-ui-hf:{name}", daemon=True)
        self._thread.start()

    def submit(self, job: Job) -> Future:
        """Queue a job; its future gets the Response (or the ProviderError)."""
        if self._closed:
            raise ProviderError(f"{job.label}: the model was unloaded")
        self._queue.put(job)
        return job.future

    def close(self) -> None:
        """Stop the worker after the batch it is running; jobs still queued fail with a clear message."""
        self._closed = True
        self._queue.put(None)

    # ---- the worker thread ---------------------------------------------------------------------------------
    def _loop(self) -> None:
        held: deque[Job] = deque()  # taken from the queue while gathering another mode's batch: they go next
        stopping = False
        while True:
            if held:
                first: Job | None = held.popleft()
            elif stopping:
                break
            else:
                first = self._queue.get()
            if first is None:
                stopping = True
                continue
            batch = [first]
            for job in list(held):  # jobs already waiting: no wait for them
                if len(batch) >= first.batch_size:
                    break
                if self._fits(batch, job):
                    held.remove(job)
                    batch.append(job)
            deadline = first.submitted + first.batch_wait_s
            while not stopping and len(batch) < min(j.batch_size for j in batch):
                remaining = deadline - time.perf_counter()
                try:
                    got = self._queue.get(timeout=remaining) if remaining > 0 else self._queue.get_nowait()
                except queue.Empty:
                    break
                if got is None:
                    stopping = True
                elif self._fits(batch, got):
                    batch.append(got)
                else:
                    held.append(got)
            self._execute([j for j in batch if j.future.set_running_or_notify_cancel()])
        self._fail_queued()

    @staticmethod
    def _fits(batch: list[Job], job: Job) -> bool:
        return job.mode == batch[0].mode and len(batch) < min(job.batch_size, *(j.batch_size for j in batch))

    def _execute(self, jobs: list[Job]) -> None:
        if not jobs:
            return
        started = time.perf_counter()
        for job in jobs:
            job.started, job.batched_with = started, len(jobs)
        try:
            results = self._run(jobs)
        except Exception as exc:  # noqa: BLE001 - a failed batch is retried one by one; a single job gets the error
            if len(jobs) > 1:
                for job in jobs:
                    self._execute([job])
                return
            results = [exc]
        for job, result in zip(jobs, results):
            if isinstance(result, BaseException):
                job.future.set_exception(result)
            else:
                job.future.set_result(result)

    def _fail_queued(self) -> None:
        while True:
            try:
                job = self._queue.get_nowait()
            except queue.Empty:
                return
            if job is not None and job.future.set_running_or_notify_cancel():
                job.future.set_exception(ProviderError(f"{job.label}: the model was unloaded"))
