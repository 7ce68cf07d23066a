"""A batch's spend cap (``--max-cost USD``, issue 50): no request leaves that could take the run's spend past the cap.

**What counts as spent**: the costs stored with the run's calls (answers and judges, :meth:`Store.run_cost`) when
the batch starts, then the cost of each reply as it comes back (the provider's token counts at the catalogue's
prices; a reply without token counts counts its estimate). A cached answer is not asked, so it costs nothing.

**Before each request** its cost is estimated as ``probe-ui batch --dry-run`` does (:func:`probe_ui.runner.sweep.
request_tokens_of`: the text's characters / 4 plus each image's tokens as sent, and the whole reply budget,
``max_tokens``, an upper bound) and reserved: the spend so far, the estimates of the requests in flight and this
one's must stay within the cap. The first request that would pass it stops the batch: it and every cell not yet
sent stay not asked (nothing is stored for them), answers in flight are kept, the rest of the plan is made but
not sent (to count what is left), and the batch says in one line what was spent and what is left
(:meth:`SpendCap.line`). Running the same batch again with a higher cap asks only what
is left (stored answers are never asked again) and counts what the run has already spent.

**A model with no known price** (no ``price_input_per_m`` / ``price_output_per_m`` in its catalogue entry) cannot
be capped, so a batch with a cap refuses to start (:func:`unpriced`) unless the model costs nothing: a baseline, a
model run in this process (``hf/``), or a server on this machine (loopback), whose calls count 0.

Shards (``--shard``) share a run: each process counts what the run had spent when it started and its own calls
since, not the calls other shards make meanwhile.
"""

from __future__ import annotations

import math
import threading
from typing import Any, Protocol

from probe_ui.errors import ProbeUIError, SpendCapReached
from probe_ui.messages import Request, Response
from probe_ui.providers.base import ModelConfig

__all__ = ["Cap", "SpendCap", "SpendCapReached", "SpendStopped", "actual_cost", "charged", "check_cap",
           "costs_nothing", "estimate", "unpriced", "usd"]



def actual_cost(reserved: float, resp: Response | None) -> float:
    """What a reserved request cost once it is back: its reply's cost where the provider counted tokens, else the
    estimate reserved for it (a failed call without token counts costs 0; a call cut off before its reply, None,
    counts its estimate: it may have been billed)."""
    if resp is None:
        return reserved
    if resp.cost is not None and (resp.input_tokens is not None or resp.output_tokens is not None):
        return resp.cost
    return reserved if resp.error is None else 0.0

class SpendStopped(ProbeUIError):
    """A run stopped at its spend cap (``probe-ui stress`` reports it after showing what was answered)."""

    def __init__(self, line: str, run: str) -> None:
        super().__init__(line)
        self.line, self.run = line, run


def check_cap(value: Any, what: str = "--max-cost") -> float:
    """``value`` as a cap in USD (a finite number, 0 or more), else a one-line :class:`~probe_ui.runner.BatchError`
    naming ``what``."""
    from probe_ui.runner.models import BatchError

    try:
        cap = float(value)
    except (TypeError, ValueError, OverflowError):
        cap = math.nan
    if isinstance(value, bool) or not (math.isfinite(cap) and cap >= 0):
        raise BatchError(f"{what} {value!r}: give an amount in US dollars, 0 or more (e.g. {what} 2.50)")
    return cap


def priced(model: ModelConfig) -> bool:
    return model.price_input_per_m is not None or model.price_output_per_m is not None


def _free_provider(model: ModelConfig) -> bool:
    from probe_ui.providers import provider_class

    try:
        return bool(provider_class(model.provider).free)
    except (ProbeUIError, ImportError):
        return False


def costs_nothing(model: ModelConfig) -> bool:
    """Whether a model's calls cost nothing: a free provider (the baselines), one that sends nothing out (``hf/``,
    run here) or one whose every server is on this machine (loopback)."""
    from probe_ui.send_gate.policy import destinations, is_loopback

    if _free_provider(model):
        return True
    hosts = destinations(model)
    return all(is_loopback(h) for h in hosts)  # () for a model that sends nothing out


def unpriced(models: list[ModelConfig]) -> list[str]:
    """The models whose spend cannot be capped: no price known, and not free (:func:`costs_nothing`)."""
    return [m.name for m in models if not priced(m) and not costs_nothing(m)]


