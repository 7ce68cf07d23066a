"""The docs print what the commands print (issue 48): every console example of README.md and docs/ is run in a fresh
folder by scripts/docs_examples.py and compared with its page; and the comparison itself is right ('...' elisions,
durations and dates as placeholders, a differing figure caught)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import docs_examples  # noqa: E402

PAGES = docs_examples.pages([])


def test_the_comparison_allows_elisions_and_placeholders_but_not_a_different_figure() -> None:
    printed = ["run 'r' (seed 0): 16 variants", "model  accuracy", "baseline/random  31.25", "took 2.4 s",
               "wrote /home/x/report.html (175,781 bytes)", "at 2026-11-28T18:04:06.999+00:00"]
    assert docs_examples.matches(["run 'r' (seed 0): 16 variants", "...", "took 0.9 s",
                                  "wrote .../report.html (... bytes)", "at 2026-01-01T00:00:00.000+00:00"], printed)
    assert not docs_examples.matches(["run 'r' (seed 0): 16 variants", "model  accuracy", "baseline/random  62.50",
                                      "..."], printed)
    assert not docs_examples.matches(["run 'r' (seed 0): 16 variants"], printed)  # lines left out need a '...'
    assert docs_examples.matches([], [])


def test_directives_set_up_skip_and_write_files(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("\n".join([
        "<!-- example: file greeting.txt -->", "```text", "hello", "```",
        "<!-- example: setup printf 'x\\n' > made.txt -->", "```console", "$ cat greeting.txt made.txt", "hello",
        "x", "$ false", "$ echo $?", "1", "```",
        "<!-- example: skip needs a key -->", "```console", "$ exit 3", "```",
        "```console", "$ echo changed", "unchanged", "```"]) + "\n", encoding="utf-8")
    outcome = docs_examples.check_page(page)
    assert outcome.ran == 4 and outcome.skipped == ["line 15: needs a key"]
    assert [(d[0].line, d[1]) for d in outcome.differences] == [("echo changed", ["changed"])]
    docs_examples.update(page, outcome)
    assert "$ echo changed\nchanged\n```" in page.read_text(encoding="utf-8")


def test_update_keeps_the_elisions_that_still_hold() -> None:
    """--update (and scripts/regenerate_docs.py) after a provider or preset is added: a listing whose first lines the
    page shows keeps showing only its first lines, and a line whose '...' still matches is kept as written."""
    page = ["name  usable", "baseline/<model>  yes", "gemini/<model>  no", "..."]
    printed = ["name  usable", "baseline/<model>  yes", "echo/<model>  yes", "gemini/<model>  no", "groq/<model>  no"]
    assert docs_examples.merged(page, printed) == ["name  usable", "baseline/<model>  yes", "echo/<model>  yes", "..."]
    assert docs_examples.merged(["4 variants", "wrote .../r.html (... bytes)", "took 2.0 s"],
                                ["6 variants", "wrote /x/r.html (9 bytes)", "took 0.1 s"]) == \
        ["6 variants", "wrote .../r.html (... bytes)", "took 2.0 s"]
    assert docs_examples.merged(["first", "...", "last"], ["one", "two", "end"]) == ["one", "...", "end"]
    assert docs_examples.merged(["a", "b", "..."], ["a"]) == ["a"]  # shorter than what the page shows: all of it


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(ROOT).as_posix() for p in PAGES])
def test_every_example_prints_what_its_page_shows(page: Path) -> None:
    outcome = docs_examples.check_page(page)
    assert not outcome.differences, "\n".join(docs_examples.describe(outcome, show=True)) + (
        "\n(python scripts/docs_examples.py --update PAGE writes what the commands print)")
    assert outcome.ran or outcome.skipped
