"""A run's recorded settings, typed: what a batch, a live probe or an import wrote into the store's ``runs.settings``.

The store keeps the settings as JSON, and this model reads that JSON unchanged: every key a version of probe-ui
ever wrote is kept (``extra="allow"``, so :meth:`RunSettings.to_dict` gives back what was read), and a value of an
unexpected shape (an old store, a hand-edited one) is read leniently rather than refused, because a run that cannot
be read cannot be scored, exported or resumed. Readers use the attributes instead of ``settings.get("...")`` so a
misspelt key is a type error, not a silent None.

Who writes what:

- a batch (:func:`probe_ui.runner.run_batch`): ``presets``, ``models``, ``prompt``, ``concurrency``, ``seed``,
  ``suites``, ``samples``, ``temperature``, ``answer_format`` ("free" or "json": how labelled questions asked for
  their answer; a run made before answer formats existed reads as "free"), ``judge``, ``planned``, ``unit`` (the
  unit of evidence its items count in, :func:`probe_ui.metrics.units.planned`) (and ``benchmark`` once scored);
- a live probe (:mod:`probe_ui.live`): ``kind`` = "live", ``models``, ``items``, ``asked``, ``variant_order``,
  ``answer_format``;
- an import (:mod:`probe_ui.importers`, :mod:`probe_ui.interop.importing`): ``benchmark``, ``imports`` (one entry
  per imported file: format, path, sha256, model, task, split, dataset), ``harness``, ``set`` (an exported set's
  id and name, :mod:`probe_ui.interop`).
"""

from __future__ import annotations

from typing import Any, Mapping

from pydantic import BaseModel, ConfigDict, Field, field_validator


def _list(v: Any) -> list[Any]:
    return list(v) if isinstance(v, (list, tuple)) else []


def _dict_or_none(v: Any) -> dict[str, Any] | None:
    return dict(v) if isinstance(v, Mapping) else None


class RunSettings(BaseModel):
    """The settings a run recorded (module doc); unknown keys are kept as they were."""

    model_config = ConfigDict(extra="allow", frozen=True, populate_by_name=True)

    kind: str | None = None  # "live" for the Probe tab; absent for a batch or an import
    benchmark: str | None = None
    presets: list[dict[str, Any]] = []  # {name, path, sha256}
    models: list[Any] = []  # model records ({name, provider, model, ...}); bare names in old runs
    prompt: str | None = None
    suites: list[str] = []
    samples: int = 1
    temperature: float | None = None
    answer_format: str = "free"  # "free" or "json" (probe_ui.messages.ANSWER_FORMATS); absent in old runs
    concurrency: int | None = None
    judge: dict[str, Any] | None = None  # the judge model's record plus {"mode": ...}
    planned: int | None = None
    imports: list[dict[str, Any]] = []
    harness: str | None = None
    items: list[Any] = []
    asked: list[Any] = []
    seed: int | None = None  # a batch's seed (the run's own ``seed`` column is the one every run has)
    variant_order: list[str] = []  # a live probe's variants in the order it asked them
    unit: dict[str, Any] | None = None  # a batch's unit of evidence: {unit, units, items[, kinds]}
    benchmark_set: dict[str, Any] | None = Field(None, alias="set")  # an imported set's {id, name} (interop)

    @field_validator("presets", "imports", mode="before")
    @classmethod
    def _records(cls, v: Any) -> list[dict[str, Any]]:
        return [dict(x) for x in _list(v) if isinstance(x, Mapping)]

    @field_validator("models", "items", "asked", mode="before")
    @classmethod
    def _lists(cls, v: Any) -> list[Any]:
        return _list(v)

    @field_validator("suites", "variant_order", mode="before")
    @classmethod
    def _names(cls, v: Any) -> list[str]:
        return [str(x) for x in _list(v)]

    @field_validator("judge", "benchmark_set", mode="before")
    @classmethod
    def _judge(cls, v: Any) -> dict[str, Any] | None:
        return _dict_or_none(v)

    @field_validator("samples", mode="before")
    @classmethod
    def _samples(cls, v: Any) -> int:
        try:
            return max(1, int(v))
        except (TypeError, ValueError):
            return 1

    @field_validator("temperature", mode="before")
    @classmethod
    def _float(cls, v: Any) -> float | None:
        try:
            return None if v is None or isinstance(v, bool) else float(v)
        except (TypeError, ValueError):
            return None

    @field_validator("answer_format", mode="before")
    @classmethod
    def _format(cls, v: Any) -> str:
        return str(v) if isinstance(v, str) and v else "free"

    @field_validator("concurrency", "planned", "seed", mode="before")
    @classmethod
    def _int(cls, v: Any) -> int | None:
        try:
            return None if v is None or isinstance(v, bool) else int(v)
        except (TypeError, ValueError):
            return None

    @field_validator("kind", "benchmark", "prompt", "harness", mode="before")
    @classmethod
    def _text(cls, v: Any) -> str | None:
        return None if v is None or v == "" else str(v)

    @classmethod
    def of(cls, settings: Mapping[str, Any] | None) -> RunSettings:
        """The typed view of a stored settings dict (None or a non-dict: no settings)."""
        return cls.model_validate(dict(settings) if isinstance(settings, Mapping) else {})

    def to_dict(self) -> dict[str, Any]:
        """The settings as stored: the keys that were read (or set), unknown ones included."""
        return self.model_dump(exclude_unset=True, by_alias=True)

    @property
    def model_names(self) -> list[str]:
        """The catalogue names of the run's models, in order (records or old bare names)."""
        names = [m.get("name") if isinstance(m, Mapping) else m for m in self.models]
        return [str(n) for n in names if n]

    @property
    def model_records(self) -> list[dict[str, Any]]:
        """The run's model records (old bare names left out)."""
        return [dict(m) for m in self.models if isinstance(m, Mapping)]

    @property
    def source(self) -> str:
        """Where the answers came from: "live", "import" or "batch"."""
        return self.kind or ("import" if self.imports else "batch")

    @property
    def judge_name(self) -> str | None:
        return str(self.judge["name"]) if self.judge and self.judge.get("name") else None

    @property
    def judge_mode(self) -> str:
        return str((self.judge or {}).get("mode") or "mediconfusion")
