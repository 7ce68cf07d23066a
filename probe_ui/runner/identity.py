"""A batch run's identity: what a batch would add to a run that already exists, said before anything is asked.

A batch run is everything it was ever asked to do: the presets, models and suites of every batch that wrote to it.
Its planned count, its completeness, the interrupted-run list and Resume all cover that whole plan, never only
the last batch's part of it. So adding to a run is explicit: a batch that names (or, with a blank name, derives)
a run that exists and asks models, suites or presets the run has not asked before is refused unless the caller
chose to extend it (``probe-ui batch --extend``, the Batch tab's "add to run" box); the CLI and the app then say
"adds 2 models (a, b) to run 'X' (94 answers done)" before they start. A batch that adds nothing (the same
command again, a subset of the models) just completes the run. Settings that would change what the stored
answers mean (another prompt template, number of samples, temperature or answer format) are refused: they need a
new run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from probe_ui.errors import ProbeUIError
from probe_ui.presets import Preset
from probe_ui.store import Store, StoreError


class RunExtensionError(ProbeUIError, RuntimeError):
    """A batch would add to an existing run without being asked to, or would change what its answers mean."""

    def __init__(self, message: str, change: "RunChange") -> None:
        super().__init__(message)
        self.change = change


@dataclass
class RunChange:
    """What a batch does to the run it writes to (:func:`run_change`)."""

    name: str
    exists: bool = False
    done: int = 0  # answers already stored (errors left out)
    models: list[str] = field(default_factory=list)  # the models the run has asked so far
    suites: list[str] = field(default_factory=list)
    presets: list[dict[str, Any]] = field(default_factory=list)  # as recorded: name, path, sha256
    new_models: list[str] = field(default_factory=list)
    new_suites: list[str] = field(default_factory=list)
    new_presets: list[str] = field(default_factory=list)  # names
    conflicts: list[str] = field(default_factory=list)  # settings that differ, in words

    @property
    def adds(self) -> bool:
        """Whether the batch asks the run for something it has not asked before."""
        return self.exists and bool(self.new_models or self.new_suites or self.new_presets)

    def additions(self) -> str:
        """"2 models (a, b) and 1 suite (rotations)": what is added, in words."""
        parts = [_counted(len(xs), what) + f" ({', '.join(xs)})" for xs, what in
                 ((self.new_models, "model"), (self.new_suites, "suite"), (self.new_presets, "preset")) if xs]
        return " and ".join(parts)

    def words(self) -> str:
        """"adds 2 models (a, b) to run 'X' (94 answers done)", or "" when nothing is added."""
        if not self.adds:
            return ""
        return f"adds {self.additions()} to run '{self.name}' ({self.done:,} answers done)"

    def refusal(self, how: str = "pass --extend to add to that run, or --run NAME for a new run") -> str:
        """Why the batch does not start without the caller's choice, and what to do."""
        held = ", ".join(self.models) or "no model yet"
        return (f"run '{self.name}' already holds {held} ({self.done:,} answers done); this batch would add "
                f"{self.additions()}: {how}")


def _counted(n: int, what: str) -> str:
    return f"{n} {what}{'s' if n != 1 else ''}"


def run_change(store: Store, name: str, presets: list[Preset], models: list[str], suites: list[str] | tuple[str, ...],
               *, seed: int, prompt: str | None = None, samples: int = 1,
               temperature: float | None = None, answer_format: str = "free") -> RunChange:
    """What a batch of ``presets`` x ``models`` (resolved names) x ``suites`` would do to run ``name``: a new run,
    the same plan again, or additions (new models, suites, presets) to an existing run; ``conflicts`` lists the
    settings it records differently (another seed, prompt, number of samples, temperature or answer format, or a
    run that is not a batch)."""
    try:
        run = store.get_run(name)
    except StoreError:
        return RunChange(name)
    s = run.config
    recorded_models = [str(m["name"]) for m in s.model_records if m.get("name")]
    recorded_suites = s.suites
    recorded_presets = s.presets
    known = {p.get("path") for p in recorded_presets} | {p.get("sha256") for p in recorded_presets}
    change = RunChange(name, exists=True, done=len(store.done_cells(run.id)), models=recorded_models,
                       suites=recorded_suites, presets=recorded_presets,
                       new_models=[m for m in dict.fromkeys(models) if m not in recorded_models],
                       new_suites=[x for x in dict.fromkeys(suites) if x not in recorded_suites],
                       new_presets=[p.name for p in presets if p.path not in known and p.sha256 not in known])
    kind = "imported" if s.imports else s.kind or "batch"
    if kind != "batch":
        change.conflicts.append(f"it is {'an' if kind[0] in 'aeiou' else 'a'} {kind} run, not a batch")
    if int(run.seed) != int(seed):
        change.conflicts.append(f"it was made with seed {run.seed}, not {seed}")
    for key, old, new in (("prompt", s.prompt, prompt), ("samples", s.samples, samples),
                          ("temperature", s.temperature, temperature),
                          ("answer format", s.answer_format, answer_format)):
        if old != new:
            change.conflicts.append(f"it was asked with {key} {_shown(old)}, not {_shown(new)}")
    return change


def _shown(value: Any) -> str:
    return "default" if value is None else repr(value)


def check(change: RunChange, extend: bool) -> None:
    """Refuse a batch that would change what ``change.name``'s answers mean, or add to it without ``extend``."""
    if change.exists and change.conflicts:
        raise RunExtensionError(f"run '{change.name}' cannot take this batch: {'; '.join(change.conflicts)}: "
                                "choose another run name (--run NAME)", change)
    if change.adds and not extend:
        raise RunExtensionError(change.refusal(), change)


__all__ = ["RunChange", "RunExtensionError", "check", "run_change"]
