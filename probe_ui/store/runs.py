"""Runs: creating and reopening a run (its seed, settings and package versions), listing runs with their
progress, and holding a run for one batch at a time (:meth:`RunsMixin.run_lock`)."""

from __future__ import annotations

import functools
import platform
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import metadata
from typing import TYPE_CHECKING, Any, Iterator

import sqlalchemy as sa

from probe_ui.store.errors import RunInUseError, StoreError
from probe_ui.store.opening import StoreBase, sqlite_file
from probe_ui.store.schema import check_key, clean_text, decode_json, now, responses, runs

if TYPE_CHECKING:
    from probe_ui.store.settings import RunSettings


def package_versions() -> dict[str, str]:
    """What produced a run: Python, platform and the versions of the packages that touch results (read once per
    process: the code running is what was imported, and each read scans the installed packages, ~10 ms a run)."""
    return dict(_package_versions())


@functools.cache
def _package_versions() -> dict[str, str]:
    out = {"python": sys.version.split()[0], "platform": platform.platform()}
    for pkg in ("probe-ui", "numpy", "pillow", "pydicom", "nibabel", "openai", "anthropic", "transformers", "torch",
                "sqlalchemy", "pandas"):
        try:
            out[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            pass
    return out


@dataclass(frozen=True)
class Run:
    id: int
    name: str
    seed: int
    settings: dict[str, Any]
    versions: dict[str, str]
    created_at: str
    updated_at: str
    created_by: str | None = None

    @property
    def config(self) -> RunSettings:
        """The recorded settings, typed (:class:`probe_ui.store.settings.RunSettings`; ``settings`` is the JSON)."""
        from probe_ui.store.settings import RunSettings

        return RunSettings.of(self.settings)


class RunsMixin(StoreBase):
    """The runs of a store (see :class:`probe_ui.store.Store`)."""

    def ensure_run(self, name: str, seed: int, settings: dict[str, Any], created_by: str | None = None) -> Run:
        """Create the run, or reopen it (same seed required) and merge the new settings into its record.
        ``created_by`` (who makes it: the app's user; default the system user) is recorded when it is created."""
        check_key(name, "run name")
        created = False
        if created_by is None:
            from probe_ui.security.users import system_user

            created_by = system_user()
        try:
            with self.engine.begin() as c:
                if c.execute(sa.select(runs.c.id).where(runs.c.name == name)).first() is None:
                    c.execute(runs.insert().values(name=name, seed=seed, settings=settings,
                                                   versions=package_versions(), created_at=now(), updated_at=now(),
                                                   created_by=clean_text(created_by)))
                    created = True
        except sa.exc.IntegrityError:
            pass  # another shard created it at the same moment: reopen it below
        if created:
            return self.get_run(name)
        with self.engine.begin() as c:
            row = c.execute(sa.select(runs).where(runs.c.name == name)).mappings().first()
            if row is None:  # pragma: no cover - deleted in between
                raise StoreError(f"run '{name}' vanished while it was being opened")
            else:
                if int(row["seed"]) != seed:
                    raise StoreError(f"run '{name}' was made with seed {row['seed']}, not {seed}: "
                                     "choose another --run name or the same --seed")
                merged = merge_settings(dict(row["settings"]), settings)
                c.execute(runs.update().where(runs.c.id == row["id"]).values(settings=merged, updated_at=now()))
        return self.get_run(name)

    def get_run(self, name: str | None = None) -> Run:
        """A run by name, or the most recently updated one."""
        q = sa.select(runs)
        q = q.where(runs.c.name == name) if name else q.order_by(runs.c.updated_at.desc(), runs.c.id.desc()).limit(1)
        with self.engine.connect() as c:
            row = c.execute(q).mappings().first()
        if row is None:
            if name:
                from probe_ui.security.redact import printable

                known = ", ".join(printable(r.name) for r in self.list_runs()) or "none yet"
                raise StoreError(f"no run named '{printable(name)}' in {self.where} (runs: {known})")
            raise StoreError(f"no runs in {self.where} yet: run 'probe-ui batch' first")
        return Run(**dict(row))

    def list_runs(self) -> list[Run]:
        with self.engine.connect() as c:
            return [Run(**dict(r)) for r in c.execute(sa.select(runs).order_by(runs.c.id)).mappings()]

    def merge_run_settings(self, run_id: int, patch: dict[str, Any]) -> None:
        with self.engine.begin() as c:
            old = c.execute(sa.select(runs.c.settings).where(runs.c.id == run_id)).scalar_one()
            c.execute(runs.update().where(runs.c.id == run_id).values(settings=dict(decode_json(old), **patch),
                                                                        updated_at=now()))

    def run_progress(self) -> list[dict[str, Any]]:
        """Every run with its finished answers, errors and planned cells (planned is recorded by batch runs)."""
        done = (sa.select(responses.c.run_id, sa.func.count().label("n"),
                          sa.func.count(responses.c.error).label("errors"))
                .where(responses.c.role == "answer").group_by(responses.c.run_id).subquery())
        q = (sa.select(runs.c.id, runs.c.name, runs.c.settings, runs.c.created_at, runs.c.updated_at,
                       sa.func.coalesce(done.c.n, 0).label("responses"),
                       sa.func.coalesce(done.c.errors, 0).label("errors"))
             .outerjoin(done, done.c.run_id == runs.c.id).order_by(runs.c.id))
        out = []
        with self.engine.connect() as c:
            for r in c.execute(q).mappings():
                settings = decode_json(r["settings"])
                answered = int(r["responses"]) - int(r["errors"])
                planned = settings.get("planned")
                out.append({"run": r["name"], "kind": settings.get("kind", "batch"), "answered": answered,
                            "errors": int(r["errors"]), "planned": planned,
                            "complete": planned is not None and answered >= planned,
                            "created_at": r["created_at"], "updated_at": r["updated_at"]})
        return out

    def touch_run(self, run_id: int) -> None:
        with self.engine.begin() as c:
            c.execute(runs.update().where(runs.c.id == run_id).values(updated_at=now()))

    @contextmanager
    def run_lock(self, name: str, shard: tuple[int, int] | None = None, flag: str = "--run") -> Iterator[None]:
        """Hold the run ``name`` (its part ``shard``, 1-based ``(i, n)``, or the whole run) for a batch: another
        batch of the same run and part, or a whole batch beside a shard, raises :class:`RunInUseError` at once,
        in one line naming the holder (pid, host, since when) and ``flag`` to choose another run name. Shards of
        one run hold it together. SQLite: OS file locks beside the database, dropped when the process dies;
        PostgreSQL: session advisory locks on a connection held for the block (:mod:`probe_ui.store.lock`). An
        in-memory database is one process's own: nothing to lock."""
        from probe_ui.store import lock as run_lock

        if self.read_only:
            raise StoreError(f"the store at {self.where} was opened read-only: a batch cannot run")
        if self.engine.dialect.name == "postgresql":
            with run_lock.postgres_run_lock(self.engine, name, shard, RunInUseError, flag):
                yield
            return
        path = sqlite_file(self.url)
        if path is None:
            yield
            return
        with run_lock.sqlite_run_lock(path, name, shard, RunInUseError, flag):
            yield


def merge_settings(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """Lists (presets, models) accumulate; scalars take the newest value."""
    out = dict(old)
    for k, v in new.items():
        if isinstance(v, list) and isinstance(old.get(k), list):
            merged = list(old[k])
            for x in v:
                if x not in merged:
                    merged.append(x)
            out[k] = merged
        else:
            out[k] = v
    return out

