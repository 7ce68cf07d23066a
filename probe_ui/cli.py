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
    b.add_argument("--suite", action="append", default=[], metavar="NAME",
                   help="add a stress suite's variants to every item (see 'probe-ui perturbations'); repeatable")
    b.add_argument("--samples", type=int, default=1, metavar="N",
                   help="answers per variant and model, scored by majority vote (needs --temperature > 0)")
    b.add_argument("--temperature", type=float, default=None, help="sampling temperature for every model "
                                                                   "(default: the catalogue's, else 0)")
    b.add_argument("--judge", default=None, metavar="SPEC",
                   help="a model that maps free-form answers to options (e.g. with --prompt free)")
    b.add_argument("--judge-mode", default="mediconfusion", choices=("mediconfusion", "blink"),
                   help="mediconfusion: 1-10 score per option, margin 3; blink: pick a letter or Z")
    b.add_argument("--no-cache", action="store_true",
                   help="ask again even when an identical deterministic request was answered before")
    b.add_argument("--no-progress", action="store_true", help="no progress bar")
    b.set_defaults(func=cmd_batch)

    pt = sub.add_parser("perturbations", help="every perturbation and suite, its parameters and its effect on the answer")
    pt.add_argument("--format", choices=("table", "markdown", "json"), default="table")
    pt.set_defaults(func=cmd_perturbations)

    pv = sub.add_parser("preview", help="render variants of a preset: their images and exact prompt text")
    pv.add_argument("preset", metavar="PRESET")
    pv.add_argument("--item", action="append", default=[], metavar="ID", help="only these items (repeatable)")
    pv.add_argument("--suite", action="append", default=[], metavar="NAME", help="add a suite's variants")
    pv.add_argument("--seed", type=int, default=0)
    pv.add_argument("--prompt", default=None, help="prompt template (default: per kind)")
    pv.add_argument("--out", default=None, metavar="DIR", help="write each variant's images here as PNG")
    pv.set_defaults(func=cmd_preview)

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
                       prompt=args.prompt, suites=args.suite, samples=args.samples, temperature=args.temperature,
                       judge=args.judge, judge_mode=args.judge_mode, use_cache=not args.no_cache,
                       progress=not args.no_progress)
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


def cmd_perturbations(args: argparse.Namespace) -> int:
    from probe_ui.perturb import describe
    from probe_ui.suites import describe_suites

    perts, suites = describe(), describe_suites()
    if args.format == "json":
        print(json.dumps({"perturbations": perts, "suites": suites}, indent=2))
    elif args.format == "markdown":
        print(perturbations_markdown(perts, suites))
    else:
        for r in perts:
            print(f"{r['name']}({r['parameters']})\n    {r['summary']}\n    answer: {r['answer']}")
        print("\nsuites:")
        for r in suites:
            print(f"{r['name']}: {r['description']}\n    metrics: {r['metrics']}")
    return 0


def perturbations_markdown(perts: list[dict[str, str]], suites: list[dict[str, str]]) -> str:
    """The README's tables, generated from the registries so that they cannot drift apart."""
    def cell(text: str) -> str:
        return text.replace("|", "\\|")

    lines = ["| perturbation | parameters | what it does | the answer |", "|---|---|---|---|"]
    lines += [f"| `{r['name']}` | {cell(r['parameters']) or '-'} | {cell(r['summary'])} | {cell(r['answer'])} |"
              for r in perts]
    lines += ["", "| suite | what it adds to each item | metrics that read it |", "|---|---|---|"]
    lines += [f"| `{r['name']}` | {cell(r['description'])} | {r['metrics']} |" for r in suites]
    return "\n".join(lines)


def cmd_preview(args: argparse.Namespace) -> int:
    from pathlib import Path

    from probe_ui.presets import load_preset
    from probe_ui.prompts import preview
    from probe_ui.suites import expand

    preset = load_preset(args.preset)
    unknown = set(args.item) - {it.id for it in preset.items}
    if unknown:
        raise UsageError(f"no item {', '.join(sorted(unknown))} in {args.preset}")
    ex = expand(preset, args.seed, args.suite)
    out = Path(args.out) if args.out else None
    if out:
        out.mkdir(parents=True, exist_ok=True)
    for v in ex.variants:
        if args.item and v.item_id not in args.item:
            continue
        images, text = preview(v, args.prompt or preset.prompt)
        print(f"=== item {v.item_id} | condition {v.condition} | variant {v.id} | answer {v.answer_label!r}")
        for i, im in enumerate(images):
            where = ""
            if out:
                path = out / f"{v.item_id}__{v.condition.replace('/', '-')}__{i}.png"
                im.save(path)
                where = f" -> {path}"
            print(f"[image {i + 1}: {im.width}x{im.height} {im.mode}{where}]")
        print(text)
        print()
    for e in ex.errors:
        print(f"error: {e.message}", file=sys.stderr)
    return EXIT_ERROR if ex.errors else 0


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
    from probe_ui.perturb import PerturbationError
    from probe_ui.prompts import PromptError
    from probe_ui.runner import BatchError
    from probe_ui.store import StoreError
    from probe_ui.suites import SuiteError

    known = (ImageError, PresetError, ModelSpecError, ProviderError, BatchError, StoreError, PerturbationError,
             PromptError, SuiteError)
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    if isinstance(exc, known):
        return text
    return f"{exc.__class__.__name__}: {text} (run with --debug for the traceback)"


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
