"""Issue 48's messages: each one line naming what to fix."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import run_cli


def test_a_port_in_use_is_one_line_naming_it_and_port_and_says_nothing_of_serving(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, out, err = run_cli(capsys, "serve", "--port", str(port), "--db", str(tmp_path / "s.db"))
    assert code != 0
    assert "serving" not in out + err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert f"port {port}" in lines[0] and "--port" in lines[0] and "in use" in lines[0]


def _entry(folder: Path, name: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.yaml").write_text(f"name: {name}\nprovider: openai\nmodel: served-{name}\n"
                                         "base_url: http://127.0.0.1:9/v1\n", encoding="utf-8")


def test_a_backends_folder_in_the_working_folder_is_read(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from probe_ui.catalogue import resolve

    monkeypatch.delenv("PROBE_UI_BACKENDS", raising=False)
    monkeypatch.chdir(tmp_path)
    _entry(tmp_path / "backends", "my-vllm")
    assert resolve("my-vllm").model == "served-my-vllm"


def test_probe_ui_backends_when_set_is_where_entries_are_read(monkeypatch: pytest.MonkeyPatch,
                                                              tmp_path: Path) -> None:
    from probe_ui.catalogue import resolve

    monkeypatch.chdir(tmp_path)
    _entry(tmp_path / "backends", "local-one")
    _entry(tmp_path / "site", "site-one")
    monkeypatch.setenv("PROBE_UI_BACKENDS", str(tmp_path / "site"))
    assert resolve("site-one").model == "served-site-one"


def test_an_unknown_model_names_where_entries_are_looked_for(monkeypatch: pytest.MonkeyPatch,
                                                             tmp_path: Path) -> None:
    from probe_ui.catalogue import resolve
    from probe_ui.errors import ProbeUIError

    monkeypatch.delenv("PROBE_UI_BACKENDS", raising=False)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ProbeUIError) as exc:
        resolve("my-vllm")
    message = str(exc.value)
    assert "\n" not in message and "PROBE_UI_BACKENDS" in message and "./backends/" in message


@pytest.mark.parametrize("argv", [["score"], ["report", "--out", "r.html"], ["export", "--format", "jsonl",
                                                                           "--out", "x"]])
def test_several_runs_are_refused_in_one_line_naming_them(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                          argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        run_cli(capsys, *argv, "--db", str(tmp_path / "none.db"), "--run", "A", "--run", "B")
    assert exc.value.code == 2
    err = capsys.readouterr().err
    first = err.splitlines()[0]
    assert "--run given 2 times ('A', 'B')" in first and f"probe-ui {argv[0]}" in first
    assert "probe-ui compare A B" in first
    assert not (tmp_path / "none.db").exists()


def test_one_run_is_still_read(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _out, err = run_cli(capsys, "score", "--db", str(tmp_path / "none.db"), "--run", "A")
    assert code == 1 and "several" not in err and "given 2 times" not in err


MISINDENTED = """name: bad
items:
  - id: q1
    question: Is it?
    image: a.png
  - id: q2
    image:
      path: a.png
      question: Is it?
