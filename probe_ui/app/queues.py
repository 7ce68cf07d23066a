"""How the app's events share the server: light events never wait behind model calls.

Gradio runs a plain callback, and every step of a generator callback, on one pool of worker threads (40). A live
probe waits for answers inside its generator, so 50 people probing at once held every worker, and a page load, a
model list or a click on an image waited 20 s and more behind them. Here:

- events that ask models (probe, stress, batch, resume, a model's test) are :func:`off_pool`: they wait on threads
  of their own (:data:`MODEL_THREADS`), never on the shared pool, and share one Gradio queue slot group
  (``concurrency_id`` :data:`MODEL_CALLS`, at most :data:`MODEL_EVENTS` at once; the rest queue);
- every other event keeps Gradio's default: up to :data:`LIGHT_EVENTS` of each at once, on the shared pool.

How many requests reach one provider at once is the library's: a live probe's calls (from any of these events)
wait on one fair limit per provider and server shared by every session (:mod:`probe_ui.live_calls`, shown in the
Models tab), not on a queue here.
"""

from __future__ import annotations

import functools
import inspect
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
_DONE = object()


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
