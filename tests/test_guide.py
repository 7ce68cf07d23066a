"""The user guide has a page for every tab of the app and every command of the CLI, and its command lines use real
options (issue 26): a tab or command added without a page, an option added without a mention, or a page that shows
an option the parser does not have fails here.

Pages: ``docs/guide/tabs/<tab id>.md`` for each tab registered in :mod:`probe_ui.app.tabs`, and
``docs/guide/commands/<command>.md`` for each subcommand of the parser ``probe_ui.cli.full_parser`` builds; the
index ``docs/guide/README.md`` links every guide page (tests/test_docs_links.py checks that every link resolves).
"""

from __future__ import annotations

import argparse
import re
import shlex
from pathlib import Path

import pytest

from probe_ui.app.tabs import app_tabs
from probe_ui.cli import full_parser

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "guide"
PARSER = full_parser()
#: every page whose command lines are checked: the README, the whole of docs/, and the presets' format
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), ROOT / "presets" / "README.md"]


def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The commands (or a command's actions, e.g. ``ratings import``) of ``parser``, by name."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def options(parser: argparse.ArgumentParser) -> set[str]:
    """Every option string of ``parser`` (``--run``, ``-m``, ``--no-baseline``), help left out."""
    return {s for a in parser._actions for s in a.option_strings if s not in ("-h", "--help")}


def takes_value(parser: argparse.ArgumentParser) -> set[str]:
    """The options of ``parser`` followed by a value (``--run NAME``; not ``--json``)."""
    return {s for a in parser._actions for s in a.option_strings if a.nargs != 0}


def missing_pages(parser: argparse.ArgumentParser, tab_ids: list[str], guide: Path = GUIDE) -> list[str]:
    """The guide pages that should exist and do not."""
    wanted = [f"tabs/{t}.md" for t in tab_ids] + [f"commands/{c}.md" for c in subparsers(parser)]
    return [w for w in wanted if not (guide / w).is_file()]


COMMAND_LINE = re.compile(r"probe-ui(?:\s+[^\s`|#]+)*")


def command_lines(text: str) -> list[str]:
    """Every ``probe-ui ...`` command written in a page: the lines of its code blocks (after a ``$ `` prompt, up
    to a ``#`` comment) and its inline code spans."""
    found: list[str] = []
    for block in re.findall(r"^```(?:bash|console|sh)?\n(.*?)^```", text, re.S | re.M):
        for line in block.splitlines():
            line = line.removeprefix("$ ").split(" #")[0].strip()
            if line.startswith("probe-ui"):
                found.append(line)
            elif " probe-ui " in f" {line}" and line.split()[0] in ("srun", "torchrun", "(", "env"):
                found.append(line[line.index("probe-ui"):])
    for span in re.findall(r"`([^`\n]+)`", re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)):
        if span.startswith("probe-ui ") or span == "probe-ui":
            found.append(span)
    return found


def unknown_options(line: str) -> list[str]:
    """The options of one ``probe-ui ...`` command line that its command's parser does not have."""
    try:
        words = shlex.split(line)
    except ValueError:  # an unclosed quote in a shortened example: check the words as they are
        words = line.split()
    parser, known = PARSER, options(PARSER) | {"-h", "--help"}
    bad: list[str] = []
    value_next = False
    for word in words[1:]:
        if value_next:  # the value of the option before (``--auth-file users`` names no command)
            value_next = False
        elif word.startswith("-") and len(word) > 1 and not re.match(r"^-\d", word):
            name = word.split("=")[0]
            if name not in known and name.rstrip(".,;:)") not in known:
                bad.append(name)
            value_next = "=" not in word and name in takes_value(parser)
        elif word in subparsers(parser):
            parser = subparsers(parser)[word]
            known = options(parser) | {"-h", "--help"}
    return bad


