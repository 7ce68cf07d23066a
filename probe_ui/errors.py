"""One base class for the errors a user is meant to read, and how they are logged.

Every module's error class derives from :class:`ProbeUIError` (keeping ``ValueError`` / ``RuntimeError`` as a
second base where callers catch those). The CLI and the app catch this base only: its message is one line written
for the user (naming the file, item and field) and is shown as it is; any other exception is a bug, reported as one
line that says so, with the traceback in the log (the CLI: only with ``--debug``).

Messages pass through :func:`probe_ui.security.redact.mask` on their way out (every log record, via the
:class:`RedactingFilter` on the handler :func:`setup_logging` installs), so a key that reached an error's text by
some path nobody foresaw is still masked.
"""

from __future__ import annotations

import logging
import sys
from types import TracebackType
from typing import TextIO

#: the logger every probe-ui module logs under (``probe_ui.<module>``)
LOGGER_NAME = "probe_ui"


class ProbeUIError(Exception):
    """An error whose message is written for the user: one line, naming what to fix, never a secret."""


def is_user_error(exc: BaseException) -> bool:
    """Whether ``exc`` is a user-facing error (shown as is) rather than a bug."""
    return isinstance(exc, ProbeUIError)


def first_line(exc: BaseException) -> str:
    """The error's message on one line (the first non-empty line; the type's name when there is none)."""
    text = str(exc).strip()
    return text.splitlines()[0].strip() if text else type(exc).__name__


def bug_line(exc: BaseException, hint: str) -> str:
    """One line for an unexpected exception: its type and first line, and where the details are."""
    return f"unexpected {type(exc).__name__}: {first_line(exc) if str(exc).strip() else '(no message)'} ({hint})"


def library_fault(exc: BaseException) -> str | None:
    """One line when ``exc`` is a library that could not be loaded (an ``OSError`` or ``ImportError`` raised while
    importing a module other than probe-ui's own: a missing shared library, a wheel for another Python, a partial
    upgrade): a fault of the Python environment, named as such with the library and the remedy; None otherwise (a
    bug, or an ``OSError`` of a file or a socket). A broken pyarrow was reported as "a bug in probe-ui"."""
    if not isinstance(exc, (OSError, ImportError)):
        return None
    # the modules whose code was running at import time (importlib's own frames are cut from tracebacks)
    names = [str(tb.tb_frame.f_globals.get("__name__", "")) for tb in _frames(exc)
             if tb.tb_frame.f_code.co_name == "<module>"]
    if isinstance(exc, ImportError) and exc.name:
        names.append(exc.name)
    names = [n.split(".")[0] for n in names if n and n.split(".")[0] != "probe_ui"]
    if not names:
        return None
    lib = names[-1]  # the innermost: pandas importing a broken pyarrow names pyarrow
    return (f"{lib} could not be loaded ({type(exc).__name__}: {first_line(exc)[:300]}): a fault of this Python "
            f"environment, not of probe-ui: reinstall it (pip install --force-reinstall {lib}), or run with --debug "
            "for the traceback")


def _frames(exc: BaseException) -> list[TracebackType]:
    out = []
    tb = exc.__traceback__
    while tb is not None:
        out.append(tb)
        tb = tb.tb_next
    return out


class RedactingFilter(logging.Filter):
    """Masks secrets (keys in any encoding, credentials in URLs) in every record before any handler writes it."""

    def filter(self, record: logging.LogRecord) -> bool:
        from probe_ui.security.redact import mask, mask_urls, printable

        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 - a record whose arguments do not format is still logged, as its template
            message = str(record.msg)
        # and no control character reaches the terminal as is (a name holding ESC ] 0 ; retitled the window)
        record.msg, record.args = printable(mask_urls(mask(message)), None, keep="\n\t"), None
        if record.exc_info and not record.exc_text:
            record.exc_text = mask_urls(mask(logging.Formatter().formatException(record.exc_info)))
            record.exc_info = None
        return True


class _LowerLevelFormatter(logging.Formatter):
    """``error: message`` / ``warning: message`` / ``note: message``: the CLI's long-standing style."""

    def format(self, record: logging.LogRecord) -> str:
        level = "note" if record.levelno == logging.INFO else record.levelname.lower()
        text = f"{level}: {record.getMessage()}"
        if record.exc_text:
            text += "\n" + record.exc_text
        return text


class _StderrHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to whatever ``sys.stderr`` is at the time of each record (a test's capture, a redirected stream)."""

    def __init__(self) -> None:
        super().__init__(sys.stderr)

    @property  # type: ignore[override]
    def stream(self) -> TextIO:
        return sys.stderr

    @stream.setter
    def stream(self, value: TextIO) -> None:  # the base class assigns it; the property always reads sys.stderr
        pass


def setup_logging(debug: bool = False) -> logging.Logger:
    """Route probe-ui's log records to stderr, one line each (``error: ...``), secrets masked; ``debug`` adds
    debug records. Idempotent: a second call replaces the handler of the first. Records still propagate to any
    handler a host program (or pytest) installed on the root logger."""
    logger = logging.getLogger(LOGGER_NAME)
    for h in [h for h in logger.handlers if isinstance(h, _StderrHandler)]:
        logger.removeHandler(h)
    handler = _StderrHandler()
    handler.setFormatter(_LowerLevelFormatter())
    handler.addFilter(RedactingFilter())
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG if debug else logging.INFO)
    return logger


__all__ = ["LOGGER_NAME", "ProbeUIError", "RedactingFilter", "bug_line", "first_line", "is_user_error",
           "library_fault", "setup_logging"]
