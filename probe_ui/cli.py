"""``probe-ui``: the command line. Each command is a thin wrapper over a library function.

Errors print one line and exit 1; usage errors exit 2; ``--debug`` shows tracebacks.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Callable, Sequence

from probe_ui import __version__

EXIT_ERROR, EXIT_USAGE = 1, 2


def _db_default() -> str:
    from probe_ui.store import DEFAULT_DB

    return os.environ.get("PROBE_UI_DB", str(DEFAULT_DB))


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="probe-ui",
        description="Probe vision-language models on medical images: perturb, ask side by side, log, score.",
    )
    p.add_argument("--version", action="version", version=f"probe-ui {__version__}")
    p.add_argument("--debug", action="store_true", help="show full tracebacks on errors")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    def db_args(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--db", default=_db_default(),
                        help="database file or SQLAlchemy URL (default: $PROBE_UI_DB or probe-ui-data/probe-ui.db)")
        sp.add_argument("--run", default=None, help="run name (default: batch: derived from presets and seed; "
                                                    "score: the most recent run)")

    b = sub.add_parser("batch", help="ask models every variant of one or more presets, storing every answer")
    b.add_argument("presets", nargs="+", metavar="PRESET", help="preset YAML files (see presets/)")
    b.add_argument("--model", "-m", action="append", default=[], metavar="SPEC",
                   help="provider/model or a catalogue name; repeat for several models side by side")
    db_args(b)
    b.add_argument("--seed", type=int, default=0, help="seed for perturbations and sampling baselines (default 0)")
    b.add_argument("--concurrency", type=int, default=None, help="requests in flight per model")
    b.add_argument("--prompt", default=None, help="prompt template for all items it fits (default: per kind)")
    b.add_argument("--no-progress", action="store_true", help="no progress bar")
    b.set_defaults(func=cmd_batch)

    s = sub.add_parser("score", help="per-model accuracy, invalid and refusal rates of a run")
    db_args(s)
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.set_defaults(func=cmd_score)

    m = sub.add_parser("models", help="every provider and catalogue entry, and whether it is usable here")
    m.add_argument("--json", action="store_true", help="print JSON")
    m.set_defaults(func=cmd_models)
    return p


def cmd_batch(args: argparse.Namespace) -> int:
    from probe_ui.presets import load_preset
    from probe_ui.runner import run_batch
    from probe_ui.store import Store

    if args.concurrency is not None and args.concurrency < 1:
        raise UsageError("--concurrency must be at least 1")
    presets = [load_preset(p) for p in args.presets]  # all validated before any work
    store = Store(args.db)
    result = run_batch(store, presets, args.model, run_name=args.run, seed=args.seed, concurrency=args.concurrency,
                       prompt=args.prompt, progress=not args.no_progress)
    for w in result.warnings:
        print(f"warning: {w}", file=sys.stderr)
    for e in result.item_errors:
        print(f"error: {e.message}", file=sys.stderr)
    for msg in result.error_messages:
        print(f"error: {msg}", file=sys.stderr)
    print(f"run '{result.run.name}' in {args.db}: {result.variants} variants, {result.planned} answers planned, "
          f"{result.skipped} already done, {result.answered} new, {result.errors} errors, "
          f"{len(result.item_errors)} items not loaded")
    print(f"score it with: probe-ui score --db {args.db} --run {result.run.name}")
    return EXIT_ERROR if result.errors or result.item_errors else 0


def cmd_score(args: argparse.Namespace) -> int:
    from probe_ui.scoring import score_run
    from probe_ui.store import Store

    store = Store(args.db)
    report = score_run(store, args.run)
    if args.json:
        print(json.dumps(report, indent=2, sort_keys=False))
    else:
        print(format_score_table(report))
    return 0


def format_score_table(report: dict[str, Any]) -> str:
    lines = [f"run '{report['run']}' (seed {report['seed']}): {report['variants']} variants"]
    if report["items_not_loaded"]:
        lines.append(f"{report['items_not_loaded']} items could not be loaded (see 'probe-ui batch' output)")
    header = f"{'model':<28} {'n':>6} {'accuracy':>9} {'95% CI':>15} {'random':>7} {'invalid':>8} {'refusal':>8} " \
             f"{'errors':>6}"
    lines += [header, "-" * len(header)]
    for model, r in report["models"].items():
        acc = r["accuracy"]
        val = f"{acc['value']:.2f}" if acc["value"] is not None else "-"
        ci = f"{acc['ci'][0]:.1f}-{acc['ci'][1]:.1f}" if acc["ci"] else "-"
        rnd = f"{acc['random']:.1f}" if acc["random"] is not None else "-"
        inv, ref = r["invalid_rate"]["value"], r["refusal_rate"]["value"]
        lines.append(f"{model:<28} {r['n']:>6} {val:>9} {ci:>15} {rnd:>7} "
                     f"{(f'{inv:.1f}%' if inv is not None else '-'):>8} {(f'{ref:.1f}%' if ref is not None else '-'):>8} "
                     f"{r['errors']:>6}")
    if not report["models"]:
        lines.append("(no answers yet)")
    return "\n".join(lines)


def cmd_models(args: argparse.Namespace) -> int:
    from probe_ui.catalogue import list_models

    rows = list_models()
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{'name':<28} {'provider':<9} {'usable':<7} note")
    for r in rows:
        note = r["reason"] or r["needs"] or r["description"]
        print(f"{r['name']:<28} {r['provider']:<9} {'yes' if r['usable'] else 'no':<7} {note}")
    return 0


class UsageError(Exception):
    """A wrong combination of arguments (exit 2)."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    func: Callable[[argparse.Namespace], int] = args.func
    try:
        return func(args)
    except UsageError as exc:
        parser.error(str(exc))
    except KeyboardInterrupt:
        print("interrupted: finished answers are stored; run the same command again to resume", file=sys.stderr)
        return 130
    except Exception as exc:
        if args.debug:
            raise
        print(f"error: {_one_line(exc)}", file=sys.stderr)
        return EXIT_ERROR
    return 0


def _one_line(exc: BaseException) -> str:
    from probe_ui.images import ImageError
    from probe_ui.presets import PresetError
    from probe_ui.providers.base import ModelSpecError, ProviderError
    from probe_ui.runner import BatchError
    from probe_ui.store import StoreError

    known = (ImageError, PresetError, ModelSpecError, ProviderError, BatchError, StoreError)
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    if isinstance(exc, known):
        return text
    return f"{exc.__class__.__name__}: {text} (run with --debug for the traceback)"


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
