"""``probe-ui users add|list|remove|limit``: the app's users file (name, role, salted password hash, spending
limit)."""

from __future__ import annotations

import argparse
import os
import sys

from probe_ui.cli.common import UsageError, command


@command("users", "the app's users file: add or change a user (name, role, password), list, remove, set a "
                  "spending limit",
         description="A users file holds one user per line with a salted password hash and a role (viewer: "
                     "Results only; prober: probe, batch, rate; admin: endpoints for everyone, cancel any run), and "
                     "optionally a spending limit in US dollars. Serve with --auth-file PATH.")
def users_arguments(us: argparse.ArgumentParser) -> None:
    usub = us.add_subparsers(dest="users_command", metavar="ACTION", required=True)

    def users_file(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--file", default=_users_default(), metavar="PATH",
                        help="the users file (default: $PROBE_UI_USERS or probe-ui-data/users)")

    ua = usub.add_parser("add", help="add a user, or change a user's role and password (the password is asked "
                                     "for, or read from standard input: never on the command line)")
    ua.add_argument("name", metavar="NAME")
    ua.add_argument("--role", choices=("viewer", "prober", "admin"), default="prober",
                    help="viewer: the Results tab only; prober (default): probe, stress, batch, rate; admin: also "
                         "endpoints for everyone and at any host, cancel anyone's run")
    users_file(ua)
    ua.set_defaults(func=cmd_users_add)
    ul = usub.add_parser("list", help="every user and role (no hashes)")
    users_file(ul)
    ul.set_defaults(func=cmd_users_list)
    ur = usub.add_parser("remove", help="remove a user")
    ur.add_argument("name", metavar="NAME")
    users_file(ur)
    ur.set_defaults(func=cmd_users_remove)
    lim = usub.add_parser("limit", help="give a user a spending limit in US dollars: the app holds every call they "
                                        "make to it (the stored cost of their runs' calls and their calls in flight; "
                                        "models that cost nothing never count), from their next request")
    lim.add_argument("name", metavar="NAME")
    lim.add_argument("usd", metavar="USD", nargs="?", help="the limit, e.g. 5.00 (0: only models that cost nothing)")
    lim.add_argument("--clear", action="store_true", help="remove the user's limit")
    users_file(lim)
    lim.set_defaults(func=cmd_users_limit)


def _users_default() -> str:
    from pathlib import Path

    return os.environ.get("PROBE_UI_USERS") or str(Path("probe-ui-data") / "users")


def _read_password(name: str) -> str:
    """The new password: asked twice at a terminal (not echoed), else the first line of standard input."""
    import getpass

    if sys.stdin.isatty():
        first = getpass.getpass(f"password for {name}: ")
        if getpass.getpass("the same password again: ") != first:
            raise UsageError("the two passwords differ: nothing was changed")
        return first
    return sys.stdin.readline().rstrip("\r\n")


def cmd_users_add(args: argparse.Namespace) -> int:
    from probe_ui.security.users import add_user, check_name, check_role

    check_name(args.name)
    check_role(args.role)
    new = add_user(args.file, args.name, args.role, _read_password(args.name))
    print(f"{'added' if new else 'changed'} {args.name} ({args.role}) in {args.file}; serve with: probe-ui "
          f"--auth-file {args.file}")
    return 0


def cmd_users_list(args: argparse.Namespace) -> int:
    from probe_ui.runner.spend import usd
    from probe_ui.security.users import read_users

    accounts = read_users(args.file)
    for a in accounts.values():
        print(f"{a.name}\t{a.role}" + (f"\tlimit {usd(a.max_cost_usd)}" if a.max_cost_usd is not None else ""))
    if not accounts:
        print(f"no users in {args.file}", file=sys.stderr)
    return 0


def cmd_users_remove(args: argparse.Namespace) -> int:
    from probe_ui.security.users import remove_user

    remove_user(args.file, args.name)
    print(f"removed {args.name} from {args.file}")
    return 0


def cmd_users_limit(args: argparse.Namespace) -> int:
    from probe_ui.runner.spend import usd
    from probe_ui.security.users import check_limit, check_name, set_limit

    check_name(args.name)
    if args.clear == (args.usd is not None):
        raise UsageError("give the limit in US dollars (e.g. 'probe-ui users limit alice 5.00') or --clear, not "
                         "both or neither")
    account = set_limit(args.file, args.name, None if args.clear else check_limit(args.usd))
    if account.max_cost_usd is None:
        print(f"{args.name} has no spending limit now in {args.file}")
    else:
        print(f"{args.name} may spend {usd(account.max_cost_usd)} in the app (counted from the next request) in "
              f"{args.file}")
    return 0
