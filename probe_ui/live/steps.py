"""Live probing: one item typed in by a person, its perturbed variants, and answers streamed back as they arrive.

This is the library behind the app's Probe tab (and usable from Python): build an item from form fields, turn a
table of perturbation steps into variants, ask several models at once and yield a card per model x variant as each
answer lands. Every answer is stored the moment it arrives, in a run of its own, so closing the page or killing the
app loses nothing that had finished.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from probe_ui import live_calls, prompts
from probe_ui.errors import ProbeUIError
from probe_ui.images import CanonicalImage, ImageError, LoadedImage, load_image
from probe_ui.items import KINDS, LETTERS, YES_NO, Item, Variant, content_hash, original_variant
from probe_ui.perturb import PerturbationError, PerturbContext
from probe_ui.perturb import get as get_perturbation
from probe_ui.presets import Condition
from probe_ui.providers.base import ModelConfig, Response
from probe_ui.runner import BatchError, Cell, execute_cells, plan_cells, public_config, resolve_each
from probe_ui.store import Store, StoreError
from probe_ui.suites import BundledImages, SuiteError, apply_condition, get_suite

log = logging.getLogger("probe_ui.live")


class ProbeError(ProbeUIError, ValueError):
    """The probe cannot be built or run as filled in; the message says what to fix and ``field`` names the
    field (question, options, answer, models, image, steps, set_name, ...), for the page to mark it."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


#: columns of the steps table: which variant a step belongs to, the perturbation, its parameters as JSON
STEP_COLUMNS = ["variant", "perturbation", "parameters"]
#: perturbations whose points a click on the image places
CLICKABLE = ("dots", "marker")


# ---- images ----------------------------------------------------------------------------------------------------
def load_upload(source: str | bytes, window: tuple[float, float] | None = None, frame: int | None = None,
                axis: int | None = None, slice: int | None = None, name: str | None = None) -> LoadedImage:
    """Load an uploaded file (a path, or bytes with their file ``name``) with the app's window and slice controls.

    Raises :class:`ImageError` naming the file for anything unreadable, too large or of the wrong type.
    """
    if window is not None and (window[1] is None or window[0] is None or float(window[1]) <= 0):
        window = None
    return load_image(source, name=name, window=window, frame=frame, axis=axis, slice=slice)


def take_upload(path: str) -> tuple[str, bytes]:
    """Read an uploaded file into memory and delete the web server's copy (name, bytes).

    A DICOM file's header (patient name, dates, ...) then does not stay in the server's upload cache; only the
    pixels derived from it are ever stored. Files over the loader's byte limit are refused before reading.
    """
    import os
    from pathlib import Path

    from probe_ui.images.loader import DEFAULT_MAX_BYTES, MAX_BYTES_ENV, env_limit

    p = Path(path)
    try:
        size = p.stat().st_size
        limit = env_limit(None, MAX_BYTES_ENV, DEFAULT_MAX_BYTES)
        if size > limit:
            raise ImageError(f"{p.name}: {size:,} bytes is over the {limit:,}-byte limit ({MAX_BYTES_ENV})")
        data = p.read_bytes()
    finally:
        try:
            os.unlink(p)
        except OSError:
            pass
    return p.name, data


def describe_loaded(li: LoadedImage) -> str:
    """One short paragraph for the page: format, size, window/slice, and which header fields were withheld."""
    from probe_ui import labels

    im = li.image
    parts = [f"**{li.format.upper()}** · {im.width}×{im.height} {im.mode} · image `{im.id[:12]}`"]
    info = li.info
    if "n_frames" in info and int(info.get("n_frames", 1)) > 1:
        parts.append(f"frame {info.get('frame', 0)} of {info['n_frames']}")
    if "n_slices" in info:
        parts.append(f"slice {info.get('slice')} of {info['n_slices']} (axis {info.get('axis')})")
    if info.get("window"):
        c, w = info["window"][:2]
        parts.append(f"window {c:g}/{w:g} (centre/width: {labels.window_source(info.get('window_source', 'file'))})")
    if li.phi_fields:
        parts.append(f"{len(li.phi_fields)} patient-identifying header fields withheld (never stored or sent)")
    text = " · ".join(parts)
    if li.warnings:  # they name the file: shown as text, never as Markdown
        from probe_ui.results import md_text

        text += "\n\n" + "\n".join(f"- ⚠ {md_text(w)}" for w in li.warnings)
    return text


