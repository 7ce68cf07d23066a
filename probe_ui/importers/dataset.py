"""An export back into a preset: ``probe-ui import dataset DIR [--with-perturbations]``.

Reads any layout :mod:`probe_ui.exports` writes (``data.jsonl``, ``data.csv``, ``data.parquet``, or an imagefolder's
``metadata.jsonl``; one row per answer or per variant) and writes one preset item per exported item, rebuilt from
its original variant (condition ``original``): question, kind, options or labels, answer, category, tags, group,
attributes and images. The images are copied by content hash into ``images/`` beside the preset.

With ``with_perturbations`` every other condition of an item becomes one of the item's own ``perturbations``, named
as the condition (``rotations/rot90`` included) with the steps its provenance records. A step's seed derives from
the run seed, the item id and the condition name, so a batch of the preset with the export's seed (``--seed``)
makes the same variants again; where the recorded seed came from a shared ``seed_group`` (e.g. the dot-colours
suite) the group is recovered from the recorded seeds. Suite conditions are in the preset already: adding the same
``--suite`` to the batch asks them a second time.
"""

from __future__ import annotations

import csv
import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from probe_ui.errors import ProbeUIError
from probe_ui.export_formats import FORMATS, DataFileError, ExportFormat
from probe_ui.export_formats.base import JSON_COLUMNS, LIST_COLUMNS
from probe_ui.files.paths import PathError, file_inside, output_file
from probe_ui.files.safe_write import check_target, write_bytes, write_text
from probe_ui.presets import PresetError, item_yaml, load_preset

REQUIRED = ("item_id", "question", "kind", "condition")
_OPTIONAL_TEXT = ("answer", "answer_label", "item_group", "group", "source", "variant_id", "run", "prompt")


class DatasetError(ProbeUIError, ValueError):
    """The folder is not a probe-ui export, or its rows cannot make a preset."""


@dataclass
class DatasetImport:
    preset_path: Path
    items: int
    images: int
    warnings: list[str] = field(default_factory=list)
    perturbations: int = 0
    rows: int = 0
    layout: str = ""
    source: Path | None = None
    seed: int | None = None
    run: str | None = None

    def lines(self) -> list[str]:
        what = f"the {self.layout} export {self.source}" + (f" of run '{self.run}'" if self.run else "")
        out = [f"wrote {self.preset_path}: {self.items} items from {what} ({self.rows} rows), {self.images} images "
               f"in {self.preset_path.parent / 'images'}"]
        if self.perturbations:
            seed = f"--seed {self.seed}" if self.seed is not None else "the export's seed"
            out.append(f"{self.perturbations} perturbation conditions kept with their items: a batch with {seed} "
                       "asks the same variants (the export's suites are among them: do not add --suite again)")
        out += [f"warning: {w}" for w in self.warnings]
        return out


