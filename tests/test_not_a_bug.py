"""Issue 24: what is the user's situation is a one-line message naming the file, field or value, never "a bug in
probe-ui" and never "Something went wrong": a broken pyarrow install, `--temperature nan`, and from the app a seed
of 1e30, /rate with id 1e30, /export with a dict, and a store whose `images` is a file. Numbers from the app are
range-checked where they enter."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest
from app_server import api_client
from gradio_client import handle_file
from gradio_client.exceptions import AppError
from helpers import choice_item, write_png, write_preset

from probe_ui.cli import main
from probe_ui.presets import load_preset
from probe_ui.runner import BatchError, BatchOptions, run_batch
from probe_ui.store import Store, StoreError

STEPS0 = {"headers": ["variant", "perturbation", "parameters"], "data": []}


@pytest.fixture
def small_run(tmp_path: Path) -> tuple[Path, Path]:
    write_png(tmp_path / "a.png")
    preset = write_preset(tmp_path / "p.yaml", [choice_item(0, "a.png")])
    db = tmp_path / "probe-ui.db"
    run_batch(Store(db), [load_preset(preset)], ["baseline/first"], BatchOptions(run_name="r", progress=False))
    return db, preset


def broken_pyarrow(tmp_path: Path) -> Path:
    """A folder whose ``pyarrow`` package fails to import, as a half-installed or mismatched wheel does."""
    root = tmp_path / "broken-site"
    (root / "pyarrow").mkdir(parents=True)
    (root / "pyarrow" / "__init__.py").write_text(
        "raise ImportError('libarrow.so.2600: cannot open shared object file: No such file or directory')\n")
    return root


def cli_with(pythonpath: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    code = "import sys; from probe_ui.cli import main; sys.exit(main(sys.argv[1:]))"
    import os

    env = dict(os.environ, PYTHONPATH=str(pythonpath))
    return subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, env=env, timeout=300)


def test_a_broken_pyarrow_says_reinstall_the_extra(small_run: tuple[Path, Path], tmp_path: Path) -> None:
    db, _ = small_run
    assert main(["export", "--db", str(db), "--format", "parquet", "--out", str(tmp_path / "pq")]) == 0  # works here
    site = broken_pyarrow(tmp_path)
    done = cli_with(site, "export", "--db", str(db), "--format", "parquet", "--out", str(tmp_path / "pq2"))
    assert done.returncode == 1, done.stderr
    assert "pyarrow is installed but cannot be loaded (ImportError: libarrow.so.2600" in done.stderr
    assert "pip install --force-reinstall 'probe-ui[parquet]'" in done.stderr and "bug" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and not (tmp_path / "pq2").exists()
    done = cli_with(site, "import", "dataset", str(tmp_path / "pq"), "--to-preset", str(tmp_path / "back.yaml"))
    assert done.returncode == 1 and "pyarrow is installed but cannot be loaded" in done.stderr, done.stderr


def test_temperature_nan_is_refused_where_it_enters(small_run: tuple[Path, Path],
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    db, preset = small_run
    for bad in ("nan", "inf", "-1", "3", "1e400"):
        with pytest.raises(SystemExit) as exit_:
            main(["batch", str(preset), "--db", str(db), "-m", "baseline/first", "--temperature", bad])
        assert exit_.value.code == 2
        assert f"argument --temperature: '{bad}': give a number from 0 to 2" in capsys.readouterr().err
    with pytest.raises(BatchError, match="--temperature nan: give a number from 0 to 2"):
        run_batch(Store(db), [load_preset(preset)], ["baseline/first"],
                  BatchOptions(run_name="t", temperature=math.nan, progress=False))


def test_an_answer_id_past_any_store_is_a_message(small_run: tuple[Path, Path]) -> None:
    store = Store(small_run[0])
    for call in (lambda: store.rate_response(10**30, "correct"), lambda: store.latest_rating(10**30),
                 lambda: store.get_response(10**30)):
        with pytest.raises(StoreError, match=r"no response #10{30} in .* \(answer ids run from 1 to 2,147,483,647\)"):
            call()


def test_numbers_from_the_app_are_checked_where_they_enter(app_server, tmp_path: Path) -> None:
    client = api_client(app_server.url)
    run_msg = client.predict("Which modality?", "choice", "CT\nMRI", "CT", "", STEPS0, 1e30, [], True,
                             "auto (per kind)", ["baseline/first"], "", api_name="/run")[2]
    assert "the seed must be a whole number from 0 to 9,223,372,036,854,775,807, not 1" in run_msg  # 1e+30
    table, run, *_ = client.predict("Which modality?", "choice", "CT\nMRI", "CT", "", STEPS0, 0, [], True,
                                    "auto (per kind)", ["baseline/first"], "", api_name="/run")
    msg = client.predict(1e30, "correct", "", {"html": "", "run": run}, "", api_name="/rate")[0]
    assert "the answer number must be a whole number from 1 to 2,147,483,647, not 1" in msg  # 1e+30, or its digits
    with pytest.raises(AppError) as err:
        client.predict({"a": 1}, "jsonl", "response", "robust", api_name="/export")
    assert "choose runs by name from the list" in str(err.value) and "Something went wrong" not in str(err.value)
    with pytest.raises(AppError) as err:
        client.predict(1e30, api_name="/response")
    assert "the answer number must be a whole number" in str(err.value)


def test_a_store_whose_images_folder_is_a_file_is_one_line(app_server, tmp_path: Path) -> None:
    images = app_server.db.parent / "images"
    if images.is_dir():
        import shutil

        shutil.rmtree(images)
    images.write_text("not a folder", encoding="utf-8")
    png = write_png(tmp_path / "upload.png", seed=7)
    client = api_client(app_server.url)
    msg = client.predict(handle_file(str(png)), STEPS0, api_name="/load_image")[4]
    # the page names the folder, not its path on the server (issue 23); the app log has the full path
    assert "cannot store image" in msg and ": images is a file, not a folder" in msg and str(images) not in msg, msg
    assert "NotADirectoryError" not in msg and "Something went wrong" not in msg
