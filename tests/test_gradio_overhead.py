"""Gradio's repeated work trimmed (probe_ui/app/gradio_overhead.py): a session's configuration, what each update
becomes and what the session keeps are exactly what Gradio gives without it."""

from __future__ import annotations

import asyncio
import inspect
import json
from pathlib import Path

import gradio as gr
import pytest

from probe_ui.app import gradio_overhead
from probe_ui.app.blocks import AppContext, build_app
from probe_ui.store import Store


def _session_and_update(app: gr.Blocks) -> str:
    from gradio.state_holder import SessionState

    state = SessionState(app)
    fn = next(f for f in app.fns.values() if len(f.outputs) > 2)
    updates = [gr.update(visible=False, elem_classes=["marked"])] * len(fn.outputs)
    shown = asyncio.run(app.postprocess_data(fn, updates, state))
    return json.dumps([state.config_values, shown], default=repr, sort_keys=True)


def test_a_session_is_configured_as_without_kept_signatures(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "probe-ui.db"
    app = build_app(AppContext(store=Store(db), db_location=str(db), demo=True))
    for name in gradio_overhead.MODULES:  # Gradio's own behaviour, whatever an earlier test in this process did
        module = __import__(name, fromlist=["inspect"])
        monkeypatch.setattr(module, "inspect", inspect)
    plain = _session_and_update(app)
    gradio_overhead.keep_signatures()
    import gradio.blocks

    assert gradio.blocks.inspect is not inspect  # the kept signatures are in use
    before = gradio_overhead._kept.cache_info().hits, gradio_overhead._kept_spec.cache_info().hits
    assert _session_and_update(app) == plain
    assert gradio_overhead._kept.cache_info().hits > before[0]
    assert gradio_overhead._kept_spec.cache_info().hits > before[1]  # the updates' components were made
    assert gradio.blocks.inspect.Parameter is inspect.Parameter  # every other name is the standard library's


def _postprocessed(app: gr.Blocks, fn: object, predictions: list[object], own: bool) -> tuple[str, str]:
    """(what the page is sent, the session's copy of each component's configuration less its value)."""
    from gradio.state_holder import SessionState

    state = SessionState(app)
    run = app.postprocess_data if own else lambda *a: gr.Blocks.postprocess_data(app, *a)
    shown = asyncio.run(run(fn, list(predictions), state))
    kept = {k: {**c, "props": {p: v for p, v in c.get("props", {}).items() if p != "value"}}
            for k, c in state.config_values.items()}
    return json.dumps(shown, default=repr, sort_keys=True), json.dumps(kept, default=repr, sort_keys=True)


def test_updates_that_change_nothing_are_answered_as_gradio_answers_them(tmp_path: Path) -> None:
    """The page gets exactly what Gradio sends, and the session keeps the same components. One difference, by
    design: Gradio's copy of a field's configuration for deep links (gr.DeepLinkButton, which probe-ui does not
    use) loses the field's value at an update that changes nothing; here it keeps it."""
    db = tmp_path / "probe-ui.db"
    app = build_app(AppContext(store=Store(db), db_location=str(db), demo=True))
    assert isinstance(app, gradio_overhead.LeanBlocks)
    assert not any(type(b).__name__ == "DeepLinkButton" for b in app.blocks.values())
    run = next(f for f in app.fns.values() if f.api_name == "run")  # the live probe: 14 outputs
    n = len(run.outputs)
    assert n > 10
    mixes = [
        [gr.update() if i % 3 == 0 else gr.skip() if i % 3 == 1 else gr.update(visible=True, elem_classes=["x"])
         for i in range(n)],
        [gr.update()] * n,  # nothing changes
        [gr.update(visible=False)] + [gr.skip()] * (n - 1),  # one output left for Gradio
        [gr.update(elem_classes=[])] * n,  # every one changes
    ]
    for predictions in mixes:
        assert _postprocessed(app, run, predictions, own=True) == _postprocessed(app, run, predictions, own=False)
    one = next(f for f in app.fns.values() if len(f.outputs) == 1)  # a single output goes to Gradio as it is
    assert _postprocessed(app, one, [gr.update()], own=True) == _postprocessed(app, one, [gr.update()], own=False)
