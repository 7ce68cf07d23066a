"""A benchmark is one folder (probe_ui/benchmarks/<name>/): what each folder names exists and is registered from
it, and a sixth benchmark added as one file (a plugin) is read by its own legacy parser."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Iterator

import pytest

from probe_ui import registry
from probe_ui.benchmarks import BENCHMARKS, benchmarks, legacy_modes
from probe_ui.importers import IMPORTERS, formats
from probe_ui.metrics.registry import FAMILIES
from probe_ui.presets import PRESETS_DIR, load_preset
from probe_ui.presets.suites import SUITES
from probe_ui.prompts import TEMPLATES
from probe_ui.reading.answers import extract_legacy
from probe_ui.scoring import legacy_mode

#: the seed papers' benchmarks in detection order, and those with a legacy parser and an importer: checked as
#: included in the registry, in this order, so that a benchmark folder added from docs/dev/extending.md's recipe
#: (its own order, after these) does not break the test
SEEDS = ["mediconfusion", "probmed", "medvh", "blink", "medblink", "illusion"]
SEED_PARSERS = ["mediconfusion", "probmed", "medvh", "blink"]


def in_order(some: list[str], every: list[str]) -> bool:
    """Whether every name of ``some`` is in ``every``, in the same order."""
    return [n for n in every if n in some] == some


def test_the_seed_benchmarks_are_folders_and_everything_they_name_exists() -> None:
    assert in_order(SEEDS, [b.name for b in benchmarks()])
    assert in_order(SEED_PARSERS, legacy_modes())
    assert in_order(SEED_PARSERS, list(formats()))
    for b in benchmarks():
        folder = f"probe_ui.benchmarks.{b.name}"
        assert type(b).__module__ == folder
        if b.importer is not None:
            assert IMPORTERS.get(b.importer.NAME) is b.importer and b.importer.__name__ == f"{folder}.importer"
        for preset in b.presets:
            assert load_preset(PRESETS_DIR / preset).items
        assert all(t in TEMPLATES for t in b.templates), b.name
        assert all(s in SUITES for s in b.suites), b.name
    # its suites are defined in its folder; a template is a kind's plain wording (prompts.py) or a folder's
    for b in benchmarks():
        for name in b.suites:
            assert SUITES.get(name).conditions.__module__ == f"probe_ui.benchmarks.{b.name}.suite", name
    for name in TEMPLATES.names():
        module = TEMPLATES.get(name).render.__module__
        if name in ("yesno", "label", "free", "choice", "point"):
            assert module == "probe_ui.prompts"
        else:
            assert module.startswith("probe_ui.benchmarks.") and module.endswith(".prompts"), name
    # each metric family of a benchmark is defined in its folder
    for name in ("mediconfusion", "probmed", "medvh", "medblink", "illusion"):
        fam = FAMILIES.get(name)
        assert {fn.__module__ for fn in fam.definitions.values()} == {f"probe_ui.benchmarks.{name}.metric"}


TOY = '''
    """A sixth benchmark in one file: its own legacy parser (the reply's last word), detection rule, prompt template
    and suite."""
    from probe_ui.reading.answers import Answer
    from probe_ui.benchmarks.base import Benchmark, register_benchmark
    from probe_ui.prompts import Template, register_template
    from probe_ui.presets.suites import Suite, condition, register_suite


    def toy_prompt(v):
        return None, f"{v.question} Reply with the letter of one option, last."


    def toy_conditions(v, ctx):
        return [condition("shift1", ("cyclic_shift", {"shift": 1}))] if v.kind == "choice" else []


    register_template(Template("toybench-mc", ("choice",), toy_prompt, 16, "Toy: the letter, last"))
    register_suite(Suite("toybench-shift", "Toy: the options shifted by one", ("groups",), toy_conditions))


    @register_benchmark
    class ToyBench(Benchmark):
        name = "toybench"
        order = 70
        legacy_mode = "toybench"
        names = ("toybench",)
        source_names = ("toybench",)
        templates = ("toybench-mc",)
        suites = ("toybench-shift",)

        def parse_legacy(self, text, kind, labels, options=(), gt=None):
            last = (text or "").split()[-1:] or [""]
            choice = last[0] if last[0] in labels else None
            return Answer(choice, "legacy-toybench", invalid=choice is None, refusal=False)
'''


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    plugin = tmp_path / "toybench.py"
    plugin.write_text(textwrap.dedent(TOY).lstrip(), encoding="utf-8")
    monkeypatch.setenv(registry.PLUGINS_ENV, str(plugin))
    registry.forget_plugins()
    try:
        yield
    finally:
        monkeypatch.delenv(registry.PLUGINS_ENV)
        registry.forget_plugins()


def test_a_sixth_benchmark_is_one_file_and_its_parser_reads_its_replies(toy: None) -> None:
    assert "toybench" in BENCHMARKS and legacy_modes()[-1] == "toybench"
    row = {"kind": "choice", "source": "presets/toybench_pairs.yaml", "attributes": {}}
    assert legacy_mode(row) == "toybench"
    assert legacy_mode(dict(row, source="presets/mediconfusion_pairs.yaml")) == "mediconfusion"
    answer = extract_legacy("toybench", "I would say B", "choice", ("A", "B"))
    assert (answer.choice, answer.method) == ("B", "legacy-toybench")
    # its prompt template and suite come from the same file; a reply to its template is its parser's
    assert TEMPLATES.names()[-1] == "toybench-mc" and SUITES.names()[-1] == "toybench-shift"
    assert legacy_mode({"kind": "choice", "source": "x.yaml", "attributes": {}, "prompt": "toybench-mc"}) == "toybench"


def test_the_sixth_benchmark_is_gone_with_its_plugin() -> None:
    registry.forget_plugins()
    assert "toybench" not in BENCHMARKS and "toybench" not in legacy_modes()
    assert "toybench-mc" not in TEMPLATES and "toybench-shift" not in SUITES
    assert legacy_mode({"kind": "choice", "source": "toybench.yaml", "attributes": {}}) is None
