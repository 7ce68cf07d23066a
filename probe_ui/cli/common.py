"""What every ``probe-ui`` command shares: the command registry, the exit codes, the one usage error, the
arguments several commands take (``--db``, ``--run``, ``--seed``, ``--parser``, ...) and the stores they open.

A command is one module of :mod:`probe_ui.cli` that registers itself with :func:`command` (the project's one
registry, :mod:`probe_ui.registry`): adding a command is adding a file, and a plugin file named by
``PROBE_UI_PLUGINS`` may add one the same way.
"""

from __future__ import annotations

import argparse
import functools
import logging
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from probe_ui.errors import ProbeUIError
from probe_ui.registry import RegisteredNames, Registry
from probe_ui.security import redact

EXIT_ERROR, EXIT_USAGE = 1, 2
log = logging.getLogger("probe_ui.cli")


class UsageError(ProbeUIError):
    """A wrong combination of arguments (exit 2)."""


@dataclass(frozen=True)
class Command:
    """One ``probe-ui`` command: its name, its one-line help (and longer description), and ``arguments``, which adds
    the command's arguments to its parser and sets ``func``, the function that runs it (``args -> exit status``)."""

    name: str
    help: str
    arguments: Callable[[argparse.ArgumentParser], None]
    description: str | None = None
    #: adds the arguments that cost imports to list (options a registry's entries declare): called only when this
    #: command is the one run (:func:`probe_ui.cli.entry.complete`), so that no other command imports them
    late: Callable[[argparse.ArgumentParser], None] | None = None


#: every command, found by importing the modules of :mod:`probe_ui.cli` (and plugins); listed in name order
COMMANDS: Registry[Command] = Registry("command", packages=("probe_ui.cli",))


def command(name: str, help: str, description: str | None = None,
            late: Callable[[argparse.ArgumentParser], None] | None = None
            ) -> Callable[[Callable[[argparse.ArgumentParser], None]], Callable[[argparse.ArgumentParser], None]]:
    """A decorator over a function that adds a command's arguments: registers the command ``name``."""
    def deco(arguments: Callable[[argparse.ArgumentParser], None]) -> Callable[[argparse.ArgumentParser], None]:
        COMMANDS.put(Command(name, help, arguments, description, late))
        return arguments
    return deco


class LazyChoices:
    """``choices=`` of an option whose names come from modules that are slow to import (the harnesses, the
    import and export formats): computed only when ``argparse`` asks (the option is given, or help is shown), so
    building the parser, and every command that does not use the option, imports nothing for them. Give the option
    a ``metavar`` (argparse otherwise lists the choices when the option is added) and ``%(choices)s`` in its help."""

    def __init__(self, names: Callable[[], Iterable[str]]) -> None:
        self._names = names

    def __contains__(self, name: object) -> bool:
        return name in tuple(self._names())

    def __iter__(self) -> Iterator[str]:
        return iter(tuple(self._names()))


def db_default() -> str:
    from probe_ui.files.data_folder import DEFAULT_DB

    return os.environ.get("PROBE_UI_DB", str(DEFAULT_DB))


DB_HELP = "database file or SQLAlchemy URL (default: $PROBE_UI_DB or probe-ui-data/probe-ui.db)"


def db_arg(p: Any) -> None:
    """``--db`` alone (a command that names no run). Given before the command instead (``probe-ui --db X batch``),
    the command takes that one: the option has no default of its own here, so the value :func:`global_db_arg`
    parsed (or its default) stays in the namespace."""
    p.add_argument("--db", default=argparse.SUPPRESS, help=DB_HELP)
    p.set_defaults(takes_db=True)


