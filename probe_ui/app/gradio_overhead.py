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

**Updates that change nothing, and plain values.** For every ``gr.update()`` (or ``gr.skip()``) a callback
returns, Gradio makes a new component and rebuilds its whole configuration, to send back ``{"__type__":
"update"}``, which the page ignores; it does the same for an update whose properties are the ones the component
already has (a form field unmarked at every run); and it hands every plain value (a table's HTML, a run's name) to
a worker thread to postprocess, then searches it twice for files. A live probe's every redraw returns three
values and eleven updates that change nothing (the form's fields and the answer's detail, which only its first
redraw changes). Measured on two cores: Gradio's own postprocessing 3.6-5.1 ms per redraw; with :class:`LeanBlocks`
answering those cases itself (:func:`_answer`), 0.3-0.5 ms (every redraw from a session's second run on). Each
component Gradio makes for an update also stays in the session's configuration for as long as the session lives
(six more for each live probe); none is made here for these cases.

Neither changes what the page is sent: tests/test_gradio_overhead.py compares a session's configuration, each
update's output and the session's components with and without them. (One difference, by design: Gradio's own copy
of a field's configuration for deep links, ``gr.DeepLinkButton``, which probe-ui does not use, forgets the field's
value at an update that changes nothing, and the new component it makes forgets that the original has a select
listener (``_selectable``); here both are kept.)
"""

from __future__ import annotations

import copy
import functools
import inspect
import types
from typing import Any

import gradio as gr
from gradio.blocks import Block, postprocess_update_dict
from gradio.utils import delete_none, is_prop_update

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

#: ... and for such an update to an HTML output: Gradio hands an HTML component's update keys that are not
#: ``__init__`` parameters on as ``props``, and ``__type__`` is one of them
HTML_NO_CHANGE = {"props": {"__type__": "update"}, "__type__": "update"}

#: outputs whose ``postprocess`` is a pure, cheap function of the value (no files, no I/O): Gradio runs it on a
#: worker thread for every output of every redraw; here it runs where the answer is put together
INLINE = (gr.HTML, gr.Markdown, gr.Textbox, gr.Number, gr.Radio, gr.Checkbox, gr.Dropdown, gr.CheckboxGroup,
          gr.Slider)

_UNANSWERED = object()


def _plain(value: Any, depth: int = 0) -> bool:
    """A value with no file in it (Gradio's file hand-over looks for ``FileData`` dicts, which carry ``meta``)."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return True
    if depth > 4:
        return False
    if isinstance(value, (list, tuple)):
        return all(_plain(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return "meta" not in value and all(isinstance(k, str) and _plain(v, depth + 1) for k, v in value.items())
    return False


def _same(a: Any, b: Any) -> bool:
    try:
        return type(a) is type(b) and bool(a == b)
    except Exception:  # noqa: BLE001 - a value that cannot be compared is taken as changed
        return False


def _answer(prediction: Any, block: Any, state: Any) -> Any:
    """What Gradio would send for this output, worked out without making a component, or ``_UNANSWERED`` for the
    cases left to Gradio. Three cases are answered here:

    - an update that changes nothing: :data:`NO_CHANGE` (:data:`HTML_NO_CHANGE` for HTML);
    - an update whose properties are all the ones the session's component was made with (the form's fields,
      unmarked at each run's first redraw, when an earlier run unmarked them already): Gradio's answer from that
      component, where Gradio would make an identical one;
    - a plain value for an :data:`INLINE` output, postprocessed in place, where Gradio hands it to a worker
      thread and searches it twice for files it cannot hold.
    """
    if getattr(block, "stateful", False):
        return _UNANSWERED
    if isinstance(prediction, dict) and prediction == NO_CHANGE:
        return copy.deepcopy(HTML_NO_CHANGE) if isinstance(block, gr.HTML) else dict(NO_CHANGE)
    current = state[block._id] if block._id in state else block
    if isinstance(prediction, dict) and is_prop_update(prediction):
        update = delete_none(dict(prediction), skip_value=True)
        made_with = getattr(current, "constructor_args", None)
        if made_with is None or type(current) is not type(block):
            return _UNANSWERED
        if not all(k in made_with and _same(made_with[k], v)
                   for k, v in update.items() if k not in ("value", "__type__")):
            return _UNANSWERED
        if "value" in update and not (type(block) in INLINE and _plain(update["value"])):
            return _UNANSWERED
        try:
            answer = postprocess_update_dict(block=current, update_dict=update, postprocess=True)
        except Exception:  # noqa: BLE001 - Gradio's own path raises it, with the output named
            return _UNANSWERED
        if block._id not in state:
            state[block._id] = current
        if "value" in answer:
            state._update_value_in_config(block._id, answer["value"])
        return answer
    if type(block) in INLINE and not isinstance(prediction, (dict, Block)) and _plain(prediction):
        try:
            value = current.postprocess(prediction)
        except Exception:  # noqa: BLE001 - Gradio's own path raises it, with the output named
            return _UNANSWERED
        if not _plain(value):
            return _UNANSWERED
        if block._id not in state:
            state[block._id] = current
        state._update_value_in_config(block._id, value)
        return value
    return _UNANSWERED


class LeanBlocks(gr.Blocks):
    """``gr.Blocks`` that answers the outputs :func:`_answer` can answer without making a component for each
    (module docstring); everything else is Gradio's own postprocessing."""

    async def postprocess_data(self, block_fn: Any, predictions: Any, state: Any) -> list[Any]:
        outputs = list(block_fn.outputs)
        if (not isinstance(predictions, (list, tuple)) or len(predictions) != len(outputs) or len(outputs) < 2
                or block_fn.batch or block_fn.is_validator_function or not block_fn.postprocess or state is None):
            return await super().postprocess_data(block_fn, predictions, state)
        out: list[Any] = [_answer(p, block, state) for p, block in zip(predictions, outputs)]
        keep = [i for i, answer in enumerate(out) if answer is _UNANSWERED]
        if len(keep) == len(outputs):
            given: Any = predictions  # a tuple too, as Gradio takes a generator's yield
            return await super().postprocess_data(block_fn, given, state)
        if keep:
            rest = copy.copy(block_fn)
            rest.outputs = [outputs[i] for i in keep]
            kept = [predictions[i] for i in keep]
            got = await super().postprocess_data(rest, kept if len(keep) > 1 else kept[0], state)
            for i, value in zip(keep, got):
                out[i] = value
        return out


__all__ = ["LeanBlocks", "keep_signatures"]
