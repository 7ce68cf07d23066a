"""Every citation of the paper definitions resolves: code, tests and the README cite ``docs/reference.md §N``, and
that page has a section ``§N``; the old bare "REFERENCE §N" (a document that was never in the repository) is gone."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CITED = re.compile(r"docs/reference\.md §(\d+)(?: and §(\d+))?")
TEXTS = [ROOT / "README.md", *sorted((ROOT / "probe_ui").rglob("*.py")), *sorted((ROOT / "tests").glob("*.py")),
         *sorted((ROOT / "docs").rglob("*.md"))]


def sections() -> set[str]:
    return set(re.findall(r"^## §(\d+)\b", (ROOT / "docs" / "reference.md").read_text(encoding="utf-8"), re.M))


def test_every_reference_citation_names_a_section_that_exists() -> None:
    have = sections()
    assert have >= {"1", "2", "3", "4"}
    cited, missing = 0, []
    for path in TEXTS:
        for m in CITED.finditer(path.read_text(encoding="utf-8")):
            for n in filter(None, m.groups()):
                cited += 1
                if n not in have:
                    missing.append(f"{path.relative_to(ROOT)}: §{n}")
    assert cited >= 15 and not missing, missing


def test_no_citation_of_a_document_outside_the_repository() -> None:
    stale = [f"{p.relative_to(ROOT)}" for p in TEXTS if p.name != Path(__file__).name
             and re.search(r"\bREFERENCE(?: §|:)", p.read_text(encoding="utf-8"))]
    assert not stale, stale
