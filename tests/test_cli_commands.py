"""The command line is assembled from a registry of commands (probe_ui/cli/common.py): each command is one module
of probe_ui/cli that registers itself, so a new command (built in, or a plugin file named by PROBE_UI_PLUGINS) is
one file, listed in ``probe-ui --help`` and run like the others."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Iterator

import pytest
from helpers import plugins_loaded

from probe_ui import registry
from probe_ui.cli import build_parser, main
from probe_ui.cli.common import COMMANDS, command

#: every command probe-ui has shipped with so far: none may go missing when the modules move
BUILT_IN = {"batch", "compare", "export", "export-set", "import", "metrics", "models", "perturbations", "presets",
            "preview", "ratings", "report", "score", "serve", "stress", "users"}

HELLO = '''
    """A command: greet someone (one file, nothing else edited)."""
    from probe_ui.cli.common import UsageError, command


    @command("hello", "say hello to someone")
    def hello_arguments(p):
        p.add_argument("--name", default="world")
        p.set_defaults(func=run)


    def run(args):
        if not args.name.strip():
            raise UsageError("--name is empty")
        print(f"hello, {args.name}")
        return 0
'''


@pytest.fixture
def hello_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "hello.py"
    path.write_text(textwrap.dedent(HELLO).lstrip(), encoding="utf-8")
    with plugins_loaded(monkeypatch, path):
        yield path


def test_every_built_in_command_is_found_in_its_module() -> None:
    assert set(COMMANDS.names()) >= BUILT_IN
    for name in BUILT_IN:  # each one's module is under probe_ui.cli and its parser builds
        assert COMMANDS.get(name).arguments.__module__.startswith("probe_ui.cli.")
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    assert set(sub.choices) >= BUILT_IN


def test_a_command_in_one_plugin_file_is_listed_and_runs(hello_plugin: Path, capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "say hello to someone" in capsys.readouterr().out
    assert main(["hello", "--name", "Ada"]) == 0
    assert capsys.readouterr().out == "hello, Ada\n"
    with pytest.raises(SystemExit) as stop:  # its usage errors are the CLI's own: one line, exit 2
        main(["hello", "--name", " "])
    assert stop.value.code == 2
    assert capsys.readouterr().err.startswith("probe-ui hello: error: --name is empty")


def test_the_plugins_command_leaves_with_the_plugin(hello_plugin: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert "hello" in COMMANDS
    monkeypatch.delenv(registry.PLUGINS_ENV)
    registry.forget_plugins()
    assert "hello" not in COMMANDS
    with pytest.raises(SystemExit) as stop:
        build_parser().parse_args(["hello"])
    assert stop.value.code == 2 and "invalid choice: 'hello'" in capsys.readouterr().err


def test_a_second_command_under_a_taken_name_is_refused() -> None:
    def other(p: object) -> None:
        """Not the batch command."""

    with pytest.raises(registry.RegistryError, match="command 'batch' is registered twice"):
        command("batch", "another batch")(other)
    assert COMMANDS.get("batch").arguments.__module__ == "probe_ui.cli.batch"


def test_the_kept_parser_follows_the_environment_and_the_commands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  hello_plugin: Path) -> None:
    """main() keeps its parser between calls, yet a changed $PROBE_UI_DB or $PROBE_UI_USERS is the next call's
    default, and a command added since (a plugin) is parsed."""
    from probe_ui.cli.entry import kept_parser

    monkeypatch.setenv("PROBE_UI_DB", str(tmp_path / "a.db"))
    first = kept_parser()
    assert first.parse_args(["score"]).db == str(tmp_path / "a.db")
    assert kept_parser() is first  # nothing changed: not built again
    monkeypatch.setenv("PROBE_UI_DB", str(tmp_path / "b.db"))
    assert kept_parser().parse_args(["score"]).db == str(tmp_path / "b.db")
    monkeypatch.setenv("PROBE_UI_USERS", str(tmp_path / "people"))
    assert kept_parser().parse_args(["users", "list"]).file == str(tmp_path / "people")
    assert kept_parser().parse_args(["hello", "--name", "x"]).name == "x"  # the plugin's command
