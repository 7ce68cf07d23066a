"""Where probe-ui's log records go: stderr, one line each (``error: ...``), with every secret masked.

Why in security/: the filter that masks keys and URL credentials in every record is the redaction policy applied to
the log (:mod:`probe_ui.security.redact`); :mod:`probe_ui.errors` says what a user error is, this module how any
message is written out.
"""

from __future__ import annotations

import logging
import sys
from typing import TextIO

from probe_ui.errors import LOGGER_NAME


class RedactingFilter(logging.Filter):
    """Masks secrets (keys in any encoding, credentials in URLs) in every record before any handler writes it."""

    def filter(self, record: logging.LogRecord) -> bool:
        from probe_ui.security.redact import mask, mask_urls, printable  # on first record: not on every command

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



__all__ = ["RedactingFilter", "setup_logging"]