#: DICOM window presets (centre, width) offered next to the numeric fields, as radiology viewers name them
WINDOW_PRESETS: dict[str, tuple[float, float]] = {
    "brain": (40, 80), "subdural": (75, 215), "stroke": (40, 40), "lung": (-600, 1500),
    "mediastinum": (50, 350), "bone": (400, 1800), "abdomen": (50, 400), "liver": (30, 150),
}
#: formats whose pixels a window, frame or slice choice changes (other images are shown and sent as they are)
WINDOWED = ("dicom", "nifti")


@dataclass(frozen=True)
class ImageControls:
    """What the page's image controls show for a freshly loaded image: its own defaults, never the last image's.

    ``window`` is the file's own window (DICOM: its tags, else the range the loader chose; NIfTI: its automatic
    range); None for PNG/JPEG/TIFF, which are shown and sent unwindowed. ``frame`` starts at 0; ``axis`` and
    ``slice`` are a NIfTI's (its middle slice), None otherwise."""

    format: str
    window: tuple[float, float] | None = None
    frame: int | None = None
    n_frames: int = 1
    axis: int | None = None
    slice: int | None = None
    n_slices: int | None = None

    @property
    def windowed(self) -> bool:
        return self.format in WINDOWED


def controls_for(li: LoadedImage) -> ImageControls:
    """The controls' values for a loaded image (see :class:`ImageControls`)."""
    info = li.info or {}
    if li.format not in WINDOWED:
        return ImageControls(li.format)
    win = info.get("window")
    window = (float(win[0]), float(win[1])) if isinstance(win, (list, tuple)) and len(win) >= 2 else None
    nifti = li.format == "nifti"
    return ImageControls(li.format, window, int(info.get("frame", 0) or 0), int(info.get("n_frames", 1) or 1),
                         int(info["axis"]) if nifti and info.get("axis") is not None else None,
                         int(info["slice"]) if nifti and info.get("slice") is not None else None,
                         int(info["n_slices"]) if nifti and info.get("n_slices") is not None else None)


def load_new_image(source: str | bytes, name: str | None = None) -> tuple[LoadedImage, ImageControls]:
    """A newly chosen image (an upload, a bundled image) with its OWN defaults: no window, frame or slice carried
    over from the image before it, so the pixels shown are the pixels the file holds."""
    li = load_upload(source, name=name)
    return li, controls_for(li)


def reload_image(source: str | bytes, name: str | None, window: tuple[float, float] | None, frame: int | None,
                 axis: int | None, slice: int | None) -> tuple[LoadedImage, ImageControls]:
    """The same file again with the page's window / frame / slice: these apply only to DICOM and NIfTI (a PNG
    is never re-windowed); the format is read from the file first."""
    li, ctl = load_new_image(source, name)
    if not ctl.windowed:
        return li, ctl
    li = load_upload(source, window=window, frame=frame, axis=axis if ctl.format == "nifti" else None,
                     slice=slice if ctl.format == "nifti" else None, name=name)
    return li, controls_for(li)


# ---- item fields -----------------------------------------------------------------------------------------------
def parse_options(text: str | list[str] | None) -> list[str]:
    """Options typed one per line (blank lines and surrounding spaces ignored)."""
    lines = text if isinstance(text, list) else (text or "").splitlines()
    return [s.strip() for s in lines if s and s.strip()]


def edit_options(text: str, action: str, index: int | None = None, new: str = "") -> str:
    """Add, remove or move one option; ``index`` is 1-based, as shown on the page."""
    opts = parse_options(text)
    if action == "add":
        if not new.strip():
            raise ProbeError("type the new option's text first")
        if new.strip() in opts:
            raise ProbeError(f"option {new.strip()!r} is already there")
        opts.append(new.strip())
        return "\n".join(opts)
    if index is None or not 1 <= int(index) <= len(opts):
        raise ProbeError(f"choose an option number between 1 and {len(opts)}" if opts else "there are no options yet")
    i = int(index) - 1
    if action == "remove":
        opts.pop(i)
    elif action in ("up", "down"):
        j = i - 1 if action == "up" else i + 1
        if 0 <= j < len(opts):
            opts[i], opts[j] = opts[j], opts[i]
    else:
        raise ProbeError(f"unknown option action {action!r}")
    return "\n".join(opts)