class _GivenDb(argparse.Action):
    """The global ``--db``: stored, and marked as given (a command that opens no store refuses it)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        namespace.db = values
        namespace.db_given = True


def global_db_arg(p: Any) -> None:
    """``probe-ui --db X [COMMAND]``: the app's store, and that of any command that takes ``--db`` and is not given
    its own (``probe-ui --db X batch ...`` used to write the default store)."""
    p.add_argument("--db", default=db_default(), action=_GivenDb, help=DB_HELP)


def refuse_global_db(args: argparse.Namespace) -> int:
    """The command given a global ``--db`` that opens no store: one line, not a store silently left unused."""
    raise UsageError(f"--db {shown(args.db)!r} was given before '{args.command}', which opens no store: leave "
                     "--db out")


class OneRun(argparse.Action):
    """``--run NAME``, given once: a second ``--run`` (``score --run A --run B``) used to keep only the last, so that
    a command meant to read two runs silently read one. Given again, the command is replaced by a one-line refusal
    that names both runs and what to run instead (raised as a :class:`UsageError` when the command runs)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        given = [*getattr(namespace, "run_names", []), str(values)]
        namespace.run_names = given
        namespace.run = given[0]
        if len(given) > 1:
            namespace.func = functools.partial(_several_runs, given)


def _several_runs(runs: list[str], args: argparse.Namespace) -> int:
    names = ", ".join(f"'{r}'" for r in runs)
    command = args.command or "this command"
    compare = f"; compare two runs with 'probe-ui compare {runs[0]} {runs[1]}'" if len(runs) == 2 else ""
    raise UsageError(f"--run given {len(runs)} times ({names}): {command} reads one run; run it once per run"
                     f"{compare}")


def db_args(sp: argparse.ArgumentParser) -> None:
    """``--db``, ``--run`` and ``--trust-store``: the store and run a command reads or writes."""
    db_arg(sp)
    sp.add_argument("--run", default=None, action=OneRun,
                    help="run name, once (default: batch: derived from presets and seed; score: the most recent run)")
    trust_arg(sp)


def seed_arg(text: str) -> int:
    """``--seed``: a whole number that every store and random generator can hold."""
    from probe_ui.perturb.registry import MAX_SEED

    try:
        value = int(text.strip())
    except ValueError:
        value = -1
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"give a whole number from 0 to {MAX_SEED}, not {text!r}")
    return value


def temperature_arg(text: str) -> float:
    """``--temperature``: a finite number every provider takes (``nan`` reached every model as an error)."""
    from probe_ui.runner import BatchError, check_temperature

    try:
        return check_temperature(text.strip(), "")
    except BatchError as exc:
        raise argparse.ArgumentTypeError(str(exc).strip()) from None


def max_cost_arg(p: argparse.ArgumentParser) -> None:
    """``--max-cost USD``: a batch's spend cap (:mod:`probe_ui.runner.spend`)."""
    p.add_argument("--max-cost", type=float, default=None, metavar="USD",
                   help="the most this run may cost, in US dollars: before each request, what the run's answers "
                        "have cost plus the request's estimated cost must stay within it; the first request that "
                        "would pass it stops the run (answers kept, the cells left not asked; running again with a "
                        "higher cap finishes). Every model needs a catalogue price, unless it is local")


def max_cost_of(args: argparse.Namespace) -> float | None:
    """``--max-cost`` checked: a finite amount, 0 or more (a usage error naming it otherwise)."""
    if args.max_cost is None:
        return None
    from probe_ui.runner import BatchError
    from probe_ui.runner.spend import check_cap

    try:
        return check_cap(args.max_cost)
    except BatchError as exc:
        raise UsageError(str(exc)) from None


def count_arg(text: str) -> int:
    """A count from 0 to 100,000 (``compare --boot``, ``--flips``)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if n < 0 or n > 100_000:
        raise argparse.ArgumentTypeError(f"expected a whole number from 0 to 100,000, not {n}")
    return n


TRUST_HELP = ("open a store that holds triggers (or rules) probe-ui did not create, with a warning naming them "
              "(default: refuse it, since a trigger can change answers and ratings as they are written; also "
              "PROBE_UI_TRUST_STORE=1)")


def trust_arg(p: argparse.ArgumentParser, default: Any = argparse.SUPPRESS) -> None:
    """``--trust-store`` (:mod:`probe_ui.store.check`): before or after the command's name."""
    p.add_argument("--trust-store", action="store_true", default=default, help=TRUST_HELP)


