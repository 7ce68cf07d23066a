"""MediConfusion's own answer parser (``utils/answering.py``), for ``probe-ui score --parser legacy``."""

from __future__ import annotations

from collections.abc import Sequence

from probe_ui.reading.answers import Answer, is_refusal


def parse(text: str, kind: str, labels: Sequence[str], options: Sequence[str] = (),
          gt: str | None = None) -> Answer:
    """MediConfusion ``clean_up_manual``: ``answer.replace('\\n', ' ').split(' ')`` (space only, so tabs and
    empty strings stay tokens); option L matches if any token equals one of ``L L: .L .L: L. L") L\\n \\nL ("L":
    ("L") ("L").``; the two newline forms can never match after the replace, but are kept as in the code.
    Two or more labels matched, or none, is invalid. So "(A)" is not recognised and "A large mass" counts as A."""
    refusal = is_refusal(text or "")
    matched: list[str] = []
    if text is not None:
        tokens = set(text.replace("\n", " ").split(" "))  # a set: membership is all the original asks
        for la in labels:
            valid = [f"{la}", f"{la}:", f".{la}", f".{la}:", f"{la}.", f'{la}")', f"{la}\n", f"\n{la}",
                     f'("{la}":', f'("{la}")', f'("{la}").']
            if any(x in tokens for x in valid):
                matched.append(la)
    if len(matched) == 1:
        return Answer(matched[0], "legacy-mediconfusion", invalid=False, refusal=refusal)
    return Answer(None, "legacy-mediconfusion", invalid=True, refusal=refusal)
