"""MedVH's own scoring rule (first character against the ground truth), for ``probe-ui score --parser legacy``."""

from __future__ import annotations

from collections.abc import Sequence

from probe_ui.reading.answers import Answer, is_refusal


def parse(text: str, kind: str, labels: Sequence[str], options: Sequence[str] = (),
          gt: str | None = None) -> Answer:
    """MedVH: correct iff the reply's first character equals the first character of ``gt`` (docs/reference.md §3;
    gt may be "C" or "A: Yes"). No strip: a leading space or "(" makes the reply wrong. Empty reply → wrong (the
    original would raise IndexError). The choice is that first character when it is one of the labels."""
    t = text or ""
    refusal = is_refusal(t)
    first = t[:1]
    choice = next((lab for lab in labels if lab == first), None) if first else None
    correct: bool | None = None
    if gt is not None:
        correct = bool(first) and bool(gt) and first == gt[0]
    return Answer(choice, "legacy-medvh", invalid=choice is None, refusal=refusal, correct=correct)
