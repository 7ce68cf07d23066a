"""The send gate (issue 47): find identifying text burned into an image's pixels before the image leaves.

- ``detect``: :func:`find_identifying_text` (image -> list of :class:`Finding`: box and kind, never the text).
- ``patterns``: what counts as identifying (:func:`classify`, the rules with examples).
- ``ocr``: the OCR engine (the ``ocr`` extra, loaded lazily), :class:`GateUnavailable` without it.
- ``redact``: :func:`redact` fills the boxes with black.
- ``policy``: which requests are checked and what happens to them.
"""

from probe_ui.send_gate.detect import Finding, find_identifying_text
from probe_ui.send_gate.ocr import INSTALL_HINT, GateUnavailable
from probe_ui.send_gate.patterns import KINDS, classify, is_identifying
from probe_ui.send_gate.redact import redact

__all__ = ["INSTALL_HINT", "KINDS", "Finding", "GateUnavailable", "classify", "find_identifying_text",
           "is_identifying", "redact"]
