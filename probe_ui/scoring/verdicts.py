"""How often a harness's own verdicts agree with probe-ui's reading of the same replies.

An imported harness run keeps the harness's verdict on each reply (right or wrong, as its scorer decided) in the
response's ``details.harness``; the answer itself is always probe-ui's reading of the raw reply. ``probe-ui score``
shows, per model, on how many replies both gave a verdict, how many of those agree, and the agreement rate, so a
researcher sees at once whether a published harness number and the papers' metrics rest on the same reading.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pandas as pd

if TYPE_CHECKING:
    from probe_ui.store import Run, Store


def harness_verdicts(store: Store, run_id: int) -> dict[int, dict[str, Any]]:
    """``{response id: details.harness}`` for the answers of a run that carry a harness verdict record."""
    import sqlalchemy as sa

    from probe_ui.store import responses

    q = sa.select(responses.c.id, responses.c.details).where(responses.c.run_id == run_id,
                                                             responses.c.role == "answer")
    out: dict[int, dict[str, Any]] = {}
    with store.engine.connect() as c:
        for rid, details in c.execute(q):
            d = json.loads(details) if isinstance(details, str) else details
            h = d.get("harness") if isinstance(d, dict) else None
            if isinstance(h, dict):
                out[int(rid)] = h
    return out


def harness_agreement(store: Store, run: Run, df: pd.DataFrame) -> dict[str, Any] | None:
    """Per model, the harness's verdicts against probe-ui's (``df``: the run's scored answers under the parser
    asked for): ``compared`` (replies both judged), ``agree``, ``rate`` (percent, None when nothing was compared),
    ``no_verdict`` (replies the harness left unjudged). None for a run that is not a harness import."""
    name = run.config.harness
    if not name:
        return None
    verdicts = harness_verdicts(store, run.id)
    models: dict[str, dict[str, Any]] = {}
    for model, g in df.groupby("model", sort=True):
        compared = agree = unjudged = 0
        for rid, correct, error in zip(g["response_id"], g["correct"], g["error"]):
            if error is not None and error == error:  # an error cell has no reply to judge
                continue
            h = verdicts.get(int(rid))
            ours = None if correct is None or correct != correct else bool(correct)
            theirs = h.get("verdict") if h else None
            if theirs is None:
                unjudged += 1
                continue
            if ours is None:
                continue
            compared += 1
            agree += int(bool(theirs) == ours)
        models[str(model)] = {"compared": compared, "agree": agree,
                              "rate": round(100.0 * agree / compared, 2) if compared else None,
                              "no_verdict": unjudged}
    return {"harness": name, "models": models}


def agreement_lines(block: dict[str, Any] | None) -> list[str]:
    """The agreement as lines of the ``score`` table."""
    if not block:
        return []
    lines = [f"== {block['harness']}'s own verdicts against probe-ui's reading =="]
    for model, m in block["models"].items():
        rate = f"{m['rate']:.1f}%" if m["rate"] is not None else "-"
        extra = f"; {m['no_verdict']} replies without a verdict" if m["no_verdict"] else ""
        lines.append(f"{model}: agree on {m['agree']} of {m['compared']} replies ({rate}){extra}")
    return lines
