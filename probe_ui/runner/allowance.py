"""Each user's spending limit in the app (issue 50): what a signed-in user has spent of the server's API keys, and
the cap that holds every call they make to it.

An admin gives a user a limit in US dollars in the users file (``probe-ui users limit NAME USD``: the field
``max_cost_usd``, :mod:`probe_ui.security.users`); the app reads it at every request, as it reads roles, so a
limit set, raised or cleared counts from the user's next call.

**What a user has spent** (:meth:`Allowance.spent`): the stored cost of every call they asked, in any run
(:meth:`probe_ui.store.Store.user_cost`: answers and judges, each stored with who asked it, so a judge asked of
someone else's run counts against the person who asked, not the run's maker, across restarts; a cached answer
costs nothing), plus the estimated cost of their requests in flight, plus the calls that are never stored (a
model's Test on the Models tab) since the app started. A model without a price that
costs nothing (a baseline, ``hf/``, a server on this machine: :func:`~probe_ui.runner.spend.costs_nothing`) never
counts; a model with a price counts at its price (:func:`~probe_ui.runner.spend.estimate`, the same estimate
``--max-cost`` reserves), and a model with no price that is not free cannot be held, so a user with a limit is
refused it (:meth:`UserCap.refusals`).

**Holding the calls** (:class:`UserCap`, one per action: a live probe, a batch or its Resume, a stress test, the
Results tab's judge): it has the interface of :class:`~probe_ui.runner.spend.SpendCap`, so the runner's
:func:`~probe_ui.runner.execute_cells` and :func:`~probe_ui.runner.run_batch` use it as they use ``--max-cost``.
Before each request its estimate is reserved against the user's limit, under one lock per user: the spend so far,
every request of theirs in flight (in any of their actions) and this one must fit, so that requests sent at once
never pass the limit together. The first that does not fit is not sent, and no later request of the action is; the
answers already in are kept, and :meth:`UserCap.line` says in one line why (:func:`limit_line`). Each reply's cost
then replaces its estimate, as for ``--max-cost``.

While an action of the user is open (a :class:`UserCap` inside its ``with`` block) their spend is counted here: the
store's figure when the first of their open actions began, then each call's cost as it comes back (a reply is
settled before it is stored, so the store cannot be read meanwhile without missing it). Once none is open, the
store is read again.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from probe_ui.errors import ProbeUIError
from probe_ui.messages import Request, Response
from probe_ui.providers.base import ModelConfig
from probe_ui.runner.spend import SpendCap, SpendCapReached, actual_cost, charged, costs_nothing, estimate, priced, usd

if TYPE_CHECKING:
    from probe_ui.store import Store

__all__ = ["Allowance", "LimitReached", "SpendLimitReached", "UserCap", "limit_line", "unpriced_line"]


def limit_line(limit: float, spent: float) -> str:
    """The one line a user reads when their spending limit stops a call."""
    return f"Your spending limit of {usd(limit)} is reached ({usd(spent)} spent); ask an admin to raise it."


def unpriced_line(models: str | list[str]) -> str:
    """Why a user with a spending limit cannot ask models whose price is not known."""
    names = [models] if isinstance(models, str) else list(models)
    one = len(names) == 1
    return (f"{', '.join(names)} {'has' if one else 'have'} no known price, so your spending limit cannot hold "
            f"{'its' if one else 'their'} calls; ask an admin to give {'it' if one else 'them'} a price "
            "(price_input_per_m and price_output_per_m in the catalogue entry)")


class LimitReached(SpendCapReached):
    """A request that would take its user past their limit (or to a model the limit cannot hold): not sent."""

    def __init__(self, line: str) -> None:
        super().__init__(line)
        self.line = line


class SpendLimitReached(ProbeUIError):
    """An action refused before it starts: the user's limit leaves nothing for a model that costs."""

    def __init__(self, line: str) -> None:
        super().__init__(line)
        self.line = line


@dataclass
class _Ledger:
    """One user's spend while actions of theirs are open (module doc)."""

    base: float = 0.0  # the store's figure when the first open action began
    settled: float = 0.0  # their calls back since then
    reserved: float = 0.0  # estimates of their requests in flight
    unstored: float = 0.0  # calls never stored (a model's Test on the Models tab), since the app started
    open: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)