"""


def test_a_preset_error_carries_the_line_and_column(tmp_path: Path) -> None:
    from probe_ui.presets import PresetError, load_preset

    (tmp_path / "bad.yaml").write_text(MISINDENTED, encoding="utf-8")
    with pytest.raises(PresetError) as exc:
        load_preset(tmp_path / "bad.yaml")
    message = str(exc.value)
    assert "item 2 ('q2'): field 'question': required field is missing (line 6, column 5)" in message, message


def test_a_preset_field_error_points_at_the_field(tmp_path: Path) -> None:
    from probe_ui.presets import PresetError, load_preset

    (tmp_path / "bad.yaml").write_text("name: bad\nitems:\n  - id: q1\n    question: Is it?\n    image: a.png\n"
                                       "    colour: red\n", encoding="utf-8")
    with pytest.raises(PresetError) as exc:
        load_preset(tmp_path / "bad.yaml")
    assert "field 'colour': unknown field" in str(exc.value) and "(line 6, column 13)" in str(exc.value)


def test_a_preset_head_error_carries_the_line(tmp_path: Path) -> None:
    from probe_ui.presets import PresetError, load_preset

    (tmp_path / "bad.yaml").write_text("name: bad\ninclude_original: [1]\nitems:\n  - id: q1\n    question: Is it?\n"
                                       "    image: a.png\n", encoding="utf-8")
    with pytest.raises(PresetError) as exc:
        load_preset(tmp_path / "bad.yaml")
    assert "field 'include_original'" in str(exc.value) and "(line 2, column 19)" in str(exc.value)


def test_a_catalogue_entry_error_carries_the_line(tmp_path: Path) -> None:
    from probe_ui.catalogue import load_entry
    from probe_ui.errors import ProbeUIError

    (tmp_path / "m.yaml").write_text("name: m\nprovider: openai\nmodel: x\nconcurrency: -3\n", encoding="utf-8")
    with pytest.raises(ProbeUIError) as exc:
        load_entry(tmp_path / "m.yaml")
    assert "field 'concurrency'" in str(exc.value) and "(line 4, column 14)" in str(exc.value)


def test_a_broken_plugin_is_one_line_naming_its_file(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.helpers import plugins_loaded

    broken = tmp_path / "broken.py"
    broken.write_text("def f(:\n", encoding="utf-8")
    with plugins_loaded(monkeypatch, broken):
        code, out, err = run_cli(capsys, "perturbations")
    assert code == 1 and out == ""
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and f"plugin {broken} failed to load: SyntaxError" in lines[0], err


def test_a_plugin_name_clash_names_the_name_and_both_files(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.helpers import plugins_loaded

    clash = tmp_path / "clash.py"
    clash.write_text("from probe_ui.perturb.registry import register\n\n"
                     "@register('rotate', 'not the real rotate', 'unchanged')\n"
                     "def rotate(variant, rng):\n    return variant\n", encoding="utf-8")
    with plugins_loaded(monkeypatch, clash):
        code, _out, err = run_cli(capsys, "presets")
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 1 and len(lines) == 1, err
    assert "perturbation 'rotate' is registered twice (by " in lines[0]
    assert str(clash) in lines[0] and "probe_ui/perturb/image.py" in lines[0], lines[0]


def test_explain_with_a_near_name_lists_the_near_names_not_templates(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "metrics", "--explain", "set acc")
    lines = [line for line in err.splitlines() if line.strip()]
    assert code == 1 and out == "" and len(lines) == 1, err
    assert "did you mean: 'set accuracy'?" in lines[0] and "{" not in lines[0] and len(lines[0]) < 160, lines[0]


def test_dry_run_counts_only_the_calls_a_resumed_batch_would_make(capsys: pytest.CaptureFixture[str],
                                                                   tmp_path: Path) -> None:
    from tests.helpers import choice_item, write_png, write_preset

    write_png(tmp_path / "im.png", size=(16, 16))
    preset = str(write_preset(tmp_path / "p.yaml", [choice_item(i, "im.png", answer="B") for i in range(3)]))
    db = str(tmp_path / "s.db")
    code, out, _ = run_cli(capsys, "batch", preset, "-m", "baseline/random", "--db", db, "--dry-run")
    assert code == 0 and "= 3 calls" in out and "  baseline/random: 3 calls," in out, out
    code, _, err = run_cli(capsys, "batch", preset, "-m", "baseline/random", "--db", db, "--no-progress")
    assert code == 0, err
    code, out, _ = run_cli(capsys, "batch", preset, "-m", "baseline/random", "-m", "baseline/first", "--db", db,
                           "--dry-run")
    assert code == 0 and "= 3 calls to make (3 answers already stored are not asked again)" in out, out
    assert "  baseline/random: 0 calls (3 stored, not asked again)," in out
    assert "  baseline/first: 3 calls," in out


def test_dry_run_prices_a_local_server_under_a_hosted_entry_at_nothing(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fake_openai: Any) -> None:
    from tests.helpers import choice_item, write_png, write_preset

    write_png(tmp_path / "im.png", size=(16, 16))
    preset = str(write_preset(tmp_path / "p.yaml", [choice_item(i, "im.png", answer="B") for i in range(3)]))
    backends = tmp_path / "backends"
    backends.mkdir()
    (backends / "hosted.yaml").write_text("name: hosted\nprovider: openai\nmodel: fake-vlm\n"
                                          "price_input_per_m: 1000\nprice_output_per_m: 1000\n", encoding="utf-8")
    monkeypatch.setenv("PROBE_UI_BACKENDS", str(backends))
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    code, out, err = run_cli(capsys, "batch", preset, "-m", "hosted", "--db", str(tmp_path / "s.db"), "--dry-run")
    assert code == 0, err
    assert "  hosted: 3 calls," in out and out.count("$0.0000") == 1, out


def test_a_dry_run_loads_each_image_file_once_however_many_items_name_it(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 50: the plan of 2,000 items on 13 images decoded and PNG-encoded 2,000 images (three times the CPU of
    the batch it planned); it loads each file once, as the batch does, and still counts every call."""
    import probe_ui.presets.suites as suites
    from tests.helpers import choice_item, write_png, write_preset

    for name in ("a.png", "b.png"):
        write_png(tmp_path / name, seed=len(name) + ord(name[0]))
    preset = write_preset(tmp_path / "p.yaml", [choice_item(i, "ab"[i % 2] + ".png") for i in range(30)])
    loads: list[str] = []
    real = suites._load

    def counted(path: Path, **options: Any) -> Any:
        loads.append(path.name)
        return real(path, **options)

    monkeypatch.setattr(suites, "_load", counted)
    code, out, err = run_cli(capsys, "batch", str(preset), "-m", "baseline/first", "--dry-run", "--db",
                             str(tmp_path / "s.db"))
    assert code == 0, err
    assert sorted(loads) == ["a.png", "b.png"]
    assert "  baseline/first: 30 calls," in out, out
