"""Only the newest request of a view is shown: each long computation is tied to the selection that started it.

A view (the Results tables, a filter list, the Stress summary) is recomputed whenever its selection changes, and the
computations run side by side: selecting a run and then removing it starts two, and the first (over more answers)
can finish last. Each computation takes a ticket for its browser session and view when it starts; when it ends, a
result whose ticket is no longer the newest belongs to a superseded selection and is dropped (``gr.skip()``), so
what a view shows is always what its current selection asked for.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

#: sessions remembered per view (the oldest are forgotten first; a forgotten session simply starts again at 1)
MAX_SESSIONS = 10_000


class Latest:
    """The newest ticket per (browser session, view)."""

    def __init__(self, max_sessions: int = MAX_SESSIONS) -> None:
        self._lock = threading.Lock()
        self._newest: OrderedDict[tuple[str, str], int] = OrderedDict()
        self._max = max_sessions

    @staticmethod
    def _key(request: Any, view: str) -> tuple[str, str]:
        return (str(getattr(request, "session_hash", None) or ""), view)

    def begin(self, request: Any, view: str) -> int:
        """A new computation of ``view`` for ``request``'s session: its ticket (every older one is superseded)."""
        key = self._key(request, view)
        with self._lock:
            ticket = self._newest.pop(key, 0) + 1
            self._newest[key] = ticket
            while len(self._newest) > self._max:
                self._newest.popitem(last=False)
        return ticket

    def is_current(self, request: Any, view: str, ticket: int) -> bool:
        """Whether ``ticket`` is still the newest of its session and view (its result may be shown)."""
        with self._lock:
            return self._newest.get(self._key(request, view), ticket) == ticket


class Opening:
    """Which of two events draws a view's first results after a tab's opening chose its selection.

    Opening a tab that had nothing chosen sets its selection; the selection's change event then draws the results.
    Gradio draws a tab's contents only when it is first opened, and on that first opening the change event of a
    list not yet on the page may never come (a CI run once showed nothing for 120 s). So the opening also chains a
    draw of its own. Each of the two asks ``claim``: the first to ask about the selection the opening chose draws,
    the second skips, so the results are drawn once whichever comes first, and a selection the user changed since
    is drawn by its own change event.
    """

    def __init__(self, max_sessions: int = MAX_SESSIONS) -> None:
        self._lock = threading.Lock()
        self._pending: OrderedDict[str, tuple[tuple[str, ...], bool]] = OrderedDict()  # selection, drawn yet
        self._max = max_sessions

    @staticmethod
    def _key(request: Any) -> str:
        return str(getattr(request, "session_hash", None) or "")

    def opened(self, request: Any, chosen: list[str] | None) -> None:
        """The tab's opening set the selection to ``chosen`` (None: it kept the one there, and drew it itself)."""
        key = self._key(request)
        with self._lock:
            self._pending.pop(key, None)
            if chosen is not None:
                self._pending[key] = (tuple(chosen), False)
                while len(self._pending) > self._max:
                    self._pending.popitem(last=False)

    def claim(self, request: Any, chosen: list[str], by_opening: bool) -> bool:
        """Whether this event should draw ``chosen``: the opening's own draw (``by_opening``) only while its
        selection is still waiting for a first draw; the change event unless the opening already drew it."""
        key = self._key(request)
        with self._lock:
            sel, drawn = self._pending.get(key, (None, False))
            if sel != tuple(chosen):  # nothing pending, or the user changed the selection since the opening
                if not by_opening:
                    self._pending.pop(key, None)
                return not by_opening
            if drawn:  # the other event drew it: this one is the second
                self._pending.pop(key, None)
                return False
            self._pending[key] = (sel, True)
            return True


__all__ = ["Latest", "Opening"]