def test_the_checks_catch_a_missing_page_and_a_made_up_option(tmp_path: Path) -> None:
    """A command added to the parser without its page, and an option the parser lacks, are found."""
    parser = full_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    sub.add_parser("brand-new-command")
    assert missing_pages(parser, ["probe"]) == ["commands/brand-new-command.md"]
    assert missing_pages(parser, ["a-new-tab"])[0] == "tabs/a-new-tab.md"
    assert unknown_options("probe-ui batch p.yaml --model a --no-such-flag") == ["--no-such-flag"]
    assert unknown_options("probe-ui ratings import x.csv --rater 'Dr Ames'") == []
    assert unknown_options("probe-ui ratings export --rater X") == ["--rater"]  # import's option, not export's
    assert unknown_options("probe-ui --auth-file users --port 1") == []  # 'users' is a value here, not the command
    assert command_lines("run `probe-ui score --run X` now\n```console\n$ probe-ui models --json  # all\nout\n```\n") \
        == ["probe-ui models --json", "probe-ui score --run X"]


def test_every_tab_and_command_has_its_page() -> None:
    assert not missing_pages(PARSER, [t.id for t in app_tabs()]), (
        "a tab or command without its page in docs/guide/ (write it, and link it from docs/guide/README.md)")


@pytest.mark.parametrize("tab", app_tabs(), ids=lambda t: t.id)
def test_a_tab_page_is_titled_by_the_label_the_page_shows_and_has_the_sections_a_reader_needs(tab) -> None:
    page = (GUIDE / "tabs" / f"{tab.id}.md").read_text(encoding="utf-8")
    assert page.startswith(f"# The {tab.label} tab\n"), f"docs/guide/tabs/{tab.id}.md: title it '# The {tab.label} tab'"
    for heading in ("## Try it", "## What is on the page", "## Errors you may meet"):
        assert f"\n{heading}\n" in page, f"docs/guide/tabs/{tab.id}.md has no '{heading}' section"


@pytest.mark.parametrize("name", sorted(subparsers(PARSER)))
def test_a_command_page_names_every_option_and_action_and_has_the_sections_a_reader_needs(name: str) -> None:
    page = (GUIDE / "commands" / f"{name}.md").read_text(encoding="utf-8")
    rel = f"docs/guide/commands/{name}.md"
    assert page.startswith(f"# `probe-ui {name}`"), f"{rel}: title it '# `probe-ui {name}`: what it is for'"
    for heading in ("## Example", "## Options", "## Errors you may meet"):
        assert f"\n{heading}\n" in page, f"{rel} has no '{heading}' section"
    example = page[page.index("## Example"):]
    # a command and its real output (what it reads on standard input may be piped in: "$ printf ... | probe-ui")
    assert re.search(r"```console\n\$ (?:[^\n|]*\| )?probe-ui", example), \
        f"{rel}: the example shows a command and its real output"
    parser = subparsers(PARSER)[name]
    actions = subparsers(parser)
    for action, sub in (actions or {"": parser}).items():
        if action:
            assert f"probe-ui {name} {action}" in page, f"{rel} does not show 'probe-ui {name} {action}'"
        for option in sorted(options(sub)):
            if option.startswith("--"):
                command = " ".join(["probe-ui", name, action]).strip()
                assert re.search(rf"`[^`\n]*{re.escape(option)}\b", page), (
                    f"{rel} does not name the option {option} of '{command}'")


@pytest.mark.parametrize("path", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_command_line_in_the_docs_uses_real_options(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for line in command_lines(text):
        assert not unknown_options(line), (
            f"{path.relative_to(ROOT)}: '{line}' uses {unknown_options(line)}, which 'probe-ui' does not have there")


def test_the_guide_index_links_every_guide_page() -> None:
    index = (GUIDE / "README.md").read_text(encoding="utf-8")
    linked = {(GUIDE / target.partition("#")[0]).resolve() for target in re.findall(r"\]\(([^)\s]+)\)", index)}
    pages = [p for p in GUIDE.rglob("*.md") if p.name != "README.md"]
    missing = [p.relative_to(GUIDE).as_posix() for p in pages if p.resolve() not in linked]
    assert not missing, f"docs/guide/README.md does not link {missing}"