def answer_choices(kind: str, options_text: str) -> list[str]:
    """What the correct-answer picker offers for a kind: the options, yes/no, or nothing (free text)."""
    if kind == "yesno":
        return list(YES_NO)
    if kind in ("choice", "label"):
        return parse_options(options_text)
    return []


def build_item(question: str, kind: str, options: str | list[str], answer: str | None, category: str = "",
               images: tuple[CanonicalImage, ...] = (), item_id: str | None = None,
               extra: dict[str, Any] | None = None) -> Item:
    """An item from the Probe tab's fields, checked like a preset item; its id derives from its content.

    ``extra`` holds what a preset item brings beyond the fields (``attributes`` such as MedBLINK's dot rule,
    ``tags``, ``group``), so a loaded item is asked as the preset asks it."""
    question = (question or "").strip()
    if not question:
        raise ProbeError("type a question", field="question")
    if kind not in KINDS:
        raise ProbeError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    opts = parse_options(options) if kind in ("choice", "label") else []
    if kind in ("choice", "label"):
        if len(opts) < 2:
            raise ProbeError(f"a {kind} question needs at least two options (one per line)", field="options")
        if len(set(opts)) != len(opts):
            raise ProbeError("options must be distinct", field="options")
        if len(opts) > len(LETTERS):
            raise ProbeError(f"at most {len(LETTERS)} options", field="options")
    answer = (answer or "").strip() or None
    if answer is not None:
        if kind == "yesno":
            answer = answer.lower()
            if answer not in YES_NO:
                raise ProbeError(f"a yes/no question's answer is yes or no, not {answer!r}", field="answer")
        elif kind in ("choice", "label") and answer not in opts:
            if kind == "choice" and len(answer) == 1 and answer.upper() in LETTERS[: len(opts)]:
                answer = opts[LETTERS.index(answer.upper())]
            else:
                raise ProbeError(f"the correct answer {answer!r} is not one of the options", field="answer")
    cats = tuple(c.strip() for c in (category or "").split(",") if c.strip())
    extra = dict(extra or {})
    attributes = dict(extra.get("attributes") or {})
    ident = item_id or "live-" + content_hash({"q": question, "k": kind, "o": opts, "a": answer, "c": list(cats),
                                               "i": [im.id for im in images], "x": attributes}, 12)
    return Item(id=ident, question=question, kind=kind, options=tuple(opts), answer=answer,  # type: ignore[arg-type]
                category=cats, source="live", attributes=attributes, tags=tuple(extra.get("tags") or ()),
                group=extra.get("group"))


# ---- perturbation steps ----------------------------------------------------------------------------------------
def param_specs(op: str) -> list[Any]:
    """The declared parameters of a perturbation (:meth:`probe_ui.perturb.registry.Perturbation.specs`): what the
    page makes its controls from."""
    return get_perturbation(op).specs()


def values_from_controls(op: str, values: tuple[Any, ...] | list[Any]) -> dict[str, Any]:
    """The parameters a person set in the controls (in :func:`param_specs` order) as a params dict: an empty
    field means "the default" and is left out; a text field of a list, point or mapping parameter is read as
    JSON; numbers from sliders become ints where the parameter is an int."""
    out: dict[str, Any] = {}
    for spec, value in zip(param_specs(op), values):
        if value is None or (isinstance(value, str) and not value.strip()):
            continue
        if spec.kind in ("points", "point", "box", "list", "mapping", "json") and isinstance(value, str):
            try:
                value = json.loads(value)
            except json.JSONDecodeError:
                raise ProbeError(f"{op}: parameter '{spec.name}' takes JSON such as [[10, 20]], not {value!r}",
                                 field="steps") from None
        elif spec.kind in ("int", "float") and isinstance(value, float) and value.is_integer():
            value = int(value)  # as a preset writes 90: the same parameters give the same variant
        if not spec.required and value == spec.default:
            continue
        out[spec.name] = value
    return out


def default_parameters(op: str) -> str:
    """A perturbation's parameters with their defaults, as the JSON the steps table holds (required → null)."""
    import inspect

    params = {n: (None if d is inspect.Parameter.empty else d) for n, d in get_perturbation(op).parameters().items()}
    return json.dumps(params)


