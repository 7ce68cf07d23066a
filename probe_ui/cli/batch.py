"""``probe-ui batch``: ask models every variant of presets, storing every answer (``--dry-run``: the plan and its
cost; ``--shard``: one part of a batch shared by several processes)."""

from __future__ import annotations

import argparse
from typing import Any

from probe_ui.cli.common import (
    EXIT_ERROR,
    UsageError,
    command,
    db_args,
    image_root_arg,
    log,
    max_cost_arg,
    max_cost_of,
    seed_arg,
    send_gate_args,
    send_gate_of,
    shown,
    temperature_arg,
)
from probe_ui.registry import RegisteredNames


@command("batch", "ask models every variant of one or more presets, storing every answer")
def batch_arguments(b: argparse.ArgumentParser) -> None:
    b.add_argument("presets", nargs="+", metavar="PRESET",
                   help="preset YAML files, or shipped presets by name (see 'probe-ui presets')")
    b.add_argument("--model", "-m", action="append", default=[], metavar="SPEC",
                   help="provider/model or a catalogue name; repeat for several models side by side")
    db_args(b)
    b.add_argument("--seed", type=seed_arg, default=0, help="seed for perturbations and sampling baselines (default 0)")
    b.add_argument("--concurrency", type=int, default=None,
                   help="the most requests in flight per provider (a ceiling: fewer leave while its server "
                        "refuses requests with 429, and as many as its rate allows)")
    b.add_argument("--rate-limit-wait", type=float, default=None, metavar="SECONDS",
                   help="how long a server may refuse every request (429, 503 with Retry-After) before the cells "
                        "still waiting for it fail, saying so (default 600 = 10 min); until then rate-limit "
                        "refusals are waited out as the server asks and sent again, never counted as failures")
    max_cost_arg(b)
    b.add_argument("--provider-batch", action="store_true",
                   help="send the cells of OpenAI (and OpenAI-compatible), Anthropic and Gemini models through "
                        "their provider's batch API, at half price, answered within 24 h; the batch is recorded, so "
                        "the same command again (after a kill too) collects it instead of sending it again. Models "
                        "without a batch API are asked directly; a --judge is asked live once a batch is collected")
    b.add_argument("--poll-interval", type=float, default=None, metavar="SECONDS",
                   help="with --provider-batch: how often to ask the provider how its batches are doing "
                        "(default 30)")
    b.add_argument("--prompt", default=None, help="prompt template for all items it fits (default: per kind)")
    b.add_argument("--suite", action="append", default=[], metavar="NAME",
                   help="add a stress suite's variants to every item (see 'probe-ui perturbations'); repeatable")
    b.add_argument("--samples", type=int, default=1, metavar="N",
                   help="answers per variant and model, scored by majority vote (needs --temperature > 0)")
    b.add_argument("--temperature", type=temperature_arg, default=None, help="sampling temperature for every model "
                                                                   "(default: the catalogue's, else 0)")
    b.add_argument("--answer-format", default="free", metavar="FORMAT",
                   choices=RegisteredNames("probe_ui.messages:ANSWER_FORMATS"),
                   help="free: the model answers in its own words, read by the rules (default); json: every question "
                        "with options asks for {\"answer\": <one of its labels>} in the provider's own way (OpenAI-"
                        "compatible servers: a JSON schema; Anthropic: a tool; hf/ models: decoding limited to the "
                        "labels), read exactly; confidence: free text followed by 'Confidence: N%%' (0-100), for "
                        "the calibration metrics; recorded with the run, so two runs compare the formats")
    b.add_argument("--confidence", action="store_true",
                   help="ask every question with options for the model's confidence too (--answer-format "
                        "confidence): ECE, Brier score and accuracy at 50/80/95 %% coverage in 'score'")
    b.add_argument("--judge", default=None, metavar="SPEC",
                   help="a model that maps free-form answers to options (e.g. with --prompt free)")
    b.add_argument("--judge-mode", default=None, choices=RegisteredNames("probe_ui.runner.judge:JUDGE_MODES"),
                   metavar="MODE", help="how the judge reads a free-form answer: a registered judge mode (an unknown "
                                        "name lists them); default: a score of 1-10 per option, margin 3")
    b.add_argument("--no-cache", action="store_true",
                   help="ask again even when an identical deterministic request was answered before")
    b.add_argument("--no-progress", action="store_true", help="no progress bar")
    b.add_argument("--dry-run", action="store_true",
                   help="ask nothing: print how many calls the batch would make and, where the catalogue has "
                        "prices, an estimate of their cost")
    image_root_arg(b, "also let the presets read images from DIR (besides their own folder and the bundled "
                      "assets; also PROBE_UI_IMAGE_ROOTS); repeatable")
    send_gate_args(b)
    b.add_argument("--extend", action="store_true",
                   help="add this batch's new models, suites or presets to an existing run (named by --run, or the "
                        "name derived when --run is left out); without it such a batch is refused, so that a run "
                        "never mixes model sets by accident. The run then plans, counts and resumes all of them")
    b.add_argument("--shard", default=None, metavar="I/N",
                   help="ask only part I of N of the batch (1-based); run all N parts, on one machine or several, "
                        "against one --db (e.g. postgresql://...) to share a batch. Under torchrun or srun the "
                        "default is the launcher's rank (RANK/WORLD_SIZE, SLURM_PROCID/SLURM_NTASKS); an explicit "
                        "--shard wins")
    b.set_defaults(func=cmd_batch)


