"""Asking models: a card per model x variant, and :func:`run_live`, which asks them all at once, stores each
answer the moment it arrives in a run of its own and yields the cards as they land."""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from probe_ui import prompts
from probe_ui.errors import ProbeError
from probe_ui.items import Variant
from probe_ui.live import calls as live_calls
from probe_ui.messages import Response
from probe_ui.providers import answer_format as formats
from probe_ui.providers.base import ModelConfig
from probe_ui.runner import Cell, execute_cells, format_problems, plan_cells, public_config, resolve_each
from probe_ui.runner.allowance import UserCap
from probe_ui.runner.pushback import first_answer
from probe_ui.store import Store, StoreError

log = logging.getLogger("probe_ui.live")


# ---- asking models ---------------------------------------------------------------------------------------------
@dataclass
class Card:
    """One model's answer to one variant, as the page shows it."""

    model: str
    variant_id: str
    condition: str
    expected: str | None
    status: str = "waiting"  # waiting | answered | error
    raw: str = ""
    parsed: str | None = None
    correct: bool | None = None
    latency_s: float | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost: float | None = None
    error: str | None = None
    response_id: int | None = None
    cached: bool = False
    #: a pushback (issue 44): the model's own first answer, as read (``(None,)`` when none could be read); None on
    #: every other card
    first: tuple[str | None] | None = None

    @property
    def key(self) -> tuple[str, str]:
        return (self.variant_id, self.model)


@dataclass
class LiveRun:
    """The state of a live probe while it streams: the run's name and one card per model x variant."""

    run: str
    cards: list[Card] = field(default_factory=list)
    finished: bool = False
    #: the one line saying the user's spending limit stopped calls of this probe (None: it did not)
    spend_line: str | None = None

    @property
    def done(self) -> int:
        return sum(c.status != "waiting" for c in self.cards)


def live_run_name(item_id: str) -> str:
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S-%f")[:-3]
    return f"live-{stamp}-{item_id.removeprefix('live-')[:8]}"


def run_live(store: Store, variants: list[Variant], specs: list[str], *, seed: int = 0, prompt: str | None = None,
             extra_models: dict[str, ModelConfig] | None = None, run_name: str | None = None,
             use_cache: bool = True, cancel: threading.Event | None = None, user: str | None = None,
             coalesce_s: float = 0.0, answer_format: str = "free", spend: UserCap | None = None
             ) -> Iterator[LiveRun]:
    """Ask every model every variant at once; yield the cards each time an answer (or error) arrives. The run
    records ``user`` as who made it (default: the system user). ``coalesce_s``: answers that arrive within that
    many seconds of one another are yielded together, once (a page redrawn for each of 8 answers that arrive
    together costs 8 redraws, for each of 50 people at once); never later than that after an answer arrives. The
    last answers come with the finished state, in one yield. ``answer_format`` "json" asks every labelled
    variant for a structured answer (:func:`probe_ui.runner.run_batch`), recorded in the run's settings.

    Models are checked before anything is sent: one that cannot run here (no key, no server, an unknown name, a
    provider that cannot honour the answer format) gets cards that say why, and the others are asked. The calls
    run on a background thread, so a slow model holds up only its own cards, and a caller that stops reading (a
    closed page) does not stop answers from being stored.

    ``spend`` (:class:`probe_ui.runner.allowance.UserCap`): the user's spending limit in the app holds every call.
    A limit already reached raises :class:`~probe_ui.runner.allowance.SpendLimitReached` before anything is made
    (unless every model costs nothing); a model the limit cannot hold (no price) gets cards that say so; a call
    that would pass the limit is not sent, nor any after it: its card, and :attr:`LiveRun.spend_line`, say why,
    and the answers already in are kept.
    """
    if not variants:
        raise ProbeError("nothing to ask: no variants")
    if prompt and prompt not in prompts.TEMPLATES:
        raise ProbeError(f"unknown prompt template '{prompt}'")
    wanted = list(dict.fromkeys(s.strip() for s in specs if s and s.strip()))
    if not wanted:
        raise ProbeError("choose at least one model (the baselines need no key)")
    try:
        answer_format = formats.check(answer_format)
    except ValueError as exc:
        raise ProbeError(str(exc)) from None
    models, unusable = resolve_each(wanted, extra_models)
    refused = format_problems(models, answer_format)
    models, unusable = [m for m in models if m.name not in refused], unusable | refused
    if spend is not None:  # the user's spending limit (probe_ui.runner.allowance): checked before anything is made
        held = spend.refusals(models)
        models, unusable = [m for m in models if m.name not in held], unusable | held
    name = run_name or live_run_name(variants[0].item_id)
    cells = plan_cells(variants, models, prompt, seed, answer_format=answer_format)
    if spend is not None:  # not even the cheapest call fits: refused before the run is made
        spend.check_requests([(c.model, c.request) for c in cells])
    run = store.ensure_run(name, seed, {"kind": "live", "models": [public_config(m) for m in models],
                                        "asked": wanted, "prompt": prompt, "seed": seed,
                                        "answer_format": answer_format,
                                        "planned": len(cells) + len(unusable) * len(variants),
                                        "items": sorted({v.item_id for v in variants}),
                                        # the rows in the order they were asked: answers arrive in any order
                                        "variant_order": list(dict.fromkeys(v.id for v in variants))},
                           created_by=user)
    store.add_variants(run.id, variants)
    failed = _failed_cards(store, run.id, variants, unusable, prompt, seed, extra_models)
    if not models:
        store.touch_run(run.id)
        yield LiveRun(run=run.name, cards=failed, finished=True)
        return
    cards = [Card(c.model.name, c.variant.id, c.variant.condition, c.variant.answer_label) for c in cells] + failed
    order = {m: i for i, m in enumerate(wanted)}  # columns in the order the models were chosen
    cards.sort(key=lambda c: order.get(c.model, len(order)))
    state = LiveRun(run=run.name, cards=cards)
    index = {card.key: card for card in state.cards}
    events: queue.Queue[tuple[Cell, Response, dict[str, Any], int | None] | BaseException | None] = queue.Queue()
    calls: dict[str, int] = {}
    for c in cells:
        calls[c.model.name] = calls.get(c.model.name, 0) + 1

    async def ask_all() -> None:
        pool = live_calls.LivePool(name, user, calls)
        try:
            await execute_cells(store, run, cells, pool, lambda c, r: None, use_cache=use_cache, cancel=cancel,
                                on_stored=lambda c, r, row, rid: events.put((c, r, row, rid)), store_off_loop=True,
                                spend=spend)
        finally:
            await pool.aclose()

    def work() -> None:
        try:  # on the live probes' shared loop: their fair limits and HTTP clients (probe_ui.live.calls)
            with spend if spend is not None else contextlib.nullcontext():  # held until every call is stored
                live_calls.run(ask_all())
        except BaseException as exc:  # reported on the page, never lost silently
            events.put(exc)
        finally:
            store.touch_run(run.id)
            events.put(None)

    threading.Thread(target=work, name=f"probe-ui live {name}", daemon=True).start()
    yield state
    ended = False
    while not ended:
        batch = [events.get()]
        deadline = time.monotonic() + coalesce_s
        while batch[-1] is not None and (left := deadline - time.monotonic()) > 0:
            try:
                batch.append(events.get(timeout=left))
            except queue.Empty:
                break
        for ev in batch:
            if ev is None:
                ended = True
            elif isinstance(ev, BaseException):
                for card in state.cards:
                    if card.status == "waiting":
                        card.status, card.error = "error", f"{type(ev).__name__}: {ev}"
            else:
                cell, resp, row, rid = ev
                _fill(index[(cell.variant.id, cell.model.name)], store, run.id, cell, resp, row, rid)
        if not ended:  # the last answers go out with the finished table, in one redraw
            yield state
    for card in state.cards:  # cancelled, or stopped by the user's spending limit, before sending
        if card.status == "waiting":
            why = spend.not_sent(card.model) if spend is not None else None
            card.status, card.error = "error", why or "cancelled before it was sent"
    state.spend_line = spend.limit_line() if spend is not None else None
    state.finished = True
    yield state


