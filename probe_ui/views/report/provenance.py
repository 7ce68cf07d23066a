"""The report's provenance: versions, seed, settings and the commands that reproduce the run."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import TYPE_CHECKING

from probe_ui.security import redact
from probe_ui.views.markup import el, grid_table, para, titled_section, wrap
from probe_ui.views.rebuild import reproduce_commands

if TYPE_CHECKING:  # pragma: no cover
    from probe_ui.store import Run, Store



def provenance_section(store: Store, run: Run, baseline: Run | None) -> str:
    s = redact.public_settings(run.settings, paths=True)
    parts = []
    cmds = reproduce_commands(store, run, baseline)
    parts.append(el("h3", "Reproduce")
                 + para("Run from the folder that holds the preset files, in a fresh database (or under another --run "
                      "name: a run that exists is resumed, not repeated). Model names are the catalogue's; keys come "
                      "from the environment.", "muted")
                 + "".join(wrap("div", el("span", what, class_="muted") + el("pre", cmd), class_="cmd")
                           for what, cmd in cmds))
    models = s.pop("models", None) or []
    if models:
        rows = [wrap("tr", el("th", m.get("name"), scope="row") + el("td", m.get("provider"))
                      + el("td", m.get("model")) + el("td", m.get("base_url") or "–")
                      + el("td", json.dumps(m.get("generation") or {}, sort_keys=True, default=str)))
                for m in models if isinstance(m, dict)]
        parts.append(el("h3", "Models") + grid_table(["name", "provider", "model", "base URL", "generation"], rows,
                                                  "grid", 99))
    presets = s.pop("presets", None) or []
    if presets:
        rows = [wrap("tr", el("th", p.get("name"), scope="row") + el("td", p.get("path"))
                      + el("td", p.get("sha256"), class_="mono"))
                for p in presets if isinstance(p, dict)]
        parts.append(el("h3", "Presets") + grid_table(["name", "file", "sha256"], rows, "grid", 99))
    unit = s.pop("unit", None)
    rest = {"seed": run.seed, **s}
    if isinstance(unit, dict) and unit.get("unit"):  # the run's unit of evidence in words: "8 pairs (16 items)"
        from probe_ui.metrics.units import WORDS

        one, many = WORDS.get(str(unit["unit"]), (str(unit["unit"]), f"{unit['unit']}s"))
        rest["unit of evidence"] = (f"{unit.get('units')} {one if unit.get('units') == 1 else many}"
                                    f" ({unit.get('items')} items)")
    rows = [wrap("tr", el("th", k, scope="row") + el("td", v if isinstance(v, str) else
                                                         json.dumps(v, sort_keys=True, default=str), class_="mono"))
            for k, v in rest.items()]
    parts.append(el("h3", "Settings") + grid_table(["setting", "value"], rows, "grid", 99))
    versions = redact.public_settings(run.versions or {}, paths=True)
    rows = [wrap("tr", el("th", k, scope="row") + el("td", v, class_="mono")) for k, v in versions.items()]
    parts.append(el("h3", "Package versions (when the run was made)")
                 + grid_table(["package", "version"], rows, "grid", 99))
    from probe_ui import __version__

    parts.append(para(f"Report made {datetime.now(timezone.utc).strftime('%Y-%m-%d %H:%M:%S UTC')} by probe-ui "
                    f"{__version__}.", "muted"))
    return titled_section("provenance", "Provenance", "".join(parts))
