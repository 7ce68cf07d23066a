"""Presets: probe sets as YAML files, validated with errors that name the file, the item and the field.

A preset is a list of items plus optional perturbation conditions. Image paths are looked up relative to the preset
file, then in the bundled ``assets/`` folder. See ``presets/README.md`` for the format.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from probe_ui.errors import ProbeUIError
from probe_ui.files.resources import ASSETS_DIR, PRESETS_DIR, bundled_presets
from probe_ui.files.yaml_limits import place, yaml_problem, yaml_size
from probe_ui.files.yaml_stream import DuplicateKeyError, stream_list
from probe_ui.items import KINDS, LETTERS, YES_NO, ImageSource, Item
from probe_ui.perturb import PerturbationError
from probe_ui.perturb import get as get_perturbation

MAX_PRESET_BYTES = 20 * 1024 * 1024
MAX_PRESET_VALUES = 2_000_000  # far above a real preset; YAML aliases can multiply a small file without end


class PresetError(ProbeUIError, ValueError):
    """A preset cannot be used; the message names the file and, where it applies, the item and field."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)  # schema built on first use


class ImageSpec(_Strict):
    path: str
    window: tuple[float, float] | None = None
    frame: int | None = Field(default=None, ge=0)
    axis: int | None = Field(default=None, ge=0, le=3)
    slice: int | None = Field(default=None, ge=0)


class StepSpec(BaseModel):
    """One perturbation application: ``{op: rotate, angle: 180, answer_map: {...}}``."""

    model_config = ConfigDict(extra="allow", frozen=True, defer_build=True)
    op: str

    def params(self) -> dict[str, Any]:
        return dict(self.model_extra or {})


class ConditionSpec(_Strict):
    """A named chain of steps; every item gets one variant per condition (plus the original)."""

    name: str = Field(min_length=1)
    steps: list[StepSpec] = Field(min_length=1)
    only_tags: list[str] = []  # apply only to items carrying one of these tags (empty = all)


