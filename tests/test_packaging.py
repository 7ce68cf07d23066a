"""The wheel carries what probe-ui needs: built from this repository, installed into a fresh virtual environment and
run from an unrelated folder, it lists its catalogue, batches a shipped preset by name and serves the demo page.

Offline: the wheel is built without build isolation (hatchling comes with the dev extra), and the fresh venv gets
its dependencies from this environment's site-packages (a .pth file), not from an index.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest
from app_server import free_port
from built_once import built_once
from helpers import require_module, stop, wait_for_page

#: every test here takes seconds (tests/markers.py: the fast loop leaves them out)
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel installed; returns its bin folder. Built once per run (tests/built_once.py: about
    6.7 s, which every xdist worker that ran one of these tests paid again); the tests only run its commands, each
    in its own folder."""
    require_module("hatchling", 'pip install -e ".[dev]"')  # builds the wheel offline
    return built_once(tmp_path_factory, "installed-wheel", _install) / "venv" / "bin"


def _install(tmp: Path) -> None:
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation",
                    "--no-index", "-q", "-w", str(tmp / "dist")], check=True, capture_output=True, timeout=300)
    wheel = next((tmp / "dist").glob("probe_ui-*.whl"))
    env_dir = tmp / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               check=True, capture_output=True, text=True).stdout.strip())
    # the dependencies: this environment's site-packages, after the venv's own (which gets the wheel)
    (site / "zz_parent_site.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", "-q",
                    str(wheel)], check=True, capture_output=True, timeout=300)


def run(bin_dir: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PROBE_UI_BACKENDS")}
    env.update(PROBE_UI_DISCOVER="0")
    return subprocess.run([str(bin_dir / "probe-ui"), *args], capture_output=True, text=True, cwd=cwd, env=env,
                          timeout=300)


def test_the_installed_package_is_the_wheel_not_this_checkout(installed: Path, tmp_path: Path) -> None:
    out = subprocess.run([str(installed / "python"), "-c",
                          "import probe_ui.files.resources as r; print(r.PRESETS_DIR)"],
                         capture_output=True, text=True, cwd=tmp_path, check=True).stdout.strip()
    assert Path(out).parts[-3:] == ("probe_ui", "_data", "presets") and not Path(out).is_relative_to(ROOT)


def test_models_lists_the_shipped_catalogue(installed: Path, tmp_path: Path) -> None:
    r = run(installed, "models", "--json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    names = {row["name"] for row in json.loads(r.stdout)}
    assert {p.stem for p in (ROOT / "backends").glob("*.yaml")} <= names


def test_presets_and_a_batch_of_a_shipped_preset_by_name(installed: Path, tmp_path: Path) -> None:
    listed = run(installed, "presets", "--json", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    rows = {r["name"]: r for r in json.loads(listed.stdout)}
    assert set(rows) == {p.stem for p in (ROOT / "presets").glob("*.yaml")}
    assert rows["mediconfusion_pairs"]["items"] == 16 and rows["mediconfusion_pairs"]["description"]
    r = run(installed, "batch", "mediconfusion_pairs", "-m", "baseline/random", "-m", "baseline/first",
            "--db", "data/probe-ui.db", "--no-progress", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "16 variants, 32 answers planned, 0 already done, 32 new, 0 errors, 0 items not loaded" in r.stdout
    assert len(list((tmp_path / "data" / "images").rglob("*.png"))) > 0  # the bundled images were read and stored


def test_the_demo_page_is_served(installed: Path, tmp_path: Path) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(PROBE_UI_DISCOVER="0", GRADIO_ANALYTICS_ENABLED="False", NO_PROXY="127.0.0.1")
    proc = subprocess.Popen([str(installed / "probe-ui"), "--demo", "--port", str(port), "--db", "d/probe-ui.db"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=tmp_path, env=env)
    try:
        page = wait_for_page(f"http://127.0.0.1:{port}/", proc)
        assert b"probe-ui" in page
    finally:
        stop(proc)


def test_export_set_writes_its_harness_files_from_the_wheel(installed: Path, tmp_path: Path) -> None:
    """The Inspect task and lmms-eval utils templates travel in the wheel (package data, not Python modules)."""
    for harness, made in (("inspect", "task.py"), ("lmms-eval", "utils.py")):
        r = run(installed, "export-set", "medblink_depth", "--to", harness, "--out", harness, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        assert "probe_ui_" in (tmp_path / harness / made).read_text(encoding="utf-8")
