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
    return json.dumps(shown, default=repr, sort_keys=True), _kept(state, app)


def _kept(state: object, app: gr.Blocks) -> str:
    """The session's copy of each of the app's components' configuration, less its value and ``_selectable``
    (Gradio's new component for an update forgets that the original has a select listener; the table's cells stay
    clickable either way, as the page keeps its own copy)."""
    kept = {k: {**c, "props": {p: v for p, v in c.get("props", {}).items() if p not in ("value", "_selectable")}}
            for k, c in state.config_values.items() if k in app.blocks}  # type: ignore[attr-defined]
    return json.dumps(kept, default=repr, sort_keys=True)


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


def test_a_live_probes_redraws_are_answered_as_gradio_answers_them(tmp_path: Path) -> None:
    """Two live probes' redraws in one session, as probe_tab sends them: the first redraw of each closes the detail
    and unmarks the fields, the later ones change the table, the run's name and its message only. The page gets
    what Gradio sends at every redraw, and the session ends with the same values and configuration. Gradio's
    session also keeps a configuration for every component it made for an update (six more a probe here, for as
    long as the session lives); this one keeps none, where it makes none."""
    from gradio.state_holder import SessionState

    from probe_ui.app import detail

    db = tmp_path / "probe-ui.db"
    app = build_app(AppContext(store=Store(db), db_location=str(db), demo=True))
    run = next(f for f in app.fns.values() if f.api_name == "run")
    n = len(run.outputs)
    first = (*[gr.update(elem_classes=[])] * 4, *detail.cleared())
    later = (*[gr.update()] * 4, *[gr.update()] * (n - 7))
    assert len(first) == n - 3
    redraws = []
    for probe in ("a", "b"):
        for k, rest in enumerate((first, later, later)):
            table = {"html": f"<table><tr><td>{probe} {k}</td></tr></table>", "run": f"live-{probe}"}
            redraws.append([table, f"live-{probe}", "" if k else "<b>started</b>", *rest])
    states = SessionState(app), SessionState(app)
    for predictions in redraws:
        ours = asyncio.run(app.postprocess_data(run, list(predictions), states[0]))
        theirs = asyncio.run(gr.Blocks.postprocess_data(app, run, list(predictions), states[1]))
        assert json.dumps(ours, default=repr, sort_keys=True) == json.dumps(theirs, default=repr, sort_keys=True)
    assert _kept(states[0], app) == _kept(states[1], app)
    assert set(states[0].config_values) <= set(app.blocks)  # nothing kept beyond the app's own components
    values = [b._id for b in run.outputs[:3]]  # the outputs that took values: the same values kept
    assert [states[0].config_values[i]["props"]["value"] for i in values] == \
        [states[1].config_values[i]["props"]["value"] for i in values]
    table = run.outputs[0]._id
    assert states[0].config_values[table]["props"]["_selectable"] is True  # its cells still open an answer


def test_a_value_an_output_cannot_take_fails_as_in_gradio() -> None:
    """A callback's value that the output cannot show (text for a number) is refused with Gradio's own error, which
    names the output, not an error of the shortcut's."""
    from gradio.state_holder import SessionState

    with gradio_overhead.LeanBlocks() as app:
        number, text = gr.Number(label="count", precision=0), gr.Textbox(label="name")
        gr.Button().click(lambda: ("many", "x"), None, [number, text])
    fn = next(iter(app.fns.values()))
    errors = []
    for run in (app.postprocess_data, lambda *a: gr.Blocks.postprocess_data(app, *a)):
        with pytest.raises(Exception) as caught:
            asyncio.run(run(fn, ["many", "x"], SessionState(app)))
        errors.append((type(caught.value), str(caught.value)))
    assert errors[0][0] is errors[1][0]  # Gradio's error (its list of the event's outputs is the ones it was handed)
    for _, message in errors:
        assert "a `number` component" in message and "'many'" in message