@dataclass(frozen=True)
class Step:
    variant: int
    op: str
    params: dict[str, Any]


def parse_steps(rows: list[list[Any]] | None) -> list[Step]:
    """The steps table → validated steps. Empty rows are skipped; a bad row raises naming its row number."""
    steps = []
    for n, row in enumerate(rows or [], 1):
        cells = [("" if c is None else c) for c in (list(row) + ["", "", ""])[:3]]
        if all(str(c).strip() == "" for c in cells):
            continue
        variant, op, raw = cells
        try:
            variant = int(float(variant)) if str(variant).strip() else 1
        except ValueError:
            raise ProbeError(f"step {n}: variant must be a number, not {variant!r}") from None
        op = str(op).strip()
        try:
            params = json.loads(raw) if str(raw).strip() else {}
        except json.JSONDecodeError as exc:
            raise ProbeError(f"step {n} ({op}): parameters are not valid JSON: {exc.msg} at column {exc.colno}"
                             ) from None
        if not isinstance(params, dict):
            raise ProbeError(f"step {n} ({op}): parameters must be a JSON object like {{\"angle\": 180}}")
        try:
            pert = get_perturbation(op)
        except PerturbationError as exc:
            raise ProbeError(f"step {n}: {exc}") from None
        # Unset optional parameters (null) mean "use the default"; required ones must be filled in.
        defaults = pert.parameters()
        params = {k: v for k, v in params.items() if not (v is None and k in defaults)}
        try:
            pert.validate(params)
        except PerturbationError as exc:
            raise ProbeError(f"step {n} ({op}): {exc}") from None
        steps.append(Step(variant, op, params))
    return steps


def add_step(rows: list[list[Any]] | None, op: str, params_json: str, new_variant: bool) -> list[list[Any]]:
    """Append a step: to a new variant, or chained onto the last variant's steps."""
    rows = [list(r) for r in (rows or []) if any(str(c).strip() for c in r if c is not None)]
    parse_steps([[1, op, params_json]])  # validate before adding
    last = max((int(float(r[0])) for r in rows if str(r[0]).strip()), default=0)
    variant = last + 1 if new_variant or last == 0 else last
    return rows + [[variant, op, params_json]]


def add_click(rows: list[list[Any]] | None, x: float, y: float) -> list[list[Any]]:
    """A click on the image adds a point to the last dots or marker step (creating a dots step if there is none).

    Dots collect points (``placement: given``); a marker's arrow points at the click (a box or circle is centred
    on it).
    """
    rows = [list(r) for r in (rows or [])]
    target = next((i for i in range(len(rows) - 1, -1, -1) if str(rows[i][1]).strip() in CLICKABLE), None)
    point = [round(float(x)), round(float(y))]
    if target is None:
        last = max((int(float(r[0])) for r in rows if str(r[0]).strip()), default=0)
        rows.append([last + 1, "dots", json.dumps({"placement": "given", "points": [point]})])
        return rows
    op = str(rows[target][1]).strip()
    try:
        params = json.loads(rows[target][2] or "{}")
    except json.JSONDecodeError:
        params = {}
    params = {k: v for k, v in params.items() if v is not None}
    if op == "dots":
        params["placement"] = "given"
        params["relative"] = False
        params["points"] = list(params.get("points") or []) + [point]
        params.pop("n", None)
    else:
        shape = params.get("shape", "arrow")
        params["relative"] = False
        if shape == "arrow":
            params["arrow"] = point
        elif shape == "circle":
            params["circle"] = point + [(params.get("circle") or [20])[-1]]
        else:
            params["box"] = [point[0] - 20, point[1] - 20, point[0] + 20, point[1] + 20]
    rows[target][2] = json.dumps(params)
    return rows


