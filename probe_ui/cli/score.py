"""``probe-ui score`` and ``probe-ui report``: a run's figures, in the terminal or as one HTML file."""

from __future__ import annotations

import argparse
import json

from probe_ui.cli.common import (
    UsageError,
    command,
    db_args,
    definition_arg,
    judge_arg,
    judged_store,
    log,
    parser_arg,
    reading_store,
)


@command("score", "per-model accuracy, invalid and refusal rates of a run, and the metrics of the probing papers")
def score_arguments(s: argparse.ArgumentParser) -> None:
    db_args(s)
    s.add_argument("--json", action="store_true", help="print one JSON object")
    parser_arg(s)
    definition_arg(s)
    judge_arg(s)
    s.add_argument("--format", choices=("table", "markdown", "csv"), default="table",
                   help="terminal tables (default), Markdown tables or CSV rows")
    s.add_argument("--settled-by", default=None, metavar="CLINICIAN",
                   help="with --parser settled: this clinician's settled readings only, not the latest of anyone's "
                        "(each clinician's own figures; 'probe-ui review' settles readings)")
    s.add_argument("--compare-parsers", action="store_true",
                   help="instead of scores: every reply the robust and legacy parsers read differently, with both "
                        "readings and which agrees with the ground truth")
    s.set_defaults(func=cmd_score)


def cmd_score(args: argparse.Namespace) -> int:
    from probe_ui.scoring import compare_parsers, jsonable, score_run
    from probe_ui.security.redact import printable
    from probe_ui.views.score_text import (
        accuracy_pairs,
        format_parser_differences,
        format_score_csv,
        format_score_markdown,
        format_score_table,
    )

    if args.compare_parsers:
        if args.judge:
            raise UsageError("--compare-parsers compares the rules; it takes no --judge")
        store = reading_store(args.db)
        diffs = compare_parsers(store, args.run)
        robust = score_run(store, args.run, "robust")
        legacy = score_run(store, args.run, "legacy")
        if args.json:
            print(json.dumps(jsonable({"run": robust["run"], "benchmark": robust["benchmark"],
                                       "accuracy": accuracy_pairs(robust, legacy), "differences": diffs}), indent=2))
        else:
            print(printable(format_parser_differences(robust, legacy, diffs, args.format), None, keep="\n"))
        return 0
    if args.settled_by is not None and args.parser != "settled":
        raise UsageError("--settled-by chooses whose settled readings count: use it with --parser settled")
    store, judge = judged_store(args)
    report = score_run(store, args.run, args.parser, args.definition, judge=judge, settled_by=args.settled_by)
    for note in report.get("notes", []):
        log.info(note)
    if args.json:
        print(json.dumps(jsonable(report), indent=2, sort_keys=False))
    elif args.format == "markdown":
        print(printable(format_score_markdown(report), None, keep="\n"))
    elif args.format == "csv":
        print(printable(format_score_csv(report), None, keep="\n"), end="")
    else:
        print(printable(format_score_table(report), None, keep="\n"))  # names cut and escaped in it
    return 0


@command("report", "one self-contained HTML file: metric tables, plots, stress deltas, worst cases and provenance "
                   "of a run")
def report_arguments(rp: argparse.ArgumentParser) -> None:
    db_args(rp)
    rp.add_argument("--baseline", default=None, metavar="RUN", help="a run to compare against (deltas with CIs)")
    rp.add_argument("--out", required=True, metavar="report.html",
                    help="the HTML file to write (refused if it exists, unless --force)")
    rp.add_argument("--force", action="store_true", help="replace the file if it exists (default: refuse)")
    parser_arg(rp)
    definition_arg(rp)
    judge_arg(rp)
    rp.set_defaults(func=cmd_report)


def cmd_report(args: argparse.Namespace) -> int:
    from pathlib import Path

    from probe_ui.views.report import write_report

    store, judge = judged_store(args)
    path = write_report(store, args.run, Path(args.out), baseline=args.baseline, parser=args.parser,
                        definition=args.definition, judge=judge, force=args.force)
    print(f"wrote {path} ({path.stat().st_size:,} bytes); open it in a browser")
    return 0
