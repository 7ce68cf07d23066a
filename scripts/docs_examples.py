"""Run every command-and-output example of README.md and docs/ and say where the docs differ from what the
commands print (issue 48: docs whose figures are what the commands print).

An example is a fenced ``console`` block: lines starting with ``$ `` are commands, the lines after each, up to the
next command, are what it prints. Every page runs in a fresh, empty folder (its own HOME, no ``PROBE_UI_*``
variables, no API keys), its blocks in order, so a later block sees what an earlier one made. In the expected
output:

- a line ``...`` stands for any number of lines, and ``...`` inside a line for any text (an absolute path that
  differs between machines, a size in bytes);
- ``ls`` is compared by the names it lists (it prints columns only at a terminal);
- durations (``3.2 s``, ``41 ms``) and dates are compared as placeholders.

Directives, as HTML comments (invisible on the rendered page) just before a block:

- ``<!-- example: setup CMD -->``: run CMD (a shell line, ``probe-ui`` as on the page) before the block; what it
  prints is not compared, but it must succeed. Several may precede a block. ``$DOCS_SETUP`` is
  scripts/docs_setups.py (states no command makes without a hosted model), ``$ASSETS`` the bundled images.
- ``<!-- example: file NAME -->``: the next fenced block (a preset, a CSV) is written to NAME in the folder before
  the next console block runs.
- ``<!-- example: skip REASON -->``: the block is not run (it needs a hosted model, a terminal, a second machine);
  the reason is listed.

A command ending in ``# not run here`` is never run.

    python scripts/docs_examples.py                 # check every page; exit 1 when one differs
    python scripts/docs_examples.py docs/guide/commands/score.md --show   # one page, with the differences
    python scripts/docs_examples.py --update docs/guide/commands/score.md # write what the commands print

``--update`` replaces a differing command's expected output with what it printed, keeping the page's ``...``
elisions where they still hold (the first lines of a listing stay its first lines; see :func:`merged`); where they
cannot be kept the whole output is written: put them back by hand where it is long. tests/test_docs_examples.py
runs the check; scripts/regenerate_docs.py runs ``--update`` with every other generator of the docs.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^```console\s*$")
DIRECTIVE = re.compile(r"^<!--\s*example:\s*(setup|skip|file)\b\s*(.*?)\s*-->\s*$")
NOT_RUN = "# not run here"
#: seconds one command may take before the page fails
TIMEOUT_S = 120
#: a progress bar (tqdm's, on standard error): drawn and redrawn in place at a terminal, never part of the docs
_PROGRESS = re.compile(r"(?:\d+%\||\d+\w+ \[\d\d:\d\d)")
_DURATION = re.compile(r"\b\d+(?:\.\d+)?\s?(?:ms|s|min|h)\b")
_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b")


@dataclass
class Command:
    """One ``$`` line of a block and the output the page shows for it (its lines in the file, for --update)."""

    line: str
    expected: list[str]
    first: int  # index in the file of the first expected line
    end: int  # index after the last one


@dataclass
class Block:
    start: int
    setups: list[str] = field(default_factory=list)
    files: list[tuple[str, str]] = field(default_factory=list)  # (name, content) written before the setups
    skip: str | None = None
    commands: list[Command] = field(default_factory=list)


@dataclass
class Outcome:
    page: Path
    ran: int = 0
    skipped: list[str] = field(default_factory=list)
    differences: list[tuple[Command, list[str], str]] = field(default_factory=list)  # command, got, why


def pages(paths: list[str]) -> list[Path]:
    """The pages to check: those given, else README.md and every page under docs/ with a console block."""
    if paths:
        return [Path(p).resolve() for p in paths]
    found = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    return [p for p in found if "```console" in p.read_text(encoding="utf-8")]


def blocks(lines: list[str]) -> list[Block]:
    """The console blocks of a page, each with the directives just before it."""
    out: list[Block] = []
    pending_setups: list[str] = []
    pending_files: list[tuple[str, str]] = []
    pending_skip: str | None = None
    i = 0
    while i < len(lines):
        d = DIRECTIVE.match(lines[i])
        if d and d.group(1) == "file":  # the next fenced block (a preset, a CSV) is that file's content
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            k = j + 1
            while k < len(lines) and not lines[k].startswith("```"):
                k += 1
            pending_files.append((d.group(2), "\n".join(lines[j + 1:k]) + "\n"))
            i = k + 1
            continue
        if d:
            if d.group(1) == "setup":
                pending_setups.append(d.group(2))
            else:
                pending_skip = d.group(2) or "marked skip"
            i += 1
            continue
        if not FENCE.match(lines[i]):
            i += 1
            continue
        block = Block(i, pending_setups, pending_files, pending_skip)
        pending_setups, pending_files, pending_skip = [], [], None
        i += 1
        current: Command | None = None
        while i < len(lines) and not lines[i].startswith("```"):
            if lines[i].startswith("$ "):
                if current is not None:
                    current.end = i
                current = Command(lines[i][2:], [], i + 1, i + 1)
                block.commands.append(current)
            elif current is not None:
                current.expected.append(lines[i])
            i += 1
        if current is not None:
            current.end = i
        out.append(block)
        i += 1
    return out


def _normal(text: str) -> str:
    return _DATE.sub("<date>", _DURATION.sub("<duration>", text.rstrip()))


def _relative(text: str, folder: str) -> str:
    return text.replace(os.path.realpath(folder), ".").replace(folder, ".").rstrip()


def matches(expected: list[str], got: list[str]) -> bool:
    """Whether ``got`` is what ``expected`` shows (``...`` lines, ``/.../`` paths; durations, dates normalised)."""
    parts = []
    for line in expected:
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
            continue
        pieces = [re.escape(p) for p in _normal(line).split("...")]
        parts.append(r"[^\n]*".join(pieces).rstrip() + r"[ \t]*\n")
    pattern = "".join(parts)
    return re.fullmatch(pattern, "".join(_normal(g) + "\n" for g in got)) is not None


def environment(folder: str) -> dict[str, str]:
    """A new user's environment: HOME in the page's folder, no probe-ui settings, no keys, probe-ui on PATH."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PROBE_UI_") and not k.endswith(("_API_KEY", "_TOKEN")) and k not in ("CI",)}
    env.update({"HOME": folder, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
                "PROBE_UI_DISCOVER": "0", "NO_COLOR": "1", "COLUMNS": "120", "TZ": "UTC",
                "DOCS_SETUP": f"{sys.executable} {ROOT / 'scripts' / 'docs_setups.py'}",
                "ASSETS": str(ROOT / "assets")})
    return env