def steps_without_points(rows: list[list[Any]] | None) -> tuple[list[list[Any]], list[str]]:
    """The steps kept when the image changes: dots placed at given points and markers at given coordinates were
    placed on the previous image's pixels, so they are dropped (and named, for the page to say so)."""
    kept: list[list[Any]] = []
    dropped: list[str] = []
    for r in rows or []:
        cells = list(r) + ["", "", ""]
        op = str(cells[1]).strip()
        try:
            params = json.loads(cells[2]) if str(cells[2]).strip() else {}
        except json.JSONDecodeError:
            params = {}
        placed = isinstance(params, dict) and (
            (op == "dots" and (params.get("points") or params.get("placement") == "given"))
            or (op == "marker" and any(params.get(k) for k in ("box", "circle", "arrow", "tail"))))
        if placed:
            dropped.append(f"step {len(kept) + len(dropped) + 1} ({op})")
        else:
            kept.append(list(r))
    return kept, dropped


def condition_name(steps: list[Step]) -> str:
    """A readable name for a chain: ``rotate(angle=180)+shuffle``."""
    def one(s: Step) -> str:
        shown = {k: v for k, v in s.params.items() if k not in ("answer_map", "points")}
        args = ",".join(f"{k}={v}" for k, v in shown.items())
        return f"{s.op}({args})" if args else s.op
    return "+".join(one(s) for s in steps)


def named_chains(steps: list[Step]) -> list[tuple[str, list[Step]]]:
    """Steps grouped by variant number, each chain with a distinct readable name."""
    by_variant: dict[int, list[Step]] = {}
    for s in steps:
        by_variant.setdefault(s.variant, []).append(s)
    out, names = [], set()
    for n, chain in sorted(by_variant.items()):
        name = condition_name(chain)
        if name in names or name == "original":
            name = f"{name}#{n}"
        names.add(name)
        out.append((name, chain))
    return out


def make_variants(item: Item, images: tuple[CanonicalImage, ...], steps: list[Step], *, seed: int = 0,
                  suite: str | None = None, include_original: bool = True,
                  pool: tuple[Variant, ...] = (), suites: tuple[str, ...] | list[str] = ()) -> list[Variant]:
    """The original (optionally), one variant per variant number in the steps, and each suite's variants
    (``suite`` and ``suites``)."""
    base = original_variant(item, images)
    ctx = PerturbContext(pool=pool, images=BundledImages())
    out = [base] if include_original else []
    conditions = [Condition(name, tuple((s.op, s.params) for s in chain)) for name, chain in named_chains(steps)]
    for name in dict.fromkeys([*([suite] if suite else []), *suites]):
        try:
            conditions += get_suite(name).for_variant(base, ctx)
        except SuiteError as exc:
            raise ProbeError(str(exc)) from None
    for cond in conditions:
        try:
            out.append(apply_condition(base, cond.name, cond.steps, seed, ctx))
        except (PerturbationError, ImageError) as exc:
            raise ProbeError(f"perturbation '{cond.name}': {exc}") from None
    if not out:
        raise ProbeError("nothing to ask: tick 'include the original' or add a perturbation step")
    return out


def preview(variants: list[Variant], prompt: str | None = None) -> list[dict[str, Any]]:
    """Each variant's images and the exact text a model receives (as the template renders it), with what was
    done to it in words (``label``)."""
    from probe_ui.conditions import describe

    rows = []
    for v in variants:
        template = prompts.template_for(v, prompt)
        ims, text = prompts.preview(v, template.name)
        rows.append({"variant": v.id, "condition": v.condition, "label": describe(v.provenance, v.condition),
                     "images": list(ims), "prompt": text, "answer": v.answer_label, "template": template.name})
    return rows


def steps_in_words(rows: list[list[Any]] | None) -> str:
    """The steps table as a clinician reads it: one line per variant, its chain in words."""
    from probe_ui.conditions import describe

    try:
        steps = parse_steps(rows)
    except ProbeError as exc:
        return f"⚠ {exc}"
    if not steps:
        return ""
    lines = [f"- variant {n}: " + describe([{"op": s.op, "params": s.params} for s in chain])
             for n, chain in ((c[0].variant, c) for _, c in named_chains(steps))]
    return "\n".join(lines)


def with_pending_points(image: CanonicalImage, rows: list[list[Any]] | None) -> CanonicalImage:
    """The image with the last dots / marker step drawn on it, so a click shows its dot at once (what that
    variant will be sent); the image unchanged when there is no such step or it cannot be drawn yet."""
    steps = [s for s in parse_steps(rows) if s.op in CLICKABLE]
    if not steps:
        return image
    last = steps[-1]
    item = Item(id="preview", question="?", kind="free")
    try:
        v = apply_condition(original_variant(item, (image,)), "preview", ((last.op, last.params),), 0)
    except (PerturbationError, ImageError):
        return image
    return v.images[0] if v.images else image


