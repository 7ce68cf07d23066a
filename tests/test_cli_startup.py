"""``probe-ui --help`` and building the command line import none of the heavy libraries: the parser is built for
every command (``python -m probe_ui batch ...`` included), and pandas, SQLAlchemy, Pillow, NumPy and pydantic cost
about 4 s of CPU on the 2-core machine (``python -X importtime``), paid before a command that needs none of them
(``--help``, ``models``, ``perturbations``) could print a line. Each command imports what it uses when it runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from probe_ui.cli import build_parser

HEAVY = ("pandas", "sqlalchemy", "PIL", "numpy", "pydantic", "yaml", "openai", "anthropic", "gradio", "torch")

PROBE = ("import json, sys, probe_ui.cli; p = probe_ui.cli.build_parser(); {action}; "
         "print(json.dumps(sorted(m for m in {heavy!r} if m in sys.modules)))")


def imported_after(action: str) -> list[str]:
    """The heavy modules a fresh interpreter holds after importing the CLI and running ``action``."""
    done = subprocess.run([sys.executable, "-c", PROBE.format(action=action, heavy=HEAVY)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_building_the_parser_and_formatting_help_import_no_heavy_library() -> None:
    assert imported_after("p.format_help()") == []
    # the sub-commands' help too, but for the lists of names that come from the libraries they describe
    assert imported_after("p.parse_known_args(['batch', 'x.yaml', '-m', 'baseline/first'])") == []


def test_lazy_choices_still_refuse_unknown_names_and_list_the_known_ones(capsys) -> None:  # noqa: ANN001
    parser = build_parser()
    for argv, option in ((["export-set", "p.yaml", "--to", "nowhere", "--out", "o"], "--to"),
                         (["export", "--format", "nope", "--out", "o"], "--format"),
                         (["import", "nope", "f.json"], "FORMAT")):
        try:
            parser.parse_args(argv)
        except SystemExit as exc:
            assert exc.code == 2
        else:
            raise AssertionError(f"{argv} was accepted")
        err = capsys.readouterr().err
        assert f"argument {option}: invalid choice:" in err, err
    assert parser.parse_args(["export-set", "p.yaml", "--to", "inspect", "--out", "o"]).to == "inspect"
    assert parser.parse_args(["export", "--format", "csv", "--out", "o"]).format == "csv"
    assert parser.parse_args(["import", "blink", "f.json"]).format == "blink"
    # each command's help lists them (asked for, so imported then)
    for command, names in (("export-set", ("inspect", "vlmevalkit")), ("export", ("jsonl", "imagefolder")),
                           ("import", ("mediconfusion", "vlmevalkit"))):
        try:
            parser.parse_args([command, "--help"])
        except SystemExit as exc:
            assert exc.code == 0
        shown = " ".join(capsys.readouterr().out.split())
        assert all(name in shown for name in names), shown


def imported_by_command(argv: list[str], modules: tuple[str, ...], tmp_path: Path) -> list[str]:
    """Which of ``modules`` a fresh ``probe-ui ARGV`` has imported when it ends (run in-process in a child, in an
    empty folder, with no local servers looked for)."""
    code = ("import json, sys, os, contextlib, io, probe_ui.cli\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    rc = probe_ui.cli.main({argv!r})\n"
            f"print(json.dumps([rc, sorted(m for m in {modules!r} if m in sys.modules)]))")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PROBE_UI_")}
    env.update(PROBE_UI_DISCOVER="0", HF_HUB_CACHE=str(tmp_path / "hub"))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=tmp_path,
                          env=env)
    assert done.returncode == 0, done.stderr
    rc, found = json.loads(done.stdout.strip().splitlines()[-1])
    assert rc == 0
    return list(found)


def test_the_listing_commands_import_only_what_they_list(tmp_path: Path) -> None:
    """Issue 48's budgets (perf/cli_startup.py): ``models`` checks each provider and catalogue entry without
    importing any SDK, the Hub client, the HTTP library or the scoring stack; ``perturbations`` describes every
    perturbation without NumPy (it computes with it only when it perturbs an image)."""
    stack = ("openai", "anthropic", "httpx", "huggingface_hub", "pandas", "sqlalchemy", "numpy", "PIL", "torch",
             "probe_ui.reading.answers")
    assert imported_by_command(["models"], stack, tmp_path) == []
    assert imported_by_command(["perturbations"], stack, tmp_path) == ["PIL"]  # its drawing types are declared


def test_a_batch_reaches_its_first_request_without_the_scoring_stack() -> None:
    """The batch runner imports neither pandas (the run's unit of evidence is recorded by the planning thread
    once the first cells are out) nor the reader (imported there too, before the first answer is back)."""
    done = subprocess.run([sys.executable, "-c", "import json, sys, probe_ui.runner, probe_ui.cli.batch; print("
                           "json.dumps(sorted(m for m in ('pandas', 'probe_ui.reading.answers', 'probe_ui.metrics', "
                           "'scipy', 'numpy') if m in sys.modules)))"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []
