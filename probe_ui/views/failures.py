"""Failed calls, in words: why a model gave no answer, grouped so that a person reads "12 × the key was refused"
instead of twelve error messages.

A failed call is a stored response with an ``error`` (the provider's message, a timeout, a model that could not be
asked here because its key or server is missing). :func:`reason_words` maps one message to a short reason in plain
words (the part that differs between models, such as which key variable is missing, is kept); :func:`failed_calls`
counts them per run and model for the Results tab. The full message stays in the answer's detail view.
"""

from __future__ import annotations

import re

import pandas as pd

#: (pattern on the error text, reason in words); the first match wins. ``{0}`` is the pattern's first group.
RULES: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p, re.I | re.S), words) for p, words in (
    (r"is not usable here: (.+)", "could not be asked here: {0}"),
    (r"cancelled before it was sent", "cancelled before it was sent"),
    (r"could not be stored", "the reply could not be stored (asked again by the next run)"),
    (r"timed out|no answer within|HTTP 408|HTTP 504", "no answer in time"),
    (r"cannot connect to|connection to .* failed|connection refused|ConnectError", "the server could not be reached"),
    (r"HTTP 429|rate.?limit", "rate limited by the provider (too many requests)"),
    (r"HTTP 40[13]\b|authentication|api key|unauthori[sz]ed|permission", "the key was refused"),
    (r"HTTP 404|model.*not found|does not exist", "the model was not found at the provider"),
    (r"HTTP 413|too large|context length|maximum context", "the request was too large for the model"),
    (r"HTTP 5\d\d|HTTP 529|server error|overloaded", "the provider's server failed"),
    (r"malformed response|could not be read|JSONDecodeError|ValidationError", "the reply could not be read"),
    (r"HTTP 4\d\d", "the provider refused the request"),
))

#: the Results tab's table of failed calls
FAILED_COLUMNS = ["run", "model", "failed calls", "why (count × reason)"]


def reason_words(error: str | None, limit: int = 120) -> str:
    """One failure's reason in a few plain words (module doc); an unknown message is shown itself, shortened."""
    text = " ".join(str(error or "failed").split())
    for pattern, words in RULES:
        m = pattern.search(text)
        if m:
            detail = (m.group(1) if m.groups() else "").strip().rstrip(".")
            return words.format(detail[:limit])
    text = re.sub(r"^[^:\s]{1,80}: ", "", text)  # "model-label: message" → the message
    return text if len(text) <= limit else text[: limit - 1] + "…"


def failed_calls(df: pd.DataFrame) -> pd.DataFrame:
    """Per run and model with failed calls: their number and the reasons grouped ("3 × no answer in time;
    1 × the key was refused"), most frequent first. Every stored call counts (samples too); an empty frame when no
    call failed."""
    if df is None or df.empty or "error" not in df.columns:
        return pd.DataFrame(columns=FAILED_COLUMNS)
    failed = df[df["error"].notna()]
    if failed.empty:
        return pd.DataFrame(columns=FAILED_COLUMNS)
    runs = failed["run"].astype(str) if "run" in failed.columns else pd.Series("", index=failed.index)
    f = pd.DataFrame({"run": runs, "model": failed["model"].astype(str),
                      "why": [reason_words(e) for e in failed["error"]]})
    rows = []
    for (run, model), g in f.groupby(["run", "model"], sort=False):
        counts = g["why"].value_counts(sort=True)
        rows.append({"run": run, "model": model, "failed calls": int(len(g)),
                     "why (count × reason)": "; ".join(f"{n} × {why}" for why, n in counts.items())})
    return pd.DataFrame(rows, columns=FAILED_COLUMNS)


__all__ = ["FAILED_COLUMNS", "failed_calls", "reason_words"]