class Allowance:
    """Every user's spend and limit in one app process (module doc). ``limit_of(user)`` is their limit in USD now
    (None: none), e.g. :meth:`probe_ui.security.users.Accounts.limit`."""

    def __init__(self, store: Store, limit_of: Callable[[str], float | None]) -> None:
        self.store = store
        self.limit_of = limit_of
        self._ledgers: dict[str, _Ledger] = {}
        self._lock = threading.Lock()

    def _ledger(self, user: str) -> _Ledger:
        with self._lock:
            return self._ledgers.setdefault(user, _Ledger())

    def limit(self, user: str) -> float | None:
        return self.limit_of(user)

    def spent(self, user: str) -> float:
        """What ``user`` has spent (module doc): the stored cost of the calls they asked, plus their requests in
        flight."""
        led = self._ledger(user)
        with led.lock:
            if led.open:
                return led.base + led.settled + led.reserved + led.unstored
            unstored = led.unstored
        return float(self.store.user_cost(user)) + unstored

    def check(self, user: str, models: list[ModelConfig] | None = None, cheapest: float = 0.0) -> None:
        """Raise :class:`SpendLimitReached` (its line) when ``user``'s limit is reached, or leaves less than
        ``cheapest`` (the smallest estimate of the requests about to be sent), and one of ``models`` (None: any model)
        costs: nothing they ask of it could be sent. Models that cost nothing are never refused."""
        limit = self.limit(user)
        if limit is None or (models is not None and not any(charged(m) for m in models)):
            return
        spent = self.spent(user)
        if spent >= limit - 1e-12 or spent + cheapest > limit + 1e-12:
            raise SpendLimitReached(limit_line(limit, spent))

    def cap(self, user: str) -> UserCap:
        """The cap of one action of ``user`` (whichever run stores its calls: each is stored with who asked it);
        use it in a ``with`` block around the calls."""
        return UserCap(self, user)

    # ---- the ledger ------------------------------------------------------------------------------------------
    def _open(self, user: str) -> None:
        led = self._ledger(user)
        with led.lock:  # one user's first action reads the store; other users are not held up
            if led.open == 0:
                led.base, led.settled, led.reserved = float(self.store.user_cost(user)), 0.0, 0.0
            led.open += 1

    def _close(self, user: str, left: float) -> None:
        led = self._ledger(user)
        with led.lock:
            led.reserved = max(0.0, led.reserved - left)
            led.open = max(0, led.open - 1)

    def _reserve(self, user: str, cost: float) -> None:
        limit = self.limit(user)
        led = self._ledger(user)
        with led.lock:
            spent = led.base + led.settled + led.reserved + led.unstored
            if limit is not None and cost > 0 and spent + cost > limit + 1e-12:
                raise LimitReached(limit_line(limit, spent))
            led.reserved += cost

    def _settle(self, user: str, reserved: float, actual: float, *, stored: bool = True) -> None:
        led = self._ledger(user)
        with led.lock:
            led.reserved = max(0.0, led.reserved - reserved)
            if stored:
                led.settled += actual
            else:
                led.unstored += actual


