"""Which answers a Results view shows: the runs to choose from (labelled for people), the scored answers of the
chosen runs with their filters (:func:`answers`, the one frame every table and figure reads), and the selection in
words."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Sequence

import pandas as pd

from probe_ui.labels import when
from probe_ui.scoring import RATING_CHOICES, categories_of

if TYPE_CHECKING:  # pragma: no cover - hints only; importing these costs time the CLI does not want to spend

    from probe_ui.store import Store


#: the columns of an answers frame when no run is chosen
EMPTY_COLUMNS = ["run", "response_id", "model", "prompt", "sample", "variant_id", "parsed", "method", "invalid",
                 "refusal", "correct", "error", "latency_s", "item_id", "condition", "kind", "answer_label",
                 "category", "rating", "note", "state"]


RUN_KINDS = {"live": "live probe", "batch": "batch", "import": "imported", "stress": "stress test"}


def run_choices(store: Store) -> list[tuple[str, str]]:
    """(label, run name) of every run, newest first, labelled for people: when it was made, to the second (two
    probes of one question a minute apart differ), then what it asked (a live probe's question as the person typed
    it, never a variant's rewording of it; a stress test's item or preset and suite; a batch's presets) and by
    whom. The time leads, so that a list cut at a projector's width still tells the runs apart."""
    runs = sorted(store.list_runs(), key=lambda r: (r.updated_at, r.id), reverse=True)
    questions = asked_questions(store, [r.id for r in runs if r.config.source == "live"])
    out = []
    for r in runs:
        kind = "stress" if r.name.startswith("stress-") else r.config.source
        if kind == "live":
            q = questions.get(r.id, "")
            what = (q[:60] + "…") if len(q) > 60 else q or r.name
        elif kind == "stress":
            what = r.name.removeprefix("stress-")
        else:
            what = r.name
        by = f", by {r.created_by}" if r.created_by else ""  # who made it (runs before issue 23: unknown)
        out.append((f"{when(r.created_at)} · {what} ({RUN_KINDS.get(kind, kind)}{by})", r.name))
    seen: dict[str, int] = {}
    for label, _ in out:
        seen[label] = seen.get(label, 0) + 1
    # two runs of one question made in the same second: their names tell them apart
    return [(f"{label} · {name}" if seen[label] > 1 else label, name) for label, name in out]


def asked_questions(store: Store, run_ids: Sequence[int]) -> dict[int, str]:
    """The question each run asked, as it was typed: its original's question, or, where a run holds no original,
    the question a perturbation rewrote as its provenance keeps it (a false premise, a suggestion)."""
    import sqlalchemy as sa

    from probe_ui.store import run_variants, variants

    out: dict[int, tuple[int, str]] = {}
    if not run_ids:
        return {}
    q = (sa.select(run_variants.c.run_id, variants.c.condition, variants.c.question, variants.c.provenance)
         .join(variants, variants.c.id == run_variants.c.variant_id)
         .where(run_variants.c.run_id.in_([int(i) for i in run_ids])))
    with store.engine.connect() as c:
        for run_id, condition, question, provenance in c.execute(q):
            rank, text = (0, str(question or "")) if condition == "original" else (1, _typed(question, provenance))
            if int(run_id) not in out or (rank, text) < out[int(run_id)]:
                out[int(run_id)] = (rank, text)
    return {k: v[1] for k, v in out.items()}


def _typed(question: Any, provenance: Any) -> str:
    """A variant's question before any step rewrote it (the first ``original_question`` its provenance records)."""
    for step in provenance or ():
        details = step.get("details") if isinstance(step, dict) else None
        if isinstance(details, dict) and isinstance(details.get("original_question"), str):
            return details["original_question"]
    return str(question or "")


# ---- the answers of runs ------------------------------------------------------------------------------------------

def answers(store: Store, runs: Sequence[str], parser: str = "robust", *, models: Iterable[str] | None = None,
            conditions: Iterable[str] | None = None, categories: Iterable[str] | None = None,
            ratings: Iterable[str] | None = None, judge: str | None = None) -> pd.DataFrame:
    """The scored answers of every named run (:func:`probe_ui.scoring.scored_answers`), filtered: every table and
    plot of the tab reads this one frame. ``judge``: a fallback judge's model name, whose stored answers replace
    "invalid" where the rules read nothing. An empty list of runs is an error that says so."""
    from probe_ui.scoring import scored_answers
    from probe_ui.store import StoreError

    names = list(dict.fromkeys([runs] if isinstance(runs, str) else list(runs or [])))
    if not names:
        return pd.DataFrame(columns=EMPTY_COLUMNS)
    if any(not str(n).strip() for n in names):
        raise StoreError("an empty run name was given: choose a run")
    return scored_answers(store, names, parser, models=models, conditions=conditions, categories=categories,
                          ratings=ratings, judge=judge)


def selection_words(runs: Sequence[str], parser: str = "robust", *, models: Iterable[str] | None = None,
                    conditions: Iterable[str] | None = None, categories: Iterable[str] | None = None,
                    ratings: Iterable[str] | None = None, labels: dict[str, str] | None = None) -> str:
    """What a view of :func:`answers` shows, in words: the runs, the answer parser and every filter ("all" where
    a filter is empty), so that tables never stand without the selection they belong to. ``labels`` names
    conditions in words (:func:`condition_labels`)."""
    def listed(values: Iterable[str] | None, words: dict[str, str] | None = None) -> str:
        vals = [str(v) for v in values or []]
        return ", ".join((words or {}).get(v, v) for v in vals) if vals else "all"

    names = list(dict.fromkeys([runs] if isinstance(runs, str) else list(runs or [])))
    head = f"run{'s' if len(names) != 1 else ''} {', '.join(names)}" if names else "no run"
    return (f"Showing {head} · answer parser: {parser} · models: {listed(models)} · perturbations: "
            f"{listed(conditions, labels)} · categories: {listed(categories)} · ratings: {listed(ratings)}")


def filter_choices(df: pd.DataFrame) -> dict[str, list[str]]:
    """The values each filter dropdown can offer: the distinct models, conditions, categories and ratings present
    (sorted; ratings in the order correct, incorrect, unsure, unrated). Keys are :func:`answers`' keywords."""
    if df.empty:
        return {"models": [], "conditions": [], "categories": [], "ratings": []}
    present = set(df["rating"].dropna().astype(str)) if "rating" in df.columns else set()
    return {
        "models": sorted(set(df["model"].dropna().astype(str))),
        "conditions": sorted(set(df["condition"].dropna().astype(str))),
        "categories": sorted({c for v in df["category"] for c in categories_of(v)}),
        "ratings": [r for r in RATING_CHOICES if r in present] + sorted(present - set(RATING_CHOICES)),
    }
