"""Which licence each exported image carries, for a dataset card: bundled assets (``assets/manifest.json``),
images derived from them by perturbations, and user-supplied images of unknown licence.

Shared by ``probe-ui export`` (:mod:`probe_ui.exports`) and ``probe-ui export-set --to hf``
(:mod:`probe_ui.interop.hf`), so both cards state licences the same way.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from probe_ui.files.resources import ASSETS_DIR
from probe_ui.views.markup import md_cell


@dataclass
class Licence:
    image: str
    kind: str  # bundled | derived | unknown
    asset: str = ""
    licence: str = ""
    how: str = ""  # the perturbations that made a derived image
    origin: str = ""  # where the bundled asset came from


def bundled_assets() -> dict[str, dict[str, Any]]:
    """The bundled images by content hash (their canonical id): file name, licence, origin."""
    path = ASSETS_DIR / "manifest.json"
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    out = {}
    for name, e in manifest.items():
        if isinstance(e, dict) and e.get("id"):
            src = e.get("source") or {}
            out[e["id"]] = {"file": name, "licence": src.get("licence", ""),
                            "origin": " ".join(str(src.get(k, "")) for k in ("package", "version", "file")).strip()}
    return out


def image_licences(used: list[str], written: set[str], variants: dict[str, dict[str, Any]]) -> list[Licence]:
    """The licence of each exported image: a bundled asset's, a derived image's (its bundled originals', with the
    perturbations that made it), or unknown (a user's own image)."""
    from probe_ui.exports import image_name

    bundled = bundled_assets()
    originals = {(v["source"], v["item_id"]): v for v in variants.values() if v["condition"] == "original"}
    derived: dict[str, tuple[list[str], list[str]]] = {}
    for v in variants.values():
        if v["condition"] == "original" or not v["provenance"]:
            continue
        base = originals.get((v["source"], v["item_id"]))
        if base is None or not base["image_ids"] or not all(h in bundled for h in base["image_ids"]):
            continue
        ops = [str(p.get("op")) for p in v["provenance"]]
        for h in v["image_ids"]:
            if h not in bundled:
                derived.setdefault(h, (list(base["image_ids"]), ops))
    out = []
    for h in used:
        if h not in written:
            continue
        name = image_name(h)
        if h in bundled:
            b = bundled[h]
            out.append(Licence(name, "bundled", b["file"], b["licence"], origin=b["origin"]))
        elif h in derived:
            srcs, ops = derived[h]
            files = ", ".join(bundled[s]["file"] for s in srcs)
            lic = "; ".join(dict.fromkeys(bundled[s]["licence"] for s in srcs))
            origin = "; ".join(dict.fromkeys(bundled[s]["origin"] for s in srcs))
            out.append(Licence(name, "derived", files, lic, " + ".join(dict.fromkeys(ops)), origin))
        else:
            out.append(Licence(name, "unknown", licence="user-supplied, licence unknown"))
    return out


def size_category(n: int) -> str:
    """The Hugging Face Hub's size category of a dataset of ``n`` rows (a dataset card's front matter)."""
    for limit, label in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M")):
        if n < limit:
            return label
    return "n>1M"


def licence_section(licences: list[Licence]) -> list[str]:
    """The dataset card's Licences section (Markdown lines)."""
    lines = ["## Licences", "",
             "The text (questions, options, answers of models) is what the run produced; replies of hosted models "
             "are subject to their providers' terms. Each image's licence:", ""]
    if not licences:
        return lines + ["(no images)", ""]
    bundled: dict[str, list[Licence]] = {}
    for lic in licences:
        if lic.kind != "unknown":
            bundled.setdefault(lic.asset, []).append(lic)
    if bundled:
        lines += ["| bundled asset | licence | origin | images in this export |", "|---|---|---|---|"]
        for asset, items in bundled.items():
            first = items[0]
            names = ", ".join(f"`{x.image}`" + (f" (derived: {x.how})" if x.kind == "derived" else "")
                              for x in items)
            lines.append(f"| `{asset}` | {md_cell(first.licence)} | {md_cell(first.origin)} "
                         f"| {names} |")
        lines += ["", "Images marked derived were made from the bundled asset by the named perturbations; the "
                  "asset's licence applies to them.", ""]
    unknown = [x for x in licences if x.kind == "unknown"]
    if unknown:
        lines += [f"{len(unknown)} image(s) are user-supplied, licence unknown: "
                  + ", ".join(f"`{x.image}`" for x in unknown), ""]
    return lines