def preset_item_ids(path: str) -> list[str]:
    """The ids of a preset's items, for the item picker."""
    from probe_ui.presets import load_preset

    return [it.id for it in load_preset(path).items]


def ratings_of(store: Store, run: str) -> dict[int, tuple[str, str]]:
    """A run's latest rating and note per answer id (for the comparison table's cells). Read once, then from
    memory until a rating is written through this store: a table redrawn ~20 times while a probe streams reads
    its ratings once, not 20 times."""
    if not run:
        return {}
    key = (id(store), run)
    with _RATINGS_LOCK:
        seen = _RATINGS.get(key)
    if seen is not None and seen[0] is store and seen[1] == store.ratings_written:
        return dict(seen[2])
    written = store.ratings_written
    df = store.ratings_frame(store.get_run(run).id)
    out = {int(r["response_id"]): (str(r["rating"]), str(r["note"] or "")) for r in df.to_dict("records")}
    with _RATINGS_LOCK:
        _RATINGS[key] = (store, written, out)
        while len(_RATINGS) > _RATINGS_KEPT:
            _RATINGS.pop(next(iter(_RATINGS)))
    return dict(out)


#: the ratings of the runs redrawn last, by (store, run): (the store, its ratings_written when read, ratings)
_RATINGS: dict[tuple[int, str], tuple[Store, int, dict[int, tuple[str, str]]]] = {}
_RATINGS_KEPT = 256
_RATINGS_LOCK = threading.Lock()


def rating_of(store: Store, response_id: int) -> tuple[str | None, str]:
    """One answer's latest rating and note (None, "" when unrated)."""
    return store.latest_rating(response_id)


def not_yet_run(store: Store, run: str, chosen: list[str]) -> list[str]:
    """The models ticked now that ``run`` did not ask (ticked while it ran, or since): the page marks them "not
    yet run" until Run asks them."""
    if not run:
        return []
    try:
        s = store.get_run(run).config
    except StoreError:
        return []
    asked = set(s.asked) | {m.get("name") for m in s.model_records}
    return [m for m in dict.fromkeys(chosen) if m not in asked]


def comparison_of(store: Store, run: str) -> Any:
    """A stored run as the comparison table (:func:`probe_ui.comparison.from_answers` over its scored answers)."""
    from probe_ui.comparison import from_answers
    from probe_ui.scoring import scored_answers

    settings = store.get_run(run).config
    table = from_answers(scored_answers(store, run), run, order=settings.variant_order or None)
    asked = settings.asked
    order = {m: i for i, m in enumerate(asked)}  # the columns in the order the models were chosen, as it ran
    table.models.sort(key=lambda m: order.get(m, len(order)))
    return table


# ---- a preset item, whole ----------------------------------------------------------------------------------------
@dataclass
class LoadedItem:
    """Everything a preset asks of one item, for the Probe tab to show and ask exactly that."""

    item: Item
    images: tuple[CanonicalImage, ...]
    loaded: list[LoadedImage]
    steps: list[list[Any]]  # the preset's and the item's own perturbation chains, as step rows
    suites: tuple[str, ...]
    include_original: bool
    extra: dict[str, Any]  # attributes, tags, group: kept with the item when it is asked
    dropped: list[str] = field(default_factory=list)  # the item's own steps its preset could not use, and why

    @property
    def options_text(self) -> str:
        return "\n".join(self.item.options)


def load_preset_item(path: str, item_id: str, image_roots: tuple[str, ...] = ()) -> LoadedItem:
    """One item of a preset with all of it: question, options, answer, category, attributes, its images, the
    perturbation chains the preset applies to it (preset-wide ones that fit its tags, and its own), its suites
    and whether the preset asks the original."""
    from probe_ui.presets import load_preset
    from probe_ui.suites import load_item_images

    if not path or not item_id:
        raise ProbeError("choose a preset and one of its items")
    p = load_preset(path, image_roots)
    it = next((i for i in p.items if i.id == item_id), None)
    if it is None:
        raise ProbeError(f"no item {item_id!r} in {path}")
    ims, loaded = load_item_images(it, p.image_roots)
    conditions = [c for c in p.conditions if c.applies_to(it)] + list(p.item_conditions.get(it.id, ()))
    rows = [[n, op, json.dumps(params)] for n, c in enumerate(conditions, 1) for op, params in c.steps]
    suites = tuple(dict.fromkeys([*p.suites, *p.item_suites.get(it.id, ())]))
    return LoadedItem(it, ims, loaded, rows, suites, p.include_original,
                      {"attributes": dict(it.attributes), "tags": list(it.tags), "group": it.group},
                      list(p.step_errors.get(it.id, ())))


