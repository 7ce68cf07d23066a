"""Where probe-ui reads and writes files (probe_ui.files.paths), and the defects of issue 14 about it.

F3: ``import dataset`` follows no symbolic link and no path out of the export folder. F4: item ids (``../../x``,
``/abs/x``) become safe file names, and ``preview --out`` writes nothing outside its folder. F15: a huge ``--seed``,
an ``--out`` that is a dangling symbolic link, a database whose parent is a file: one clear line each. F18:
``import dataset --to-preset`` does not replace an existing file without ``--force``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from helpers import write_png, write_preset

from probe_ui.cli import main
from probe_ui.importers.dataset import import_dataset
from probe_ui.presets import load_preset


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse's usage errors
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def exported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """A one-item run exported as JSONL, and an image outside the export."""
    write_png(tmp_path / "scan.png")
    preset = write_preset(tmp_path / "p.yaml", [{"id": "q1", "image": "scan.png", "question": "Which?",
                                                 "options": ["left", "right"], "answer": "left"}])
    db = tmp_path / "data" / "probe-ui.db"
    assert _run(capsys, "batch", str(preset), "-m", "baseline/first", "--db", str(db), "--run", "r",
                "--no-progress")[0] == 0
    out = tmp_path / "export"
    assert _run(capsys, "export", "--db", str(db), "--run", "r", "--format", "jsonl", "--out", str(out))[0] == 0
    outside = write_png(tmp_path / "outside.png", seed=7)
    (tmp_path / "shadow").write_text("root:$6$secret-hash:19000:0:99999:7:::\n")
    return {"db": db, "out": out, "outside": outside, "shadow": tmp_path / "shadow", "preset": preset}


# ---- F3 ------------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("target", ["shadow", "outside"])
def test_f3_import_dataset_follows_no_symbolic_link(exported: dict[str, Any], tmp_path: Path, target: str) -> None:
    out: Path = exported["out"]
    image = next((out / "images").glob("*.png"))
    image.unlink()
    image.symlink_to(exported[target])
    dest = tmp_path / "replay" / "preset.yaml"
    with pytest.raises(Exception) as info:
        import_dataset(out, dest)
    assert "symbolic link" in str(info.value)
    copied = list((tmp_path / "replay").rglob("*")) if (tmp_path / "replay").exists() else []
    assert not [p for p in copied if p.is_file() and p.read_bytes() == exported[target].read_bytes()]


def test_f3_a_symlinked_images_folder_or_data_file_is_refused(exported: dict[str, Any], tmp_path: Path) -> None:
    out: Path = exported["out"]
    elsewhere = tmp_path / "elsewhere"
    (out / "images").rename(elsewhere)
    (out / "images").symlink_to(elsewhere)
    with pytest.raises(Exception, match="symbolic link"):
        import_dataset(out, tmp_path / "a" / "preset.yaml")
    (out / "images").unlink()
    (out / "images").symlink_to(elsewhere)
    data = out / "data.jsonl"
    data.rename(tmp_path / "data.jsonl")
    data.symlink_to(tmp_path / "data.jsonl")
    with pytest.raises(Exception, match="symbolic link"):
        import_dataset(out, tmp_path / "b" / "preset.yaml")


# ---- F4 ------------------------------------------------------------------------------------------------------------

def test_f4_preview_writes_nothing_outside_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "a" / "b" / "c"
    home.mkdir(parents=True)
    write_png(home / "x.png")
    item = {"image": "x.png", "question": "Which?", "options": ["l", "r"], "answer": "l"}
    abs_id = str(tmp_path / "abs")
    preset = write_preset(home / "p.yaml", [{"id": "../../../escaped", **item}, {"id": abs_id, **item},
                                            {"id": "..", **item}, {"id": "a/../../b", **item}])
    out = home / "out"
    before = {p for p in tmp_path.rglob("*")}
    code, printed, err = _run(capsys, "preview", str(preset), "--out", str(out))
    assert code == 0, err
    written = {p for p in tmp_path.rglob("*")} - before
    assert written and all(p == out or p.parent == out for p in written), sorted(map(str, written))
    assert len([p for p in written if p.suffix == ".png"]) == 4  # four items, four distinct files
    assert all(not p.name.startswith(".") and ".." not in p.name for p in written)


def test_f4_imported_ids_stay_ids_and_are_only_file_names_when_written(exported: dict[str, Any], tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    out: Path = exported["out"]
    rows = [json.loads(x) for x in (out / "data.jsonl").read_text().splitlines()]
    for r in rows:
        r["item_id"] = "../../../pwned"
    (out / "data.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    dest = tmp_path / "replay" / "preset.yaml"
    import_dataset(out, dest)
    assert [it.id for it in load_preset(dest).items] == ["../../../pwned"]
    before = {p for p in tmp_path.rglob("*")}
    pv = tmp_path / "replay" / "a" / "b" / "pv"  # ../../../ from here is still inside tmp_path
    assert _run(capsys, "preview", str(dest), "--out", str(pv))[0] == 0
    written = {p for p in tmp_path.rglob("*")} - before
    assert [p for p in written if p.suffix == ".png"] and all(p.parent == pv for p in written if p.is_file())


# ---- F15 -----------------------------------------------------------------------------------------------------------

def _one_clear_line(err: str) -> None:
    assert err.count("\n") <= 2 and "Traceback" not in err, err  # argparse adds its usage line
    for generic in ("OverflowError", "FileExistsError", "NotADirectoryError", "AppError", "unexpected"):
        assert generic not in err, err


@pytest.mark.parametrize("seed", ["1e20", str(10**20), "-1", str(2**63)])
def test_f15_a_seed_out_of_range_is_one_clear_line(seed: str, exported: dict[str, Any],
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "batch", str(exported["preset"]), "-m", "baseline/first", "--db",
                        str(exported["db"]), "--seed", seed, "--no-progress")
    last = err.strip().splitlines()[-1]  # argparse prints its usage block first, then the one line
    assert code == 2 and last.startswith("probe-ui batch: error: argument --seed:"), err
    assert f"a whole number from 0 to {2**63 - 1}" in last, last
    _one_clear_line(last)


@pytest.mark.parametrize("command", ["preview", "export", "report"])
def test_f15_out_as_a_dangling_symbolic_link_is_one_clear_line(command: str, exported: dict[str, Any],
                                                               tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    link = tmp_path / "dangling"
    link.symlink_to(tmp_path / "nowhere" / "target")
    argv = {"preview": ["preview", str(exported["preset"])],
            "export": ["export", "--db", str(exported["db"]), "--run", "r", "--format", "jsonl"],
            "report": ["report", "--db", str(exported["db"]), "--run", "r"]}[command]
    code, _, err = _run(capsys, *argv, "--out", str(link))
    assert code == 1 and "symbolic link" in err and str(link) in err, err
    _one_clear_line(err)
    assert not (tmp_path / "nowhere").exists()


def test_f15_a_database_whose_parent_is_a_file_is_one_clear_line(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "afile").write_text("not a folder")
    for db in (tmp_path / "afile" / "x.db", tmp_path / "afile" / "sub" / "x.db"):
        code, _, err = _run(capsys, "score", "--db", str(db))
        assert code == 1 and "afile is a file" in err, err
        _one_clear_line(err)


# ---- F18 -----------------------------------------------------------------------------------------------------------

def test_f18_import_dataset_does_not_replace_a_file_without_force(exported: dict[str, Any], tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    mine = tmp_path / "mine.yaml"
    mine.write_text("# my hand-written preset\nitems: []\n")
    code, _, err = _run(capsys, "import", "dataset", str(exported["out"]), "--to-preset", str(mine))
    assert code == 1 and "--force" in err and str(mine) in err, err
    assert mine.read_text() == "# my hand-written preset\nitems: []\n"
    assert not list(tmp_path.glob(".mine.yaml*"))
    code, _, err = _run(capsys, "import", "dataset", str(exported["out"]), "--to-preset", str(mine), "--force")
    assert code == 0, err
    assert [it.id for it in load_preset(mine).items] == ["q1"]
    os.chmod(mine, 0o644)