def shell(line: str, folder: str, last: int = 0) -> tuple[int, list[str]]:
    """Run one page line in ``folder``: exit status and what it printed (stdout and stderr, in order). ``last``: the
    exit status of the line before (what ``echo $?`` on the page shows)."""
    try:
        proc = subprocess.run(["bash", "-c", f"(exit {last}); {line}"], cwd=folder, env=environment(folder),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=TIMEOUT_S,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return 124, [f"(no end after {TIMEOUT_S} s: a command that serves or waits for input is marked skip)"]
    # a terminal keeps what follows a \r; a line that was only a progress bar redrawn is not part of the output
    text = proc.stdout.decode("utf-8", "replace")  # bytes: text mode would turn each \r into a line break
    shown = [line.rsplit("\r", 1)[-1] for line in text.split("\n")
             if "\r" not in line or line.rsplit("\r", 1)[-1].strip()]
    if shown and not shown[-1]:
        shown.pop()
    return proc.returncode, [_relative(x, folder) for x in shown if not _PROGRESS.search(x)]


def check_page(page: Path) -> Outcome:
    """Run a page's blocks in a fresh folder and compare."""
    lines = page.read_text(encoding="utf-8").splitlines()
    outcome = Outcome(page)
    with tempfile.TemporaryDirectory(prefix="probe-ui-docs-") as folder:
        for block in blocks(lines):
            if block.skip:
                outcome.skipped.append(f"line {block.start + 1}: {block.skip}")
                continue
            for name, content in block.files:
                Path(folder, name).write_text(content, encoding="utf-8")
            last = 0
            for setup in block.setups:
                code, got = shell(setup, folder)
                if code != 0:
                    fake = Command(f"(setup) {setup}", [], block.start, block.start)
                    outcome.differences.append((fake, got, f"the setup exited {code}"))
            for cmd in block.commands:
                if cmd.line.rstrip().endswith(NOT_RUN):
                    outcome.skipped.append(f"line {cmd.first}: {cmd.line.strip()}")
                    continue
                last, got = shell(cmd.line, folder, last)
                outcome.ran += 1
                if cmd.line.split()[:1] == ["ls"]:  # ls prints columns only at a terminal: compare the names
                    got = [" ".join(sorted(" ".join(got).split()))]
                    cmd = Command(cmd.line, [" ".join(sorted(" ".join(cmd.expected).split()))], cmd.first, cmd.end)
                if not matches(cmd.expected, got):
                    outcome.differences.append((cmd, got, "the output differs"))
    return outcome


def _line_matches(expected: str, got: str) -> bool:
    return matches([expected], [got])


def _keep(expected: list[str], got: list[str]) -> list[str]:
    """``got``, line for line, except where the page's line (with its ``...`` and placeholders) still matches."""
    return [e if _line_matches(e, g) else g for e, g in zip(expected, got)]


def merged(expected: list[str], got: list[str]) -> list[str]:
    """What ``--update`` writes for one command: what it printed, keeping the page's elisions where they still hold.

    The page's lines before its first ``...`` line are replaced by as many printed lines from the top, those after
    its last ``...`` line by as many from the bottom, and the ``...`` lines stay (a listing whose first lines are
    shown keeps showing only its first lines when an entry is added); a line whose ``...`` or duration still matches
    is kept as written. Where that does not give a match (lines between two ``...`` changed, the output got
    shorter than what the page shows), the whole output is written, as before.
    """
    gaps = [i for i, line in enumerate(expected) if line.strip() == "..."]
    if not gaps:
        out = _keep(expected, got) if len(expected) == len(got) else list(got)
        return out if matches(out, got) else list(got)
    head, tail = expected[:gaps[0]], expected[gaps[-1] + 1:]
    if len(head) + len(tail) <= len(got):
        middle = expected[gaps[0]:gaps[-1] + 1]
        out = _keep(head, got[:len(head)]) + middle + _keep(tail, got[len(got) - len(tail):])
        if matches(out, got):
            return out
    return list(got)


def update(page: Path, outcome: Outcome) -> None:
    """Write each differing command's output into the page, in place (its elisions kept where they still hold)."""
    lines = page.read_text(encoding="utf-8").splitlines()
    for cmd, got, _why in sorted(outcome.differences, key=lambda d: -d[0].first):
        if cmd.line.startswith("(setup)"):
            continue
        lines[cmd.first:cmd.end] = merged(cmd.expected, got)
    page.write_text("\n".join(lines) + "\n", encoding="utf-8")


def describe(outcome: Outcome, show: bool) -> list[str]:
    rel = outcome.page.relative_to(ROOT) if outcome.page.is_relative_to(ROOT) else outcome.page
    head = f"{rel}: {outcome.ran} commands run, {len(outcome.differences)} differ, {len(outcome.skipped)} skipped"
    out = [head]
    for cmd, got, why in outcome.differences:
        out.append(f"  line {cmd.first}: $ {cmd.line}: {why}")
        if show:
            out += ["    " + d for d in difflib.unified_diff(cmd.expected, got, "page", "printed", lineterm="", n=1)]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pages", nargs="*", help="pages to check (default: README.md and every docs page with examples)")
    ap.add_argument("--show", action="store_true", help="print each difference")
    ap.add_argument("--update", action="store_true", help="write what the commands print into the pages")
    args = ap.parse_args(argv)
    failed = 0
    for page in pages(args.pages):
        outcome = check_page(page)
        print("\n".join(describe(outcome, args.show)), flush=True)
        if outcome.differences:
            failed += 1
            if args.update:
                update(page, outcome)
    print(f"{failed} page(s) differ" if failed else "every example prints what its page shows")
    return 1 if failed and not args.update else 0


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["blocks", "check_page", "matches", "merged", "pages"]