class ItemSpec(_Strict):
    id: str = Field(min_length=1)
    question: str = Field(min_length=1)
    kind: str | None = None
    image: str | ImageSpec | None = None
    images: list[str | ImageSpec] | None = None
    options: list[str] | None = None
    labels: list[str] | None = None
    answer: str | None = None
    category: str | list[str] = []
    tags: list[str] = []
    group: str | None = None
    #: the unit of evidence this item's answers count in, when it is coarser than the item (issue 43): the patient or
    #: study its image belongs to, so that several images of one patient count once (kept in ``attributes``)
    patient: str | None = None
    study: str | None = None
    attributes: dict[str, Any] = {}
    #: where the finding is, in the item image's pixels: one box [x0, y0, x1, y1] or several (kept in ``attributes``
    #: as a list of boxes; read by the occlude steps and by point answers)
    region: list[float] | list[list[float]] | None = None
    perturbations: list[ConditionSpec] = []  # this item's own conditions (e.g. saved from the app's Probe tab)
    suites: list[str] = []  # suites for this item only

    def boxes(self) -> list[list[float]]:
        """The region as a list of boxes ([] for none)."""
        if not self.region:
            return []
        return [list(b) for b in self.region] if isinstance(self.region[0], list) \
            else [list(self.region)]  # type: ignore[arg-type]

    @field_validator("answer", mode="before")
    @classmethod
    def _yaml_booleans(cls, v: Any) -> Any:
        # YAML reads a bare yes/no as a boolean; a preset author means the word.
        if isinstance(v, bool):
            return "yes" if v else "no"
        # only a scalar becomes text; anything else fails validation as "not a string" (never str() a structure)
        return str(v) if isinstance(v, (int, float)) else v

    @model_validator(mode="before")
    @classmethod
    def _region_from_attributes(cls, data: Any) -> Any:
        # an item exported with its region among its attributes (a dataset, an older set) keeps it as its region
        if isinstance(data, dict) and data.get("region") is None and isinstance(data.get("attributes"), dict) \
                and isinstance(data["attributes"].get("region"), list):
            data = {**data, "region": data["attributes"]["region"]}
        return data

    @model_validator(mode="after")
    def _consistent(self) -> ItemSpec:
        if self.image is not None and self.images is not None:
            raise ValueError("give either 'image' or 'images', not both")
        if self.kind is not None and self.kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {self.kind!r}")
        if self.options is not None and self.labels is not None:
            raise ValueError("give either 'options' (multiple choice) or 'labels' (answer words), not both")
        kind = self.resolved_kind()
        opts = self.options if kind == "choice" else self.labels
        if kind in ("choice", "label"):
            if not opts or len(opts) < 2:
                raise ValueError(f"a {kind} item needs at least two {'options' if kind == 'choice' else 'labels'}")
            if len(set(opts)) != len(opts):
                raise ValueError("options must be distinct")
            if kind == "choice" and len(opts) > len(LETTERS):
                raise ValueError(f"at most {len(LETTERS)} options")
        for box in self.boxes():
            if len(box) != 4 or not (0 <= box[0] < box[2] and 0 <= box[1] < box[3]):
                raise ValueError(f"region: {box} is not a box [x0, y0, x1, y1] with x0 < x1 and y0 < y1, in pixels "
                                 "from the image's top left corner")
        if kind == "point" and not self.boxes():
            raise ValueError("a point item needs its region (region: [x0, y0, x1, y1] in its image's pixels): a "
                             "point is right inside it")
        if kind == "point" and self.answer is not None:
            raise ValueError("a point item's answer is its region; leave 'answer' out")
        if kind == "yesno" and self.answer is not None and self.answer.strip().lower() not in YES_NO:
            raise ValueError(f"a yes/no item's answer must be yes or no, not {self.answer!r}")
        if kind in ("choice", "label") and self.answer is not None:
            self.answer_text()  # raises when the answer names no option
        return self

    def resolved_kind(self) -> str:
        if self.kind:
            return self.kind
        if self.options is not None:
            return "choice"
        if self.labels is not None:
            return "label"
        if self.answer is not None and self.answer.strip().lower() in YES_NO:
            return "yesno"
        return "free"

    def answer_text(self) -> str | None:
        """The answer as option text / label: a choice answer may be given as a letter or as the option text."""
        if self.answer is None:
            return None
        kind = self.resolved_kind()
        if kind == "yesno":
            return self.answer.strip().lower()
        if kind == "choice":
            opts = self.options or []
            if self.answer in opts:
                return self.answer
            letter = self.answer.strip().rstrip(".:)").lstrip("(").upper()
            if len(letter) == 1 and letter in LETTERS[: len(opts)]:
                return opts[LETTERS.index(letter)]
            raise ValueError(f"answer {self.answer!r} is not an option's letter (A-{LETTERS[len(opts) - 1]}) "
                             "or exact text")
        if kind == "label":
            if self.answer not in (self.labels or []):
                raise ValueError(f"answer {self.answer!r} is not one of the labels {self.labels}")
        return self.answer


class PresetHead(_Strict):
    """Everything in a preset but its items (which are validated one at a time, as :class:`ItemSpec`)."""

    name: str | None = None
    description: str = ""
    prompt: str | None = None
    include_original: bool = True
    perturbations: list[ConditionSpec] = []
    suites: list[str] = []
    # a benchmark set saved from the app: who saved it, and whether every user of that app may use it
    # (probe_ui.live.sets); a preset elsewhere ignores both
    owner: str | None = None
    shared: bool = False


@dataclass(frozen=True)
class Condition:
    name: str
    steps: tuple[tuple[str, dict[str, Any]], ...]
    only_tags: tuple[str, ...] = ()

    def applies_to(self, item: Item) -> bool:
        return not self.only_tags or bool(set(self.only_tags) & set(item.tags))


@dataclass(frozen=True)
class Preset:
    name: str
    path: str
    sha256: str
    description: str
    prompt: str | None
    include_original: bool
    conditions: tuple[Condition, ...]
    items: tuple[Item, ...]
    image_roots: tuple[str, ...]
    suites: tuple[str, ...] = ()
    item_conditions: dict[str, tuple[Condition, ...]] = field(default_factory=dict)  # item id → its own
    item_suites: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # item id → one line per own perturbation left out for a bad step (expand records them as the item's errors)
    step_errors: dict[str, tuple[str, ...]] = field(default_factory=dict)


IMAGE_ROOTS_ENV = "PROBE_UI_IMAGE_ROOTS"


