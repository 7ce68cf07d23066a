"""The perturbation registry: name → pure, seeded function over a variant.

A perturbation takes a variant, a ``random.Random`` seeded for exactly this application, and keyword parameters,
and returns a new variant. One that needs more than the variant (another item's image for a swap, other items'
options as distractors, few-shot examples) declares a keyword-only ``ctx`` parameter and receives a
:class:`PerturbContext`. The registry wraps every call so that the variant's provenance gains one record
(op, params, seed, answer before/after) and so that an ``answer_map`` parameter can move the ground truth for
questions whose answer depends on the change (e.g. ``{correct: upside down}`` after a 180° rotation).

Every keyword parameter is declared by its annotation (:mod:`probe_ui.perturb.params`): :meth:`Perturbation.specs`
describes them for a UI, and :meth:`Perturbation.validate` checks a params dict against them; :func:`apply` calls it,
so presets, suites, the app and imports all validate the same way.
"""

from __future__ import annotations

import hashlib
import inspect
import random
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from probe_ui.errors import ProbeUIError
from probe_ui.images import CanonicalImage
from probe_ui.items import Variant
from probe_ui.perturb.params import ParamError, ParamSpec, declared
from probe_ui.registry import Registry

#: a perturbation: the new variant, or the new variant and details recorded in its provenance step
PerturbFn = Callable[..., "Variant | tuple[Variant, dict[str, Any]]"]


@dataclass(frozen=True)
class PerturbContext:
    """What a perturbation may draw on besides its variant: the preset's unperturbed variants and named images.

    ``images`` maps names (bundled asset file names, uploads) to loaded images; ``pool`` holds the original
    variant of every item of the preset, in preset order.
    """

    pool: tuple[Variant, ...] = ()
    images: Mapping[str, CanonicalImage] = field(default_factory=dict)

    def others(self, variant: Variant) -> list[Variant]:
        """The pool without the variant's own item."""
        return [v for v in self.pool if v.item_id != variant.item_id]


class PerturbationError(ProbeUIError, ValueError):
    """Unknown perturbation, bad parameters, or a perturbation that does not apply to this variant.

    ``param`` names the parameter at fault when one is (so that a form can point at its field).
    """

    def __init__(self, message: str, *, param: str | None = None) -> None:
        super().__init__(message)
        self.param = param


#: a perturbation's step in plain words, from its params ("rotated 90°"; :func:`probe_ui.conditions.step_phrase`)
Phrase = Callable[[dict[str, Any]], str]


@dataclass(frozen=True)
class Sweep:
    """How a perturbation is swept over levels: the ``severity`` suite, the Stress tab's sweep and the robustness
    curves read it (a perturbation without one is not swept). A level sets parameter ``param``; levels run from 1
    to ``top``; ``order`` places it among the sweeps (the suite's conditions, the Stress tab's menu)."""

    order: int = 100
    param: str = "severity"
    levels: tuple[int, ...] = (1, 2, 3, 4, 5)  # the levels swept when none are chosen
    top: int = 5  # the highest level allowed
    unit: str = ""  # after a level on a tick ("45°")
    unit_name: str = ""  # after the highest level in a message ("359 (degrees)")
    axis: str = "severity"  # a curve's axis title
    #: it turns the image: an orientation question's answer would move, so such an item is not swept
    turns_image: bool = False

    def tick(self, level: int) -> str:
        """A level as a tick reads it: "3", "45°"."""
        return f"{int(level)}{self.unit}"

    def top_words(self) -> str:
        """The highest level as a message names it: "5", "359 (degrees)"."""
        return f"{self.top} ({self.unit_name})" if self.unit_name else str(self.top)


#: a sweep over severities 1-5 (the image degradations); the axis of a level whose perturbation declares none
SEVERITY = Sweep()


def phrase_number(x: Any) -> str:
    """A parameter's value in a phrase: 3 for 3.0, 0.5, or the value as text."""
    return f"{x:g}" if isinstance(x, (int, float)) and not isinstance(x, bool) else str(x)


def severity_phrase(what: str) -> Phrase:
    """``<what>, severity N`` (or the explicit value given instead of a severity): a degradation's phrase."""
    def phrase(p: dict[str, Any]) -> str:
        for key in ("sigma", "radius", "quality", "factor", "keep"):
            if p.get(key) is not None:
                return f"{what} ({key} {phrase_number(p[key])})"
        return f"{what}, severity {p.get('severity', 3)}"
    return phrase


@dataclass(frozen=True)
class Perturbation:
    """A registered perturbation, with the words a page shows for it: ``label`` (its name in menus; its code name
    in words when empty), ``phrase`` (one applied step in words; its summary's first words when None) and
    ``sweep`` (how it is swept over levels; None: it is not)."""

    name: str
    fn: PerturbFn
    summary: str  # what it does
    answer_effect: str  # how the ground truth moves
    label: str = ""
    phrase: Phrase | None = None
    sweep: Sweep | None = None

    def parameters(self) -> dict[str, Any]:
        """Parameter name → default (``inspect.Parameter.empty`` when required); ``ctx`` is not a parameter."""
        sig = inspect.signature(self.fn)
        return {n: p.default for n, p in list(sig.parameters.items())[2:] if n != "ctx"}

    @property
    def needs_context(self) -> bool:
        return "ctx" in inspect.signature(self.fn).parameters

    def specs(self) -> list[ParamSpec]:
        """Each keyword parameter as declared (signature order; ``ctx`` and ``answer_map`` are not listed)."""
        return list(declared(self.name, self.fn).specs)

    def validate(self, params: dict[str, Any]) -> dict[str, Any]:
        """``params`` checked against the declared parameters (plus ``answer_map``) and coerced, keys as given.

        Raises :class:`PerturbationError` naming the parameter and what it allows, e.g. "parameter 'angle': must
        be a number between -360 and 360, not '90deg'". A valid value comes back as it was given (an int for a
        real number stays an int), so recorded provenance, and the variant ids that hash it, do not change.
        """
        try:
            return declared(self.name, self.fn).validate(params)
        except ParamError as exc:
            raise PerturbationError(str(exc), param=exc.param) from None


