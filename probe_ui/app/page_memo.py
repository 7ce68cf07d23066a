"""What the server remembers of one open page between its events: whether it is in presenter mode, the run its
Probe table shows and the name typed for ratings.

Why here and not as inputs: the Probe tab's public ``run`` and ``preview`` endpoints keep their parameters (scripts
call them by position), yet the table they draw depends on presenter mode (fewer model columns per table, issue 51)
and a new run carries the ratings of the run it replaces. The page tells the server each change as it happens, and
the server keeps it per page, keyed by who is signed in and Gradio's session, in a bounded memory: a page the server
forgot (a restart, thousands of pages later) gets the defaults, never another page's values.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from probe_ui.kept import Kept


@dataclass(frozen=True)
class PageState:
    """One page's choices: presenter mode on or off, the run its Probe table shows ("" none), and the name typed
    for ratings (whose ratings a new run carries over)."""

    presenter: bool
    run: str = ""
    rater: str = ""


class PageMemo:
    """Each open page's :class:`PageState`, by (user, session); ``presenter`` is the default of a new page."""

    def __init__(self, presenter: bool, size: int = 4096) -> None:
        self.default = PageState(presenter)
        self._kept: Kept[tuple[str, str], PageState] = Kept(size)

    @staticmethod
    def _key(owner: str, request: Any) -> tuple[str, str]:
        return owner, str(getattr(request, "session_hash", None) or "")

    def get(self, owner: str, request: Any) -> PageState:
        return self._kept.get(self._key(owner, request)) or self.default

    def update(self, owner: str, request: Any, **changes: Any) -> PageState:
        state = replace(self.get(owner, request), **changes)
        self._kept.put(self._key(owner, request), state)
        return state
