"""``probe-ui import``'s options of some formats come from the importers that declare them (issue 49: importers
declare their own CLI options, so the command line names no benchmark and a new format is one file)."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from helpers import run_cli

from probe_ui import registry
from probe_ui.cli.entry import forget_parser
from probe_ui.importers import FORMATS, IMPORTERS

ROOT = Path(__file__).resolve().parent.parent


def test_every_declared_option_is_in_the_help_under_its_format(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        run_cli(capsys, "import", "--help")
    shown = " ".join(capsys.readouterr().out.split())
    declared = [(name, f) for name in FORMATS for f in getattr(IMPORTERS.get(name), "FLAGS", ())]
    assert declared, "the benchmarks declare options (MediConfusion's --dataset, MedVH's --task)"
    for name, f in declared:
        assert f.flag in shown and f"{name}: {' '.join(f.help.split()[:3])}" in shown, (name, f.flag)
    for name in FORMATS:  # each format says which file it reads
        assert re.search(rf"\b{re.escape(name)}\s+{re.escape(' '.join(IMPORTERS.get(name).READS.split()[:2]))}", shown)


def test_the_import_command_names_no_format() -> None:
    source = (ROOT / "probe_ui" / "cli" / "import_export.py").read_text(encoding="utf-8").lower()
    for name in FORMATS:
        assert not re.search(rf"(?<![\w-]){re.escape(name.lower())}(?![\w-])", source), name


def test_an_option_the_format_does_not_declare_is_refused_in_one_line(capsys: pytest.CaptureFixture[str],
                                                                      tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exc:
        run_cli(capsys, "import", "probmed", str(tmp_path / "r.json"), "--task", "nota", "--db", str(tmp_path / "s.db"))
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "--task does not apply to probmed files" in err and "Traceback" not in err
    with pytest.raises(SystemExit):
        run_cli(capsys, "import", "dataset", str(tmp_path), "--split", "val")
    assert "--split does not apply to a dataset" in capsys.readouterr().err


PLUGIN = '''
    """An import format from a plugin file: its own option, declared beside it."""
    import sys

    from probe_ui.importers import ImportFlag, ImportUsageError, register_importer

    NAME = "toy-format"
    PROMPT = "free"
    READS = "the toy tool's answers file"
    FLAGS = (ImportFlag("cohort", "which cohort the file holds", metavar="NAME"),)


    def check(opts, to_preset):
        raise ImportUsageError(f"toy-format was given cohort {opts.value('cohort')!r}")


    def default_model(path):
        return "toy"


    def default_run(model, opts, parsed):
        return "toy"


    def read_results(path, data, opts):
        raise NotImplementedError


    def read_questions(path, data, opts):
        raise NotImplementedError


    register_importer(sys.modules[__name__])
'''


@pytest.fixture
def toy_format(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    plugin = tmp_path / "toy_format.py"
    plugin.write_text(textwrap.dedent(PLUGIN), encoding="utf-8")
    monkeypatch.setenv(registry.PLUGINS_ENV, str(plugin))
    registry.forget_plugins()
    forget_parser()
    try:
        yield plugin
    finally:
        monkeypatch.delenv(registry.PLUGINS_ENV)
        registry.forget_plugins()
        forget_parser()


def test_a_plugin_format_brings_its_own_option_and_receives_its_value(toy_format: Path, tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        run_cli(capsys, "import", "--help")
    shown = " ".join(capsys.readouterr().out.split())
    assert "--cohort NAME toy-format: which cohort the file holds" in shown
    assert "toy-format the toy tool's answers file" in shown
    (tmp_path / "answers.json").write_text("{}", encoding="utf-8")
    with pytest.raises(SystemExit):
        run_cli(capsys, "import", "toy-format", str(tmp_path / "answers.json"), "--cohort", "north",
                "--db", str(tmp_path / "s.db"))
    assert "toy-format was given cohort 'north'" in capsys.readouterr().err


def test_other_commands_do_not_load_the_importers_for_their_options() -> None:
    code = ("import sys\nfrom probe_ui.cli import main\nmain(['presets'])\n"
            "print('probe_ui.importers' in sys.modules, 'probe_ui.benchmarks' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert out.strip().splitlines()[-1] == "False False"
