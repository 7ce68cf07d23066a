"""Perturbation steps on the Probe tab: the steps table parsed and added to (by hand or by a click on the
image), chains named and turned into variants, each variant previewed as sent, the steps in words."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from probe_ui import prompts
from probe_ui.errors import ProbeError
from probe_ui.images import CanonicalImage, ImageError
from probe_ui.items import Item, Variant, original_variant
from probe_ui.perturb import PerturbationError, PerturbContext
from probe_ui.perturb import get as get_perturbation
from probe_ui.presets import Condition
from probe_ui.presets.suites import BundledImages, SuiteError, apply_condition, get_suite

#: columns of the steps table: which variant a step belongs to, the perturbation, its parameters as JSON
STEP_COLUMNS = ["variant", "perturbation", "parameters"]
#: perturbations whose points a click on the image places
CLICKABLE = ("dots", "marker")


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