def user_image_roots(extra: tuple[str, ...] | list[str] = ()) -> tuple[str, ...]:
    """Folders the user (never a preset) allows presets to read images from: ``--image-root`` and
    ``PROBE_UI_IMAGE_ROOTS`` (os.pathsep-separated)."""
    env = [r for r in os.environ.get(IMAGE_ROOTS_ENV, "").split(os.pathsep) if r.strip()]
    return tuple(str(Path(r).expanduser().resolve()) for r in [*extra, *env])


def find_preset(name_or_path: str | os.PathLike[str]) -> Path:
    """A preset file by its path, else a shipped preset by name from any folder: ``mediconfusion_pairs``,
    ``mediconfusion_pairs.yaml`` or ``presets/mediconfusion_pairs.yaml`` (what the README shows) all find the copy
    that comes with probe-ui. A file of that name in the current folder wins."""
    p = Path(name_or_path)
    if p.is_file() or not (len(p.parts) == 1 or (len(p.parts) == 2 and p.parts[0] == "presets")):
        return p
    shipped = PRESETS_DIR / (p.name if p.name.endswith(".yaml") else f"{p.name}.yaml")
    return shipped if shipped.is_file() else p


def load_preset(path: str | os.PathLike[str], image_roots: tuple[str, ...] | list[str] = ()) -> Preset:
    """Read and validate a preset (a file, or a shipped preset by name: :func:`find_preset`); raise
    :class:`PresetError` naming file, item and field on any problem.

    Its images are read only from its own folder, the bundled assets and the folders the user allows
    (``image_roots``, ``PROBE_UI_IMAGE_ROOTS``): a preset from someone else cannot make probe-ui read (and send to a
    model) a file elsewhere on this machine, by absolute path, ``..`` or a symbolic link.

    The items are read, validated and converted one at a time (:mod:`probe_ui.files.yaml_stream`), so a preset of 100k
    items never exists in memory as YAML nodes, raw mappings and validated models at once.
    """
    import hashlib

    p = find_preset(path)
    if not p.is_file():
        shipped = ", ".join(x.stem for x in bundled_presets())
        raise PresetError(f"{p}: no such preset file (shipped presets, usable by name from any folder: {shipped})")
    if p.stat().st_size > MAX_PRESET_BYTES:
        raise PresetError(f"{p}: preset is {p.stat().st_size:,} bytes, over the {MAX_PRESET_BYTES:,}-byte limit")
    raw = p.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise PresetError(f"{p}: not a UTF-8 text file") from None
    nodes: dict[str, Any] = {}  # where the item last read, and the head, start: for messages
    builder = _ItemsBuilder(p, nodes)
    reader = stream_list(text, "items", nodes=nodes)
    try:
        while True:
            try:
                builder.add(next(reader))
            except StopIteration as done:
                head, listed = done.value
                break
        if not isinstance(head, dict):
            raise PresetError(f"{p}: a preset must be a mapping with an 'items' list, not {type(head).__name__}")
        builder.count(head)
        if "items" in head:  # not a streamed list: a merge key brought it, or it is not a list
            listed, items = True, head.pop("items")
            if not isinstance(items, list):
                raise PresetError(f"{p}: field 'items': must be a list of items, not {type(items).__name__}")
            nodes.pop("element", None)  # not streamed: the items have no nodes of their own here
            for it in items:
                builder.add(it)
    except (yaml.YAMLError, RecursionError) as exc:
        raise PresetError(f"{p}: {yaml_problem(exc)}") from None
    except DuplicateKeyError as exc:
        raise PresetError(f"{p}: {exc}") from None
    try:
        spec = PresetHead.model_validate(head)
    except ValidationError as exc:
        raise PresetError(_describe(p, exc, node=nodes.get("head"))) from None
    if not builder.items:
        raise PresetError(f"{p}: field 'items': " + ("a preset needs at least one item" if listed
                                                     else "required field is missing"))
    conditions, bad = _conditions(spec.perturbations, str(p))
    if bad:  # a preset-wide condition is part of the experiment for every item: refused before anything is asked
        raise PresetError(bad[0])
    names = {c.name for c in conditions}
    for item_id, own in builder.item_conditions.items():
        clash = names & {c.name for c in own}
        if clash:
            raise PresetError(f"{builder.where[item_id]}: perturbation '{sorted(clash)[0]}' is also a preset-wide "
                              "perturbation")
    _check_suites(f"{p}: field 'suites'", spec.suites)
    roots = tuple(dict.fromkeys((str(p.resolve().parent), str(ASSETS_DIR.resolve()), *user_image_roots(image_roots))))
    return Preset(
        name=spec.name or p.stem,
        path=str(p),
        sha256=hashlib.sha256(raw).hexdigest(),
        description=spec.description,
        prompt=spec.prompt,
        include_original=spec.include_original,
        conditions=tuple(conditions),
        items=tuple(builder.items),
        image_roots=roots,
        suites=tuple(spec.suites),
        item_conditions=builder.item_conditions,
        item_suites=builder.item_suites,
        step_errors=builder.step_errors,
    )


