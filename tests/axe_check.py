"""axe-core (npm) injected into a page under test: accessibility violations of WCAG 2.x levels A and AA.

The script comes from ``$PROBE_UI_AXE`` (a path to ``axe.min.js``) or ``.ci/axe/node_modules/axe-core/axe.min.js``
(``npm install --prefix .ci/axe axe-core@4``, as .ci/run does). Skipped where it is missing, failed under CI=true.
Any browser test may use it: ``violations(page)`` after the page shows what is to be checked.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from helpers import require

ROOT = Path(__file__).resolve().parent.parent
AXE = Path(os.environ.get("PROBE_UI_AXE") or ROOT / ".ci" / "axe" / "node_modules" / "axe-core" / "axe.min.js")
#: WCAG 2.0 and 2.1, levels A and AA
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def require_axe() -> Path:
    require(AXE.is_file(), "axe-core", "npm install --prefix .ci/axe axe-core@4, or set PROBE_UI_AXE to axe.min.js")
    return AXE


def violations(page: Any, include: str | None = None, exclude: list[str] | None = None) -> list[dict[str, Any]]:
    """The page's (or the ``include`` selector's) A/AA violations: rule id, impact, help and the first offending
    elements. ``exclude``: selectors left out (say why where it is used).

    The page is judged at rest: while an event runs, Gradio draws its outputs at 20 % opacity (class ``pending``),
    which axe reads as grey text on white, and an event may start just after the test's last step. So this waits
    (up to a minute, for a busy machine) until no output has been pending for a whole second, and turns off CSS
    transitions so that no colour is caught half-way; a page that never settles fails here."""
    path = require_axe()
    page.add_style_tag(content="*, *::before, *::after { transition: none !important; animation: none !important; }")
    try:
        page.wait_for_function(
            """() => {
                 const now = Date.now();
                 if (document.querySelector('.pending')) { window.__puQuietSince = null; return false; }
                 window.__puQuietSince = window.__puQuietSince || now;
                 return now - window.__puQuietSince >= 1000;
               }""", polling=100, timeout=60000)
    except Exception as exc:  # name what stayed pending: the next person needs it to find the event that never ends
        pending = page.evaluate("() => [...document.querySelectorAll('.pending')].map(e => "
                                "(e.id || e.closest('[id]')?.id || e.className).toString().slice(0, 80))")
        raise AssertionError(f"the page never settled for 1 s within 60 s; still pending: {pending}") from exc
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=path.read_text(encoding="utf-8"))
    found = page.evaluate(
        """async ([include, exclude, tags]) => {
             const context = {include: include ? [include] : [document], exclude: exclude.map((s) => [s])};
             const r = await axe.run(context, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
             return r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
               nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' ') + ' :: ' + (n.failureSummary || '')
                 .replace(/\\s+/g, ' ').slice(0, 240))}));
           }""", [include, exclude or [], TAGS])
    return list(found)


def report(found: list[dict[str, Any]]) -> str:
    """The violations as lines a person can act on."""
    return "\n".join(f"{v['id']} ({v['impact']}): {v['help']}\n    " + "\n    ".join(v["nodes"]) for v in found)
