"""Where this process sits in a launcher's world (torchrun, srun): which shard of a batch it asks, which GPU it uses.

``probe-ui batch`` started by ``torchrun --nproc-per-node 8 -m probe_ui batch ...`` or ``srun -n 8 probe-ui batch
...`` runs once per rank. Each rank takes shard ``rank + 1`` of ``world size`` (the ``--shard`` mechanism: every
rank plans the same cells and asks its disjoint part), and an ``hf/`` model loads on the GPU of its local rank.

Variables read: torchrun's ``RANK``, ``WORLD_SIZE``, ``LOCAL_RANK``, ``LOCAL_WORLD_SIZE``; Slurm's ``SLURM_PROCID``,
``SLURM_STEP_NUM_TASKS`` (else ``SLURM_NTASKS``), ``SLURM_LOCALID``, ``SLURM_STEP_NUM_NODES`` (else
``SLURM_NNODES``). torchrun's win when both are set (torchrun started by srun, one per node).

Decisions:
- An explicit ``--shard`` wins over the launcher; when it differs from the launcher's rank a note says which
  variables were ignored (so a batch script that runs probe-ui outside srun, where Slurm still sets
  ``SLURM_NTASKS``, can say ``--shard 1/1``).
- A world spread over several nodes cannot share a SQLite file (each node would write its own), so it is refused
  with a message pointing at ``--db postgresql://...``; several ranks on one node share a SQLite file (WAL).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Mapping

from probe_ui.errors import ProbeUIError


class ClusterError(ProbeUIError, ValueError):
    """The launcher's variables are malformed, or the world cannot use the chosen store."""


@dataclass(frozen=True)
class World:
    """One process of a launched world; ``rank`` is 0-based."""

    rank: int
    size: int
    local_rank: int | None
    local_size: int | None
    nodes: int | None
    variables: str  # the variables it came from, for messages

    @property
    def shard(self) -> tuple[int, int]:
        """This rank's ``--shard I/N`` (1-based)."""
        return self.rank + 1, self.size

    @property
    def multi_node(self) -> bool:
        """Whether the ranks run on more than one machine."""
        if self.nodes is not None:
            return self.nodes > 1
        return self.local_size is not None and self.size > self.local_size


def _int(env: Mapping[str, str], name: str) -> int | None:
    raw = env.get(name, "").strip()
    if not raw:
        return None
    try:
        value = int(raw)
    except ValueError:
        raise ClusterError(f"{name}={raw!r}: expected a whole number (set by torchrun or srun)") from None
    if value < 0:
        raise ClusterError(f"{name}={raw!r}: expected a number >= 0")
    return value


def world(env: Mapping[str, str] | None = None) -> World | None:
    """The launcher's world this process belongs to, or None when no launcher set one."""
    env = os.environ if env is None else env
    for rank_var, size_vars, local_var, local_size_var, node_vars in (
        ("RANK", ("WORLD_SIZE",), "LOCAL_RANK", "LOCAL_WORLD_SIZE", ()),
        ("SLURM_PROCID", ("SLURM_STEP_NUM_TASKS", "SLURM_NTASKS"), "SLURM_LOCALID", None,
         ("SLURM_STEP_NUM_NODES", "SLURM_NNODES")),
    ):
        rank = _int(env, rank_var)
        size_var = next((v for v in size_vars if env.get(v, "").strip()), None)
        if rank is None or size_var is None:
            continue
        size = _int(env, size_var)
        assert size is not None
        if size < 1 or rank >= size:
            raise ClusterError(f"{rank_var}={rank} with {size_var}={size}: the rank must be below the world size")
        nodes_var = next((v for v in node_vars if env.get(v, "").strip()), None)
        return World(rank=rank, size=size, local_rank=_int(env, local_var),
                     local_size=_int(env, local_size_var) if local_size_var else None,
                     nodes=_int(env, nodes_var) if nodes_var else None, variables=f"{rank_var}/{size_var}")
    return None


def local_rank(env: Mapping[str, str] | None = None) -> int | None:
    """The rank on this node (``LOCAL_RANK``, else ``SLURM_LOCALID``): which GPU this process uses. None when
    unset or malformed (the model then loads as it would without a launcher)."""
    env = os.environ if env is None else env
    for name in ("LOCAL_RANK", "SLURM_LOCALID"):
        try:
            value = _int(env, name)
        except ClusterError:
            continue
        if value is not None:
            return value
    return None


def is_sqlite(db: str) -> bool:
    """Whether a ``--db`` value names a SQLite store (a file path or a ``sqlite://`` URL)."""
    return "://" not in db or db.lower().startswith("sqlite")


def batch_shard(explicit: tuple[int, int] | None, db: str,
                env: Mapping[str, str] | None = None) -> tuple[tuple[int, int] | None, str | None]:
    """``(shard to ask or None for all, a note for the user or None)`` for ``probe-ui batch``.

    Raises ClusterError for a multi-node world on a SQLite store, or malformed launcher variables."""
    w = world(env)
    if w is None or w.size == 1:
        return explicit, None
    if w.multi_node and is_sqlite(db):
        spread = f"{w.nodes} nodes" if w.nodes is not None else f"{w.size} ranks, {w.local_size} per node"
        raise ClusterError(f"this launch spans several machines ({spread}, from {w.variables}) but --db {db} is a "
                           "SQLite file, which each machine would write separately: give every rank one server "
                           "database, e.g. --db postgresql://user@dbhost/probe_ui")
    if explicit is not None:
        if explicit == w.shard:
            return explicit, None
        return explicit, (f"--shard {explicit[0]}/{explicit[1]} given: ignoring the launcher's shard "
                          f"{w.shard[0]}/{w.shard[1]} ({w.variables})")
    return w.shard, f"shard {w.shard[0]}/{w.shard[1]} from {w.variables}"
