"""The README stays true: CI runs its set-up commands, its first five minutes parse, its example error is the real
one; the user guide's pages list what the code ships (tests/test_docs_links.py checks every link)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from probe_ui.presets import bundled_presets
from probe_ui.prompts import TEMPLATES
from probe_ui.providers import PROVIDERS

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def page(relative: str) -> str:
    return (ROOT / relative).read_text(encoding="utf-8")


def setup_commands() -> list[str]:
    block = re.search(r"## Set up.*?```bash\n(.*?)```", README, re.S)
    assert block, "README has no Set up block"
    return [line.strip() for line in block.group(1).splitlines() if line.strip()]


def test_readme_has_two_setup_commands_and_ci_runs_them_verbatim() -> None:
    install, test = setup_commands()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    ci_lines = [line.strip() for line in ci.splitlines() if not line.strip().startswith("#")]
    assert install.split(" && ")[-1] == "probe-ui", "the first command installs and serves the app"
    assert "torch" not in install and "local" not in install, "the first command installs without torch"
    assert any(step.startswith("pip install") and step.endswith(" -e .") for step in install.split(" && ")), \
        "the first command installs this checkout (the base package, no extra)"
    # CI runs the serving command in the background, in a subshell: ( <command> ) >log 2>&1 &
    assert any(f"( {install} )" in line and line.endswith("&") for line in ci_lines), \
        f".ci/run does not run the README's first command verbatim: {install!r}"
    assert test in ci_lines, f".ci/run does not run the README's test command verbatim: {test!r}"
    assert "CI=true" in ci and "pytest collected no tests" in ci
    # the README's path (no torch) is tested on the fast subset before torch, then only the rest runs, in parallel,
    # and a ledger proves that the two steps together ran every collected test exactly once
    fast = ci_lines.index(test)
    assert ci_lines[fast - 1].startswith(
        'export PYTEST_ADDOPTS=\'-m "not slow and not browser" -n auto --dist loadgroup\' PROBE_UI_TEST_LEDGER=')
    torch = next(i for i, line in enumerate(ci_lines) if line.startswith("pip install -q torch=="))
    rest = next(i for i, line in enumerate(ci_lines)
                if line.endswith('python -m pytest -m "slow or browser" -n auto --dist loadgroup --durations=25'))
    assert fast < torch < rest
    assert 'python tests/ledger.py "$ledger/rest" "$ledger/fast" "$ledger/rest" || rc=1' in ci_lines[rest:]
    # ruff (the package, the tests, perf/ and scripts/) and mypy run beside the torch install and the slow step (mypy
    # does not follow torch: pyproject.toml), and either failing fails the run
    static = ci_lines.index("ruff check probe_ui tests perf scripts || static=1")
    assert fast < static < torch < rest and ci_lines[static + 1] == "mypy || static=1"
    assert ci_lines.index('wait "$static_pid" || static=$?') > rest
    assert ci_lines[-3:] == ['[ "$rc" -ne 0 ] || rc=$static',
                             'echo "CI: exit $rc in $(( $(date +%s) - ci_started )) s"', 'exit "$rc"']


def test_readme_documents_the_local_extra_with_cpu_and_cuda_torch() -> None:
    setup = README[README.index("## Set up"):README.index("## The first five minutes")]
    assert "pip install torch --index-url https://download.pytorch.org/whl/cpu" in setup
    assert "pip install torch --index-url https://download.pytorch.org/whl/cu" in setup
    assert 'pip install -e ".[local]"' in setup


def test_the_guide_lists_shipped_presets_templates_and_providers() -> None:
    presets, models = page("docs/guide/commands/presets.md"), page("docs/guide/commands/models.md")
    for p in bundled_presets():
        assert f"presets/{p.name}" in presets, f"docs/guide/commands/presets.md does not mention {p.name}"
    for name in TEMPLATES:
        assert f"`{name}`" in presets, f"docs/guide/commands/presets.md does not mention the template {name}"
    for name in PROVIDERS:
        assert f"`{name}/" in models, f"docs/guide/commands/models.md does not mention the provider {name}"
    for entry in (ROOT / "backends").glob("*.yaml"):
        assert entry.stem in models, f"docs/guide/commands/models.md does not mention the entry {entry.stem}"


def test_readme_is_a_front_door() -> None:
    """At most ~250 lines, with the sections a newcomer needs, and the key variables as export lines."""
    assert len(README.splitlines()) <= 250
    for heading in ("## Set up", "## The first five minutes", "## API keys and local servers", "## Contents"):
        assert f"\n{heading}\n" in README, heading
    for var in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL"):
        assert f"export {var}=" in README, var
    assert "](docs/images/" in README, "the README shows a screenshot"
    assert max(len(line) for line in README.splitlines() if not line.startswith("|")) <= 120


def test_the_readme_example_error_is_the_real_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    example = re.search(r"```text\n(error: x\.yaml: .*?)\n```", README)
    assert example, "the README's example error message is missing"
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.yaml").write_text("items:\n  - id: ct-1\n    image: ct_head_axial.png\n    question: Which?\n"
                                     "    options: [CT, MRI]\n    answer: PET\n", encoding="utf-8")
    from probe_ui.cli import main

    assert main(["batch", "x.yaml", "-m", "baseline/first", "--db", str(tmp_path / "s.db")]) == 1
    assert capsys.readouterr().err.strip() == example.group(1)


def test_first_five_minutes_commands_exist() -> None:
    """Every probe-ui command the first five minutes name parses (a renamed flag breaks the newcomer's path)."""
    from probe_ui.cli import full_parser

    section = README[README.index("## The first five minutes"):README.index("## API keys and local servers")]
    commands = re.findall(r"^(probe-ui [^#\n]*?)\s*(?:#.*)?$", section, re.M)
    assert len(commands) >= 6
    for command in commands:
        full_parser().parse_args(shlex.split(command)[1:])
