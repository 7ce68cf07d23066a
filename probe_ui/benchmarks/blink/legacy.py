"""BLINK's own answer parser (``analyze_answer``; MedBLINK follows it), for ``probe-ui score --parser legacy``."""

from __future__ import annotations

from collections.abc import Sequence

from probe_ui.reading.answers import Answer, is_refusal

BARE = ("A", "B", "C", "D", "E")


def parse(text: str, kind: str, labels: Sequence[str], options: Sequence[str] = (),
          gt: str | None = None) -> Answer:
    """BLINK ``analyze_answer`` (MedBLINK follows it): the whole reply "B" → "(B)"; exactly "(B)" kept; else the
    unique ``(L)`` whitespace-separated token of the item's choices in the last paragraph (``split('\\n\\n')[-1]``)
    if exactly one there, or in the whole reply if exactly one there; otherwise the original asks a GPT-3.5 judge,
    which is not available offline: "legacy-blink-nomatch", invalid (the judge's "(Z)" counts as wrong).
    No stripping anywhere, so "(B)." or "B\\n" do not count, as in the original."""
    t = text or ""
    refusal = is_refusal(t)
    paren = {f"({lab})": lab for lab in labels}
    if t in BARE or t in [f"({x})" for x in BARE]:
        letter = t.strip("()")
        lab = next((la for la in labels if la == letter), None)
        if lab is None:  # the original accepts A-E regardless of the item's option count: a wrong "(E)"
            return Answer(None, "legacy-blink-outside", invalid=True, refusal=refusal)
        return Answer(lab, "legacy-blink", invalid=False, refusal=refusal)
    intersect = set(paren) & set(t.split())
    intersect_last = set(paren) & set(t.split("\n\n")[-1].split())
    if (len(intersect) != 1 and len(intersect_last) != 1) or len(intersect) < 1:
        return Answer(None, "legacy-blink-nomatch", invalid=True, refusal=refusal)
    token = next(iter(intersect_last if len(intersect_last) == 1 else intersect))
    return Answer(paren[token], "legacy-blink", invalid=False, refusal=refusal)
