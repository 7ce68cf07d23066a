"""One base class for the errors a user is meant to read, and how they are logged.

Every module's error class derives from :class:`ProbeUIError` (keeping ``ValueError`` / ``RuntimeError`` as a
second base where callers catch those). The CLI and the app catch this base only: its message is one line written
for the user (naming the file, item and field) and is shown as it is; any other exception is a bug, reported as one
line that says so, with the traceback in the log (the CLI: only with ``--debug``).

Messages pass through :func:`probe_ui.security.redact.mask` on their way out (every log record, via the filter on
the handler :func:`probe_ui.security.logs.setup_logging` installs), so a key that reached an error's text by some
path nobody foresaw is still masked.
"""

from __future__ import annotations

from types import TracebackType

#: the logger every probe-ui module logs under (``probe_ui.<module>``)
LOGGER_NAME = "probe_ui"


class ProbeUIError(Exception):
    """An error whose message is written for the user: one line, naming what to fix, never a secret."""


class SpendCapReached(Exception):
    """Raised where a request would take the spend past a cap (a run's ``--max-cost``, a user's limit in the app):
    the request is not sent. Here, not in :mod:`probe_ui.runner.spend`, because lower rooms that send a request of
    their own (a model's Test, :mod:`probe_ui.catalogue.endpoints`) hold it to the same caps."""


class ProbeError(ProbeUIError, ValueError):
    """The probe cannot be built or run as filled in; the message says what to fix and ``field`` names the
    field of the page (question, options, answer, models, image, steps, region, set_name, ...), for the page to mark
    it beside that field. Here, not in :mod:`probe_ui.live`, because lower rooms (a region typed on the image)
    raise it too."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


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


__all__ = ["LOGGER_NAME", "ProbeError", "ProbeUIError", "SpendCapReached", "bug_line", "first_line", "is_user_error",
           "library_fault"]