def cmd_batch(args: argparse.Namespace) -> int:
    from probe_ui.presets import load_preset
    from probe_ui.runner import BatchOptions, run_batch
    from probe_ui.store import Store

    if args.concurrency is not None and args.concurrency < 1:
        raise UsageError("--concurrency must be at least 1")
    if args.rate_limit_wait is not None and not args.rate_limit_wait >= 0:
        raise UsageError("--rate-limit-wait must be a number of seconds, 0 or more")
    if args.poll_interval is not None and not 0 <= args.poll_interval < float("inf"):
        raise UsageError("--poll-interval must be a number of seconds, 0 or more")
    max_cost = max_cost_of(args)
    if args.confidence:
        if args.answer_format not in ("free", "confidence"):
            raise UsageError(f"--confidence asks for free text with a confidence line; --answer-format "
                             f"{args.answer_format} leaves no place for it: choose one")
        args.answer_format = "confidence"
    presets = [load_preset(p, args.image_root) for p in args.presets]  # all validated before any work
    if args.dry_run:
        return print_plan(presets, args)
    shard = _launcher_shard(_shard(args.shard) if args.shard else None, args.db)
    gate = send_gate_of(args)
    store = Store(args.db)
    options = BatchOptions(run_name=args.run, seed=args.seed, concurrency=args.concurrency, prompt=args.prompt,
                           suites=args.suite, samples=args.samples, temperature=args.temperature, judge=args.judge,
                           judge_mode=args.judge_mode or BatchOptions.judge_mode, use_cache=not args.no_cache,
                           progress=not args.no_progress,
                           shard=shard, extend=args.extend, answer_format=args.answer_format, gate=gate,
                           rate_limit_wait_s=args.rate_limit_wait, max_cost=max_cost,
                           provider_batch=args.provider_batch, poll_interval_s=args.poll_interval)
    result = run_batch(store, presets, args.model, options, on_change=_say_change)
    for w in result.warnings:
        log.warning(w)
    for e in result.item_errors:
        log.error(e.message)
    for msg in result.error_messages:
        log.error(msg)
    for line in result.batch_notes:
        log.info(line)
    for line in result.batch_errors:
        log.error(line)
    part = f" (shard {shard[0]}/{shard[1]})" if shard else ""
    print(f"run '{result.run.name}'{part} in {shown(args.db)}: {result.variants} variants, "
          f"{result.planned} answers planned, "
          f"{result.skipped} already done, {result.answered} new, {result.errors} errors, "
          f"{len(result.item_errors)} items not loaded")
    print(f"score it with: probe-ui score --db {shown(args.db)} --run {result.run.name}")
    if result.in_batch:
        print(f"{result.in_batch} cells wait in provider batches: run the same command again to collect them")
    if result.spend_line:
        log.error(result.spend_line)
    return EXIT_ERROR if (result.errors or result.item_errors or result.spend_line or result.batch_errors
                          or result.in_batch) else 0


def _say_change(change: Any) -> None:
    """Before a batch asks anything: what it adds to an existing run, in words."""
    if change.adds:
        print(f"this batch {change.words()}; the run then plans every model and suite it holds", flush=True)


