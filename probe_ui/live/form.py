"""What the Probe form asks, as one object: the image, the question and its options, the steps, suites and seed.

The Probe tab (preview, run, keep in a benchmark set, a draft kept in the browser) and the Stress tab (which asks
the Probe tab's item) read the same fields. One typed object with one way to turn it into variants replaces the
positional tuples each callback unpacked in its own order, so a field added to the form is added once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any, Iterator

from probe_ui.images import CanonicalImage
from probe_ui.items import Item, Variant

if TYPE_CHECKING:
    from probe_ui.store import Store

#: the form's fields in the order the page lists its components (:meth:`ProbeForm.from_values`)
FIELDS = ("image_ids", "question", "kind", "options", "answer", "category", "extra", "steps", "seed", "suites",
          "include_original")


def step_rows(value: Any) -> list[list[Any]]:
    """A steps table's value as rows of code names, whatever form it arrives in (pandas from the page, a dict or
    JSON text from the API, a list); a perturbation may be named by its label (:func:`shown_steps`)."""
    from probe_ui.labels import perturbation_name

    if value is None:
        return []
    if hasattr(value, "values") and hasattr(value, "columns"):
        rows = [list(r) for r in value.values.tolist()]
    elif isinstance(value, dict):
        rows = [list(r) for r in value.get("data") or []]
    elif isinstance(value, str):
        rows = [list(r) for r in json.loads(value)] if value.strip() else []
    else:
        rows = [list(r) for r in value]
    return [[r[0], perturbation_name(r[1]), *r[2:]] if len(r) > 1 and isinstance(r[1], str) else r for r in rows]


def shown_steps(rows: list[list[Any]] | None) -> list[list[Any]]:
    """Steps as the page's table shows them: each perturbation by its label, no parameters as an empty cell
    rather than ``{}`` (:func:`step_rows` reads them back)."""
    from probe_ui.labels import perturbation

    out = []
    for r in rows or []:
        r = list(r) + [""] * (3 - len(r))
        params = "" if str(r[2]).strip() in ("{}", "None") else r[2]
        out.append([r[0], perturbation(str(r[1])) if str(r[1]).strip() else r[1], params, *r[3:]])
    return out


@dataclass(frozen=True)
class ProbeForm:
    """The Probe form's values. ``image_ids`` name images already in the store; ``options`` is the text box (one
    option a line); ``steps`` are the steps table's rows ``[variant, perturbation, parameters JSON]``; ``extra``
    is what a loaded preset item brings beyond the fields (attributes, tags, group)."""

    image_ids: tuple[str, ...] = ()
    question: str = ""
    kind: str = "choice"
    options: str = ""
    answer: str | None = None
    category: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    steps: tuple[tuple[Any, ...], ...] = ()
    seed: int = 0
    suites: tuple[str, ...] = ()
    include_original: bool = True

    @classmethod
    def from_values(cls, values: tuple[Any, ...] | list[Any] | dict[str, Any], *, seed: int = 0) -> ProbeForm:
        """The form from the page's values in :data:`FIELDS` order, or by field name (fields left out take their
        defaults; the seed already checked by the caller)."""
        raw = dict(values) if isinstance(values, dict) else dict(zip(FIELDS, values))
        return cls(image_ids=tuple(str(i) for i in raw.get("image_ids") or ()),
                   question=str(raw.get("question") or ""), kind=str(raw.get("kind") or "choice"),
                   options=str(raw.get("options") or ""), answer=raw.get("answer") or None,
                   category=str(raw.get("category") or ""), extra=dict(raw.get("extra") or {}),
                   steps=tuple(tuple(r) for r in step_rows(raw.get("steps"))), seed=seed,
                   suites=tuple(raw.get("suites") or ()),
                   include_original=bool(raw.get("include_original", True)))

    def values(self) -> dict[str, Any]:
        """The fields as plain values (lists, not tuples), e.g. for a draft kept in the browser."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out.update(image_ids=list(self.image_ids), steps=[list(r) for r in self.steps], suites=list(self.suites))
        return out

    def images(self, store: Store) -> tuple[CanonicalImage, ...]:
        return tuple(store.get_image(i) for i in self.image_ids)

    def item(self, store: Store) -> tuple[Item, tuple[CanonicalImage, ...]]:
        """The item the form describes (checked like a preset item: a question, options for a choice, ...) and
        its images."""
        from probe_ui import live

        ims = self.images(store)
        return live.build_item(self.question, self.kind, self.options, self.answer, self.category, ims,
                               extra=self.extra or None), ims

    def parsed_steps(self) -> list[Any]:
        from probe_ui import live

        return live.parse_steps([list(r) for r in self.steps])

    def variants(self, store: Store, *, suite: str | None = None, own: bool = True) -> list[Variant]:
        """The variants the form asks for: the original (if ticked), one per step number and each suite's.
        ``own=False`` asks the item alone with ``suite`` (the Stress tab: its own suite, not the form's steps)."""
        from probe_ui import live

        it, ims = self.item(store)
        if not own:
            return live.make_variants(it, ims, [], seed=self.seed, suite=suite)
        return live.make_variants(it, ims, self.parsed_steps(), seed=self.seed, suite=suite,
                                  suites=list(self.suites), include_original=self.include_original)

    def with_seed(self, seed: int) -> ProbeForm:
        return replace(self, seed=seed)


