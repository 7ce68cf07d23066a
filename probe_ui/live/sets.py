"""Benchmark sets: items probed live, saved as presets that ``probe-ui batch`` replays on any model.

A set is an ordinary preset YAML in the user's presets folder (``<data dir>/presets/<name>.yaml``, beside the
database) with its images as PNG files in ``images/`` next to it, named by content hash. Each saved item keeps its
own perturbation chains and suite, so the batch asks exactly the variants that were probed.

A set saved from the app records who saved it (``owner``) and whether everyone may use it (``shared``). A set is
its owner's: only they add to it, and the app offers it to others only once it is shared (by its owner, when
saving). Sets written before sets had owners are offered to everyone; only an admin or the app's local user (no
login) adds to them. Without ``user`` (the library, the command line) there is no such check.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from probe_ui.files.safe_write import check_target, write_bytes, write_text
from probe_ui.files.yaml_limits import safe_load, yaml_problem
from probe_ui.images import CanonicalImage
from probe_ui.items import Item
from probe_ui.live import ProbeError, Step, named_chains
from probe_ui.presets import Preset, item_yaml, load_preset

NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")


def presets_dir_for(db_location: str) -> Path:
    """Where a store's user presets live: ``presets/`` beside a SQLite file; ``probe-ui-data/presets`` for a URL."""
    if "://" in db_location:
        return Path("probe-ui-data") / "presets"
    return Path(db_location).parent / "presets"


def list_sets(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.yaml")) if folder.is_dir() else []


def set_owner(path: Path) -> tuple[str | None, bool]:
    """A set's ``owner`` (None for a set saved before sets had owners) and ``shared``, read from its top-level
    keys before ``items`` (where :func:`save_item` writes them) without reading the items."""
    head: list[str] = []
    try:
        with path.open(encoding="utf-8") as f:
            for line in f:
                if line.startswith("items:"):
                    break
                if line.startswith(("owner:", "shared:")):
                    head.append(line)
    except (OSError, UnicodeDecodeError):
        return None, False
    try:
        data = safe_load("".join(head)) or {}
    except yaml.YAMLError:
        return None, False
    owner = data.get("owner") if isinstance(data, dict) else None
    return (str(owner) if owner else None), bool(isinstance(data, dict) and data.get("shared") is True)


def visible_sets(folder: Path, user: str | None) -> list[tuple[Path, str]]:
    """The sets ``user`` may use, each with how it is theirs: "yours", "shared by NAME" or "shared" (a set saved
    before sets had owners). ``user`` None: every set, as "yours"."""
    out = []
    for path in list_sets(folder):
        owner, shared = set_owner(path)
        if user is None or owner == user:
            out.append((path, "yours"))
        elif owner is None:
            out.append((path, "shared"))
        elif shared:
            out.append((path, f"shared by {owner}"))
    return out


def may_write(path: Path, user: str | None, *, admin: bool = False) -> bool:
    """Whether ``user`` may add to the set at ``path`` (module doc); any new name is free."""
    if user is None or not path.exists():
        return True
    from probe_ui.security.users import LOCAL_USER

    owner, _ = set_owner(path)
    return owner == user if owner is not None else (admin or user == LOCAL_USER)


def save_item(folder: Path, set_name: str, item: Item, images: tuple[CanonicalImage, ...], steps: list[Step],
              suite: str | list[str] | None = None, description: str = "", *, user: str | None = None,
              admin: bool = False, share: bool | None = None) -> tuple[Path, Preset]:
    """Add (or replace, by item id) an item with its perturbation chains and suite in a set; return the set.

    ``user`` saves it: a new set is theirs, an existing one must be (:func:`may_write`); its owner's ``share``
    (True / False; None leaves it) says whether everyone may use it. The file is written atomically and loaded
    back through the preset validator before it replaces the old one, so a failed save leaves the set as it was.
    """
    set_name = (set_name or "").strip()
    if not NAME_RE.match(set_name):
        raise ProbeError("a benchmark set name uses letters, digits, '-', '_' or '.', e.g. 'chest-ct-probes'",
                         field="set_name")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "images").mkdir(exist_ok=True)
    path = folder / f"{set_name}.yaml"
    if not may_write(path, user, admin=admin):
        raise ProbeError(f"the benchmark set '{set_name}' is another user's: choose another name", field="set_name")
    data: dict[str, Any] = {"name": set_name, "description": description or "Probes saved from the probe-ui app",
                            "items": []}
    check_target(path, True, "cannot save the benchmark set to")  # a FIFO or device there is neither read nor written
    if path.exists():
        try:
            loaded = safe_load(path.read_text(encoding="utf-8")) or {}
        except (OSError, UnicodeDecodeError) as exc:
            raise ProbeError(f"{path}: cannot be read ({exc}); choose another name") from None
        except yaml.YAMLError as exc:
            raise ProbeError(f"{path}: {yaml_problem(exc)}; fix it or choose another name") from None
        if not isinstance(loaded, dict) or not isinstance(loaded.get("items"), list):
            raise ProbeError(f"{path} is not a benchmark set (no 'items' list); choose another name")
        data = loaded
    if user is not None:  # a new set is the user's; one saved before sets had owners stays without one
        owner = data.get("owner") if path.exists() else user
        head = {"name": data.get("name", set_name), "description": data.get("description", "")}
        if owner:
            head |= {"owner": owner, "shared": bool(share) if share is not None and owner == user
                     else bool(data.get("shared"))}
        data = head | {k: v for k, v in data.items() if k not in ("name", "description", "owner", "shared")}
    image_paths = []
    for im in images:
        rel = f"images/{im.id}.png"
        target = folder / rel
        if not target.exists():
            write_bytes(target, im.png, what="cannot save the image to")
        image_paths.append(rel)
    entry = item_entry(item, image_paths, steps, suite)
    data["items"] = [it for it in data["items"] if not (isinstance(it, dict) and it.get("id") == item.id)] + [entry]
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=120)
    # the set's own file, read above, is replaced (never a device, FIFO or folder), once it loads back as a preset
    write_text(path, text, force=True, what="cannot save the benchmark set to", check=load_preset)
    return path, load_preset(path)


def item_entry(item: Item, image_paths: list[str], steps: list[Step], suite: str | list[str] | None
               ) -> dict[str, Any]:
    """An item as preset YAML, with its chains as the item's own ``perturbations``, its suites, and what a preset
    item brought besides its fields (tags, group, attributes such as MedBLINK's dot rule)."""
    entry = item_yaml(item.id, item.question, item.kind, image_paths, item.options, item.answer, item.category)
    if item.tags:
        entry["tags"] = list(item.tags)
    if item.group:
        entry["group"] = item.group
    attributes = dict(item.attributes or {})
    region = attributes.pop("region", None)
    if region:  # where the finding is, as a preset writes it (presets.ItemSpec.region)
        entry["region"] = region
    if attributes:
        entry["attributes"] = attributes
    conditions = [{"name": name, "steps": [{"op": s.op, **s.params} for s in chain]}
                  for name, chain in named_chains(steps)]
    if conditions:
        entry["perturbations"] = conditions
    suites = [suite] if isinstance(suite, str) else list(suite or [])
    if suites:
        entry["suites"] = suites
    return entry