class UserCap:
    """One action's hold on its user's limit (module doc), with :class:`~probe_ui.runner.spend.SpendCap`'s
    interface: :meth:`reserve` before each request, :meth:`settle` after it; once a request does not fit,
    :attr:`reached` is set and stays set. ``inner``: a cap of the action's own (``--max-cost``) that every request
    must fit too. Use it in a ``with`` block around the calls (re-entrant: the functions that ask enter it)."""

    def __init__(self, allowance: Allowance, user: str, *, inner: SpendCap | None = None) -> None:
        self.allowance, self.user, self.inner = allowance, user, inner
        self.stopped = False  # the user's limit stopped this action
        self.refused: dict[str, str] = {}  # model name -> why it was not asked (a model the limit cannot hold)
        self.reserved = 0.0
        self.session_spent = 0.0
        self._line: str | None = None
        self._depth = 0
        self._lock = threading.Lock()

    def within(self, inner: SpendCap | None) -> UserCap:
        """This cap, with ``inner`` (a run's ``--max-cost``) held too."""
        self.inner = inner
        return self

    def __enter__(self) -> UserCap:
        with self._lock:
            self._depth += 1
            first = self._depth == 1
        if first:
            self.allowance._open(self.user)
        return self

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._depth -= 1
            last, left = self._depth == 0, self.reserved
            if last:
                self.reserved = 0.0
        if last:
            self.allowance._close(self.user, left)

    @property
    def reached(self) -> bool:
        """Whether a request did not fit (the user's limit, or ``inner``): no later request is sent."""
        return self.stopped or (self.inner is not None and self.inner.reached)

    @property
    def spent(self) -> float:
        """What this action's calls cost (``inner``'s run spend when there is one)."""
        return self.inner.spent if self.inner is not None else self.session_spent

    @property
    def limit(self) -> float | None:
        return self.allowance.limit(self.user)

    def check(self, models: list[ModelConfig] | None = None, cheapest: float = 0.0) -> None:
        """Before anything starts: :meth:`Allowance.check` for this user."""
        self.allowance.check(self.user, models, cheapest)

    def check_requests(self, asked: list[tuple[ModelConfig, Request]]) -> None:
        """Before anything starts: refuse (:class:`SpendLimitReached`) when not even the cheapest of these requests
        that costs fits under the user's limit."""
        costs = [estimate(m, r) for m, r in asked if charged(m)]
        if costs:
            self.check([m for m, _ in asked], min(costs))

    def refusals(self, models: list[ModelConfig]) -> dict[str, str]:
        """The models among ``models`` that this user's limit cannot hold (no price known, not free), each with
        the line saying so; none when the user has no limit."""
        if self.limit is None:
            return {}
        return {m.name: unpriced_line(m.name) for m in models if not priced(m) and not costs_nothing(m)}

    def reserve(self, model: ModelConfig, request: Request, factor: float = 1.0) -> float:
        """Reserve the request's estimate against ``inner`` and the user's limit and return it; raise
        :class:`~probe_ui.runner.spend.SpendCapReached` (``inner``'s) or :class:`LimitReached` when it does not
        fit (then no later request of this action is sent), or when the model is one the limit cannot hold."""
        if self._depth <= 0:
            raise RuntimeError("a UserCap reserves only inside its with block")
        if self.stopped:
            raise LimitReached(self._line or "")
        why = self.refusals([model]).get(model.name) if not charged(model) else None
        if why is not None:
            self.refused[model.name] = why
            raise LimitReached(why)
        cost = self.inner.reserve(model, request, factor) if self.inner is not None else estimate(model, request,
                                                                                                  factor)
        try:
            self.allowance._reserve(self.user, cost)
        except LimitReached as exc:
            if self.inner is not None:
                self.inner.settle_cost(cost, 0.0)
            with self._lock:
                self.stopped = True
                self._line = self._line or exc.line
            raise
        with self._lock:
            self.reserved += cost
        return cost

    def _settled(self, reserved: float, actual: float, *, stored: bool = True) -> None:
        with self._lock:
            self.reserved = max(0.0, self.reserved - reserved)
            self.session_spent += actual
        self.allowance._settle(self.user, reserved, actual, stored=stored)

    def settle_unstored(self, reserved: float, resp: Response | None) -> None:
        """A reserved request that is never stored (a model's Test) is back: its cost counts against the user for
        as long as the app runs (the store, read at the next action, does not have it)."""
        actual = actual_cost(reserved, resp)
        if self.inner is not None:
            self.inner.settle(reserved, resp)
        self._settled(reserved, actual, stored=False)

    def settle(self, reserved: float, resp: Response | None) -> None:
        """A reserved request is back: its reply's cost replaces the estimate (:func:`~probe_ui.runner.spend.
        actual_cost`, as :meth:`SpendCap.settle`)."""
        actual = actual_cost(reserved, resp)
        if self.inner is not None:
            self.inner.settle(reserved, resp)
        self._settled(reserved, actual)

    def settle_cost(self, reserved: float, actual: float) -> None:
        if self.inner is not None:
            self.inner.settle_cost(reserved, actual)
        self._settled(reserved, actual)

    def carry(self, reserved: float) -> None:
        """Count ``reserved`` as in flight (cells already sent in a provider's batch, :meth:`SpendCap.carry`)."""
        if self.inner is not None:
            self.inner.carry(reserved)
        amount = max(0.0, reserved)
        led = self.allowance._ledger(self.user)
        with led.lock:
            led.reserved += amount
        with self._lock:
            self.reserved += amount

    def not_sent(self, model: str) -> str | None:
        """Why a call to ``model`` of this action was not sent, when this cap stopped it (None: it did not)."""
        return self.refused.get(model) or self.limit_line()

    def limit_line(self) -> str | None:
        """The one line saying the user's limit stopped this action (None: it did not), with what they have spent
        now."""
        if not self.stopped:
            return None
        limit = self.limit
        if limit is None:  # cleared since: the line of the moment it stopped
            return self._line
        return limit_line(limit, self.allowance.spent(self.user))

    def line(self, not_asked: int, planned: int, plan_complete: bool = True) -> str:
        """The one line a batch stopped by this cap ends with (:meth:`SpendCap.line`'s place)."""
        said = self.limit_line()
        if said is None:
            assert self.inner is not None, "line() of a cap that did not stop"
            return self.inner.line(not_asked, planned, plan_complete)
        of = f"{not_asked:,} of {planned:,}" if plan_complete else f"at least {not_asked:,} of the {planned:,} planned"
        return f"{said} {of} answers were not asked; asking again once it is raised asks only those."