#: the prompt choice "auto": see :func:`template`
AUTO = "auto (per kind)"


def template(chosen: str | None, form: ProbeForm) -> str | None:
    """The prompt template a probe is asked with: the one chosen, or, for :data:`AUTO`, a preset item's paper
    prompt (the kind's default, quoted verbatim, as the batch asks it) and, for a question of one's own with
    options, the plain ``choice`` prompt: a clinician's own question never gets a paper's system prompt and its typo
    (issue 51, U46)."""
    if chosen and chosen != AUTO:
        return chosen
    return None if form.extra.get("preset") or form.kind != "choice" else "choice"


def no_answer_warning(form: ProbeForm) -> str:
    """What to say when the form gives no correct answer although it could ("" otherwise): nothing will be marked
    right or wrong, and a correct answer lost while the options changed must not go unnoticed."""
    if form.answer or form.kind in ("free", "point"):  # a point item is scored against its region
        return ""
    return ("No correct answer chosen: the answers are not marked right or wrong. Choose it under 'correct answer' "
            "and press Run again to have them marked.")


def carried_words(carried: int, left: int, before: str) -> str:
    """The ratings a probe asked again took over from the run before (:func:`probe_ui.live.carry_ratings`), in
    words ("" when none moved and none stayed behind)."""
    words = []
    if carried:
        words.append(f"{carried} of your ratings from the run before were carried over to the same answers.")
    if left:
        words.append(f"{left} of your ratings stay with the run before ({before}): those answers changed or were not "
                     "asked again; open that run in the Results tab to see them.")
    return " ".join(words)


def run_name(variants: list[Variant]) -> str:
    """The name a live probe of these variants gets (from its item and the time)."""
    from probe_ui import live

    return live.live_run_name(variants[0].item_id)


def run(store: Store, form: ProbeForm, specs: list[str], *, template: str | None = None,
        variants: list[Variant] | None = None, **live_options: Any) -> Iterator[tuple[Any, list[Variant]]]:
    """Ask ``specs`` the form's variants (``variants``, when the caller planned them already) at once
    (:func:`probe_ui.live.run_live`, named by :func:`run_name` unless ``run_name`` is given); yield the live state
    and the variants each time answers arrive."""
    from probe_ui import live

    vs = variants if variants is not None else form.variants(store)
    live_options.setdefault("run_name", run_name(vs))
    for state in live.run_live(store, vs, specs, seed=form.seed, prompt=template, **live_options):
        yield state, vs
