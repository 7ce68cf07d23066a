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


@pytest.mark.parametrize("change_first", [True, False])
def test_the_results_a_tab_opening_chose_are_drawn_once_whichever_event_comes_first(change_first: bool) -> None:
    """probe_ui.app.latest.Opening: after an opening chose run r, exactly one of the run list's change event and
    the opening's own chained draw draws r, in either order; if the change event never comes, the opening's draw
    still does. A choice the user made since is drawn by its own change event, and the opening's draw skips."""
    from types import SimpleNamespace

    from probe_ui.app.latest import Opening

    opening = Opening()
    a, b = SimpleNamespace(session_hash="a"), SimpleNamespace(session_hash="b")
    opening.opened(a, ["r"])
    order = [False, True] if change_first else [True, False]
    assert [opening.claim(a, ["r"], by_opening=o) for o in order] == [True, False]
    assert opening.claim(a, ["r"], by_opening=False)  # a later change back to r is drawn again
    assert not opening.claim(a, ["r"], by_opening=True)  # nothing pending: the opening's draw never repeats

    opening.opened(a, ["r"])  # the change event never comes (the first opening's race)
    assert opening.claim(a, ["r"], by_opening=True)
    assert opening.claim(a, ["s"], by_opening=False)  # the user's next choice is drawn

    opening.opened(a, ["r"])
    assert opening.claim(a, ["s"], by_opening=False)  # the user chose s before either event drew r
    assert not opening.claim(a, ["s"], by_opening=True)  # the opening's draw, reading s, leaves it to the change
    assert opening.claim(b, ["r"], by_opening=False)  # another session: nothing pending, its change draws

    opening.opened(a, ["r"])
    opening.opened(a, None)  # opened again with r still chosen: the opening drew it itself
    assert opening.claim(a, ["r"], by_opening=False) and not opening.claim(a, ["r"], by_opening=True)
