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


def test_readme_has_two_setup_commands_and_ci_runs_them() -> None:
    install, test = setup_commands()
    ci_lines = {line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()}
    steps = install.split(" && ")
    assert steps[-1].startswith("probe-ui"), "the first command installs and starts the app"
    for step in steps[:-1]:
        assert step in ci_lines, f".ci/run does not run the README step {step!r}"
    assert test in ci_lines, f".ci/run does not run the README test command {test!r}"


def test_readme_lists_shipped_presets_templates_and_providers() -> None:
    for p in bundled_presets():
        assert f"presets/{p.name}" in README, f"README does not mention {p.name}"
    for name in TEMPLATES:
        assert f"`{name}`" in README, f"README does not mention the prompt template {name}"
    for name in PROVIDERS:
        assert f"`{name}/" in README, f"README does not mention the provider {name}"
    for entry in (ROOT / "backends").glob("*.yaml"):
        assert entry.stem in README, f"README does not mention the catalogue entry {entry.stem}"
