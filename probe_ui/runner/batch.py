"""Batch fan-out: presets × models → stored, scored responses.

All models for a variant are asked concurrently, each model behind its own concurrency limit; a failing call
becomes an error cell while the others complete. Every finished response is written immediately, so a killed
batch loses nothing, and cells already answered are skipped when the batch runs again.

A batch is a stream: a planning thread expands the presets one item at a time, stores each new variant (in
batches) and hands over its cells, which the models' workers ask while the rest is still being planned. Memory
holds the items, a bounded queue of cells and what is in flight, never the whole plan, so a 100k-item preset runs
in bounded memory and the first request leaves as soon as the first variant exists.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from tqdm import tqdm

from probe_ui import prompts
from probe_ui.items import Variant
from probe_ui.messages import Response
from probe_ui.presets import Preset
from probe_ui.presets.suites import ImageFiles, ItemError, SuiteError, get_suite, stream_variants
from probe_ui.providers.base import ModelConfig
from probe_ui.runner.allowance import UserCap, unpriced_line
from probe_ui.runner.cells import Cell, shard_of, variant_cells
from probe_ui.runner.execute import Answered, Judge, PlannedCells, Work, execute_run
from probe_ui.runner.identity import RunChange, run_change
from probe_ui.runner.identity import check as check_change
from probe_ui.runner.models import (
    BatchError,
    check_answer_format,
    check_point_conventions,
    check_temperature,
    public_config,
    resolve_models,
)
from probe_ui.runner.spend import Cap, SpendCap, check_cap, unpriced
from probe_ui.send_gate.policy import GateError, GatePolicy
from probe_ui.store import Run, Store

#: distinct failure messages a batch keeps (each with the items it failed on); more are counted, not kept
ERROR_GROUPS = 20
#: items named in one failure's line
ERROR_ITEMS_SHOWN = 5


@dataclass
class Failure:
    """The cells that failed with one message: how many, and the first items they ask (for the message)."""
    count: int = 0
    items: list[str] = field(default_factory=list)
    more: bool = False  # other items beyond ``items``


@dataclass
class BatchResult:
    run: Run
    variants: int = 0
    planned: int = 0
    skipped: int = 0
    answered: int = 0
    errors: int = 0
    item_errors: list[ItemError] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: failed cells, one entry per model and message (at most :data:`ERROR_GROUPS`; see :attr:`error_messages`)
    failures: dict[tuple[str, str], Failure] = field(default_factory=dict)
    cancelled: bool = False
    #: what this batch did to its run: a new run, the same plan again, or additions (probe_ui.runner.identity)
    change: RunChange | None = None
    #: whether every cell was planned (False: stopped while planning, so ``planned`` is a lower bound)
    plan_complete: bool = False
    #: with a spend cap: what the run's calls have cost (USD), and, when the cap stopped the batch, the one line
    #: that says what was spent and what is left to ask (:mod:`probe_ui.runner.spend`)
    spent: float | None = None
    spend_line: str | None = None
    #: providers' batch APIs (:mod:`probe_ui.runner.provider_batch`), in lines to say at the end: the run's open
    #: batches a batch without ``--provider-batch`` left alone; the batches that failed, expired or were cancelled,
    #: or could not be sent or read (their cells stay to do); and the cells still waiting in open batches
    batch_notes: list[str] = field(default_factory=list)
    batch_errors: list[str] = field(default_factory=list)
    in_batch: int = 0

    @property
    def error_messages(self) -> list[str]:
        """One line per model and message, not per cell: a model that cannot load, or a server that refuses every
        request, fails each of its cells with the same words, which would otherwise repeat once per cell."""
        lines = []
        for (model, message), f in self.failures.items():
            if f.count == 1:
                lines.append(f"{model} on {f.items[0]}: {message}")
            else:
                more = ", ..." if f.more else ""
                lines.append(f"{model} on {f.count} cells (items {', '.join(f.items)}{more}): {message}")
        return lines

    def record_failure(self, model: str, item: str, message: str) -> None:
        """Count a failed cell under its model and message (a message beyond the first :data:`ERROR_GROUPS` is
        counted in ``errors`` only)."""
        f = self.failures.get((model, message))
        if f is None:
            if len(self.failures) >= ERROR_GROUPS:
                return
            f = self.failures[(model, message)] = Failure()
        f.count += 1
        if item not in f.items:
            if len(f.items) < ERROR_ITEMS_SHOWN:
                f.items.append(item)
            else:
                f.more = True

    @property
    def not_asked(self) -> int:
        """Cells of the plan neither stored before nor asked by this batch (stopped by the cap, or cancelled)."""
        return max(0, self.planned - self.skipped - self.answered - self.errors - self.in_batch)

    @property
    def remaining(self) -> int:
        """Cells still to do (cancelled, or failed with an error): running the batch again asks these."""
        return self.planned - self.skipped - self.answered


def default_run_name(presets: list[Preset], seed: int, suites: Sequence[str] = (),
                     answer_format: str = "free") -> str:
    """Deterministic, so that running the same batch again resumes it instead of starting over; a structured-answer
    batch ends in ``-json``, so that it and the same batch in free text are two runs to compare, not a conflict."""
    return ("+".join(p.name for p in presets) + "".join(f"+{s}" for s in suites) + f"-seed{seed}"
            + ("" if answer_format == "free" else f"-{answer_format}"))


@dataclass(frozen=True)
class BatchOptions:
    """How a batch asks, beyond its presets and models: every choice ``probe-ui batch`` offers, the Batch tab's
    fields and a stress run's settings, as one typed value (the defaults are the command line's). What a caller
    does while the batch runs (hear its progress, cancel it, learn what it adds to its run) and the live objects it
    hands over (the models typed into the app, a user's spending allowance) are :func:`run_batch`'s own keywords."""

    #: the run's name (default: :func:`default_run_name`, so the same batch resumes its run)
    run_name: str | None = None
    seed: int = 0
    #: requests in flight per model (default: the provider's)
    concurrency: int | None = None
    #: the prompt template every variant is rendered with (default: each preset's)
    prompt: str | None = None
    #: stress suites applied to every item, beside each preset's own conditions
    suites: Sequence[str] = ()
    samples: int = 1
    temperature: float | None = None
    #: a judge model for the replies the reading rules leave unread, and how it reads them
    judge: str | None = None
    judge_mode: str = "mediconfusion"
    use_cache: bool = True
    #: a progress bar on stderr
    progress: bool = True
    #: (i, n): ask only the i-th of n disjoint parts of the cells (1-based)
    shard: tuple[int, int] | None = None
    #: let the batch add presets, models or suites to a run that exists
    extend: bool = False
    #: who makes the run (recorded when it is created; default: the system user)
    user: str | None = None
    answer_format: str = "free"
    gate: GatePolicy | None = None
    rate_limit_wait_s: float | None = None
    max_cost: float | None = None
    provider_batch: bool = False
    poll_interval_s: float | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "suites", tuple(self.suites))  # a list (the CLI's repeated --suite) kept as given


def run_batch(store: Store, presets: list[Preset], model_specs: list[str], options: BatchOptions | None = None, *,
              extra_models: dict[str, ModelConfig] | None = None,
              on_progress: Callable[[int, int, BatchResult], None] | None = None,
              cancel: threading.Event | None = None, on_change: Callable[[RunChange], None] | None = None,
              user_cap: UserCap | None = None) -> BatchResult:
    """Run (or resume) a batch; returns counts. Raises BatchError before doing anything if a model is unusable.
    ``gate``: the send gate's policy (:mod:`probe_ui.send_gate.policy`; None: ``--send-gate`` / the environment's
    default), checked for every model before anything is asked.
    ``user`` is recorded as who made the run when it is created (default: the system user).

    ``answer_format`` ("free" or "json", :data:`probe_ui.messages.ANSWER_FORMATS`) is how every labelled
    request asks for its answer, recorded in the run's settings like the temperature: "json" sends each model the
    item's answer schema in its provider's way (:mod:`probe_ui.providers.answer_format`); a model whose provider
    cannot honour it is refused before anything is asked.

    ``rate_limit_wait_s`` (``--rate-limit-wait``; None: 10 min): how long a server may refuse every request (429)
    before the cells still waiting for it fail; until then refusals are waited out and sent again
    (:mod:`probe_ui.providers.rate_control`), not counted as failures.

    ``max_cost`` (``--max-cost``, USD; :mod:`probe_ui.runner.spend`): the most the run may have cost. Before each
    request, what the run's stored calls cost plus this request's estimate must stay within it; the first that would
    pass it stops the batch (cells not sent stay to do; :attr:`BatchResult.spend_line` says what was spent and what
    is left). A model with no known price that is not free or on this machine is refused before anything starts.

    ``user_cap`` (:class:`probe_ui.runner.allowance.UserCap`): the app's hold on its user's spending limit, shared
    with the user's other actions: every request must fit it too, and the first that does not stops the batch as
    ``max_cost`` does (:attr:`BatchResult.spend_line` is then the user's line). A user whose limit is reached, or
    who asks a model their limit cannot hold, is refused before anything starts.

    ``provider_batch`` (``--provider-batch``): the cells of every model whose provider has a batch API go through it
    (:mod:`probe_ui.runner.provider_batch`: recorded in the store before it is created, polled every
    ``poll_interval_s`` seconds, default 30, its answers stored like live ones at the batch price); the other models
    are asked directly meanwhile. Whatever it is, a cell waiting in one of the run's open batches is never asked
    again; with it, the run's open batches are collected, and a judge (``judge``) is asked live of the answers a
    batch brings once it is collected. Refused when no model has a batch API.

    A run that exists is planned whole (:mod:`probe_ui.runner.identity`): every preset, model and suite it was ever
    asked, plus this batch's. A batch that would add models, suites or presets to it raises
    :class:`probe_ui.runner.identity.RunExtensionError` unless ``extend`` (``--extend``); one that would change what
    its answers mean (another seed, prompt, number of samples, temperature or answer format) is always refused.
    ``on_change`` hears what the batch does to its run (:class:`~probe_ui.runner.identity.RunChange`) before anything
    is asked.

    ``on_progress(done, total, result)`` is called after every answer (the app's progress bar; ``total`` grows
    until the plan is complete, since cells are asked while the rest is planned); setting ``cancel``
    stops sending new requests: what was answered is kept and running the batch again resumes it.
    ``shard=(i, n)`` asks only the i-th of n disjoint parts of the cells (1-based), so n machines writing to one
    database share a batch; every shard plans the same cells, so the parts together are the whole batch.

    The batch holds its run (and shard) for its whole length (:meth:`probe_ui.store.Store.run_lock`): a second
    batch of the same run and shard on the same store raises :class:`probe_ui.store.RunInUseError` before it
    writes or asks anything. Shards of one run run at once; live probes (:mod:`probe_ui.live`) take no lock.
    """
    o = options if options is not None else BatchOptions()
    run_name, seed, concurrency, prompt = o.run_name, o.seed, o.concurrency, o.prompt
    suites: Sequence[str] = o.suites
    samples, temperature, judge, judge_mode = o.samples, o.temperature, o.judge, o.judge_mode
    use_cache, progress, shard, extend, user = o.use_cache, o.progress, o.shard, o.extend, o.user
    answer_format, gate, rate_limit_wait_s, max_cost = o.answer_format, o.gate, o.rate_limit_wait_s, o.max_cost
    provider_batch, poll_interval_s = o.provider_batch, o.poll_interval_s
    if shard is not None:
        i, n = shard
        if not (n >= 1 and 1 <= i <= n):
            raise BatchError(f"--shard {i}/{n}: give i/n with 1 <= i <= n, e.g. --shard 2/4")
    if prompt is not None and prompt not in prompts.TEMPLATES:
        raise BatchError(f"unknown prompt template '{prompt}'; known: {', '.join(prompts.TEMPLATES)}")
    for s in suites:
        try:
            get_suite(s)
        except SuiteError as exc:
            raise BatchError(str(exc)) from None
    if samples < 1:
        raise BatchError("--samples must be at least 1")
    if temperature is not None:
        check_temperature(temperature)
    if samples > 1 and (temperature or 0) == 0:
        raise BatchError("several samples at temperature 0 would all be the same answer: set --temperature > 0")
    if judge:  # the mode matters only with a judge (checked then: the judges import the reader, 0.15 s)
        from probe_ui.runner.judge import JUDGE_MODES

        if judge_mode not in JUDGE_MODES:
            raise BatchError(f"unknown judge mode '{judge_mode}'; known: {', '.join(JUDGE_MODES.names())}")
    models = resolve_models(model_specs, extra_models)
    check_answer_format(models, answer_format)
    check_point_conventions(models)
    gate = gate if gate is not None else GatePolicy.from_options()
    try:
        gate_warnings = gate.check(models + ([] if judge is None else resolve_models([judge], extra_models)))
    except GateError as exc:
        raise BatchError(str(exc)) from None
    judge_cfg = Judge(resolve_models([judge], extra_models)[0], judge_mode) if judge else None
    if provider_batch:
        _check_provider_batch(models)
    if max_cost is not None:
        max_cost = check_cap(max_cost)
        _check_priced(models + ([judge_cfg.model] if judge_cfg else []))
    if user_cap is not None:
        _check_user_cap(user_cap, models + ([judge_cfg.model] if judge_cfg else []))
    name = run_name or default_run_name(presets, seed, suites, answer_format)
    change = run_change(store, name, presets, [m.name for m in models], list(suites), seed=seed, prompt=prompt,
                        samples=samples, temperature=temperature, answer_format=answer_format)
    check_change(change, extend)
    if on_change is not None:
        on_change(change)  # e.g. the CLI says "adds 2 models to run X (94 answers done)" before anything is asked
    if change.exists:  # the run's whole plan: every preset, model and suite it was ever asked
        presets, models, suites = whole_plan(change, presets, models, list(suites), extra_models)
        check_answer_format(models, answer_format)
        if max_cost is not None:
            _check_priced(models)
        if user_cap is not None:
            _check_user_cap(user_cap, models)
    settings = {
        "presets": [{"name": p.name, "path": p.path, "sha256": p.sha256} for p in presets],
        "models": [public_config(m) for m in models],
        "prompt": prompt, "concurrency": concurrency, "seed": seed, "suites": list(suites), "samples": samples,
        "temperature": temperature,
        # free text or a structured answer (issue 46): a condition whose effect on accuracy runs compare
        "answer_format": answer_format,
        "judge": public_config(judge_cfg.model) | {"mode": judge_mode} if judge_cfg else None,
        # not known until the plan is made (BatchPlan records it): a batch stopped before that leaves the run
        # incomplete, never "complete" against an earlier, smaller plan
        "planned": None,
        # and "unit", the unit of evidence the items count in (probe_ui.metrics.units), what every interval is
        # over: recorded by BatchPlan once the first cells are out (it needs pandas, half a second that would
        # delay the first call); a run asked before keeps its record meanwhile
    }
    # one batch per run and shard at a time (another one stops here, before it writes anything): held until the
    # batch ends, so that two identical batches never ask, and pay for, the same cells twice
    with user_cap if user_cap is not None else contextlib.nullcontext(), store.run_lock(name, shard):
        result = _run_locked(store, presets, models, name, seed, settings, concurrency=concurrency, prompt=prompt,
                             suites=suites, samples=samples, temperature=temperature, judge_cfg=judge_cfg,
                             use_cache=use_cache, progress=progress, on_progress=on_progress, cancel=cancel,
                             shard=shard, user=user, answer_format=answer_format, gate=gate,
                             rate_limit_wait_s=rate_limit_wait_s, max_cost=max_cost,
                             provider_batch=provider_batch, poll_interval_s=poll_interval_s, user_cap=user_cap)
    result.warnings[:0] = gate_warnings
    result.change = change
    return result


def _check_provider_batch(models: list[ModelConfig]) -> None:
    """``--provider-batch`` needs a model with a batch API (a judge is asked live of the answers a batch brings,
    once it is collected)."""
    from probe_ui.providers.batch_api import batch_api_of

    if not any(batch_api_of(m) for m in models):
        raise BatchError(f"--provider-batch: no batch API for {', '.join(m.name for m in models)} (probe-ui sends "
                         "batches to OpenAI and OpenAI-compatible servers and to Anthropic): leave "
                         "--provider-batch out to ask them directly")


def _check_priced(models: list[ModelConfig]) -> None:
    """A spend cap needs every model's price: refuse (one line) a model that has none and is not free."""
    missing = list(dict.fromkeys(unpriced(models)))
    if missing:
        raise BatchError(f"--max-cost: no price is known for {', '.join(missing)} (price_input_per_m and "
                         "price_output_per_m in its catalogue entry), so its spend cannot be capped; give it a price "
                         "or leave --max-cost out")


def _check_user_cap(cap: UserCap, models: list[ModelConfig]) -> None:
    """A user's limit must be able to hold every model (one with a price, or one that costs nothing), and leave
    something to spend when a model costs."""
    missing = list(dict.fromkeys(n for n in cap.refusals(models)))
    if missing:
        raise BatchError(unpriced_line(missing))
    cap.check(models)


def batch_change(store: Store, presets: list[Preset], model_specs: list[str], options: BatchOptions | None = None,
                 *, extra_models: dict[str, ModelConfig] | None = None) -> RunChange:
    """What :func:`run_batch` with these arguments would do to its run (a new run, the same plan, additions,
    conflicts), asking nothing: the Batch tab shows it before it starts."""
    o = options if options is not None else BatchOptions()
    run_name, seed, suites, prompt, samples = o.run_name, o.seed, o.suites, o.prompt, o.samples
    temperature, answer_format = o.temperature, o.answer_format
    models = resolve_models(model_specs, extra_models)
    check_answer_format(models, answer_format)
    name = run_name or default_run_name(presets, seed, suites, answer_format)
    return run_change(store, name, presets, [m.name for m in models], list(suites), seed=seed, prompt=prompt,
                      samples=samples, temperature=temperature, answer_format=answer_format)


def whole_plan(change: RunChange, presets: list[Preset], models: list[ModelConfig], suites: list[str],
               extra_models: dict[str, ModelConfig] | None = None
               ) -> tuple[list[Preset], list[ModelConfig], list[str]]:
    """An existing run's whole plan: the presets, models and suites it recorded, then this batch's new ones, so
    that its planned count, completeness and Resume cover everything it was ever asked."""
    from probe_ui.presets import PresetError, load_preset

    given = {m.name for m in models}
    earlier: list[ModelConfig] = []
    for spec in change.models:
        if spec in given:
            continue
        try:
            earlier += resolve_models([spec], extra_models)
        except BatchError as exc:
            raise BatchError(f"run '{change.name}' also asks {spec}, which cannot be asked now ({exc}); "
                             "choose another run name for these models") from None
    known = {p.path for p in presets} | {p.sha256 for p in presets}
    recorded: list[Preset] = []
    for rec in change.presets:
        if rec.get("path") in known or rec.get("sha256") in known:
            continue
        try:
            recorded.append(load_preset(rec["path"]))
        except (PresetError, KeyError, TypeError) as exc:
            raise BatchError(f"run '{change.name}' also asks the preset {rec.get('name', '?')}, which cannot be "
                             f"loaded now ({exc}); choose another run name") from None
    order = {name: i for i, name in enumerate(change.models)}
    every = sorted([*earlier, *models], key=lambda m: order.get(m.name, len(order)))  # the run's order first
    return ([*recorded, *presets], every,
            list(dict.fromkeys([*change.suites, *suites])))


def _run_locked(store: Store, presets: list[Preset], models: list[ModelConfig], name: str, seed: int,
                settings: dict[str, Any], *, concurrency: int | None, prompt: str | None,
                suites: Sequence[str], samples: int, temperature: float | None, judge_cfg: Judge | None,
                use_cache: bool, progress: bool, on_progress: Callable[[int, int, BatchResult], None] | None,
                cancel: threading.Event | None, shard: tuple[int, int] | None, user: str | None = None,
                answer_format: str = "free", gate: GatePolicy | None = None,
                rate_limit_wait_s: float | None = None, max_cost: float | None = None,
                provider_batch: bool = False, poll_interval_s: float | None = None,
                user_cap: UserCap | None = None) -> BatchResult:
    """:func:`run_batch` once it holds the run."""
    run = store.ensure_run(name, seed, settings, created_by=user)
    result = BatchResult(run=run)
    capped = SpendCap(max_cost, store.run_cost(run.id)) if max_cost is not None else None
    # every request fits the run's cap and the user's limit (probe_ui.runner.allowance), whichever are given
    spend: Cap | None = user_cap.within(capped) if user_cap is not None else capped
    plan = BatchPlan(store, run, presets, models, result, prompt=prompt, seed=seed, suites=suites, samples=samples,
                     temperature=temperature, shard=shard, answer_format=answer_format)
    if judge_cfg is not None:  # a judge lost to a kill or Ctrl+C (after its answer, or a batch's) is asked now
        plan.unjudged, plan.judge_mode = store.unjudged_answers(run.id), judge_cfg.mode

    # tqdm shows done/total, rate and ETA; into a log file (not a terminal) it writes a line every 10 s at most.
    # The total grows while the plan is being made (cells are asked as they are planned).
    bar = tqdm(total=0, unit="answer", desc=name, disable=not progress, dynamic_ncols=True,
               mininterval=0.1 if sys.stderr.isatty() else 10.0)

    def show() -> None:
        done = result.skipped + result.answered + result.errors
        bar.total = max(result.planned, done)
        bar.update(done - bar.n)
        if on_progress is not None:
            on_progress(done, result.planned, result)

    def on_result(cell: Cell, resp: Response) -> None:
        if resp.error is None:
            result.answered += 1
        else:
            result.errors += 1
            result.record_failure(cell.model.name, cell.variant.item_id, resp.error)
        bar.set_postfix(errors=result.errors, refresh=False)
        show()

    from probe_ui.runner.provider_batch import POLL_INTERVAL_S, ProviderBatches

    to_judge: list[Answered] = []  # answers collected from a provider batch: their judge is asked live after

    def on_batch_answer(cell: Cell, resp: Response, row: dict[str, Any]) -> None:
        on_result(cell, resp)
        if judge_cfg is not None and resp.error is None:
            to_judge.append(Answered(cell, resp, row.get("invalid")))

    batches = ProviderBatches(store, run, models, result, enabled=provider_batch, gate=gate, user=user, spend=spend,
                              poll_interval_s=POLL_INTERVAL_S if poll_interval_s is None else poll_interval_s,
                              use_cache=use_cache, shard=shard, cancel=cancel, on_answer=on_batch_answer)
    if batches.plan_line():
        logging.getLogger("probe_ui.batch").info("%s", batches.plan_line())

    def replan() -> Iterator[Cell]:  # the plan again, to find each batch result's cell
        again = BatchPlan(store, run, presets, models, BatchResult(run=run), prompt=prompt, seed=seed, suites=suites,
                          samples=samples, temperature=temperature, shard=shard, answer_format=answer_format)
        return (c for c in again if isinstance(c, Cell))

    show()
    try:
        asyncio.run(execute_run(store, run, PlannedCells(batches.divert(plan)), concurrency, on_result,
                             use_cache=use_cache, judge=judge_cfg, cancel=cancel, gate=gate, user=user,
                             rate_limit_wait_s=rate_limit_wait_s, spend=spend))
        batches.collect(replan)
        if to_judge and not (cancel is not None and cancel.is_set()):  # the judge of each answer a batch brought
            asyncio.run(execute_run(store, run, to_judge, concurrency, on_result, use_cache=use_cache,
                                    judge=judge_cfg, cancel=cancel, gate=gate, user=user,
                                    rate_limit_wait_s=rate_limit_wait_s, spend=spend))
    finally:
        show()
        bar.close()
        store.touch_run(run.id)
    result.cancelled = bool(cancel is not None and cancel.is_set())
    if capped is not None:
        result.spent = capped.spent
    if spend is not None and spend.reached:
        result.spend_line = spend.line(result.not_asked, result.planned, result.plan_complete)
    return result


class BatchPlan:
    """The cells of a batch, made one variant at a time on the planning thread.

    Each preset's variants stream out of :func:`~probe_ui.presets.suites.stream_variants` (every image file loaded once
    for the whole batch) and are planned in batches (1, 2, 4, ... up to 256, so the first cell goes out at once);
    the variants of a batch's cells are stored before the cells are handed over, since a response row names its
    variant. Item errors are recorded
    as they are found. Counts go into ``result``; the total number of cells (all shards) is recorded in the run's
    settings once the plan is complete, and the unit of evidence once the first wave of cells has been handed over.
    """

    MAX_BATCH = 256
    #: the unit of evidence is recorded (and the reader imported: about 0.6 s of CPU) once the plan has handed
    #: over 127 variants' cells, not after the first: a batch's first wave is out and waiting for replies by then,
    #: where recording it after the first cell held up the next cells' planning and, at concurrency 64, took a
    #: second to fill the slots (issue 50)
    RECORD_AFTER = 128

    def __init__(self, store: Store, run: Run, presets: list[Preset], models: list[ModelConfig],
                 result: BatchResult, *, prompt: str | None, seed: int, suites: Sequence[str],
                 samples: int, temperature: float | None, shard: tuple[int, int] | None,
                 answer_format: str = "free") -> None:
        self.store, self.run, self.presets, self.models, self.result = store, run, presets, models, result
        self.prompt, self.seed, self.suites = prompt, seed, suites
        self.samples, self.temperature, self.shard = samples, temperature, shard
        self.answer_format = answer_format
        self.files = ImageFiles()
        self.planned_all = 0  # cells of every shard
        self.sdk_ready: set[str] = set()
        self.unit_recorded = False
        #: with a judge: the run's answers no judge's row stands for (Store.unjudged_answers); a done cell among
        #: them is handed over as Answered, so that its judge is asked
        self.unjudged: dict[tuple[str, str, str, int], tuple[str, bool | None]] = {}
        self.judge_mode = "mediconfusion"

    def needs_judge(self, variant: Variant, prompt: str, invalid: bool | None) -> bool:
        from probe_ui.runner.judge import needs_judge

        return needs_judge(self.judge_mode, variant, prompt, invalid)

    def record_unit(self) -> None:
        """Record the unit of evidence the run's items count in (:func:`probe_ui.metrics.units.planned`), once, and
        import the reader: both are done here, while the first cells are being asked, not before them."""
        if self.unit_recorded:
            return
        self.unit_recorded = True
        from probe_ui.metrics.units import planned
        from probe_ui.reading import answers  # noqa: F401 - the reader, ready before the first answer comes back

        self.store.merge_run_settings(self.run.id, {"unit": planned(it for p in self.presets for it in p.items)})

    def __iter__(self) -> Iterator[Work]:
        store, run, result = self.store, self.run, self.result
        done = store.done_cells(run.id)
        seen: set[str] = set()  # the same variant from two presets: asked once
        batch: list[Variant] = []
        size = 1
        for p in self.presets:
            loaded: set[str] = set()
            failed: set[str] = set()
            for x in stream_variants(p, self.seed, self.suites, self.files):
                if isinstance(x, ItemError):
                    store.record_item_error(run.id, x.source, x.item_id, x.message)
                    result.item_errors.append(x)
                    failed.add(x.item_id)
                elif isinstance(x, str):
                    result.warnings.append(x)
                else:
                    loaded.add(x.item_id)
                    if x.id not in seen:
                        seen.add(x.id)
                        result.variants += 1
                        batch.append(x)
                        if len(batch) >= size:
                            yield from self._cells(batch, done)
                            size = min(2 * size, self.MAX_BATCH)
                            if size >= self.RECORD_AFTER:
                                self.record_unit()  # the first wave of cells is being asked meanwhile
            yield from self._cells(batch, done)
            store.clear_item_errors(run.id, p.path, loaded - failed)
        self.record_unit()
        store.merge_run_settings(run.id, {"planned": self.planned_all})
        result.plan_complete = True

    def _cells(self, batch: list[Variant], done: set[tuple[str, str, str, int]]) -> Iterator[Work]:
        """Hand over a batch's cells that are not done (and are in this shard), after storing the variants they
        ask. A variant with nothing left to ask was stored when it was first asked (its answers name it), so a
        re-run of a finished batch writes nothing."""
        if not batch:
            return
        by_source = {p.path: p.prompt for p in self.presets}
        todo: list[Cell] = []
        again: list[Answered] = []  # answered before, their judge not asked
        for v in batch:
            for cell in variant_cells(v, self.models, self.prompt, self.seed, by_source, self.samples,
                                      self.temperature, self.answer_format):
                self.planned_all += 1
                if self.shard is not None and shard_of(cell, self.shard[1]) != self.shard[0] - 1:
                    continue
                self.result.planned += 1
                if cell.key in done:
                    self.result.skipped += 1
                    if cell.key in self.unjudged:
                        text, invalid = self.unjudged[cell.key]
                        if self.needs_judge(cell.variant, cell.request.prompt, invalid):
                            again.append(Answered(cell, Response(text=text), invalid))
                else:
                    todo.append(cell)
        batch.clear()
        if todo:
            self.store.add_variants(self.run.id, list({c.variant.id: c.variant for c in todo}.values()))
        for cell in todo:
            self._import_sdk(cell.model)
            yield cell
        yield from again

    def _import_sdk(self, model: ModelConfig) -> None:
        """Import a model's SDK here, before its first cell is handed over: nothing can be sent to it before the
        import is done (openai's takes about a second), and planning on meanwhile would only slow the import down
        (one GIL). A batch with nothing left to ask never imports it."""
        if model.name in self.sdk_ready:
            return
        self.sdk_ready.add(model.name)
        import importlib

        from probe_ui.providers import provider_class

        sdk = provider_class(model.provider).sdk
        if sdk and sdk not in sys.modules:
            try:
                importlib.import_module(sdk)
            except Exception:  # the provider reports it properly when it is used
                pass


def resume_batch(store: Store, run_name: str, options: BatchOptions | None = None, *,
                 extra_models: dict[str, ModelConfig] | None = None,
                 on_progress: Callable[[int, int, BatchResult], None] | None = None,
                 cancel: threading.Event | None = None, on_change: Callable[[RunChange], None] | None = None,
                 user_cap: UserCap | None = None) -> BatchResult:
    """Run an interrupted batch again with the presets, models and settings it recorded; done cells are skipped.
    What the run recorded (its name, seed, prompt, suites, samples, temperature, judge, answer format and
    concurrency) wins over ``options``; the rest of ``options`` (progress, cache, shard, user, spend cap, provider
    batch) is this time's."""
    from probe_ui.presets import PresetError, load_preset

    run = store.get_run(run_name)
    s = run.config
    if s.kind == "live":
        raise BatchError(f"run '{run_name}' is a live probe, not a batch: it has nothing left to resume")
    try:
        presets = [load_preset(p["path"]) for p in s.presets]
    except (PresetError, KeyError) as exc:
        raise BatchError(f"cannot resume '{run_name}': {exc}") from None
    if not presets:
        raise BatchError(f"run '{run_name}' records no presets, so it cannot be resumed")
    recorded = replace(options if options is not None else BatchOptions(), run_name=run.name, seed=run.seed,
                       concurrency=s.concurrency, prompt=s.prompt, suites=tuple(s.suites), samples=s.samples,
                       temperature=s.temperature, judge=s.judge_name, judge_mode=s.judge_mode,
                       answer_format=s.answer_format)
    return run_batch(store, presets, s.model_names, recorded, extra_models=extra_models, on_progress=on_progress,
                     cancel=cancel, on_change=on_change, user_cap=user_cap)
