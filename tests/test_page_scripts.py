"""The scripts the app sends to every page parse as JavaScript (node --check): a script that does not parse is
dropped by Gradio with one line in the browser's console, and everything it does is silently gone (the keyboard's
shortcuts were, once, for a Python ``%`` format that ate ``% all.length``)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import require

from probe_ui.app import blocks, keyboard, plot_view, probe_tab

SCRIPTS = {"page": blocks.JS, "keyboard": keyboard.JS, "hide tabs": blocks.HIDE_TABS_JS,
           "draft found": blocks.DRAFT_FOUND_JS, "presenter": probe_tab.PRESENTER_JS,
           "scroll to answers": probe_tab.SCROLL_TO_ANSWERS_JS,
           "larger view": plot_view._TOGGLE_JS % {"box": "b", "btn": "n", "open": "o", "close": "c"}}


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_every_page_script_parses(name: str, tmp_path: Path) -> None:
    node = shutil.which("node")
    require(node is not None, "node", "apt-get install nodejs (or npm)")
    script = tmp_path / "script.js"
    script.write_text(f"const f = {SCRIPTS[name]};\n", encoding="utf-8")
    done = subprocess.run([str(node), "--check", str(script)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_the_keyboard_script_says_its_shortcut_on_run() -> None:
    assert keyboard.RUN_TITLE in keyboard.JS and "%(" not in keyboard.JS
