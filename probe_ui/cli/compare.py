"""``probe-ui compare``: did B fix or break what A got right (paired difference, McNemar test, flips)."""

from __future__ import annotations

import argparse
import json
import math

from probe_ui.cli.common import (
    EXIT_ERROR,
    command,
    count_arg,
    db_arg,
    definition_arg,
    log,
    parser_arg,
    reading_store,
)


@command("compare", "did B fix or break what A got right? Two runs (or two models of one run) on the questions "
                    "they share: paired difference, McNemar test, flips",
         description="Compare B against A on the questions both answered (same item, perturbation and sample): "
                     "RUN_A RUN_B --model M (one model in two runs), RUN --model A --model B (two models of one "
                     "run), RUN_A RUN_B --model MA --model MB, or RUN_A RUN_B alone (each model both runs have).")
def compare_arguments(cp: argparse.ArgumentParser) -> None:
    cp.add_argument("runs", nargs="+", metavar="RUN", help="run A, then run B (one run: compare two of its models)")
    cp.add_argument("--model", "-m", action="append", default=[], metavar="MODEL",
                    help="the model (in both runs), or twice: the model of A, then the model of B")
    db_arg(cp)
    parser_arg(cp)
    definition_arg(cp)
    cp.add_argument("--json", action="store_true", help="print one JSON object (every flipped question included)")
    cp.add_argument("--fail-if-worse", type=points_arg, default=None, metavar="PP",
                    help="exit 1 when B is worse than A beyond chance (exact McNemar p < 0.05) by more than PP "
                         "percentage points (a number from 0 to 100): a gate for a model update in CI")
    cp.add_argument("--allow-prompt-change", action="store_true",
                    help="compare answers asked with different prompt templates (the images, questions and options "
                         "must still be the same)")
    cp.add_argument("--boot", type=count_arg, default=200, metavar="N",
                    help="bootstrap resamples for the paper metrics' differences (default 200; 0: no intervals)")
    cp.add_argument("--flips", type=count_arg, default=10, metavar="N",
                    help="flipped questions printed each way (default 10; --json lists all)")
    cp.set_defaults(func=cmd_compare)


def points_arg(text: str) -> float:
    """``--fail-if-worse PP``: a number of percentage points from 0 to 100 (``nan``, ``inf`` and ``1e309`` were
    taken, and the gate never tripped)."""
    try:
        value = float(text.strip())
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 <= value <= 100):
        raise argparse.ArgumentTypeError(f"give a number of percentage points from 0 to 100, not {text[:40]!r}")
    return value


def cmd_compare(args: argparse.Namespace) -> int:
    from probe_ui.scoring import jsonable
    from probe_ui.security.redact import printable
    from probe_ui.views import compare, compare_format

    store = reading_store(args.db)
    results = [compare.compare(store, a, b, args.parser, allow_prompt_change=args.allow_prompt_change,
                               definition=args.definition, n_boot=args.boot)
               for a, b in compare.sides(store, args.runs, args.model)]
    worse = [c for c in results if args.fail_if_worse is not None and compare.worse_beyond(c, args.fail_if_worse)]
    if args.json:
        print(json.dumps(jsonable({"comparisons": results, "fail_if_worse": args.fail_if_worse,
                                   "worse": bool(worse)}), indent=2))
    else:
        print(printable("\n\n".join(compare_format.text(c, args.flips) for c in results), None, keep="\n"))
    for c in worse:
        log.error("B (%s in run '%s') is worse than A (%s in run '%s') by %.1f points, beyond chance (p = %.3g), "
                  "more than the %.1f allowed by --fail-if-worse", printable(c["b"]["model"]),
                  printable(c["b"]["run"]), printable(c["a"]["model"]), printable(c["a"]["run"]),
                  -c["overall"]["difference"], c["overall"]["p_value"], args.fail_if_worse)
    return EXIT_ERROR if worse else 0
