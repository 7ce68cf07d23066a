"""``probe-ui ratings import|export``: clinicians' ratings of answers as CSV (several raters)."""

from __future__ import annotations

import argparse
import sys

from probe_ui.cli.common import EXIT_ERROR, command, db_arg, db_args, reading_store, trust_arg


@command("ratings", "clinicians' ratings of answers: import a CSV (several raters), export them",
         description="A ratings CSV has the columns response_id, rater, rating (correct, incorrect or unsure), "
                     "note; each rater's latest rating of an answer counts.")
def ratings_arguments(ra: argparse.ArgumentParser) -> None:
    rsub = ra.add_subparsers(dest="ratings_command", metavar="ACTION", required=True)
    ri = rsub.add_parser("import", help="add the ratings of a CSV file (all or none: problems are listed by line)")
    ri.add_argument("csv", metavar="CSV", help="columns response_id, rater, rating, note (others are ignored)")
    ri.add_argument("--rater", default=None, metavar="NAME",
                    help="the rater of rows whose rater is empty (or of a file without a rater column)")
    db_arg(ri)
    trust_arg(ri)
    ri.set_defaults(func=cmd_ratings_import)
    re_ = rsub.add_parser("export", help="each rater's latest rating of each answer as CSV (re-importable)")
    db_args(re_)
    re_.add_argument("--out", default=None, metavar="CSV", help="write here (default: print to stdout)")
    re_.add_argument("--force", action="store_true", help="with --out: replace the file if it exists (default: "
                                                          "refuse)")
    re_.set_defaults(func=cmd_ratings_export)


def cmd_ratings_import(args: argparse.Namespace) -> int:
    from probe_ui.ratings import RatingsFileError, import_ratings
    from probe_ui.store import Store

    try:
        summary = import_ratings(Store(args.db), args.csv, args.rater)
    except RatingsFileError as exc:
        for line in exc.problems:
            print(f"error: {line}", file=sys.stderr)
        print("nothing was imported: mend these rows and import the file again", file=sys.stderr)
        return EXIT_ERROR
    for line in summary.lines():
        print(line)
    return 0


def cmd_ratings_export(args: argparse.Namespace) -> int:
    from pathlib import Path

    from probe_ui.files.safe_write import check_target, write_text
    from probe_ui.ratings import export_rows, rows_csv

    if args.out is not None:  # before the work: a file there (without --force), a device, a FIFO
        check_target(Path(args.out), args.force, "cannot write the ratings to")
    rows = export_rows(reading_store(args.db), args.run)
    if args.out is None:
        sys.stdout.write(rows_csv(rows))
        return 0
    out = Path(args.out)
    write_text(out, rows_csv(rows), force=args.force, what="cannot write the ratings to")
    raters = sorted({r["rater"] or "(unnamed)" for r in rows})
    print(f"wrote {len(rows)} ratings by {len(raters)} rater(s) ({', '.join(raters)}) to {out}")
    return 0
