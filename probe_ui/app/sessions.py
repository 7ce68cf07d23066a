"""A browser session belongs to the person who opened it (issue 52, F48).

Gradio keys everything a page holds on the server (its state, its uploads, its event stream) by a session id that
the page itself sends with each request. Signed in as bob, a request that sent alice's session id got back her
private upload as a preview. So the first signed-in user seen with a session id owns it, and a request that
brings the same id under another user is refused: by :func:`probe_ui.app.access.who` for every event of the app
(whatever the size of the request), and by :class:`probe_ui.app.http_guard.HttpGuard` for the routes that name a
session in their address (the event stream, the heartbeat, streams, deep links) or in a small body (cancel).
An app without a login has one user: nothing to bind.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

#: sessions remembered at most (the oldest first out): a page lives for hours, a session id is 11 random characters
MAX_SESSIONS = 100_000


class SessionOwners:
    """Which signed-in user each session id belongs to."""

    def __init__(self, max_kept: int = MAX_SESSIONS) -> None:
        self.max_kept = max_kept
        self._owners: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()

    def claim(self, session: str | None, user: str | None) -> bool:
        """Whether ``user`` may use ``session``: it is theirs, or new (and now theirs). No session or no user (an
        app without a login): nothing to check."""
        if not session or not user:
            return True
        with self._lock:
            owner = self._owners.get(session)
            if owner is None:
                self._owners[session] = user
                while len(self._owners) > self.max_kept:
                    self._owners.popitem(last=False)
                return True
            self._owners.move_to_end(session)
            return owner == user

    def __len__(self) -> int:
        return len(self._owners)


#: what a refused request is told (the page says it in words; it is not a fault of the person reading it)
REFUSED = "This page was opened by another person's sign-in: reload the page."
