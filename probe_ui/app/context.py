"""What every tab of one app process shares: the store, the benchmark-set folder, the users and their endpoints
(keys in memory only), their spending limits, the outbound policy, and the cancel switches of running batches and
probes, each with the owner who started it."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

from probe_ui.app.sessions import SessionOwners
from probe_ui.catalogue.endpoints import EndpointBook
from probe_ui.live.sets import presets_dir_for, visible_sets
from probe_ui.presets import PresetError, bundled_presets
from probe_ui.runner.allowance import Allowance, UserCap
from probe_ui.security.outbound import OPEN, OutboundPolicy
from probe_ui.security.users import Accounts
from probe_ui.store import Store
from probe_ui.views.results_cache import ScoredCache

#: a saved benchmark set among the preset choices: ``set:<name>`` (bundled presets are offered by their name)
SET_PREFIX = "set:"


@dataclass
class Running:
    """A batch or live probe in progress: its cancel switch and whose it is (:attr:`probe_ui.app.access.Who.owner`)."""

    cancel: threading.Event
    owner: str


@dataclass
class AppContext:
    store: Store
    db_location: str
    demo: bool = False
    #: the users who may sign in; None: an app without a login (loopback only), whose one user is the local user
    accounts: Accounts | None = None
    #: where endpoints added in the app may point (probe_ui.security.outbound)
    policy: OutboundPolicy = OPEN
    endpoints: EndpointBook = field(default=None)  # type: ignore[assignment]  # made from ``policy``
    running: dict[str, Running] = field(default_factory=dict)
    #: scored tables and Results views per person, run set and store state (probe_ui.views.results_cache)
    results_cache: ScoredCache = field(default_factory=ScoredCache, repr=False)
    #: which signed-in user each browser session belongs to (probe_ui.app.sessions)
    sessions: SessionOwners = field(default_factory=SessionOwners, repr=False)
    #: what each signed-in user has spent, held to the limit the users file gives them (probe_ui.runner.allowance);
    #: None without a login
    allowance: Allowance | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __post_init__(self) -> None:
        if self.endpoints is None:
            self.endpoints = EndpointBook(self.policy, many_users=self.accounts is not None)
        if self.allowance is None and self.accounts is not None:
            self.allowance = Allowance(self.store, self.accounts.limit)

    def spend_cap(self, user: str, signed_in: bool) -> UserCap | None:
        """The hold on a signed-in user's spending limit for one action (in any run: each call is stored with who
        asked it); None without a login (the app on loopback, whose one user has no limit)."""
        if self.allowance is None or not signed_in:
            return None
        return self.allowance.cap(user)

    @property
    def presets_dir(self) -> Path:
        return presets_dir_for(self.db_location)

    # ---- presets and sets: offered by name, never by a path on the server -------------------------------------
    def preset_paths(self, user: str | None = None) -> list[tuple[str, str]]:
        """(label, value) of the bundled presets (value: the preset's name), then of the benchmark sets ``user`` may
        use (value ``set:<name>``; their own, and those shared with everyone). Values are resolved by
        :meth:`preset_path`; no path on the server reaches the page."""
        return ([(f"{p.stem} (bundled)", p.stem) for p in bundled_presets()]
                + [(f"{p.stem} ({how if how != 'yours' else 'your set'})", f"{SET_PREFIX}{p.stem}")
                   for p, how in visible_sets(self.presets_dir, user)])

    def preset_path(self, choice: str | None, user: str | None = None) -> str:
        """The file of a preset choice (:meth:`preset_paths`); PresetError for anything else (a path typed into
        the API included: the app reads only the presets it offers)."""
        value = (choice or "").strip()
        if value.startswith(SET_PREFIX):
            name = value[len(SET_PREFIX):]
            for path, _how in visible_sets(self.presets_dir, user):
                if path.stem == name:
                    return str(path)
        else:
            stem = value.removesuffix(".yaml")
            for path in bundled_presets():
                if path.stem == stem:
                    return str(path)
        raise PresetError(f"unknown preset {value[:80]!r}: choose one from the list (a bundled preset by name, or "
                          f"{SET_PREFIX}NAME for a benchmark set)")

    # ---- running work -----------------------------------------------------------------------------------------
    def cancel_event(self, run_name: str, owner: str = "") -> threading.Event:
        """The cancel switch of a run that ``owner`` starts now (a run of that name already running stays its
        starter's: a second batch of it is refused by the store's run lock anyway)."""
        with self._lock:
            running = self.running.get(run_name)
            if running is not None and not running.cancel.is_set() and running.owner != owner:
                return threading.Event()
            if running is None or running.cancel.is_set():
                running = self.running[run_name] = Running(threading.Event(), owner)
            return running.cancel

    def finished(self, run_name: str, cancel: threading.Event | None = None) -> None:
        """Forget a run's switch when its work ends (``cancel``: only if it is still this switch)."""
        with self._lock:
            running = self.running.get(run_name)
            if running is not None and (cancel is None or running.cancel is cancel):
                del self.running[run_name]

    def cancel(self, run_name: str, owner: str = "", *, anyone: bool = False) -> bool:
        """Ask a running batch or live probe to stop sending requests. Only the owner who started it may, or a
        caller allowed to cancel ``anyone``'s; False when no such run of theirs is running (the same answer
        whether someone else's run of that name is running or not)."""
        with self._lock:
            running = self.running.get(run_name)
            if running is None or running.cancel.is_set() or not (anyone or running.owner == owner):
                return False
            running.cancel.set()
            return True
