"""``probe-ui audit verify|show``: the send ledger, every request that left for a host that is not trusted
(issue 47: :mod:`probe_ui.store.ledger`)."""

from __future__ import annotations

import argparse
import re

from probe_ui.cli.common import EXIT_ERROR, UsageError, command, db_arg, reading_store


@command("audit", "the send ledger: check that it is intact, or list what was sent out, by whom, to which service",
         description="Every request that leaves for a host that is not trusted (every hosted API) is appended to "
                     "the store's send ledger with the time, user, run, cell, provider, host, model, the sha256 of "
                     "each image and the send gate's verdict, chained by hashes so that a row changed afterwards is "
                     "found. Exports and reports never include it.")
def audit_arguments(au: argparse.ArgumentParser) -> None:
    sub = au.add_subparsers(dest="audit_command", metavar="ACTION", required=True)
    v = sub.add_parser("verify", help="check the hash chain: exit 0 when intact, else name the first row that "
                                      "does not fit and exit 1")
    db_arg(v)
    v.set_defaults(func=cmd_audit_verify)
    s = sub.add_parser("show", help="list the ledger's rows (oldest first)")
    db_arg(s)
    s.add_argument("--since", default=None, metavar="DATE",
                   help="only rows at or after this date or time (ISO: 2026-11-28 or 2026-11-28T09:30)")
    s.add_argument("--user", default=None, metavar="NAME", help="only this user's rows")
    s.set_defaults(func=cmd_audit_show)


def cmd_audit_verify(args: argparse.Namespace) -> int:
    check = reading_store(args.db).verify_ledger()
    if check.intact:
        print(f"send ledger intact: {check.rows} row{'' if check.rows == 1 else 's'}, each chained to the one before")
        return 0
    before = check.rows - 1
    print(f"send ledger broken at row {check.bad_id}: {check.why}; the {before} row{'' if before == 1 else 's'} "
          f"before it chain{'s' if before == 1 else ''} correctly")
    return EXIT_ERROR


_ISO = re.compile(r"\d{4}-\d\d-\d\d([T ]\d\d(:\d\d(:\d\d)?)?)?$")


def cmd_audit_show(args: argparse.Namespace) -> int:
    if args.since is not None and not _ISO.match(args.since):
        raise UsageError(f"--since {args.since!r}: give a date or time as 2026-11-28 or 2026-11-28T09:30")
    since = args.since.replace(" ", "T") if args.since else None
    n = 0
    for r in reading_store(args.db).ledger_rows(since=since, user=args.user):
        n += 1
        print(f"#{r['id']}  {r['created_at']}  {r['user'] or '(unnamed)'}  run {r['run']}  {r['provider']} "
              f"{r['model']} at {r['host']}  {r['verdict']}  images {r['images'] or '-'}  cell {r['cell']}")
    print(f"{n} row{'' if n == 1 else 's'}")
    return 0
