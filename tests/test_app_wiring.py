"""The app's wiring, checked on the built Blocks without a browser: a callback that writes a user error beside a
field (``inline_errors``) must have that message, and any field it marks, among the outputs of every event it is
wired to; otherwise Gradio refuses the reply and the person sees a red "Returned component" toast instead of the
message (the Stress tab's plan line did, while a preset was not chosen yet)."""

from __future__ import annotations

from pathlib import Path

import pytest

from probe_ui.app.blocks import AppContext, build_app
from probe_ui.store import Store


@pytest.mark.parametrize("demo", [False, True])
@pytest.mark.slow
def test_every_inline_error_lands_in_an_output_of_its_event(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            demo: bool) -> None:
    monkeypatch.setenv("PROBE_UI_DISCOVER", "0")
    db = tmp_path / "probe-ui.db"
    app = build_app(AppContext(store=Store(db), db_location=str(db), demo=demo))
    checked, wrong = 0, []
    for block_fn in app.fns.values():
        targets = getattr(block_fn.fn, "error_targets", None)
        if targets is None:
            continue
        checked += 1
        outputs = {id(o) for o in block_fn.outputs}
        missing = [t for t in targets if id(t) not in outputs]
        if missing:
            wrong.append(f"{block_fn.fn.__name__} ({block_fn.api_name or 'private'}): "
                         + ", ".join(getattr(m, "elem_id", None) or type(m).__name__ for m in missing))
    assert checked >= 20, f"only {checked} guarded callbacks found: is the app built as it is served?"
    assert not wrong, "callbacks whose error message is not an output of their event:\n" + "\n".join(wrong)


def test_only_the_newest_computation_of_a_session_and_view_may_be_shown() -> None:
    """probe_ui.app.latest: a result started before a newer one of the same session and view is dropped; other
    sessions and views are untouched, and a forgotten session starts again."""
    from types import SimpleNamespace

    from probe_ui.app.latest import Latest

    latest = Latest(max_sessions=3)
    a, b = SimpleNamespace(session_hash="a"), SimpleNamespace(session_hash="b")
    old = latest.begin(a, "results")
    new = latest.begin(a, "results")
    other_view, other_session = latest.begin(a, "filters"), latest.begin(b, "results")
    assert not latest.is_current(a, "results", old) and latest.is_current(a, "results", new)
    assert latest.is_current(a, "filters", other_view) and latest.is_current(b, "results", other_session)
    assert latest.begin(SimpleNamespace(session_hash="c"), "results") == 1  # the oldest entry was forgotten


def test_what_the_tabs_opening_showed_is_not_shown_twice_but_a_later_choice_is() -> None:
    """probe_ui.app.latest.AlreadyShown: the change event that follows the Results tab's opening skips the runs the
    opening showed; a note is used once, belongs to its session, and a change back to those runs is shown."""
    from types import SimpleNamespace

    from probe_ui.app.latest import AlreadyShown

    shown = AlreadyShown(max_sessions=2)
    a, b = SimpleNamespace(session_hash="a"), SimpleNamespace(session_hash="b")
    shown.note(a, ("run-1",))
    assert not shown.take(b, ("run-1",))  # another session's note is not this one's
    assert shown.take(a, ("run-1",))  # the change that follows the opening: already shown
    assert not shown.take(a, ("run-1",))  # used once: choosing it again later is shown
    shown.note(a, ("run-1",))
    assert not shown.take(a, ("run-2",)) and not shown.take(a, ("run-1",))  # another choice uses the note up
    for s in "abc":
        shown.note(SimpleNamespace(session_hash=s), ("r",))
    assert not shown.take(a, ("r",)) and shown.take(SimpleNamespace(session_hash="c"), ("r",))  # oldest forgotten