# ---- asking models ---------------------------------------------------------------------------------------------
@dataclass
class Card:
    """One model's answer to one variant, as the page shows it."""

    model: str
    variant_id: str
    condition: str
    expected: str | None
    status: str = "waiting"  # waiting | answered | error
    raw: str = ""
    parsed: str | None = None
    correct: bool | None = None
    latency_s: float | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost: float | None = None
    error: str | None = None
    response_id: int | None = None
    cached: bool = False

    @property
    def key(self) -> tuple[str, str]:
        return (self.variant_id, self.model)


@dataclass
class LiveRun:
    """The state of a live probe while it streams: the run's name and one card per model x variant."""

    run: str
    cards: list[Card] = field(default_factory=list)
    finished: bool = False

    @property
    def done(self) -> int:
        return sum(c.status != "waiting" for c in self.cards)


def live_run_name(item_id: str) -> str:
    stamp = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S-%f")[:-3]
    return f"live-{stamp}-{item_id.removeprefix('live-')[:8]}"


def run_live(store: Store, variants: list[Variant], specs: list[str], *, seed: int = 0, prompt: str | None = None,
             extra_models: dict[str, ModelConfig] | None = None, run_name: str | None = None,
             use_cache: bool = True, cancel: threading.Event | None = None, user: str | None = None,
             coalesce_s: float = 0.0) -> Iterator[LiveRun]:
    """Ask every model every variant at once; yield the cards each time an answer (or error) arrives. The run
    records ``user`` as who made it (default: the system user). ``coalesce_s``: answers that arrive within that
    many seconds of one another are yielded together, once (a page redrawn for each of 8 answers that arrive
    together costs 8 redraws, for each of 50 people at once); never later than that after an answer arrives. The
    last answers come with the finished state, in one yield.

    Models are checked before anything is sent: one that cannot run here (no key, no server, an unknown name)
    gets cards that say why, and the others are asked. The calls run on a background thread, so a slow model
    holds up only its own cards, and a caller that stops reading (a closed page) does not stop answers from
    being stored.
    """
    if not variants:
        raise ProbeError("nothing to ask: no variants")
    if prompt and prompt not in prompts.TEMPLATES:
        raise ProbeError(f"unknown prompt template '{prompt}'")
    wanted = list(dict.fromkeys(s.strip() for s in specs if s and s.strip()))
    if not wanted:
        raise ProbeError("choose at least one model (the baselines need no key)")
    models, unusable = resolve_each(wanted, extra_models)
    name = run_name or live_run_name(variants[0].item_id)
    cells = plan_cells(variants, models, prompt, seed)
    run = store.ensure_run(name, seed, {"kind": "live", "models": [public_config(m) for m in models],
                                        "asked": wanted, "prompt": prompt, "seed": seed,
                                        "planned": len(cells) + len(unusable) * len(variants),
                                        "items": sorted({v.item_id for v in variants}),
                                        # the rows in the order they were asked: answers arrive in any order
                                        "variant_order": list(dict.fromkeys(v.id for v in variants))},
                           created_by=user)
    store.add_variants(run.id, variants)
    failed = _failed_cards(store, run.id, variants, unusable, prompt, seed, extra_models)
    if not models:
        store.touch_run(run.id)
        yield LiveRun(run=run.name, cards=failed, finished=True)
        return
    cards = [Card(c.model.name, c.variant.id, c.variant.condition, c.variant.answer_label) for c in cells] + failed
    order = {m: i for i, m in enumerate(wanted)}  # columns in the order the models were chosen
    cards.sort(key=lambda c: order.get(c.model, len(order)))
    state = LiveRun(run=run.name, cards=cards)
    index = {card.key: card for card in state.cards}
    events: queue.Queue[tuple[Cell, Response, dict[str, Any], int | None] | BaseException | None] = queue.Queue()
    calls: dict[str, int] = {}
    for c in cells:
        calls[c.model.name] = calls.get(c.model.name, 0) + 1

    async def ask_all() -> None:
        pool = live_calls.LivePool(name, user, calls)
        try:
            await execute_cells(store, run, cells, pool, lambda c, r: None, use_cache=use_cache, cancel=cancel,
                                on_stored=lambda c, r, row, rid: events.put((c, r, row, rid)), store_off_loop=True)
        finally:
            await pool.aclose()

    def work() -> None:
        try:  # on the live probes' shared loop: their fair limits and HTTP clients (probe_ui.live_calls)
            live_calls.run(ask_all())
        except BaseException as exc:  # reported on the page, never lost silently
            events.put(exc)
        finally:
            store.touch_run(run.id)
            events.put(None)

    threading.Thread(target=work, name=f"probe-ui live {name}", daemon=True).start()
    yield state
    ended = False
    while not ended:
        batch = [events.get()]
        deadline = time.monotonic() + coalesce_s
        while batch[-1] is not None and (left := deadline - time.monotonic()) > 0:
            try:
                batch.append(events.get(timeout=left))
            except queue.Empty:
                break
        for ev in batch:
            if ev is None:
                ended = True
            elif isinstance(ev, BaseException):
                for card in state.cards:
                    if card.status == "waiting":
                        card.status, card.error = "error", f"{type(ev).__name__}: {ev}"
            else:
                cell, resp, row, rid = ev
                _fill(index[(cell.variant.id, cell.model.name)], store, run.id, cell, resp, row, rid)
        if not ended:  # the last answers go out with the finished table, in one redraw
            yield state
    for card in state.cards:  # cancelled before sending
        if card.status == "waiting":
            card.status, card.error = "error", "cancelled before it was sent"
    state.finished = True
    yield state