#: every perturbation: the modules of :mod:`probe_ui.perturb` and of the benchmarks, and plugins
REGISTRY: Registry[Perturbation] = Registry("perturbation", packages=("probe_ui.perturb",),
                                            error=PerturbationError)


def register(name: str, summary: str, answer_effect: str, *, label: str = "", phrase: Phrase | None = None,
             sweep: Sweep | None = None) -> Callable[[PerturbFn], PerturbFn]:
    """Register ``fn`` as perturbation ``name`` (one decorator over a function in any discovered module), with its
    label, phrase and sweep (:class:`Perturbation`)."""
    def deco(fn: PerturbFn) -> PerturbFn:
        REGISTRY.put(Perturbation(name, fn, summary, answer_effect, label, phrase, sweep))
        return fn

    return deco


def get(name: str) -> Perturbation:
    return REGISTRY.get(name)


def all_perturbations() -> list[Perturbation]:
    return REGISTRY.entries()


_sweeps: tuple[int, dict[str, Sweep]] = (-1, {})


def sweeps() -> dict[str, Sweep]:
    """Every perturbation that has a sweep → its sweep, in sweep order (the registry's order among equals). Asked
    for every condition a sweep names, so the answer is kept until a perturbation is added or removed."""
    global _sweeps
    entries = all_perturbations()
    if _sweeps[0] != REGISTRY.version:
        swept = [(p.sweep.order, i, p.name, p.sweep) for i, p in enumerate(entries) if p.sweep is not None]
        _sweeps = (REGISTRY.version, {name: sweep for _, _, name, sweep in sorted(swept, key=lambda t: t[:2])})
    return dict(_sweeps[1])


def sweep_axis(name: str) -> Sweep:
    """The sweep of perturbation ``name`` where it declares one, else :data:`SEVERITY` (a curve's levels are
    severities unless its perturbation says otherwise)."""
    found = REGISTRY.find(name)
    return found.sweep if found is not None and found.sweep is not None else SEVERITY


def describe() -> list[dict[str, Any]]:
    """One row per perturbation: name, parameters with defaults and allowed values, what it does, how the answer
    moves, and the parameter specs (for JSON readers)."""
    return [{"name": p.name, "parameters": declared(p.name, p.fn).summary(), "summary": p.summary,
             "answer": p.answer_effect, "specs": [asdict(s) for s in p.specs()]} for p in all_perturbations()]


#: the largest run seed: seeds are stored as 64-bit signed integers (SQLite INTEGER, PostgreSQL BIGINT)
MAX_SEED = 2**63 - 1


def derive_seed(*parts: Any) -> int:
    """A 63-bit seed from any parts (run seed, item id, condition, step): stable across processes. A lone surrogate
    (a YAML "\\ud800" escape in an id or a seed_group) is hashed as its code point, not refused."""
    digest = hashlib.sha256("\x1f".join(map(str, parts)).encode("utf-8", "surrogatepass")).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def apply(variant: Variant, op: str, params: dict[str, Any], seed: int, ctx: PerturbContext | None = None) -> Variant:
    """Apply one registered perturbation and append its provenance record."""
    pert = get(op)
    try:
        params = pert.validate(params)
    except PerturbationError as exc:
        raise PerturbationError(f"{op}: {exc}", param=exc.param) from None
    answer_map = params.pop("answer_map", None) or {}
    before = variant.answer
    extra = {"ctx": ctx or PerturbContext()} if pert.needs_context else {}
    result = pert.fn(variant, random.Random(seed), **params, **extra)
    out, details = result if isinstance(result, tuple) else (result, None)
    after = out.answer
    if after is not None and after in answer_map:
        after = str(answer_map[after])
        if out.kind in ("choice", "label") and after not in out.options:
            raise PerturbationError(f"answer_map sends the answer to '{after}', which is not one of the options")
        out = out.evolve(answer=after)
    record: dict[str, Any] = {"op": op, "params": dict(params, **({"answer_map": answer_map} if answer_map else {})),
                              "seed": seed, "answer": [before, after]}
    if details:
        record["details"] = details
    return out.evolve(provenance=variant.provenance + (record,))


def replay(base: Variant, provenance: tuple[dict[str, Any], ...] | list[dict[str, Any]],
           ctx: PerturbContext | None = None) -> Variant:
    """Re-apply a recorded chain to the unperturbed variant: the result must equal the recorded variant."""
    v = base
    for rec in provenance:
        v = apply(v, rec["op"], rec["params"], rec["seed"], ctx)
    return v

