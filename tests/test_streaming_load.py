"""Under load the app does less work per answer and per light action, without changing what anyone sees:

- a live probe's answers that arrive close together redraw the table once (``run_live(coalesce_s=...)``), and the
  last table still has every answer in its own cell, each stored once;
- events that ask models wait on threads of their own (``probe_ui.app.queues.off_pool``), so a light event (a
  page action on Gradio's shared pool) answers while 64 probes are waiting for their models;
- the app's queue looks for work every 10 ms, not every millisecond (``queues.configure_queue``): the settings
  reach the Gradio queue the app is served with, and a Gradio without them still serves.

No wall-clock goals here (perf/live_probe.py and perf/many_users.py measure them)."""

from __future__ import annotations

import threading
import time
from typing import Any

import anyio
import pytest
from test_live_calls import ct, fresh_limits, models, store, variants  # noqa: F401 - fixtures

from probe_ui import live
from probe_ui.app import queues


def by_model(request: dict[str, Any]) -> str:
    """Each model answers in its own words, after a delay of its own: answers arrive spread out, in any order."""
    model = request["model"]
    time.sleep({"a": 0.05, "b": 0.3, "c": 0.6}.get(model, 0.0))
    return f"B, says {model}"


@pytest.mark.parametrize("coalesce_s", [0.0, 30.0])
def test_coalesced_updates_end_with_every_answer_in_its_cell(store, ct, fake_openai, coalesce_s):  # noqa: F811
    fake_openai.responder = by_model
    extra = models(fake_openai)
    vs = variants(ct)
    states, run = [], ""
    for state in live.run_live(store, vs, list(extra), extra_models=extra, use_cache=False, coalesce_s=coalesce_s):
        states.append([(c.key, c.status, c.raw, c.response_id) for c in state.cards])
        run = state.run
    last = states[-1]
    assert len(last) == len(vs) * 3 and all(status == "answered" for _, status, _, _ in last)
    for (variant_id, model), _, raw, rid in last:  # every answer in its own cell, as stored
        assert raw == f"B, says {model.removeprefix('openai/')}"
        row = store.get_response(rid)
        assert (row["variant_id"], row["model"], row["raw_text"]) == (variant_id, model, raw)
    answers = store.answers_frame(store.get_run(run).id)
    assert len(answers) == len(vs) * 3 and not answers.duplicated(["variant_id", "model"]).any()
    if coalesce_s:
        # the empty table, then every answer at once in the finished table (all arrive well within the window)
        assert len(states) == 2
    else:
        assert len(states) > 3  # without coalescing: a redraw per answer (or per few that arrive together)


def test_a_light_event_answers_while_64_model_events_wait(monkeypatch):
    """64 probes hold their events (each waiting for its models); a light event, on Gradio's shared pool of 40
    threads, still runs at once. Before issue 23 the probes' generators held every thread of that pool."""
    release = threading.Event()
    started = threading.Semaphore(0)

    def probe():  # a model-calling event: a generator that waits for its answers
        started.release()
        release.wait(60)
        yield "answers"

    async def scenario() -> list[str]:
        wrapped = queues.off_pool(probe)
        out: list[str] = []

        async def run_probe() -> None:
            async for item in wrapped():
                out.append(item)

        async with anyio.create_task_group() as tg:
            for _ in range(queues.MODEL_EVENTS):
                tg.start_soon(run_probe)
            for _ in range(queues.MODEL_EVENTS):  # every probe is waiting on its own thread
                await anyio.to_thread.run_sync(started.acquire)
            with anyio.fail_after(30):  # a deadlock detector, not a speed goal
                light = await anyio.to_thread.run_sync(lambda: "model list")  # Gradio's shared pool
            out.append(light)
            release.set()
        return out

    out = anyio.run(scenario)
    assert out[0] == "model list" and out.count("answers") == queues.MODEL_EVENTS


def test_the_served_queue_polls_at_probe_uis_intervals(tmp_path, monkeypatch, caplog):
    """Gradio's queue looks for work every millisecond even when idle (a tenth of a core); the app's queue uses
    probe-ui's intervals. A Gradio release that renamed the attributes fails here instead of quietly polling
    again, and a queue without them still serves, with a line in the log."""
    from probe_ui.app.blocks import AppContext, build_app
    from probe_ui.store import Store

    monkeypatch.setenv("PROBE_UI_DISCOVER", "0")
    db = tmp_path / "probe-ui.db"
    app = build_app(AppContext(store=Store(db), db_location=str(db), demo=False))
    assert app._queue.sleep_when_free == queues.QUEUE_POLL_S == 0.01
    assert app._queue.progress_update_sleep_when_free == queues.PROGRESS_POLL_S
    assert app._queue.default_concurrency_limit == queues.LIGHT_EVENTS

    class OldQueue:  # a queue object without the poll attributes
        pass

    class Blocks:
        def queue(self, default_concurrency_limit: int) -> None:
            self._queue = OldQueue()

    old = Blocks()
    with caplog.at_level("WARNING"):
        queues.configure_queue(old)
    assert not hasattr(old._queue, "sleep_when_free")
    assert "no sleep_when_free" in caplog.text and "no progress_update_sleep_when_free" in caplog.text
