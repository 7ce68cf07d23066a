"""Perturbations: one module per family, all registered by name in :mod:`probe_ui.perturb.registry`."""

from probe_ui.perturb.registry import (
    REGISTRY,
    Perturbation,
    PerturbationError,
    PerturbContext,
    Sweep,
    all_perturbations,
    apply,
    derive_seed,
    describe,
    get,
    register,
    replay,
    sweep_axis,
    sweeps,
)

__all__ = ["REGISTRY", "PerturbContext", "Perturbation", "PerturbationError", "replay", "all_perturbations", "apply",
           "derive_seed", "describe", "get", "register",
           "Sweep", "sweep_axis", "sweeps"]
