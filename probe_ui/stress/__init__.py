"""Starting a stress test or a severity sweep: the run's name, the target it names, and asking the models.

What a stress run's answers show (the variants x models matrix, the summary) is :mod:`probe_ui.views.stress`;
this room makes such a run, from the Stress tab and ``probe-ui stress`` alike, above the live probe it may use. A
stress test asks several models a suite's variants of a preset's items (:func:`run_stress`, through
:func:`probe_ui.runner.run_batch`) or of variants already built (the Probe tab's item, through
:func:`probe_ui.live.run_live`); a sweep asks them one perturbation at each of its levels (:func:`run_sweep`). Runs
are named from what was asked (:func:`stress_run_name`), so the same request resumes its run and another makes a new
one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from probe_ui.presets.suites import get_suite

if TYPE_CHECKING:
    from probe_ui.store import Store

__all__ = ["RUN_NAME_LIMIT", "planned_run_name", "resolve_target", "run_stress", "run_sweep", "run_sweep_name",
           "stress_run_name", "sweep_name", "sweep_variants"]

RUN_NAME_LIMIT = 200  # the store's run-name column


def stress_run_name(target: str, suite: str, models: list[str] | tuple[str, ...], seed: int) -> str:
    """``stress-<item or preset>-<suite>-<models>-seed<N>``: named from what was asked, so re-running with other
    models makes a new run (a new matrix) and re-running the same resumes it. Long model lists are shortened to a
    count and a hash."""
    import hashlib

    ms = "+".join(dict.fromkeys(m.strip() for m in models if m and m.strip()))
    if len(ms) > 80:
        ms = f"{len(models)}-models-{hashlib.sha256(ms.encode()).hexdigest()[:8]}"
    name = f"stress-{target}-{suite}-{ms}-seed{seed}"
    if len(name) > RUN_NAME_LIMIT:
        name = name[:RUN_NAME_LIMIT - 9] + "-" + hashlib.sha256(name.encode()).hexdigest()[:8]
    return name


def resolve_target(target: str, image_roots: tuple[str, ...] = ()) -> tuple[Any, tuple[str, ...]]:
    """A stress target as (preset, item ids): a preset file (every item), or ``<preset>/<item id>`` where the preset
    is a file path (``presets/medblink_depth.yaml/depth-echo``) or a bundled preset's name
    (``medblink_depth/depth-echo``). Raises PresetError naming what was not found."""
    from pathlib import Path

    from probe_ui.presets import PresetError, bundled_presets, load_preset

    bundled = {p.stem: p for p in bundled_presets()}
    if Path(target).is_file():
        return load_preset(target, image_roots), ()
    if target in bundled:
        return load_preset(bundled[target], image_roots), ()
    head, _, item = target.rpartition("/")
    if head and item:
        path = head if Path(head).is_file() else bundled.get(head)
        if path is not None:
            return load_preset(path, image_roots), (item,)
    raise PresetError(f"{target}: no such preset file, bundled preset ({', '.join(bundled) or 'none'}) or "
                      "<preset>/<item id>")


def planned_run_name(suite: str, model_specs: list[str], *, preset: Any = None, item_ids: tuple[str, ...] = (),
                     variants: list[Any] | None = None, seed: int = 0, run_name: str | None = None,
                     **_: Any) -> str:
    """The name :func:`run_stress` gives the run it makes with the same arguments (known before it starts, so a
    page can follow the run while it fills)."""
    if run_name:
        return run_name
    specs = [s.strip() for s in model_specs if s and s.strip()]
    if variants:
        return stress_run_name(variants[0].item_id, suite, specs, seed)
    name = getattr(preset, "name", "preset")
    return stress_run_name(f"{name}/{item_ids[0]}" if len(item_ids) == 1 else name, suite, specs, seed)


def run_stress(store: Store, suite: str, model_specs: list[str], *, preset: Any = None, item_ids: tuple[str, ...] = (),
               variants: list[Any] | None = None, seed: int = 0, run_name: str | None = None,
               extra_models: dict[str, Any] | None = None, on_progress: Any = None, cancel: Any = None,
               user: str | None = None, max_cost: float | None = None, spend: Any = None) -> str:
    """Ask ``model_specs`` a suite's variants and store every answer; returns the run's name (made by ``user``).

    The variants are either a preset's (all its items, or ``item_ids``), expanded with ``suite`` by
    :func:`probe_ui.runner.run_batch`, or ``variants`` already built (the Probe tab's item with the suite applied,
    asked through :func:`probe_ui.live.run_live`). ``on_progress(done, total)`` follows the answers; ``cancel``
    (a threading.Event) stops sending. The run is named by :func:`stress_run_name` unless ``run_name`` is given.
    Read the result with :func:`summary` and :func:`matrix` over :func:`probe_ui.scoring.scored_answers`.

    ``max_cost`` (USD, a preset's variants only): the run's spend cap (:mod:`probe_ui.runner.spend`); a run it
    stops raises :class:`~probe_ui.runner.spend.SpendStopped`, whose line says what was spent and what is left,
    after every answer is stored.

    ``spend`` (:class:`probe_ui.runner.allowance.UserCap`): the app's user's spending limit holds every call (a
    preset's variants or variants asked as live probes); a run it stops raises ``SpendStopped`` with the user's line,
    after every answer is stored."""
    from dataclasses import replace

    from probe_ui.live import ProbeError
    from probe_ui.live import calls as live_calls
    from probe_ui.presets import PresetError
    from probe_ui.runner import BatchOptions, run_batch

    get_suite(suite)  # an unknown suite fails before anything is asked
    specs = [s.strip() for s in model_specs if s and s.strip()]
    if not specs:
        raise ProbeError("choose at least one model")
    if variants is not None:
        if not variants:
            raise ProbeError("nothing to ask: no variants")
        if max_cost is not None:
            raise ProbeError("a spend cap applies to a preset's stress run, not to variants asked as live probes")
        name = planned_run_name(suite, specs, variants=variants, seed=seed, run_name=run_name)
        return _ask_live(store, variants, specs, name, seed=seed, extra_models=extra_models, cancel=cancel,
                         user=user, on_progress=on_progress, spend=spend)
    if preset is None:
        raise ProbeError("choose a preset or an item")
    if item_ids:
        known = {i.id for i in preset.items}
        missing = [i for i in item_ids if i not in known]
        if missing:
            raise PresetError(f"{preset.path}: no item {', '.join(map(repr, missing))}")
        preset = replace(preset, items=tuple(i for i in preset.items if i.id in item_ids))
    name = planned_run_name(suite, specs, preset=preset, item_ids=item_ids, seed=seed, run_name=run_name)
    # chosen items are a person waiting, as in a live probe: their calls all leave at once, up to the live limit
    # (a whole preset keeps the batch's throughput-oriented limits)
    concurrency = live_calls.default_limit() if item_ids else None
    result = run_batch(store, [preset], specs,
                       BatchOptions(run_name=name, seed=seed, suites=[suite], progress=False, user=user,
                                    concurrency=concurrency, max_cost=max_cost),
                       extra_models=extra_models, cancel=cancel,
                       on_progress=(lambda d, t, _r: on_progress(d, max(t, 1))) if on_progress is not None else None,
                       user_cap=spend)
    if result.spend_line:
        from probe_ui.runner.spend import SpendStopped

        raise SpendStopped(result.spend_line, name)
    return name


def _ask_live(store: Store, variants: list[Any], specs: list[str], name: str, *, seed: int, extra_models: Any,
              cancel: Any, user: str | None, on_progress: Any, spend: Any) -> str:
    """Ask ``variants`` as a live probe run ``name``; raise SpendStopped (after every answer is stored) when the
    user's spending limit (``spend``) stopped calls."""
    from probe_ui.live import run_live

    state = None
    for state in run_live(store, variants, specs, seed=seed, extra_models=extra_models, run_name=name,
                          cancel=cancel, user=user, spend=spend):
        if on_progress is not None:
            on_progress(state.done, max(len(state.cards), 1))
    if state is not None and state.spend_line:
        from probe_ui.runner.spend import SpendStopped

        raise SpendStopped(state.spend_line, name)
    return name


# ---- a severity sweep over one perturbation ------------------------------------------------------------------------
def sweep_variants(originals: list[Any], perturbation: str, levels: list[int] | tuple[int, ...] | None = None,
                   seed: int = 0) -> list[Any]:
    """Each original and its variants at the chosen levels of one perturbation (the ``severity`` suite's
    conditions, :func:`probe_ui.presets.suites.sweep_conditions`), so that the robustness curves read them; orientation
    questions are not rotated (their answer would move)."""
    from probe_ui.presets.suites import apply_condition, skips, sweep_conditions

    conditions = sweep_conditions(perturbation, levels)
    out = []
    for base in originals:
        out.append(base)
        if skips(perturbation, base):
            continue
        out += [apply_condition(base, c.name, c.steps, seed) for c in conditions]
    return out


def sweep_name(perturbation: str, levels: list[int] | tuple[int, ...] | None) -> str:
    """The stand-in for a suite name in a sweep's run name: ``sweep-blur`` (every level), ``sweep-blur-1.3.5``
    (those levels), so two sweeps over different levels never share a run."""
    from probe_ui.presets.suites import default_levels

    lv = sorted(set(int(x) for x in (levels or default_levels(perturbation))))
    return f"sweep-{perturbation}" if lv == sorted(default_levels(perturbation)) else \
        f"sweep-{perturbation}-{'.'.join(map(str, lv))}"


def run_sweep_name(perturbation: str, levels: list[int] | tuple[int, ...] | None, model_specs: list[str], *,
                   originals: list[Any], seed: int = 0) -> str:
    """The name :func:`run_sweep` gives its run (known before it starts, so a page can follow it)."""
    from pathlib import PurePath

    specs = [s.strip() for s in model_specs if s and s.strip()]
    target = originals[0].item_id if len(originals) == 1 else PurePath(originals[0].source or "items").stem
    return stress_run_name(target, sweep_name(perturbation, levels), specs, seed)


def run_sweep(store: Store, perturbation: str, levels: list[int] | tuple[int, ...] | None, model_specs: list[str], *,
              originals: list[Any], seed: int = 0, run_name: str | None = None,
              extra_models: dict[str, Any] | None = None, on_progress: Any = None, cancel: Any = None,
              user: str | None = None, spend: Any = None) -> str:
    """Ask ``model_specs`` a sweep of one perturbation over ``originals`` (the Probe tab's item, or a preset's items
    from :func:`probe_ui.runner.sweep.load_originals`); returns the run's name (:func:`stress_run_name` with
    :func:`sweep_name`). Read it with :func:`probe_ui.views.results.robustness_curves`. ``spend``: the app's user's
    spending limit, as for :func:`run_stress`."""
    from probe_ui.live import ProbeError

    if not originals:
        raise ProbeError("nothing to sweep: no item could be loaded")
    variants = sweep_variants(originals, perturbation, levels, seed)
    specs = [s.strip() for s in model_specs if s and s.strip()]
    name = run_name or run_sweep_name(perturbation, levels, specs, originals=originals, seed=seed)
    return _ask_live(store, variants, specs, name, seed=seed, extra_models=extra_models, cancel=cancel, user=user,
                     on_progress=on_progress, spend=spend)