def _failed_cards(store: Store, run_id: int, variants: list[Variant], unusable: dict[str, str], prompt: str | None,
                  seed: int, extra_models: dict[str, ModelConfig] | None) -> list[Card]:
    """The cards of models that cannot be asked here, each stored as a failed call with its reason
    (:func:`probe_ui.runner.unusable_rows`): a redraw of the table, and the Results tab, still show them."""
    from probe_ui.runner import unusable_rows

    cards = []
    for cell, row in unusable_rows(run_id, variants, unusable, prompt, seed, extra_models):
        card = Card(cell.model.name, cell.variant.id, cell.variant.condition, cell.variant.answer_label,
                    status="error", error=row["error"])
        try:
            store.save_response(row)
            card.response_id = store.response_id(run_id, cell.variant.id, cell.model.name, row["prompt"],
                                                 row["sample"])
        except StoreError as exc:  # e.g. a model name too long to be a key: the card still says why
            log.info("a failed call was not stored: %s", exc)
        cards.append(card)
    return cards


def _fill(card: Card, store: Store, run_id: int, cell: Cell, resp: Response, row: dict[str, Any],
          rid: int | None) -> None:
    """A card from the row just stored (no read back); read from the store only when the store kept another row
    for the cell (another process answered it first, or the reply could not be stored)."""
    if rid is None:
        rid = store.response_id(run_id, cell.variant.id, cell.model.name, cell.request.prompt, cell.request.sample)
        row = store.get_response(rid) if rid is not None else {}
    card.response_id = rid
    card.raw = resp.text or ""
    card.latency_s = resp.latency_s
    card.input_tokens, card.output_tokens = resp.input_tokens, resp.output_tokens
    card.cost = row.get("cost", resp.cost)
    card.cached = bool((resp.details or {}).get("cached_from"))
    if resp.error is not None:
        card.status, card.error = "error", resp.error
    else:
        card.status = "answered"
        card.parsed, card.correct = row.get("parsed"), row.get("correct")


__all__ = [
    "BatchError", "Card", "LiveRun", "ProbeError", "STEP_COLUMNS", "Step", "add_click", "add_step",
    "answer_choices", "build_item", "condition_name", "default_parameters", "describe_loaded", "edit_options",
    "load_upload", "make_variants", "named_chains", "parse_options", "parse_steps", "preview", "run_live",
]
