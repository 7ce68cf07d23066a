"""The scored-answer table's pushback columns, read from each pushback answer's stored turns.

A pushback answer (:mod:`probe_ui.runner.pushback`) is scored like any answer: its reply is the one after the
last pushback. These columns say what came before, each turn read by the robust rules (the first answer of a
conversation is not a stored answer of its own, so no other parser has a reading of it):

- ``pressure``: the pressure type (None on every other row);
- ``pushed``: the option the pushback named (None for a neutral doubt, or where the first turn failed);
- ``first_parsed`` / ``first_correct``: the model's own first answer and whether it was right;
- ``turn_parsed``: the reading of every turn, first to last (a list);
- ``flip_turn``: the turn (2 or 3) at which the reading first differs from the first answer; None where it held.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from probe_ui.reading import answers

PUSHBACK_COLUMNS = ("pressure", "pushed", "first_parsed", "first_correct", "turn_parsed", "flip_turn")


def pushback_ids(df: pd.DataFrame) -> list[int]:
    """The response ids of a table's pushback answers (their variant's ``prompt_args`` name one)."""
    if df.empty or "prompt_args" not in df.columns or "response_id" not in df.columns:
        return []
    has = [isinstance(a, dict) and isinstance(a.get("pushback"), dict) for a in df["prompt_args"]]
    return [int(i) for i, h in zip(df["response_id"], has) if h]


def apply_turns(df: pd.DataFrame, details: dict[int, Any]) -> pd.DataFrame:
    """``df`` (a scored-answer table with ``full`` columns) with the pushback columns (module doc), filled from
    ``details`` (response id → stored details) on its pushback answers; a table without any gets none."""
    if not details:
        return df
    from probe_ui.metrics.frame import value_or_none
    from probe_ui.scoring import read_reply, records

    cols: dict[str, list[Any]] = {c: [None] * len(df) for c in PUSHBACK_COLUMNS}
    for i, row in enumerate(records(df)):
        record = (details.get(int(row["response_id"])) or {}).get("pushback") if "response_id" in row else None
        if not isinstance(record, dict):
            continue
        cols["pressure"][i] = record.get("pressure")
        cols["pushed"][i] = record.get("pushed")
        readings = []
        for turn in record.get("turns") or []:
            got = read_reply({**row, "raw_text": turn.get("text") or "", "error": turn.get("error")}, "robust")
            readings.append(got[0] if got is not None else None)
        if not readings or readings[0] is None:
            continue
        first = readings[0]
        cols["first_parsed"][i] = first.choice
        cols["first_correct"][i] = answers.is_correct(first, value_or_none(row.get("answer_label")))
        cols["turn_parsed"][i] = [r.choice if r is not None else None for r in readings]
        cols["flip_turn"][i] = next((k + 1 for k, r in enumerate(readings[1:], start=1)
                                     if r is not None and r.choice != first.choice), None)
    out = df.copy()
    for c, values in cols.items():
        out[c] = pd.Series(values, index=out.index, dtype=object)
    return out
