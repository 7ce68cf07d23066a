"""Cluster ranks: the shard and GPU of a process started by torchrun or srun (probe_ui/cluster.py) and the CLI."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from helpers import choice_item, require_module, write_png, write_preset

from probe_ui.cli import main
from probe_ui.cluster import ClusterError, World, batch_shard, is_sqlite, local_rank, world
from probe_ui.store import Store

TORCHRUN = {"RANK": "3", "WORLD_SIZE": "8", "LOCAL_RANK": "3", "LOCAL_WORLD_SIZE": "8"}
LAUNCHER_VARS = ("RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "SLURM_PROCID", "SLURM_NTASKS",
                 "SLURM_STEP_NUM_TASKS", "SLURM_LOCALID", "SLURM_NNODES", "SLURM_STEP_NUM_NODES")


@pytest.fixture(autouse=True)
def no_launcher(monkeypatch):
    """Tests run outside any launcher, whatever the machine running them sets."""
    for name in LAUNCHER_VARS:
        monkeypatch.delenv(name, raising=False)


def test_no_launcher_no_world():
    assert world({}) is None and local_rank({}) is None
    assert batch_shard(None, "x.db", {}) == (None, None)
    assert batch_shard((2, 4), "x.db", {}) == ((2, 4), None)


def test_torchrun_world():
    w = world(TORCHRUN)
    assert w == World(rank=3, size=8, local_rank=3, local_size=8, nodes=None, variables="RANK/WORLD_SIZE")
    assert w.shard == (4, 8) and not w.multi_node
    assert world(dict(TORCHRUN, WORLD_SIZE="16", RANK="11")).multi_node  # 16 ranks, 8 per node: two nodes
    assert local_rank(TORCHRUN) == 3


def test_slurm_world_prefers_the_step_and_torchrun_wins():
    env = {"SLURM_PROCID": "5", "SLURM_NTASKS": "16", "SLURM_STEP_NUM_TASKS": "8", "SLURM_LOCALID": "1",
           "SLURM_NNODES": "4", "SLURM_STEP_NUM_NODES": "1"}
    w = world(env)
    assert (w.rank, w.size, w.local_rank, w.nodes) == (5, 8, 1, 1)  # srun's step, not the whole allocation
    assert w.variables == "SLURM_PROCID/SLURM_STEP_NUM_TASKS" and not w.multi_node
    plain = world({"SLURM_PROCID": "2", "SLURM_NTASKS": "4", "SLURM_NNODES": "2"})
    assert plain.shard == (3, 4) and plain.multi_node
    assert local_rank({"SLURM_LOCALID": "6"}) == 6
    both = world({**env, **TORCHRUN})  # torchrun started by srun, one per node: torchrun's ranks are the workers
    assert both.variables == "RANK/WORLD_SIZE" and both.shard == (4, 8)


@pytest.mark.parametrize("env, message", [
    ({"RANK": "x", "WORLD_SIZE": "2"}, "RANK='x': expected a whole number"),
    ({"RANK": "2", "WORLD_SIZE": "2"}, "RANK=2 with WORLD_SIZE=2: the rank must be below the world size"),
    ({"SLURM_PROCID": "0", "SLURM_NTASKS": "-1"}, "SLURM_NTASKS='-1': expected a number >= 0"),
])
def test_malformed_launcher_variables_are_named(env, message):
    with pytest.raises(ClusterError, match=message):
        world(env)


def test_a_malformed_local_rank_is_ignored():
    assert local_rank({"LOCAL_RANK": "gpu0", "SLURM_LOCALID": "2"}) == 2
    assert local_rank({"LOCAL_RANK": "gpu0"}) is None


def test_batch_shard_decisions():
    assert batch_shard(None, "x.db", TORCHRUN) == ((4, 8), "shard 4/8 from RANK/WORLD_SIZE")
    assert batch_shard((4, 8), "x.db", TORCHRUN) == ((4, 8), None)  # the same: nothing to say
    shard, note = batch_shard((1, 1), "x.db", TORCHRUN)  # explicit wins, and says what it ignored
    assert shard == (1, 1) and note == "--shard 1/1 given: ignoring the launcher's shard 4/8 (RANK/WORLD_SIZE)"
    assert batch_shard(None, "x.db", {"RANK": "0", "WORLD_SIZE": "1"}) == (None, None)  # a world of one
    two_nodes = dict(TORCHRUN, WORLD_SIZE="16")
    for db in ("probe-ui-data/probe-ui.db", "sqlite:////tmp/x.db"):
        with pytest.raises(ClusterError, match=r"several machines \(16 ranks, 8 per node.*--db postgresql://"):
            batch_shard(None, db, two_nodes)
        with pytest.raises(ClusterError, match="SQLite"):  # an explicit --shard does not make SQLite shareable
            batch_shard((1, 16), db, two_nodes)
    assert batch_shard(None, "postgresql://u@db/probe", two_nodes) == ((4, 16), "shard 4/16 from RANK/WORLD_SIZE")
    with pytest.raises(ClusterError, match=r"\(2 nodes, from SLURM_PROCID/SLURM_NTASKS\)"):
        batch_shard(None, "x.db", {"SLURM_PROCID": "0", "SLURM_NTASKS": "2", "SLURM_NNODES": "2"})


def test_is_sqlite():
    assert is_sqlite("runs.db") and is_sqlite("sqlite:///runs.db") and is_sqlite("SQLite:///x")
    assert not is_sqlite("postgresql://u@h/db") and not is_sqlite("postgresql+psycopg://u@h/db")


def test_batch_takes_its_shard_from_the_launcher(tmp_path, monkeypatch, capsys):
    for i in range(4):
        write_png(tmp_path / f"im{i}.png", seed=i)
    # 24 items: a cell's shard is a hash of its variant, whose id includes the preset's path (a temporary folder
    # here), so with 8 items all of them fell in one shard in about 1 run in 128 (CI saw [8, 0])
    preset = str(write_preset(tmp_path / "p.yaml", [choice_item(i, f"im{i % 4}.png", answer="B") for i in range(24)]))
    db = str(tmp_path / "runs.db")
    planned = []
    for rank in (0, 1):
        monkeypatch.setenv("RANK", str(rank))
        monkeypatch.setenv("WORLD_SIZE", "2")
        assert main(["batch", preset, "-m", "baseline/first", "--db", db, "--no-progress"]) == 0
        out = capsys.readouterr()
        assert f"note: shard {rank + 1}/2 from RANK/WORLD_SIZE" in out.err
        assert f"(shard {rank + 1}/2)" in out.out
        planned.append(int(out.out.split(" answers planned")[0].rsplit(" ", 1)[-1]))
    store = Store(db)
    assert sum(planned) == 24 and all(planned)  # the two ranks asked disjoint parts: the whole batch, once
    assert len(store.answers_frame(store.get_run().id)) == 24

    monkeypatch.setenv("WORLD_SIZE", "4")
    monkeypatch.setenv("LOCAL_WORLD_SIZE", "2")  # two nodes
    assert main(["batch", preset, "-m", "baseline/first", "--db", db, "--no-progress"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: this launch spans several machines") and "--db postgresql://" in err
    assert len(err.splitlines()) == 1


@pytest.mark.hf
def test_local_rank_picks_the_gpu(monkeypatch):
    torch = require_module("torch", "pip install torch --index-url https://download.pytorch.org/whl/cpu")
    from probe_ui.providers.hf import runtime

    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 4)
    monkeypatch.setattr(torch.cuda, "is_bf16_supported", lambda *a, **k: True)
    assert runtime({}) == ("auto", "bfloat16")  # no launcher: spread over the GPUs (device_map auto)
    monkeypatch.setenv("LOCAL_RANK", "5")
    assert runtime({}) == ("cuda:1", "bfloat16")  # 5 mod 4 GPUs
    monkeypatch.delenv("LOCAL_RANK")
    monkeypatch.setenv("SLURM_LOCALID", "2")
    assert runtime({}) == ("cuda:2", "bfloat16")
    assert runtime({"device": "cpu"}) == ("cpu", "float32")  # the catalogue entry's device wins
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert runtime({}) == ("cpu", "float32")


@pytest.mark.slow
def test_python_dash_m_probe_ui_runs_the_cli():
    env = {k: v for k, v in os.environ.items() if k not in LAUNCHER_VARS}
    done = subprocess.run([sys.executable, "-m", "probe_ui", "batch", "--help"], capture_output=True, text=True,
                          timeout=120, env=env)
    assert done.returncode == 0 and "RANK/WORLD_SIZE" in done.stdout
