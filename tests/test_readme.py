"""The README stays true: CI runs its set-up commands, and its tables list what the code ships."""

from __future__ import annotations

import re
from pathlib import Path

from probe_ui.presets import bundled_presets
from probe_ui.prompts import TEMPLATES
from probe_ui.providers import PROVIDERS

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


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


def test_readme_documents_the_local_extra_with_cpu_and_cuda_torch() -> None:
    setup = README[README.index("## Set up"):README.index("## The app")]
    assert "pip install torch --index-url https://download.pytorch.org/whl/cpu" in setup
    assert "pip install torch --index-url https://download.pytorch.org/whl/cu" in setup
    assert 'pip install -e ".[local]"' in setup


def test_readme_lists_shipped_presets_templates_and_providers() -> None:
    for p in bundled_presets():
        assert f"presets/{p.name}" in README, f"README does not mention {p.name}"
    for name in TEMPLATES:
        assert f"`{name}`" in README, f"README does not mention the prompt template {name}"
    for name in PROVIDERS:
        assert f"`{name}/" in README, f"README does not mention the provider {name}"
    for entry in (ROOT / "backends").glob("*.yaml"):
        assert entry.stem in README, f"README does not mention the catalogue entry {entry.stem}"