def charged(model: ModelConfig) -> bool:
    """Whether :func:`estimate` counts a model's requests: it has a price and is not a free provider."""
    return priced(model) and not _free_provider(model)


def estimate(model: ModelConfig, request: Request, factor: float = 1.0) -> float:
    """The estimated cost of sending ``request`` to ``model`` (USD; module doc); 0 for a model without prices
    (one that costs nothing: :func:`unpriced` refused the others). ``factor``: the share of the catalogue price
    paid (0.5 through a provider's batch API, :mod:`probe_ui.runner.provider_batch`)."""
    from probe_ui.runner.sweep import request_tokens_of

    if not charged(model):
        return 0.0
    tin, tout = request_tokens_of(request, model)
    return (model.cost(tin, tout) or 0.0) * factor


def usd(amount: float) -> str:
    """``$1.93``, ``$1,204.50``; a small amount keeps up to 4 decimals (``$0.0012``), so that a cap of a few cents
    is not shown as $0.00."""
    text = f"{amount:,.4f}".rstrip("0")
    whole, _, cents = text.partition(".")
    return f"${whole}.{cents.ljust(2, '0')}"


class Cap(Protocol):
    """What the runner asks of a cap: :class:`SpendCap`, or a user's spending limit in the app
    (:class:`probe_ui.runner.allowance.UserCap`)."""

    @property
    def reached(self) -> bool: ...

    @property
    def spent(self) -> float: ...

    def reserve(self, model: ModelConfig, request: Request, factor: float = 1.0) -> float: ...

    def settle(self, reserved: float, resp: Response | None) -> None: ...

    def settle_cost(self, reserved: float, actual: float) -> None: ...

    def carry(self, reserved: float) -> None: ...

    def line(self, not_asked: int, planned: int, plan_complete: bool = True) -> str: ...


class SpendCap:
    """A run's cap and what it has spent (module doc). Requests reserve their estimate (:meth:`reserve`) and settle
    it with the reply's cost (:meth:`settle`); once one does not fit, :attr:`reached` is set and stays set."""

    def __init__(self, cap: float, spent: float = 0.0) -> None:
        self.cap = check_cap(cap)
        self.spent = float(spent)
        self.reserved = 0.0
        self.reached = False
        self._lock = threading.Lock()

    def reserve(self, model: ModelConfig, request: Request, factor: float = 1.0) -> float:
        """Reserve the request's estimate (at ``factor`` of the catalogue price) and return it; raise
        :class:`SpendCapReached` (and stop every later request) when the spend so far, the requests in flight and
        this one would pass the cap."""
        cost = estimate(model, request, factor)
        with self._lock:
            if self.reached or self.spent + self.reserved + cost > self.cap + 1e-12:
                self.reached = True
                raise SpendCapReached(model.name)
            self.reserved += cost
        return cost

    def settle(self, reserved: float, resp: Response | None) -> None:
        """A reserved request is back: its reply's cost replaces the estimate (:func:`actual_cost`)."""
        actual = actual_cost(reserved, resp)
        with self._lock:
            self.reserved = max(0.0, self.reserved - reserved)
            self.spent += actual

    def carry(self, reserved: float) -> None:
        """Count ``reserved`` as in flight: the estimate of cells already sent in a provider's batch whose answers
        are not stored yet (:mod:`probe_ui.runner.provider_batch`)."""
        with self._lock:
            self.reserved += max(0.0, reserved)

    def settle_cost(self, reserved: float, actual: float) -> None:
        """Requests that reserved ``reserved`` together are back (or were never sent) and cost ``actual``."""
        with self._lock:
            self.reserved = max(0.0, self.reserved - reserved)
            self.spent += actual

    def line(self, not_asked: int, planned: int, plan_complete: bool = True) -> str:
        """The one line a batch stopped at the cap ends with: what was spent and what is left to ask."""
        of = f"{not_asked:,} of {planned:,} cells" if plan_complete else \
            f"{not_asked:,} of the {planned:,} cells planned so far (and the cells not yet planned)"
        return (f"stopped at the spend cap: {usd(self.spent)} of {usd(self.cap)} spent; {of} not asked: run again "
                f"with a higher --max-cost to finish")
