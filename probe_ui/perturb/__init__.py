"""Perturbations: one module per family, all registered by name in :mod:`probe_ui.perturb.registry`."""

from probe_ui.perturb.registry import (
    REGISTRY,
    Perturbation,
    PerturbationError,
    all_perturbations,
    apply,
    derive_seed,
    get,
    register,
)

__all__ = ["REGISTRY", "Perturbation", "PerturbationError", "all_perturbations", "apply", "derive_seed", "get",
           "register"]
