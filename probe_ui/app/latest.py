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


__all__ = ["Latest"]
