"""Issue 52, the fourth hostile round: what the CLI prints and writes, and what the imports read.

- F44: ``compare --fail-if-worse`` takes only a finite number of points from 0 to 100 (``nan``, ``inf`` and
  ``1e309`` were taken, and the gate never tripped);
- F40: the global ``--db`` (``probe-ui --db X batch ...``) is the store of every command that opens one, and is
  refused by a command that opens none (it was ignored, and the default store written);
- F43: run, model and preset names are printed with control characters escaped and cut to a sane length;
- F42: the VLMEvalKit TSV goes through the spreadsheet-safe writer;
- F45: an optional library that cannot be loaded (``OSError``, ``ImportError``) is an environment fault, not a bug;
- F41: an Inspect ``.eval`` whose members decompress to more than the cap is refused before it is decompressed;
- F46: the lmms-eval ``results.json`` beside a samples file is read only when it is a regular file, size-capped.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from helpers import choice_item, run_cli, write_png, write_preset


@pytest.fixture()
def preset(tmp_path: Path) -> Path:
    for i in range(2):
        write_png(tmp_path / f"im{i}.png", seed=i)
    return write_preset(tmp_path / "p.yaml", [choice_item(i, f"im{i % 2}.png") for i in range(4)])


def _batch(capsys: pytest.CaptureFixture[str], preset: Path, db: Path, run: str, *models: str) -> None:
    argv = ["batch", str(preset), "--db", str(db), "--run", run, "--no-progress"]
    for m in models:
        argv += ["-m", m]
    code, _, err = run_cli(capsys, *argv)
    assert code == 0, err


# ---- F44: --fail-if-worse -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("points", ["nan", "inf", "-inf", "1e309", "-1", "101", "five", ""])
def test_f44_fail_if_worse_takes_only_points_from_0_to_100(points: str, preset: Path, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "s.db"
    _batch(capsys, preset, db, "r", "baseline/first", "baseline/random")
    with pytest.raises(SystemExit) as exc:
        run_cli(capsys, "compare", "r", "-m", "baseline/first", "-m", "baseline/random", "--db", str(db),
                f"--fail-if-worse={points}")
    err = capsys.readouterr().err
    assert exc.value.code == 2
    assert "--fail-if-worse: give a number of percentage points from 0 to 100" in err, err
    code, _, err = run_cli(capsys, "compare", "r", "-m", "baseline/first", "-m", "baseline/random", "--db", str(db),
                           "--boot", "0", "--fail-if-worse", "100")
    assert code == 0, err


# ---- F40: the global --db -------------------------------------------------------------------------------------------

def test_f40_the_global_db_is_the_store_of_the_command(preset: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("PROBE_UI_DB", raising=False)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    db = tmp_path / "chosen.db"
    code, _, err = run_cli(capsys, "--db", str(db), "batch", str(preset), "-m", "baseline/first", "--run", "g",
                           "--no-progress")
    assert code == 0, err
    assert db.is_file()
    assert not (work / "probe-ui-data").exists(), "the default store was created"
    code, out, err = run_cli(capsys, "--db", str(db), "score", "--run", "g", "--json")
    assert code == 0, err
    assert json.loads(out)["run"] == "g"
    # the command's own --db wins over the global one
    other = tmp_path / "other.db"
    code, _, err = run_cli(capsys, "--db", str(db), "batch", str(preset), "-m", "baseline/first", "--run", "h",
                           "--no-progress", "--db", str(other))
    assert code == 0, err
    assert other.is_file() and not (work / "probe-ui-data").exists()
    # a command that opens no store refuses it in one line, rather than leaving it unused
    with pytest.raises(SystemExit) as exc:
        run_cli(capsys, "--db", str(db), "perturbations")
    err = capsys.readouterr().err
    assert exc.value.code == 2
    assert "was given before 'perturbations', which opens no store" in err.splitlines()[0]


# ---- F45: a library that cannot be loaded ---------------------------------------------------------------------------

def test_f45_a_broken_pyarrow_is_an_environment_fault_not_a_bug(preset: Path, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    import sys

    db = tmp_path / "s.db"
    _batch(capsys, preset, db, "r", "baseline/first")
    broken = tmp_path / "site" / "pyarrow"
    broken.mkdir(parents=True)
    (broken / "__init__.py").write_text('raise OSError("libarrow.so.2000: cannot open shared object file: No such '
                                        'file or directory")\n', encoding="utf-8")
    for name in [n for n in sys.modules if n == "pyarrow" or n.startswith("pyarrow.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    code, out, err = run_cli(capsys, "score", "--db", str(db), "--run", "r")
    lines = [x for x in err.splitlines() if x.startswith("error:")]
    assert code == 1 and len(lines) == 1, err
    assert lines[0].startswith("error: pyarrow could not be loaded (OSError: libarrow.so.2000: cannot open shared "
                               "object file"), err
    assert "a fault of this Python environment" in lines[0] and "pip install --force-reinstall pyarrow" in lines[0]
    assert "a bug in probe-ui" not in err


def test_f45_an_oserror_of_probe_ui_itself_is_still_a_bug() -> None:
    from probe_ui.errors import library_fault

    try:
        open(os.devnull + "/nope", encoding="utf-8")  # noqa: SIM115 - an OSError that no import raised
    except OSError as exc:
        assert library_fault(exc) is None
    try:
        import probe_ui.no_such_module  # type: ignore[import-not-found]  # noqa: F401
    except ImportError as exc:
        assert library_fault(exc) is None


# ---- F42: the VLMEvalKit TSV is spreadsheet-safe ----------------------------------------------------------------

def test_f42_the_vlmevalkit_tsv_neutralises_formula_cells(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import csv

    from probe_ui.interop.benchset import load_set
    from probe_ui.interop.vlmevalkit import build_prompt

    write_png(tmp_path / "im.png")
    formula = "=cmd|' /C calc'!A0"
    item = {"id": "q1", "image": "im.png", "question": formula, "options": ["@SUM(1+1)", "+1", "-2 mm", "plain"],
            "answer": "D"}
    preset = write_preset(tmp_path / "p.yaml", [item])
    code, _, err = run_cli(capsys, "export-set", str(preset), "--to", "vlmevalkit", "--out", str(tmp_path / "out"))
    assert code == 0, err
    (tsv,) = (tmp_path / "out").glob("*.tsv")
    with tsv.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    cells = [v for r in rows for v in r.values() if v]
    assert not [c for c in cells if c[0] in "=+-@\t\r"], "a cell a spreadsheet would run"
    assert rows[0]["question"] == "'" + formula and [rows[0][c] for c in "ABCD"] == ["'@SUM(1+1)", "'+1", "'-2 mm",
                                                                                      "plain"]
    # the prompt stored with an import is what VLMEvalKit sends: the cells as the TSV holds them
    bset = load_set(tmp_path / "out")
    assert build_prompt(bset.samples[0]).startswith("Question: '" + formula + "\nOptions:\nA. '@SUM(1+1)\n")


# ---- F46: only a regular results.json beside an lmms-eval samples file --------------------------------------------

def _lmms_import(tmp_path: Path, samples: Path) -> tuple[int, str]:
    """``probe-ui import lmms-eval SAMPLES`` in a child process under a 3 GiB address-space limit and a time limit,
    so that a regression (reading /dev/zero, waiting on a FIFO) fails the test instead of taking the machine."""
    import subprocess
    import sys

    code = ("import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30)); "
            "from probe_ui.cli import main; sys.exit(main(sys.argv[1:]))")
    try:
        proc = subprocess.run([sys.executable, "-c", code, "import", "lmms-eval", str(samples), "--db",
                               str(tmp_path / "s.db")], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    except subprocess.TimeoutExpired:
        pytest.fail("the import hung on the file beside the samples")
    return proc.returncode, proc.stderr


def _samples(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "20260101_120000_samples_probeui_x.jsonl"
    path.write_text(json.dumps({"doc_id": 0, "probe_ui_accuracy": {"variant_id": "v1"}, "resps": [["A"]]}) + "\n",
                    encoding="utf-8")
    return path


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "folder", "too-large"])
def test_f46_only_a_regular_results_file_beside_the_samples_is_read(kind: str, tmp_path: Path) -> None:
    samples = _samples(tmp_path / "logs" / "model")
    results = samples.with_name("20260101_120000_results.json")
    if kind == "fifo":
        os.mkfifo(results)
    elif kind == "dev-zero":
        results.symlink_to("/dev/zero")
    elif kind == "folder":
        results.mkdir()
    else:
        with results.open("wb") as f:
            f.truncate(64 * 1024 * 1024 + 1)  # sparse: over the cap without writing it
    code, err = _lmms_import(tmp_path, samples)
    lines = err.strip().splitlines()
    assert code == 1 and len(lines) == 1, err
    want = {"fifo": "a FIFO (named pipe), not a regular file", "dev-zero": "a character device, not a regular file",
            "folder": "a folder, not a regular file", "too-large": "over the 67,108,864-byte limit"}[kind]
    assert lines[0].startswith(f"error: {results}: ") and want in lines[0], err
    assert "lmms-eval results file" in lines[0] and "unexpected" not in lines[0]


def test_f46_a_results_file_that_is_a_regular_file_or_absent_still_reads(tmp_path: Path) -> None:
    from probe_ui.interop import lmms_eval

    samples = _samples(tmp_path / "logs" / "model")
    assert lmms_eval.read_results(samples).model == "model"  # absent: the folder's name
    samples.with_name("20260101_120000_results.json").write_text(json.dumps({"model_name": "org/m"}),
                                                                 encoding="utf-8")
    assert lmms_eval.read_results(samples).model == "org/m"


# ---- F41: an Inspect .eval is read within bounds ------------------------------------------------------------------

def _zip_bomb(path: Path, members: dict[str, int], declared: dict[str, int] | None = None) -> Path:
    """A zip of members holding that many zero bytes each, written in chunks (a few kB on disk); ``declared``: the
    size its directory and local headers claim instead, for a zip that lies about what a member holds."""
    import struct
    import zipfile

    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, size in members.items():
            with zf.open(name, "w", force_zip64=True) as f:
                chunk = b"\0" * (1 << 20)
                for start in range(0, size, len(chunk)):
                    f.write(chunk[: size - start])
    if declared:
        raw = bytearray(path.read_bytes())
        for name, size in declared.items():
            with zipfile.ZipFile(path) as zf:
                info = zf.getinfo(name)
            for sig, off in ((b"PK\x01\x02", 24), (b"PK\x03\x04", 22)):  # central directory, local header
                at = raw.find(sig, info.header_offset if sig == b"PK\x03\x04" else 0)
                while raw[at + (46 if sig == b"PK\x01\x02" else 30):].find(name.encode()) != 0:
                    at = raw.find(sig, at + 4)
                if struct.unpack_from("<I", raw, at + off)[0] == 0xFFFFFFFF:  # zip64: the size is in the extra
                    name_len, extra_len = struct.unpack_from("<HH", raw, at + off + 4 + (2 if sig == b"PK\x01\x02"
                                                                                         else 0))
                    head = 46 if sig == b"PK\x01\x02" else 30
                    extra = at + head + name_len
                    struct.pack_into("<Q", raw, extra + 4, size)  # zip64 extra: header id, length, then sizes
                else:
                    struct.pack_into("<I", raw, at + off, size)
        path.write_bytes(bytes(raw))
    return path


def _read_inspect_bounded(path: Path) -> tuple[str, int]:
    """The one-line refusal of ``read_results`` and the peak memory it allocated."""
    import tracemalloc

    import inspect_ai.log  # noqa: F401 - imported before measuring: its import is not the read

    from probe_ui.importers.common import ImportFileError
    from probe_ui.interop import inspect as harness

    tracemalloc.start()
    try:
        with pytest.raises(ImportFileError) as exc:
            harness.read_results(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return str(exc.value), peak


def test_f41_an_eval_whose_member_decompresses_past_the_cap_is_refused_unread(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("inspect_ai")
    log = _zip_bomb(tmp_path / "bomb.eval", {"header.json": 10, "samples/1_epoch_1.json": 80 * 1024 * 1024})
    assert log.stat().st_size < 200_000
    message, peak = _read_inspect_bounded(log)
    assert message == (f"{log}: member 'samples/1_epoch_1.json' decompresses to 83,886,080 bytes, over the "
                       "67,108,864-byte limit for one member of an Inspect log")
    assert peak < 8 * 1024 * 1024, f"{peak:,} bytes allocated"
    code, _, err = run_cli(capsys, "import", "inspect", str(log), "--db", str(tmp_path / "s.db"))
    assert code == 1 and err.strip().splitlines() == [f"error: {message}"], err


def test_f41_all_members_together_are_capped_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("inspect_ai")
    from probe_ui.interop import inspect as harness

    monkeypatch.setattr(harness, "MAX_LOG_BYTES", 10 * 1024 * 1024)
    log = _zip_bomb(tmp_path / "many.eval", {f"samples/{i}_epoch_1.json": 4 * 1024 * 1024 for i in range(3)})
    message, peak = _read_inspect_bounded(log)
    assert message == f"{log}: its members decompress to more than 10,485,760 bytes, the limit for an Inspect log"
    assert peak < 8 * 1024 * 1024, f"{peak:,} bytes allocated"


def test_f41_a_member_that_lies_about_its_size_is_not_decompressed_past_it(tmp_path: Path) -> None:
    """The directory says 100 bytes, the data inflates to 50 MiB: zipfile stops at 100 and the CRC fails."""
    pytest.importorskip("inspect_ai")
    log = _zip_bomb(tmp_path / "liar.eval", {"header.json": 50 * 1024 * 1024}, declared={"header.json": 100})
    message, peak = _read_inspect_bounded(log)
    assert message == (f"{log}: not an Inspect log that inspect_ai can read (BadZipFile: Bad CRC-32 for file "
                       "'header.json')")
    assert peak < 8 * 1024 * 1024, f"{peak:,} bytes allocated"


# ---- F43: names are printed escaped and cut -------------------------------------------------------------------------

#: sets the window's title, rings the bell, clears the screen; then a name far too long to print
HOSTILE = "\x1b]0;owned\x07\x1b[2J\x1b[H\u202e"


def _hostile_store(capsys: pytest.CaptureFixture[str], preset: Path, db: Path) -> tuple[str, str]:
    import sqlite3

    _batch(capsys, preset, db, "r", "baseline/first", "baseline/random")
    run, model = HOSTILE + "run-" + "r" * 100_000, HOSTILE + "model-" + "m" * 100_000
    with sqlite3.connect(db) as con:
        con.execute("UPDATE runs SET name = ? WHERE name = 'r'", (run,))
        con.execute("UPDATE responses SET model = ? WHERE model = 'baseline/first'", (model,))
    return run, model


def _clean(text: str, whole: bool = False) -> None:
    """No raw control character; no line too long, unless the names are kept ``whole`` (CSV, like JSON, is data)."""
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text, "a raw control character"
    assert whole or max(map(len, text.splitlines() or [""])) <= 2100, "a line too long"


def test_f43_score_and_compare_print_names_escaped_and_cut(preset: Path, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "s.db"
    run, model = _hostile_store(capsys, preset, db)
    for fmt in ("table", "markdown", "csv"):
        code, out, err = run_cli(capsys, "score", "--db", str(db), "--run", run, "--format", fmt)
        assert code == 0, err[:500]
        _clean(out + err, whole=fmt == "csv")
        if fmt == "table":
            table = out
    out = table
    assert "\\x1b]0;owned\\x07\\x1b[2J\\x1b[H\\u202erun-" + "r" * 80 in out  # escaped, then cut with "…"
    code, out, err = run_cli(capsys, "compare", run, "-m", model, "-m", "baseline/random", "--db", str(db),
                             "--boot", "0")
    assert code == 0, err[:500]
    _clean(out + err)
    assert out.startswith("A: \\x1b]0;owned\\x07\\x1b[2J\\x1b[H\\u202emodel-mmm") and "m…" in out.splitlines()[0]
    # the store and the JSON keep the whole names
    code, out, _ = run_cli(capsys, "score", "--db", str(db), "--run", run, "--json")
    report = json.loads(out)
    assert report["run"] == run and model in report["models"]


def test_f43_error_lines_print_names_escaped_and_cut(preset: Path, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "s.db"
    run, model = _hostile_store(capsys, preset, db)
    code, _, err = run_cli(capsys, "score", "--db", str(db), "--run", HOSTILE + "nope")
    assert code == 1 and err.startswith("error: no run named '\\x1b]0;owned"), err[:300]
    _clean(err)
    assert len(err.splitlines()) == 1 and len(err) < 400, len(err)
    code, _, err = run_cli(capsys, "compare", run, "-m", HOSTILE + "x", "-m", "baseline/random", "--db", str(db))
    assert code == 1 and len(err.splitlines()) == 1, err[:300]
    _clean(err)
    assert len(err) < 800, len(err)