def _failed_cards(store: Store, run_id: int, variants: list[Variant], unusable: dict[str, str], prompt: str | None,
                  seed: int, extra_models: dict[str, ModelConfig] | None) -> list[Card]:
    """The cards of models that cannot be asked here, each stored as a failed call with its reason
    (:func:`probe_ui.runner.unusable_rows`): a redraw of the table, and the Results tab, still show them."""
    from probe_ui.runner import unusable_rows

    cards = []
    for cell, row in unusable_rows(run_id, variants, unusable, prompt, seed, extra_models):
        card = Card(cell.model.name, cell.variant.id, cell.variant.condition, cell.variant.answer_label,
                    status="error", error=row["error"])
        try:
            store.save_response(row)
            card.response_id = store.response_id(run_id, cell.variant.id, cell.model.name, row["prompt"],
                                                 row["sample"])
        except StoreError as exc:  # e.g. a model name too long to be a key: the card still says why
            log.info("a failed call was not stored: %s", exc)
        cards.append(card)
    return cards


def _fill(card: Card, store: Store, run_id: int, cell: Cell, resp: Response, row: dict[str, Any],
          rid: int | None) -> None:
    """A card from the row just stored (no read back); read from the store only when the store kept another row
    for the cell (another process answered it first, or the reply could not be stored)."""
    if rid is None:
        rid = store.response_id(run_id, cell.variant.id, cell.model.name, cell.request.prompt, cell.request.sample)
        row = store.get_response(rid) if rid is not None else {}
    card.response_id = rid
    card.raw = resp.text or ""
    card.latency_s = resp.latency_s
    card.input_tokens, card.output_tokens = resp.input_tokens, resp.output_tokens
    card.cost = row.get("cost", resp.cost)
    card.cached = bool((resp.details or {}).get("cached_from"))
    if resp.error is not None:
        card.status, card.error = "error", resp.error
    else:
        card.status = "answered"
        card.parsed, card.correct = row.get("parsed"), row.get("correct")
        record = (resp.details or {}).get("pushback")
        if isinstance(record, dict) and record.get("turns"):
            card.first = (first_answer(cell.variant, record["turns"][0].get("text") or ""),)
