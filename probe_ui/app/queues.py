"""How the app's events share the server: light events never wait behind model calls.

Gradio runs a plain callback, and every step of a generator callback, on one pool of worker threads (40). A live
probe waits for answers inside its generator, so 50 people probing at once held every worker, and a page load, a
model list or a click on an image waited 20 s and more behind them. Here:

- events that ask models (probe, stress, batch, resume, a model's test) are :func:`off_pool`: they wait on threads
  of their own (:data:`MODEL_THREADS`), never on the shared pool, and share one Gradio queue slot group
  (``concurrency_id`` :data:`MODEL_CALLS`, at most :data:`MODEL_EVENTS` at once; the rest queue);
- every other event keeps Gradio's default: up to :data:`LIGHT_EVENTS` of each at once, on the shared pool;
- the queue looks for new work every :data:`QUEUE_POLL_S` (Gradio's own loop looks every millisecond, even with
  nothing to do: a tenth of a core for an idle app, and a thousand wake-ups a second that busy servers' real work
  waits behind), and for progress to send every :data:`PROGRESS_POLL_S` (:func:`configure_queue`).

How many requests reach one provider at once is the library's: a live probe's calls (from any of these events)
wait on one fair limit per provider and server shared by every session (:mod:`probe_ui.live.calls`, shown in the
Models tab), not on a queue here.
"""

from __future__ import annotations

import functools
import inspect
import logging
from typing import Any, Callable

import anyio

#: the queue group of every event that asks models
MODEL_CALLS = "model-calls"
#: model-calling events running at once, across all sessions (the rest wait in the queue, in order)
MODEL_EVENTS = 64
#: threads that model-calling events wait on (one per running event), apart from Gradio's shared pool
MODEL_THREADS = anyio.CapacityLimiter(MODEL_EVENTS)
#: each light event (page actions), at once
LIGHT_EVENTS = 8
#: seconds between the queue's looks for new work while it has none (Gradio's default: 0.001 s, 0.05 s on Windows):
#: an event waits at most this long before it starts
QUEUE_POLL_S = 0.01
#: seconds between the queue's looks for progress to send (Gradio's default: 0.01 s, 0.1 s on Windows)
PROGRESS_POLL_S = 0.05
_DONE = object()


def configure_queue(app: Any) -> None:
    """Turn on ``app``'s Gradio queue with probe-ui's settings (module docstring). The poll intervals are
    attributes of Gradio's queue object, not a public setting: where a Gradio release lacks them, the app still
    starts, with Gradio's own intervals, and says so in its log."""
    app.queue(default_concurrency_limit=LIGHT_EVENTS)
    queue = getattr(app, "_queue", None)
    for name, seconds in (("sleep_when_free", QUEUE_POLL_S), ("progress_update_sleep_when_free", PROGRESS_POLL_S)):
        if hasattr(queue, name):
            setattr(queue, name, seconds)
        else:
            logging.getLogger(__name__).warning("this Gradio's queue has no %s: it keeps Gradio's own interval", name)


def model_event(**kwargs: Any) -> dict[str, Any]:
    """The event settings of a model-calling event: ``btn.click(fn, ..., **model_event(api_name=...))``."""
    return {"concurrency_id": MODEL_CALLS, "concurrency_limit": MODEL_EVENTS, **kwargs}


def off_pool(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` (a plain function or a generator) as a coroutine (or async generator) whose work runs on
    :data:`MODEL_THREADS`, so that waiting for models never holds a thread of Gradio's shared pool. The signature
    is kept (Gradio passes the request and progress by it)."""
    if inspect.isgeneratorfunction(fn):
        @functools.wraps(fn)
        async def stream(*args: Any, **kwargs: Any) -> Any:
            it = fn(*args, **kwargs)
            try:
                while True:
                    item = await anyio.to_thread.run_sync(next, it, _DONE, limiter=MODEL_THREADS)
                    if item is _DONE:
                        return
                    yield item
            finally:  # a closed page: the generator's own clean-up (its finally blocks) runs
                await anyio.to_thread.run_sync(it.close, limiter=MODEL_THREADS)
        return stream

    @functools.wraps(fn)
    async def call(*args: Any, **kwargs: Any) -> Any:
        return await anyio.to_thread.run_sync(functools.partial(fn, *args, **kwargs), limiter=MODEL_THREADS)
    return call
