"""``probe-ui``: the command line. Each command is a thin wrapper over a library function, in a module of its
own that registers itself (:func:`probe_ui.cli.common.command`); :mod:`probe_ui.cli.entry` assembles the parser
from the registry and runs a command.

Errors print one line and exit 1; usage errors exit 2; ``--debug`` shows tracebacks.
"""

from probe_ui.cli.entry import build_parser, full_parser, main, run

__all__ = ["build_parser", "full_parser", "main", "run"]
