"""An answer's technical record: the code names and raw settings behind the words of its detail view.

Why: the detail (:func:`probe_ui.views.results.response_detail`) speaks in words to the clinician reading it, but a
researcher auditing a number needs the exact condition id, prompt template, reading rule, perturbation chain (with
its seeds) and settings as stored. They are kept here, in a folded block under the detail ("technical record"), so
they are one click away and never on the common path.
"""

from __future__ import annotations

import json
from typing import Any

#: the folded block's title
TITLE = "technical record (code names and settings as stored, for an audit)"


def chain_text(chain: Any) -> str:
    """A perturbation chain as its calls: ``rotate(angle=90) → blur(radius=2)``."""
    steps = []
    for rec in chain or []:
        params = rec.get("params") or {}
        args = ", ".join(f"{k}={v!r}" for k, v in params.items())
        steps.append(f"{rec.get('op', '?')}({args})")
    return " → ".join(steps)


def technical_record(r: dict[str, Any], chain: Any) -> list[str]:
    """Markdown lines of a folded ``<details>`` block for one stored response ``r`` (its provenance ``chain``):
    condition, prompt template, reading rule, settings, details and provenance as stored. Everything in it is
    fenced, so nothing a model or a user wrote is rendered."""
    from probe_ui.views.results import md_code

    def dump(value: Any) -> str:
        return json.dumps(value, indent=2, sort_keys=True, default=str)

    ids = "\n".join(f"{k}: {r.get(k) if r.get(k) is not None else '-'}"
                    for k in ("condition", "prompt", "method", "kind", "sample"))
    parts = [("names", ids), ("settings", dump(r.get("settings") or {}))]
    if r.get("details"):
        parts.append(("details", dump(r["details"])))
    parts.append(("provenance", chain_text(chain) + "\n\n" + dump(chain) if chain else "original (no perturbation)"))
    lines = ["<details>", f"<summary>{TITLE}</summary>", ""]
    for name, body in parts:
        lines += [f"*{name}*", "", md_code(body), ""]
    return [*lines, "</details>", ""]
