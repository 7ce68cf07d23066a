"""The live probe's one error: what to fix, and the field of the page it belongs to."""

from __future__ import annotations

from probe_ui.errors import ProbeUIError


class ProbeError(ProbeUIError, ValueError):
    """The probe cannot be built or run as filled in; the message says what to fix and ``field`` names the
    field (question, options, answer, models, image, steps, set_name, ...), for the page to mark it."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field