def import_dataset(src: Path, out: Path, *, with_perturbations: bool = False, force: bool = False) -> DatasetImport:
    """Write a preset at ``out`` (images in ``out.parent/images``) from the export in folder ``src``.

    An existing ``out`` is replaced only with ``force``. The export is read as untrusted: a symbolic link anywhere
    in it, or an image name that leaves the folder, is refused (nothing outside ``src`` is ever read or copied).
    """
    src, out = Path(src), Path(out)
    if not src.is_dir():
        raise DatasetError(f"{src} is not a folder: give the folder 'probe-ui export' wrote")
    try:  # nothing there, or (with --force) a regular file; never a device, FIFO or folder
        check_target(out, force, "--to-preset")
        output_file(out, "--to-preset")
    except PathError as exc:
        raise DatasetError(str(exc)) from None
    _refuse_links(src)
    found = [(f.name, src / f.data_file) for f in _layouts() if (src / f.data_file).is_file()]
    if not found:
        raise DatasetError(f"{src} is not a probe-ui export: it has none of "
                           f"{', '.join(f.data_file for f in _layouts())}")
    warnings: list[str] = []
    layout, data_path = found[0]
    if len(found) > 1:
        warnings.append(f"{src} holds several exports ({', '.join(p.name for _, p in found)}); read {data_path.name}")
    rows = [_normalise(r, layout, data_path, i) for i, r in enumerate(_read(layout, data_path), start=1)]
    if not rows:
        raise DatasetError(f"{data_path}: no rows to import")
    missing = [c for c in REQUIRED if c not in rows[0]]
    if missing:
        raise DatasetError(f"{data_path} is not a probe-ui export: no column '{missing[0]}'")

    seeds = {r["seed"] for r in rows if r.get("seed") is not None}
    seed = min(seeds) if seeds else None
    if len(seeds) > 1:
        warnings.append(f"the rows hold several seeds ({', '.join(map(str, sorted(seeds)))}); steps are checked "
                        f"against {seed}")
    run_names = list(dict.fromkeys(r["run"] for r in rows if r.get("run")))

    items = _group(rows)
    image_dir = out.parent / "images"
    entries: list[dict[str, Any]] = []
    ids = _new_ids(items, warnings)
    images_done: set[str] = set()
    n_conditions = 0
    needs_context: set[str] = set()
    n_sources = len({src_name for src_name, _ in items})
    for (source, item_id), variants in items.items():
        base = next((v for v in variants if v["condition"] == "original"), None)
        replay = base is not None
        if base is None:
            base = variants[0]
            warnings.append(f"item '{item_id}' ({source or 'no source'}) has no original variant: its first variant "
                            f"('{base['condition']}') stands in for the item"
                            + (" and its perturbations are left out" if with_perturbations else ""))
        new_id = ids[(source, item_id)]
        paths = []
        try:
            for name in base.get("images") or []:
                h = _copy_image(src, name, image_dir, images_done)
                paths.append(f"images/{h}.png")
        except DatasetError as exc:
            warnings.append(f"item '{item_id}' left out: {exc}")
            continue
        entry = item_yaml(new_id, base["question"], base["kind"], paths, list(base.get("options") or []),
                          base.get("answer"), list(base.get("category") or []))
        if base.get("tags"):
            entry["tags"] = list(base["tags"])
        if base.get("item_group"):
            entry["group"] = base["item_group"]
        if base.get("attributes"):
            entry["attributes"] = base["attributes"]
        if with_perturbations and replay:
            partners = {old: new for (s, old), new in ids.items() if s == source}
            conditions = _conditions(new_id, item_id, variants, seed, warnings, needs_context, partners)
            if conditions:
                entry["perturbations"] = conditions
                n_conditions += len(conditions)
        entries.append(entry)
    if not entries:
        raise DatasetError(f"{data_path}: no item could be rebuilt" + (f" ({warnings[-1]})" if warnings else ""))
    if needs_context and n_sources > 1:
        warnings.append(f"perturbations {', '.join(sorted(needs_context))} draw on the other items of a preset; the "
                        "export's items came from several presets, now one: those variants may differ")

    preset: dict[str, Any] = {
        "name": out.stem,
        "description": f"Imported from a probe-ui {layout} export"
                       + (f" of run '{run_names[0]}'" if run_names else "") + f" ({len(entries)} items)",
    }
    prompt = _preset_prompt(rows, warnings)
    if prompt:
        preset["prompt"] = prompt
    preset["items"] = entries
    if out.exists():
        warnings.append(f"{out} existed and was replaced (--force)")
    _write_preset(out, preset, src, force)
    return DatasetImport(preset_path=out, items=len(entries), images=len(images_done), warnings=warnings,
                         perturbations=n_conditions, rows=len(rows), layout=layout, source=src, seed=seed,
                         run=run_names[0] if run_names else None)


# ---- reading ------------------------------------------------------------------------------------------------------

def _layouts() -> list[ExportFormat]:
    """Every export format, in the order a folder is tried (an imagefolder's ``metadata.jsonl`` first)."""
    return sorted(FORMATS.entries(), key=lambda f: (f.detect_order, f.order, f.name))


def _read(layout: str, path: Path) -> list[dict[str, Any]]:
    fmt = FORMATS.get(layout)
    fmt.check(DatasetError, str(path))
    try:
        return fmt.read(path)
    except DataFileError as exc:
        raise DatasetError(str(exc)) from None
    except (OSError, UnicodeDecodeError, ValueError, csv.Error) as exc:
        raise DatasetError(f"{path}: cannot be read: {exc.__class__.__name__}: {exc}") from None
    except Exception as exc:  # pyarrow's own errors (or a plugin format's)
        first = (str(exc).splitlines() or [""])[0]
        raise DatasetError(f"{path}: cannot be read: {exc.__class__.__name__}: {first}") from None


