"""``probe-ui stress``: a stress suite over a preset or one item, asked of several models: the variants x models
matrix and the suite's metrics."""

from __future__ import annotations

import argparse

from probe_ui.cli.common import (
    EXIT_ERROR,
    UsageError,
    command,
    db_args,
    image_root_arg,
    log,
    max_cost_arg,
    max_cost_of,
    parser_arg,
    seed_arg,
)


@command("stress", "a stress suite over a preset or one of its items, asked of several models: the variants x "
                   "models matrix and the suite's metrics")
def stress_arguments(st: argparse.ArgumentParser) -> None:
    st.add_argument("target", metavar="PRESET-or-ITEM",
                    help="a preset file or bundled preset name (every item), or <preset>/<item id> (one item), "
                         "e.g. medblink_depth/depth-echo")
    st.add_argument("--suite", required=True, metavar="NAME", help="the suite (see 'probe-ui perturbations')")
    st.add_argument("--model", "-m", action="append", default=[], metavar="SPEC", help="repeat for several models")
    db_args(st)
    st.add_argument("--seed", type=seed_arg, default=0, help="seed for the perturbations and sampling baselines "
                                                             "(default 0)")
    max_cost_arg(st)
    image_root_arg(st)
    parser_arg(st)
    st.add_argument("--json", action="store_true", help="print one JSON object (run, matrix, summary)")
    st.set_defaults(func=cmd_stress)


def cmd_stress(args: argparse.Namespace) -> int:
    from probe_ui import stress as stress_runs
    from probe_ui.runner.spend import SpendStopped
    from probe_ui.scoring import scored_answers
    from probe_ui.store import Store
    from probe_ui.views import stress
    from probe_ui.views.score_text import format_stress_table, stress_json

    if not args.model:
        raise UsageError("stress needs at least one --model")
    max_cost = max_cost_of(args)
    store = Store(args.db)
    preset, items = stress_runs.resolve_target(args.target, tuple(args.image_root))
    stopped: SpendStopped | None = None
    try:
        name = stress_runs.run_stress(store, args.suite, args.model, preset=preset, item_ids=items, seed=args.seed,
                                 run_name=args.run, max_cost=max_cost)
    except SpendStopped as exc:  # the matrix of what was answered, then the line
        stopped, name = exc, exc.run
    df = scored_answers(store, name, args.parser)
    table, summ = stress.matrix(df), stress.summary(df, args.suite)
    if args.json:
        print(stress_json(name, args.suite, args.parser, table, summ))
    else:
        print(format_stress_table(name, table, summ))
    if stopped is not None:
        log.error(stopped.line)
        return EXIT_ERROR
    return 0
