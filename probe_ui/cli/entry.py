"""``probe-ui``: the parser assembled from the registered commands (:data:`probe_ui.cli.common.COMMANDS`), and
the entry point, which runs one command and turns its errors into one line and an exit status.

Errors print one line and exit 1; usage errors exit 2; ``--debug`` shows tracebacks.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import weakref
from typing import Callable, Sequence

from probe_ui import __version__
from probe_ui.cli import help_layout
from probe_ui.cli.common import COMMANDS, EXIT_ERROR, UsageError, log, refuse_global_db, trust_arg
from probe_ui.cli.serve import cmd_serve, serve_args
from probe_ui.errors import ProbeUIError, bug_line, first_line, library_fault
from probe_ui.security import redact
from probe_ui.security.logs import setup_logging

#: the longest error line printed (its names are cut where it is made; this cuts what else it quotes)
ERROR_LIMIT = 2000


def build_parser() -> argparse.ArgumentParser:
    """The whole command line: the app's options (``probe-ui`` alone serves it), then one sub-parser per command."""
    p = argparse.ArgumentParser(
        prog="probe-ui",
        description="Probe vision-language models on medical images: perturb, ask side by side, log, score.",
        epilog=help_layout.TOP_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"probe-ui {__version__}")
    p.add_argument("--debug", action="store_true", help="show full tracebacks on errors")
    trust_arg(p, default=False)
    serve_args(p, top=True)
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    subs: dict[str, argparse.ArgumentParser] = {}
    for cmd in COMMANDS.entries():
        sp = sub.add_parser(cmd.name, help=cmd.help, description=cmd.description)
        cmd.arguments(sp)
        help_layout.arrange(sp, cmd.name)
        subs[cmd.name] = sp
    _commands[p] = subs
    return p


def full_parser() -> argparse.ArgumentParser:
    """:func:`build_parser` with every command's late arguments added (:func:`complete`): the whole command line,
    for what reads all of it (the docs' checks, a help page of every option). It imports what those arguments
    need, so a command never runs through it."""
    p = build_parser()
    for name in list(_commands[p]):
        complete(p, [name])
    return p


#: each built parser's sub-parsers by command, and the commands whose late arguments it has (:func:`complete`)
_commands: weakref.WeakKeyDictionary[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]] = \
    weakref.WeakKeyDictionary()
_completed: weakref.WeakKeyDictionary[argparse.ArgumentParser, set[str]] = weakref.WeakKeyDictionary()


def complete(parser: argparse.ArgumentParser, argv: Sequence[str]) -> None:
    """Add the late arguments (:attr:`Command.late`) of the command ``argv`` runs, once per parser: the options a
    registry's entries declare (each import format's own) cost their imports only to the command that takes them."""
    names = set(_commands.get(parser, {}))
    name = next((a for a in argv if a in names), None)
    if name is None or name in _completed.setdefault(parser, set()):
        return
    cmd = COMMANDS.get(name)
    if cmd.late is not None:
        cmd.late(_commands[parser][name])
    _completed[parser].add(name)


@functools.lru_cache(maxsize=8)
def _kept_parser(_key: tuple[object, ...]) -> argparse.ArgumentParser:
    return build_parser()


def kept_parser() -> argparse.ArgumentParser:
    """:func:`build_parser`'s parser, built once per set of commands and of the environment variables its defaults
    read (``PROBE_UI_DB``, ``PROBE_UI_USERS``): building it costs ~19 ms (argparse looks up a translation of every
    help string), paid twice by each ``probe-ui`` command (:func:`run`) and again by every :func:`main` call of a
    process that runs several (the tests, the fuzzer). Parsing never changes a parser."""
    key = (tuple((c.name, id(c)) for c in COMMANDS.entries()), os.environ.get("PROBE_UI_DB"),
           os.environ.get("PROBE_UI_USERS"))
    return _kept_parser(key)


def forget_parser() -> None:
    """Build the parser afresh at the next :func:`kept_parser` (the commands' functions are bound when it is built)."""
    _kept_parser.cache_clear()


def main(argv: Sequence[str] | None = None) -> int:
    _restore_ctrl_c()
    try:
        parser = kept_parser()
        complete(parser, sys.argv[1:] if argv is None else argv)
    except ProbeUIError as exc:  # a plugin in PROBE_UI_PLUGINS that cannot be loaded: one line naming its file
        setup_logging(debug=False)
        if "--debug" in (sys.argv[1:] if argv is None else argv):
            raise
        log.error(first_line(exc))
        return EXIT_ERROR
    args = parser.parse_args(argv)
    setup_logging(debug=args.debug)
    trust = bool(getattr(args, "trust_store", False))
    if trust or "probe_ui.store.check" in sys.modules:  # a command that opens no store need not load SQLAlchemy
        from probe_ui.store import check as store_check

        store_check.set_trust(True if trust else None)
    func: Callable[[argparse.Namespace], int] = cmd_serve if args.command is None else args.func
    if args.command is not None and getattr(args, "db_given", False) and not getattr(args, "takes_db", False):
        func = refuse_global_db
    try:
        return func(args)
    except UsageError as exc:  # the command's name and the message, not the whole program's usage
        command = f"probe-ui {args.command}" if args.command else "probe-ui"
        print(f"{command}: error: {redact.printable(redact.clip(first_line(exc), ERROR_LIMIT), None)}\n(see: {command} "
              "--help)", file=sys.stderr)
        raise SystemExit(2) from None  # argparse's exit status for a usage error
    except BrokenPipeError:  # e.g. `probe-ui perturbations | head`: the reader left, which is not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        log.error("interrupted: finished answers are stored; run the same command again to resume")
        return 130
    except ProbeUIError as exc:
        if args.debug:
            raise
        log.error(redact.printable(first_line(exc), ERROR_LIMIT))  # escaped, and cut: a name may be 100,000 long
        return EXIT_ERROR
    except Exception as exc:  # a bug: say so in one line; the traceback only with --debug
        if args.debug:
            raise
        fault = library_fault(exc)  # a library that cannot be loaded is the environment's fault, not a bug
        log.error(fault or bug_line(exc, "a bug in probe-ui: run with --debug for the traceback"))
        return EXIT_ERROR
    return 0


def run() -> None:
    """The ``probe-ui`` command (and ``python -m probe_ui``): :func:`main`, then exit.

    A command that does not serve the app leaves without tearing the interpreter down: freeing every module takes
    0.3-0.6 s after a batch (SQLAlchemy, the SDKs, numpy), and by then everything is written (each answer is
    committed as it arrives, files are closed), so output is flushed and the process ends. The app (``probe-ui``,
    ``probe-ui serve``) exits normally, so that its libraries clean up after themselves.
    """
    argv = sys.argv[1:]
    code = main(argv)
    try:
        command = kept_parser().parse_known_args(argv)[0].command
    except ProbeUIError:  # said in one line by main (a plugin that cannot be loaded)
        command = "(none)"
    if command not in (None, "serve"):
        import logging

        logging.shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


def _restore_ctrl_c() -> None:
    """Ctrl+C stops probe-ui even when it was started with SIGINT ignored (a script's ``trap '' INT``, ``nohup``, a
    job started in the background): Python keeps an inherited "ignore", so set the default handler back."""
    import signal
    import threading

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.default_int_handler)
