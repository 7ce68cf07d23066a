"""Gradio's signatures read once (probe_ui/app/gradio_signatures.py): a session's configuration, and what an
update becomes, are exactly what Gradio gives without it."""

from __future__ import annotations

import asyncio
import inspect
import json
from pathlib import Path

import gradio as gr
import pytest

from probe_ui.app import gradio_signatures
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
    for name in gradio_signatures.MODULES:  # Gradio's own behaviour, whatever an earlier test in this process did
        module = __import__(name, fromlist=["inspect"])
        monkeypatch.setattr(module, "inspect", inspect)
    plain = _session_and_update(app)
    gradio_signatures.keep_signatures()
    import gradio.blocks

    assert gradio.blocks.inspect is not inspect  # the kept signatures are in use
    before = gradio_signatures._kept.cache_info().hits, gradio_signatures._kept_spec.cache_info().hits
    assert _session_and_update(app) == plain
    assert gradio_signatures._kept.cache_info().hits > before[0]
    assert gradio_signatures._kept_spec.cache_info().hits > before[1]  # the updates' components were made
    assert gradio.blocks.inspect.Parameter is inspect.Parameter  # every other name is the standard library's