class _ItemsBuilder:
    """Validates and converts items one at a time, as the YAML reader hands them over; keeps only the items."""

    def __init__(self, path: Path, nodes: dict[str, Any] | None = None) -> None:
        self.path = path
        self.nodes = {} if nodes is None else nodes  # the item's YAML node, when streamed: its line for messages
        self.items: list[Item] = []
        self.ids: set[str] = set()
        self.item_conditions: dict[str, tuple[Condition, ...]] = {}
        self.item_suites: dict[str, tuple[str, ...]] = {}
        self.step_errors: dict[str, tuple[str, ...]] = {}  # item id → its own conditions that cannot run
        self.where: dict[str, str] = {}  # item id → how messages name it (items with their own perturbations)
        self.values = 0
        self.seen = 0

    def count(self, data: Any) -> None:
        """Alias bombs stop here: the document as a whole may hold at most ``MAX_PRESET_VALUES`` values."""
        self.values += yaml_size(data, MAX_PRESET_VALUES - self.values)
        if self.values > MAX_PRESET_VALUES:
            raise PresetError(f"{self.path}: the YAML expands to more than {MAX_PRESET_VALUES:,} values (aliases "
                              "repeating a structure?)")

    def add(self, raw: Any) -> None:
        self.count(raw)
        index, p = self.seen, self.path
        self.seen += 1
        try:
            it = ItemSpec.model_validate(raw)
        except ValidationError as exc:
            raise PresetError(_describe(p, exc, item=(index, raw), node=self.nodes.get("element"))) from None
        where = f"{p}: item {index + 1} ('{it.id}')"
        if it.id in self.ids:
            raise PresetError(f"{where}: field 'id': duplicate id")
        self.ids.add(it.id)
        self.items.append(_to_item(it, str(p)))
        if it.perturbations:
            self.item_conditions[it.id], bad = _conditions(it.perturbations, where)
            if bad:  # this item's own condition is left out and recorded; the rest runs
                self.step_errors[it.id] = tuple(bad)
            self.where[it.id] = where
        if it.suites:
            _check_suites(f"{where}: field 'suites'", it.suites)
            self.item_suites[it.id] = tuple(it.suites)


def _check_suites(where: str, names: list[str]) -> None:
    from probe_ui.presets.suites import SUITES  # here, not at the top: suites builds on presets

    for name in names:
        if name not in SUITES:
            raise PresetError(f"{where}: unknown suite '{name}'; known: {', '.join(SUITES)}")


def _conditions(specs: list[ConditionSpec], where: str) -> tuple[tuple[Condition, ...], list[str]]:
    """Validate named chains of steps: distinct names, known perturbations, parameters as each declares them.

    Returns the good conditions and, for each chain with a bad step, one line naming where, the perturbation, the
    condition and the parameter (e.g. "...: perturbation 'rotate' (condition 'tilt'): parameter 'angle': must be a
    number between -360 and 360, not '90deg'"); the caller decides whether that refuses the preset.
    """
    if len({c.name for c in specs}) != len(specs) or any(c.name == "original" for c in specs):
        raise PresetError(f"{where}: perturbation names must be distinct and not 'original'")
    conditions, bad = [], []
    for c in specs:
        for j, s in enumerate(c.steps):
            try:
                get_perturbation(s.op).validate({k: v for k, v in s.params().items() if k != "seed_group"})
            except PerturbationError as exc:
                step = f", step {j + 1}" if len(c.steps) > 1 else ""
                bad.append(f"{where}: perturbation '{s.op}' (condition '{c.name}'{step}): {exc}")
                break
        else:
            conditions.append(Condition(c.name, tuple((s.op, s.params()) for s in c.steps), tuple(c.only_tags)))
    return tuple(conditions), bad