def print_plan(presets: list[Any], args: argparse.Namespace) -> int:
    """``batch --dry-run``: the calls and estimated cost of each preset (probe_ui.runner.sweep), nothing asked."""
    from probe_ui.runner.sweep import plan_preset_sweep, without_stored

    if not args.model:
        raise UsageError("--dry-run needs the models: add --model SPEC")
    total_calls, total_cost = 0, None
    stored = stored_answers(presets, args)
    for p in presets:
        plan = plan_preset_sweep(p, args.model, suites=args.suite, samples=args.samples, prompt=args.prompt,
                                 answer_format=args.answer_format)
        stored = without_stored(plan, stored)
        by_batch = _at_batch_price(plan, args.model) if args.provider_batch else None
        print(f"{p.path}: {plan.text()}")
        for e in plan.per_model:
            if e.unusable:
                print(f"  {e.model}: cannot run here ({e.unusable}): its {e.calls:,} calls would fail; not priced")
                continue
            cost = f"${e.cost_usd:,.4f}" if e.cost_usd is not None else "no price"
            done = f" ({e.stored:,} stored, not asked again)" if e.stored else ""
            print(f"  {e.model}: {e.calls:,} calls{done}, ~{e.input_tokens:,} input + at most {e.output_tokens:,} "
                  f"output tokens, {cost}")
        if by_batch:
            print(by_batch)
        total_calls += plan.calls
        if plan.cost_usd is not None:
            total_cost = (total_cost or 0.0) + plan.cost_usd
    if len(presets) > 1:
        print(f"total: {total_calls:,} calls" + (f", estimated cost at most ${total_cost:,.2f}"
                                                 if total_cost is not None else ""))
    if args.max_cost is not None and total_cost is not None and total_cost > args.max_cost:
        print(f"--max-cost {args.max_cost:g}: the estimate is over the cap; the batch would stop at it (what the "
              "run has spent already counts too)")
    print("nothing was asked (--dry-run); answers already stored are not counted, and answers in the request "
          "cache would not be asked again either")
    return 0


def _at_batch_price(plan: Any, specs: list[str]) -> str:
    """``--dry-run --provider-batch``: the plan's models that have a batch API priced at its price (half the
    catalogue's, :attr:`probe_ui.providers.batch_api.BatchAPI.price_factor`), and the line that says which they are."""
    from probe_ui import catalogue
    from probe_ui.providers.batch_api import batch_api_of, price_factor

    cat = catalogue.load_catalogue()
    apis: dict[str, str | None] = {}
    for spec in specs:
        try:
            cfg = catalogue.resolve(spec, cat)
        except ValueError:
            continue
        apis[cfg.name] = batch_api_of(cfg)
    by, direct = [], []
    for e in plan.per_model:
        api = apis.get(e.model)
        if api is None:
            direct.append(e.model)
            continue
        by.append(e.model)
        if e.cost_usd is not None:
            e.cost_usd = round(e.cost_usd * price_factor(api), 6)
    line = (f"  --provider-batch: {', '.join(by)} through their provider's batch API, priced at half the catalogue "
            "price (above)" if by else "  --provider-batch: no model here has a batch API")
    return line + (f"; asked directly: {', '.join(direct)}" if direct else "")


def stored_answers(presets: list[Any], args: argparse.Namespace) -> dict[str, int]:
    """The finished answers, per model name, of the run this batch would resume (``--run``, else the name the batch
    derives from its presets and seed): the runner skips them, so ``--dry-run`` does not count them. Nothing when
    the store or the run does not exist yet (nothing is created)."""
    from collections import Counter

    from probe_ui.runner.batch import default_run_name
    from probe_ui.store import open_existing
    from probe_ui.store.errors import NoStoreError

    name = args.run or default_run_name(presets, args.seed, args.suite, args.answer_format)
    try:
        store = open_existing(args.db)
    except NoStoreError:
        return {}
    try:
        if name not in {r.name for r in store.list_runs()}:
            return {}
        return dict(Counter(model for _variant, model, _prompt, _sample in store.done_cells(store.get_run(name).id)))
    finally:
        store.close()


def _shard(text: str) -> tuple[int, int]:
    i, sep, n = text.partition("/")
    try:
        shard = int(i), int(n)
    except ValueError:
        raise UsageError(f"--shard {text}: give I/N, e.g. --shard 2/4") from None
    if not sep or not (shard[1] >= 1 and 1 <= shard[0] <= shard[1]):
        raise UsageError(f"--shard {text}: give I/N with 1 <= I <= N, e.g. --shard 2/4")
    return shard


def _launcher_shard(shard: tuple[int, int] | None, db: str) -> tuple[int, int] | None:
    """The shard to ask: an explicit --shard, else the launcher's rank (torchrun, srun); see probe_ui.cluster."""
    from probe_ui.cluster import ClusterError, batch_shard
    from probe_ui.runner import BatchError

    try:
        shard, note = batch_shard(shard, db)
    except ClusterError as exc:
        raise BatchError(str(exc)) from None
    if note:
        log.info(note)
    return shard
