"""``--help`` reads in the order a user needs it (issue 48): the everyday options first, the advanced ones (the
store, trust, rate and sending controls, sharding) under their own heading, then an example line that runs as it
is and the guide page; every option says what it does."""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path

import pytest

from probe_ui.cli import help_layout
from probe_ui.cli.entry import full_parser

ROOT = Path(__file__).resolve().parent.parent


def commands() -> dict[str, argparse.ArgumentParser]:
    parser = full_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def test_every_command_has_an_example_that_parses_and_a_guide_page() -> None:
    parser = full_parser()
    for name, sp in commands().items():
        assert name in help_layout.EXAMPLES, f"{name}: no example line"
        words = shlex.split(help_layout.EXAMPLES[name])
        assert words[0] == "probe-ui" and words[1] == name
        args = parser.parse_args(words[1:])  # parses as written (usage errors exit)
        assert args.command == name
        assert (ROOT / help_layout.GUIDE.format(name=name)).is_file(), name
        text = sp.format_help()
        assert f"example:\n  {help_layout.EXAMPLES[name]}" in text and help_layout.GUIDE.format(name=name) in text


def test_every_option_says_what_it_does() -> None:
    for name, sp in commands().items():
        silent = [a.option_strings or a.dest for a in sp._actions
                  if a.help is None and not isinstance(a, argparse._SubParsersAction)]
        assert not silent, f"{name}: {silent}"


@pytest.mark.parametrize("name,first,advanced", [("batch", "--model SPEC", "--db DB"),
                                                 ("score", "--run RUN", "--db DB"),
                                                 ("compare", "--model", "--boot N")])
def test_the_everyday_options_come_before_the_advanced_ones(name: str, first: str, advanced: str) -> None:
    text = commands()[name].format_help()
    heading = text.index("advanced options:")
    assert text.index(first) < heading < text.index(f"  {advanced}")


def test_the_top_level_help_has_examples() -> None:
    text = full_parser().format_help()
    assert "examples:\n  probe-ui batch mediconfusion_pairs -m baseline/random" in text
    assert "probe-ui COMMAND --help" in text
