"""The documentation holds together: every relative link in README.md and docs/ resolves (the file, and the #anchor
as GitHub makes it from a heading), every docs/ page is reachable from the README, and every "§" citation names a
section of docs/reference.md that exists (no "REFERENCE §", which named a file the repository does not have)."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped (letters, digits, spaces, - and _ kept),
    spaces to hyphens."""
    text = re.sub(r"[`*]", "", heading.strip().lower())
    text = "".join(ch for ch in text if ch.isalnum() or ch in " -_")
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    seen: dict[str, int] = {}
    out: set[str] = set()
    for heading in re.findall(r"^#{1,6} (.+)$", text, re.M):
        base = slug(heading)
        n = seen.get(base, 0)
        out.add(base if n == 0 else f"{base}-{n}")
        seen[base] = n + 1
    return out


def links(path: Path) -> list[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    text = re.sub(r"`[^`\n]*`", "", text)  # code spans are not links
    return [a or b for a, b in LINK.findall(text)]


def test_the_checker_finds_a_dangling_link(tmp_path: Path) -> None:
    assert slug("§3 Reading replies") == "3-reading-replies"
    assert slug("Local models (`hf/`)") == "local-models-hf"
    assert slug("The `{task} characterization`") == "the-task-characterization"


@pytest.mark.parametrize("path", PAGES, ids=rel)
def test_every_relative_link_resolves(path: Path) -> None:
    for target in links(path):
        if re.match(r"^[a-z]+:", target):  # http:, https:, mailto:
            continue
        file_part, _, anchor = target.partition("#")
        dest = (path.parent / unquote(file_part)).resolve() if file_part else path
        assert dest.exists(), f"{rel(path)}: link to {target}: no such file"
        if anchor:
            assert dest.suffix == ".md", f"{rel(path)}: link to {target}: an anchor into a file that is not Markdown"
            assert anchor in anchors(dest), f"{rel(path)}: link to {target}: no heading makes #{anchor}"


def test_every_docs_page_is_linked_from_the_readme_or_another_page() -> None:
    reachable: set[Path] = set()
    todo = [ROOT / "README.md"]
    while todo:
        page = todo.pop()
        if page in reachable:
            continue
        reachable.add(page)
        for target in links(page):
            file_part = target.partition("#")[0]
            if not file_part or re.match(r"^[a-z]+:", target):
                continue
            dest = (page.parent / unquote(file_part)).resolve()
            if dest.suffix == ".md" and dest.is_relative_to(ROOT / "docs") and dest.exists():
                todo.append(dest)
    orphans = [rel(p) for p in PAGES if p not in reachable]
    assert not orphans, f"docs pages no page links to: {orphans}"


def test_section_citations_name_sections_that_exist() -> None:
    sections = set(re.findall(r"^## §(\d+)", (ROOT / "docs" / "reference.md").read_text(encoding="utf-8"), re.M))
    assert sections, "docs/reference.md has no numbered sections"
    for path in [*PAGES, *sorted((ROOT / "probe_ui").rglob("*.py"))]:
        text = path.read_text(encoding="utf-8")
        assert "REFERENCE §" not in text, f"{rel(path)} cites 'REFERENCE §': cite docs/reference.md §N"
        for n in re.findall(r"docs/reference\.md §(\d+)", text):
            assert n in sections, f"{rel(path)} cites docs/reference.md §{n}, which has no such section"