def parser_arg(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--parser", choices=RegisteredNames("probe_ui.scoring:PARSERS"), default="robust",
                    metavar="NAME",
                    help="robust: our extractor (default); legacy: the benchmark's original parser, to reproduce "
                         "published numbers (runs whose benchmark is known; else the same as robust)")


def judge_arg(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--judge", default=None, metavar="MODEL",
                    help="a judge model (provider/model or a catalogue name) for the replies the rules cannot "
                         "read: it is asked once about each (its answer stored, never asked again), and its "
                         "answers count with the method 'judge' (robust parser only; off unless given)")


def definition_arg(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--definition", choices=("auto", "paper", "clean"), default="auto",
                    help="metric definitions: paper (each paper's exact one, to quote beside it), clean (ours, "
                         "where a family has one), auto (default: paper with --parser legacy, else clean); "
                         "every block of the JSON names the one it used")


def image_root_arg(p: argparse.ArgumentParser, help: str = "also let the preset read images from DIR (see batch "
                                                            "--image-root)") -> None:
    p.add_argument("--image-root", action="append", default=[], metavar="DIR", help=help)


def shown(db: str) -> str:
    """A database location fit to print (a URL without credentials)."""
    return redact.public_location(db)


def emit(lines: list[str]) -> None:
    """A summary's lines: its warnings through the log (stderr), the rest to stdout."""
    for line in lines:
        if line.startswith("warning: "):
            log.warning(line.removeprefix("warning: "))
        else:
            print(line)


def reading_store(db: str) -> Any:
    """The store for a command that only reads it (score, export, report, ratings export): never created here
    (a mistyped --db, or a command run from another folder, gets "no store at PATH" and exit 1, and nothing is
    written); opened read-only where this process cannot write it, else as usual, so that an older store is
    upgraded and the parse cache refreshed (:func:`probe_ui.store.open_existing`)."""
    from probe_ui.store import open_existing

    return open_existing(db)


def judged_store(args: argparse.Namespace) -> tuple[Any, str | None]:
    """The store for score/export/report, and the fallback judge's model name when ``--judge`` is given: the judge
    is first asked about the run's unread replies it has not decided yet (stored in the run, so the store is opened
    for writing), with a line saying what it did."""
    judge = getattr(args, "judge", None)
    if not judge:
        return reading_store(args.db), None
    from probe_ui.scoring.fallback import judge_unread, resolve_judge
    from probe_ui.store import Store

    if getattr(args, "parser", "robust") == "legacy":
        raise UsageError("--judge reads the replies the robust rules cannot read: use it without --parser legacy")
    model = resolve_judge(judge)  # before the store is touched: an unknown judge is a one-line error
    store = Store(args.db)
    summary = judge_unread(store, args.run, model)
    for line in summary.lines():
        print(line, file=sys.stderr)
    return store, model.name


def send_gate_args(p: Any) -> None:
    """``--send-gate`` and ``--trusted-hosts`` (issue 47: :mod:`probe_ui.send_gate.policy`)."""
    p.add_argument("--send-gate", default=None, metavar="POLICY", choices=("block", "redact", "warn", "off"),
                   help="what to do with an image that carries burned-in identifying text (a name, a date, a record "
                        "number) before it leaves: block (the cell fails, nothing is sent), redact (the text is "
                        "covered and the covered image is sent), warn, or off. Default: block for hosts that are "
                        "not trusted when the OCR extra is installed (README: the send gate); given here, it "
                        "applies to trusted hosts too. Also PROBE_UI_SEND_GATE")
    p.add_argument("--trusted-hosts", default=None, metavar="HOSTS",
                   help="comma-separated hosts (or *.domain) that are the site's own: no send gate by default and no "
                        "entry in the send ledger, as for loopback (also PROBE_UI_TRUSTED_HOSTS and a catalogue "
                        "entry's trusted: true)")


def send_gate_of(args: argparse.Namespace) -> Any:
    """The send gate's policy from the command line (a UsageError for a bad host pattern)."""
    from probe_ui.send_gate.policy import GateError, GatePolicy

    try:
        return GatePolicy.from_options(getattr(args, "send_gate", None), getattr(args, "trusted_hosts", None))
    except GateError as exc:
        raise UsageError(str(exc)) from None
