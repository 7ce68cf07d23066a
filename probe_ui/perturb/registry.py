"""The perturbation registry: name → pure, seeded function over a variant.

A perturbation takes a variant, a ``random.Random`` seeded for exactly this application, and keyword parameters,
and returns a new variant. The registry wraps every call so that the variant's provenance gains one record
(op, params, seed, answer before/after) and so that an ``answer_map`` parameter can move the ground truth for
questions whose answer depends on the change (e.g. ``{correct: upside down}`` after a 180° rotation).
"""

from __future__ import annotations

import hashlib
import inspect
import random
from dataclasses import dataclass
from typing import Any, Callable

from probe_ui.items import Variant

PerturbFn = Callable[..., Variant]


class PerturbationError(ValueError):
    """Unknown perturbation, bad parameters, or a perturbation that does not apply to this variant."""


@dataclass(frozen=True)
class Perturbation:
    name: str
    fn: PerturbFn
    summary: str  # what it does
    answer_effect: str  # how the ground truth moves

    def parameters(self) -> dict[str, Any]:
        """Parameter name → default (``inspect.Parameter.empty`` when required)."""
        sig = inspect.signature(self.fn)
        return {n: p.default for n, p in list(sig.parameters.items())[2:]}

    def check_params(self, params: dict[str, Any]) -> None:
        allowed = set(self.parameters()) | {"answer_map"}
        unknown = sorted(set(params) - allowed)
        if unknown:
            raise PerturbationError(
                f"perturbation '{self.name}' has no parameter {', '.join(map(repr, unknown))}; "
                f"it takes: {', '.join(sorted(allowed)) or 'nothing'}"
            )
        missing = [n for n, d in self.parameters().items() if d is inspect.Parameter.empty and n not in params]
        if missing:
            raise PerturbationError(f"perturbation '{self.name}' needs parameter {', '.join(map(repr, missing))}")


REGISTRY: dict[str, Perturbation] = {}


def register(name: str, summary: str, answer_effect: str) -> Callable[[PerturbFn], PerturbFn]:
    def deco(fn: PerturbFn) -> PerturbFn:
        REGISTRY[name] = Perturbation(name, fn, summary, answer_effect)
        return fn

    return deco


def get(name: str) -> Perturbation:
    _load_builtin()
    try:
        return REGISTRY[name]
    except KeyError:
        raise PerturbationError(
            f"unknown perturbation '{name}'; known: {', '.join(sorted(REGISTRY))}"
        ) from None


def all_perturbations() -> list[Perturbation]:
    _load_builtin()
    return [REGISTRY[k] for k in sorted(REGISTRY)]


def derive_seed(*parts: Any) -> int:
    """A 63-bit seed from any parts (run seed, item id, condition, step): stable across processes."""
    digest = hashlib.sha256("\x1f".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def apply(variant: Variant, op: str, params: dict[str, Any], seed: int) -> Variant:
    """Apply one registered perturbation and append its provenance record."""
    pert = get(op)
    params = dict(params)
    answer_map = params.pop("answer_map", None) or {}
    pert.check_params(params)
    before = variant.answer
    out = pert.fn(variant, random.Random(seed), **params)
    after = out.answer
    if after is not None and after in answer_map:
        after = str(answer_map[after])
        if out.kind in ("choice", "label") and after not in out.options:
            raise PerturbationError(f"answer_map sends the answer to '{after}', which is not one of the options")
        out = out.evolve(answer=after)
    record: dict[str, Any] = {"op": op, "params": dict(params, **({"answer_map": answer_map} if answer_map else {})),
                              "seed": seed, "answer": [before, after]}
    return out.evolve(provenance=variant.provenance + (record,))


def _load_builtin() -> None:
    """Import the modules that register the built-in perturbations (kept lazy to avoid import cycles)."""
    from probe_ui.perturb import image, options  # noqa: F401