def _to_item(spec: ItemSpec, source: str) -> Item:
    kind = spec.resolved_kind()
    raw_images = spec.images if spec.images is not None else ([spec.image] if spec.image is not None else [])
    images = tuple(
        ImageSource(path=im) if isinstance(im, str)
        else ImageSource(path=im.path, window=im.window, frame=im.frame, axis=im.axis, slice=im.slice)
        for im in raw_images
    )
    options = tuple(spec.options or ()) if kind == "choice" else tuple(spec.labels or ()) if kind == "label" else ()
    category = (spec.category,) if isinstance(spec.category, str) else tuple(spec.category)
    return Item(id=spec.id, question=spec.question, kind=kind, images=images, options=options,  # type: ignore[arg-type]
                answer=spec.answer_text(), category=category, tags=tuple(spec.tags), group=spec.group,
                attributes={**spec.attributes, **{k: v for k in ("patient", "study")
                                                   if (v := getattr(spec, k)) is not None},
                            **({"region": spec.boxes()} if spec.region else {})}, source=source)


def resolve_image(src: ImageSource, roots: tuple[str, ...], *, where: str) -> Path:
    """Find an item's image file in the preset's folder, the bundled assets or a folder the user allowed.

    The path is resolved (``..`` and symbolic links followed) and must end inside one of ``roots``.
    """
    candidates = [Path(src.path)] if Path(src.path).is_absolute() else [Path(r) / src.path for r in roots]
    outside = None
    for c in candidates:
        if c.is_file():
            real = c.resolve()
            if any(real.is_relative_to(Path(r).resolve()) for r in roots):
                return real
            outside = outside or real
    if outside is not None:
        raise PresetError(f"{where}: image '{src.path}' is outside the folders a preset may read (its own folder, "
                          f"the bundled assets, and folders you allow): allow its folder with --image-root DIR or "
                          f"{IMAGE_ROOTS_ENV}, or copy the image next to the preset")
    looked = ", ".join(str(Path(r)) for r in roots) if not Path(src.path).is_absolute() else src.path
    raise PresetError(f"{where}: image '{src.path}' not found (looked in {looked})")


def _describe(path: Path, exc: ValidationError, item: tuple[int, Any] | None = None, node: Any = None) -> str:
    """Turn pydantic's first error into 'file: item N ('id'): field 'x': message (line L, column C)' (``item``:
    index and raw item when an item failed; ``node``: the item's or the head's YAML node, for the line of the field,
    or of the mapping that lacks it)."""
    err = exc.errors()[0]
    loc = list(err["loc"])
    at = place(node, loc)
    msg = err["msg"].removeprefix("Value error, ")
    where = [str(path)]
    if item is not None:
        idx, raw = item
        item_id = raw.get("id") if isinstance(raw, dict) else None
        item_id = item_id if isinstance(item_id, str) and len(item_id) <= 200 else None
        where.append(f"item {idx + 1}" + (f" ('{item_id}')" if item_id else ""))
    elif len(loc) >= 2 and loc[0] == "perturbations" and isinstance(loc[1], int):
        where.append(f"perturbation {loc[1] + 1}")
        loc = loc[2:]
    field = ".".join(str(x) for x in loc)
    if field:
        where.append(f"field '{field}'")
    if err["type"] == "extra_forbidden":
        msg = "unknown field (check the spelling; see presets/README.md)"
    elif err["type"] == "missing":
        msg = "required field is missing"
    elif err["type"] == "model_type" and item is not None and not loc:
        msg = f"an item must be a mapping, not {type(item[1]).__name__}"
    return ": ".join(where) + f": {msg}{at}"


def item_yaml(item_id: str, question: str, kind: str, images: list[str], options: tuple[str, ...] | list[str],
              answer: str | None, category: tuple[str, ...] | list[str]) -> dict[str, Any]:
    """An item as a preset writes it (the inverse of the item fields above); callers add their extra fields."""
    out: dict[str, Any] = {"id": item_id, "question": question, "kind": kind}
    if len(images) == 1:
        out["image"] = images[0]
    elif images:
        out["images"] = list(images)
    if kind == "choice":
        out["options"] = list(options)
    elif kind == "label":
        out["labels"] = list(options)
    if answer is not None:
        out["answer"] = answer
    if category:
        out["category"] = list(category)
    return out


