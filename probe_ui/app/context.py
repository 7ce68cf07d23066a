"""What every tab of one app process shares: the store, the user's benchmark-set folder, endpoints added in the
Models tab (keys in memory only), and the cancel switches of running batches."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

from probe_ui.benchmark_sets import list_sets, presets_dir_for
from probe_ui.endpoints import Endpoints
from probe_ui.presets import bundled_presets
from probe_ui.store import Store

#: models a presenter can run with no keys and no GPU
BASELINES = ["baseline/random", "baseline/first", "baseline/last"]


@dataclass
class AppContext:
    store: Store
    db_location: str
    demo: bool = False
    endpoints: Endpoints = field(default_factory=Endpoints)
    cancels: dict[str, threading.Event] = field(default_factory=dict)

    @property
    def presets_dir(self) -> Path:
        return presets_dir_for(self.db_location)

    def preset_paths(self) -> list[tuple[str, str]]:
        """(label, path) of the bundled presets, then of the benchmark sets saved from this store's app."""
        return ([(f"{p.stem} (bundled)", str(p)) for p in bundled_presets()]
                + [(f"{p.stem} (your set)", str(p)) for p in list_sets(self.presets_dir)])

    def cancel_event(self, run_name: str) -> threading.Event:
        ev = self.cancels.get(run_name)
        if ev is None or ev.is_set():
            ev = self.cancels[run_name] = threading.Event()
        return ev

    def cancel(self, run_name: str) -> bool:
        """Ask a running batch or live probe to stop sending requests; False when none by that name is running."""
        ev = self.cancels.get(run_name)
        if ev is None or ev.is_set():
            return False
        ev.set()
        return True
