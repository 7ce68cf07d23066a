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


@dataclass(frozen=True)
class Perturbation:
    name: str
    fn: PerturbFn
    summary: str  # what it does
    answer_effect: str  # how the ground truth moves

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


def register(name: str, summary: str, answer_effect: str) -> Callable[[PerturbFn], PerturbFn]:
    """Register ``fn`` as perturbation ``name`` (one decorator over a function in any discovered module)."""
    def deco(fn: PerturbFn) -> PerturbFn:
        REGISTRY.add(name, Perturbation(name, fn, summary, answer_effect), replace=_same_fn(name, fn))
        return fn

    return deco


def _same_fn(name: str, fn: PerturbFn) -> bool:
    """A module imported again (a reload) re-registers its own perturbation: allowed, unlike a second one."""
    old = REGISTRY.loaded().get(name)
    return old is not None and (old.fn.__module__, old.fn.__qualname__) == (fn.__module__, fn.__qualname__)


def get(name: str) -> Perturbation:
    return REGISTRY.get(name)


def all_perturbations() -> list[Perturbation]:
    return REGISTRY.entries()


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