def _normalise(row: dict[str, Any], layout: str, path: Path, n: int) -> dict[str, Any]:
    """One row in the JSONL form: lists as lists, nested values decoded, CSV's empty cells as None."""
    try:
        r = FORMATS.get(layout).restore(dict(row))
    except DataFileError as exc:
        raise DatasetError(f"{path}: row {n}: {exc}") from None
    for c in LIST_COLUMNS:
        v = r.get(c)
        if isinstance(v, str):
            v = _loads(v, path, n, c) if v.strip() else []
        r[c] = [str(x) for x in v] if isinstance(v, (list, tuple)) else []
    for c in JSON_COLUMNS:
        v = r.get(c)
        if isinstance(v, str):
            r[c] = _loads(v, path, n, c) if v.strip() else None
    for c in _OPTIONAL_TEXT:
        if c in r and r[c] is not None and not isinstance(r[c], str):
            r[c] = str(r[c])
    seed = r.get("seed")
    try:
        r["seed"] = int(seed) if seed is not None and str(seed).strip() != "" else None
    except ValueError:
        raise DatasetError(f"{path}: row {n}: seed {seed!r} is not a number") from None
    if r.get("provenance") is None:
        r["provenance"] = []
    return r


def _loads(text: str, path: Path, n: int, column: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        raise DatasetError(f"{path}: row {n}: column '{column}' is not JSON") from None


def _group(rows: list[dict[str, Any]]) -> dict[tuple[str, str], list[dict[str, Any]]]:
    """Each item's variants (one row per condition, the first seen), items in the order they first appear."""
    items: dict[tuple[str, str], dict[str, dict[str, Any]]] = {}
    for r in rows:
        if not r.get("item_id"):
            continue
        key = (r.get("source") or "", str(r["item_id"]))
        items.setdefault(key, {}).setdefault(str(r["condition"] or "original"), r)
    return {k: list(v.values()) for k, v in items.items()}


_IMAGE_NAME = re.compile(r"^[\w.-]+(?:/[\w.-]+)*$")


def _refuse_links(src: Path) -> None:
    """An export holds plain files and folders only: refuse it when anything in it is a symbolic link (a crafted
    ``images/<hash>.png -> /etc/shadow`` would otherwise be copied, or an outside image sent to a model)."""
    for folder, dirs, files in os.walk(src):  # does not follow links to folders: they are listed in dirs
        for name in [*dirs, *files]:
            path = Path(folder) / name
            if path.is_symlink():
                raise DatasetError(f"{path} is a symbolic link; an export holds none, so it is not followed "
                                   "(copy the files it points to into the export if they belong there)")


def _copy_image(src: Path, name: str, image_dir: Path, done: set[str]) -> str:
    """Copy one exported image into ``image_dir`` by the sha256 of its bytes; return the hash."""
    if not isinstance(name, str) or not _IMAGE_NAME.match(name) or ".." in name.split("/"):
        raise DatasetError(f"image name {name!r} is not a path inside the export")
    try:
        path = file_inside(src, name, f"its image {name}")
    except PathError as exc:
        raise DatasetError(str(exc)) from None
    data = path.read_bytes()
    h = hashlib.sha256(data).hexdigest()
    target = image_dir / f"{h}.png"
    if h not in done:
        if not target.is_file() or hashlib.sha256(target.read_bytes()).hexdigest() != h:
            image_dir.mkdir(parents=True, exist_ok=True)
            # a file of that name whose bytes do not match its hash is replaced; a device, FIFO or folder is not
            write_bytes(target, data, force=True, what="cannot copy the image to")
        done.add(h)
    return h


# ---- perturbations ------------------------------------------------------------------------------------------------

def _new_ids(items: dict[tuple[str, str], list[dict[str, Any]]], warnings: list[str]) -> dict[tuple[str, str], str]:
    """Item ids in the new preset: the same, except where two presets of the export used one id."""
    out: dict[tuple[str, str], str] = {}
    used: set[str] = set()
    for source, item_id in items:
        new_id = item_id
        if new_id in used:
            new_id = f"{Path(source).stem or 'item'}/{item_id}"
            warnings.append(f"item id '{item_id}' is used by more than one preset; the one from {source} is "
                            f"'{new_id}' (seeds derive from item ids: its random perturbations may differ)")
        used.add(new_id)
        out[(source, item_id)] = new_id
    return out


def _conditions(new_id: str, item_id: str, variants: list[dict[str, Any]], seed: int | None, warnings: list[str],
                needs_context: set[str], partners: dict[str, str]) -> list[dict[str, Any]]:
    """Each non-original condition as ``{name, steps}``, with the seed group of a step where one was used.

    A swap that chose its partner from the preset names that partner (``item``), so the same image comes back
    whatever the order of the items; the other draws on the preset (``replace_distractors`` with ``source:
    preset``) see the items in the order of the export's rows.
    """
    from probe_ui.perturb import PerturbationError, derive_seed
    from probe_ui.perturb import get as get_perturbation

    names = [str(v["condition"]) for v in variants if v["condition"] != "original"]
    candidates = list(dict.fromkeys([*{n.split("/")[0] for n in names if "/" in n}, *names]))
    out = []
    for v in variants:
        name = str(v["condition"])
        if name == "original":
            continue
        prov = v.get("provenance") or []
        if not prov:
            warnings.append(f"item '{item_id}': condition '{name}' records no steps; left out")
            continue
        steps, unmatched = [], False
        for i, rec in enumerate(prov):
            if not isinstance(rec, dict) or not rec.get("op"):
                unmatched = True
                break
            step: dict[str, Any] = {"op": str(rec["op"]), **{k: val for k, val in (rec.get("params") or {}).items()
                                                            if k not in ("op", "seed_group")}}
            chosen = (rec.get("details") or {}).get("item") if isinstance(rec.get("details"), dict) else None
            if step["op"] == "swap" and step.get("source", "preset") == "preset" and "item" not in step \
                    and chosen in partners:
                step["item"] = partners[chosen]
            try:
                if get_perturbation(step["op"]).needs_context and not (step["op"] == "swap" and "item" in step):
                    needs_context.add(step["op"])
            except PerturbationError:
                pass  # reported by the preset validator, naming the item and condition
            recorded = rec.get("seed")
            if seed is not None and isinstance(recorded, int) and derive_seed(seed, new_id, name, i) != recorded:
                group = next((c for c in candidates if derive_seed(seed, new_id, c, i) == recorded), None)
                if group is None and new_id == item_id:
                    warnings.append(f"item '{item_id}': condition '{name}' step {i + 1}: the recorded seed is not "
                                    f"the one seed {seed} gives; the replayed variant may differ")
                elif group is not None:
                    step["seed_group"] = group
            steps.append(step)
        if unmatched:
            warnings.append(f"item '{item_id}': condition '{name}' has an unreadable provenance record; left out")
            continue
        out.append({"name": name, "steps": steps})
    return out


def _preset_prompt(rows: list[dict[str, Any]], warnings: list[str]) -> str | None:
    """The template the originals were asked with, where one template that is not a kind's default was used."""
    from probe_ui.prompts import DEFAULT_FOR_KIND

    used = {str(r["prompt"]) for r in rows if r.get("prompt") and r.get("condition") == "original"
            and r["prompt"] != DEFAULT_FOR_KIND.get(str(r.get("kind")))}
    if len(used) == 1:
        return used.pop()
    if len(used) > 1:
        warnings.append(f"the originals were asked with several templates ({', '.join(sorted(used))}); the preset "
                        "names none: give the batch --prompt NAME")
    return None


# ---- writing ------------------------------------------------------------------------------------------------------

def _write_preset(out: Path, preset: dict[str, Any], src: Path, force: bool) -> None:
    """Write safely (:mod:`probe_ui.files.safe_write`), validated by the preset loader before it replaces anything."""
    text = yaml.safe_dump(preset, sort_keys=False, allow_unicode=True, width=120)

    def check(tmp: Path) -> None:
        try:
            load_preset(tmp)
        except PresetError as exc:
            msg = str(exc).replace(str(tmp), str(out))
            raise DatasetError(f"the preset made from {src} does not validate: {msg}") from None

    write_text(out, text, force=force, what="--to-preset", check=check)


__all__ = ["DatasetError", "DatasetImport", "import_dataset"]
