"""Work Gradio repeats for every session, event and update, and its results never change: done once, or not at all.

**Signatures.**
Gradio calls ``inspect.signature`` in its hot paths: for every component of the app each time a session starts
(each component's configuration is built from its ``__init__``'s parameters: 357 of them here), for every update
a callback returns (the updated component's ``__init__`` again, and ``inspect.getfullargspec`` of it as the
component is made), and around every event (the callback's own parameters, to find where the request and the
progress go). A signature costs tens to hundreds of microseconds to build and never changes for a given function:
a new session cost the app 63 ms of CPU, 30 ms with them kept (measured on two cores with this app's 357
components).

:func:`keep_signatures` gives Gradio's modules an ``inspect`` whose ``signature`` and ``getfullargspec`` keep
what they found for plain functions (a class's ``__init__``, a callback); everything else, and every other name
of ``inspect``, is the standard library's own.

**Updates that change nothing.** For every ``gr.update()`` (or ``gr.skip()``) a callback returns, Gradio makes a
new component and rebuilds its whole configuration, to send back ``{"__type__": "update"}``, which the page
ignores. A live probe's every redraw returns eleven of them (the form's fields and the answer's detail, which only
its first redraw changes): 6.3-7.6 ms of Gradio's CPU per redraw, 2.2-3.0 ms when :class:`LeanBlocks` answers
those itself and hands Gradio the rest.

Neither changes what the page is sent: tests/test_gradio_overhead.py compares a session's configuration, each
update's output and the session's components with and without them. (One difference, by design: Gradio's own copy
of a field's configuration for deep links, ``gr.DeepLinkButton``, which probe-ui does not use, forgets the field's
value at an update that changes nothing; here it keeps it.)
"""

from __future__ import annotations

import copy
import functools
import inspect
import types
from typing import Any

import gradio as gr

#: the Gradio modules whose calls are served (each did ``import inspect``)
MODULES = ("gradio.blocks", "gradio.queueing", "gradio.utils", "gradio.helpers", "gradio.component_meta")


@functools.lru_cache(maxsize=4096)
def _kept(fn: types.FunctionType) -> inspect.Signature:
    return inspect.signature(fn)


@functools.lru_cache(maxsize=4096)
def _kept_spec(fn: types.FunctionType) -> inspect.FullArgSpec:
    return inspect.getfullargspec(fn)


class _Inspect:
    """The ``inspect`` module, with ``signature`` and ``getfullargspec`` (both immutable results) kept per plain
    function."""

    def __getattr__(self, name: str) -> Any:
        return getattr(inspect, name)

    @staticmethod
    def signature(obj: Any, *args: Any, **kwargs: Any) -> inspect.Signature:
        if args or kwargs or type(obj) is not types.FunctionType:
            return inspect.signature(obj, *args, **kwargs)
        return _kept(obj)

    @staticmethod
    def getfullargspec(obj: Any) -> inspect.FullArgSpec:
        """Gradio asks this of a component's ``__init__`` each time a component is made, and it makes one for
        every update a callback returns."""
        return _kept_spec(obj) if type(obj) is types.FunctionType else inspect.getfullargspec(obj)


def keep_signatures() -> None:
    """Serve :data:`MODULES`' ``inspect.signature`` calls from :func:`_kept` (idempotent; a module a Gradio release
    lacks, or one that no longer imports ``inspect``, is left as it is)."""
    import importlib

    for name in MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if getattr(module, "inspect", None) is inspect:
            module.inspect = _Inspect()  # type: ignore[attr-defined]


#: what Gradio sends for an update that changes nothing (``gr.update()``, ``gr.skip()``)
NO_CHANGE = {"__type__": "update"}


def _no_change(prediction: Any, block: Any) -> bool:
    """An update that changes nothing, for an output whose answer to it is :data:`NO_CHANGE` (a state keeps its
    value its own way; Gradio answers an HTML component with a ``props`` entry of its own)."""
    return (isinstance(prediction, dict) and prediction == NO_CHANGE and not getattr(block, "stateful", False)
            and not isinstance(block, gr.HTML))


class LeanBlocks(gr.Blocks):
    """``gr.Blocks`` that answers the updates that change nothing without making a component for each (module
    docstring); everything else is Gradio's own postprocessing."""

    async def postprocess_data(self, block_fn: Any, predictions: Any, state: Any) -> list[Any]:
        outputs = list(block_fn.outputs)
        if (not isinstance(predictions, (list, tuple)) or len(predictions) != len(outputs) or len(outputs) < 2
                or block_fn.batch or block_fn.is_validator_function):
            return await super().postprocess_data(block_fn, predictions, state)
        keep = [i for i, (p, block) in enumerate(zip(predictions, outputs)) if not _no_change(p, block)]
        if len(keep) == len(outputs):
            given: Any = predictions  # a tuple too, as Gradio takes a generator's yield
            return await super().postprocess_data(block_fn, given, state)
        out: list[Any] = [dict(NO_CHANGE) for _ in outputs]
        if keep:
            rest = copy.copy(block_fn)
            rest.outputs = [outputs[i] for i in keep]
            kept = [predictions[i] for i in keep]
            got = await super().postprocess_data(rest, kept if len(keep) > 1 else kept[0], state)
            for i, value in zip(keep, got):
                out[i] = value
        return out


__all__ = ["LeanBlocks", "keep_signatures"]
