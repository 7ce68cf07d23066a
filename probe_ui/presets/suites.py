"""From a preset to variants, and the named stress suites of the probing papers.

A suite turns each item into a group of variants: the original plus one variant per condition (a named chain of
perturbation steps). Each suite names the metrics that read its groups. The suites every benchmark may use
(rotations, circular, severity) are here; a benchmark's own suites are in its folder
(``probe_ui/benchmarks/<name>/suite.py``). Add a suite with one conditions function and one :func:`register_suite`
call, in a benchmark's folder or a plugin file.

Loading errors are per item: a missing or unreadable image is reported for that item and the rest go on.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from probe_ui.errors import ProbeUIError
from probe_ui.images import CanonicalImage, ImageError
from probe_ui.items import Item, Variant, original_variant
from probe_ui.perturb import PerturbationError, PerturbContext, Sweep, apply, derive_seed, sweeps
from probe_ui.presets import ASSETS_DIR, Condition, Preset, PresetError, resolve_image
from probe_ui.registry import Registry

if TYPE_CHECKING:
    from probe_ui.images import LoadedImage


def _load(path: Path, **options: Any) -> LoadedImage:
    """:func:`probe_ui.images.load_image`, imported when an image is first loaded (numpy and the format readers:
    listing suites or perturbations needs none of them)."""
    from probe_ui.images import load_image

    return load_image(path, **options)


class SuiteError(ProbeUIError, ValueError):
    """Unknown suite name."""


@dataclass
class ItemError:
    source: str
    item_id: str
    message: str


@dataclass
class Expansion:
    variants: list[Variant] = field(default_factory=list)
    errors: list[ItemError] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


Step = tuple[str, dict[str, Any]]


def condition(name: str, *steps: Step) -> Condition:
    """A named chain of perturbation steps: a suite's condition (``condition("rot90", ("rotate", {"angle": 90}))``)."""
    return Condition(name, tuple(steps))


def partners(v: Variant, ctx: PerturbContext) -> list[Variant]:
    """The items of the preset that ask the same question with the same options about another image (a
    MediConfusion pair's other half; the Illusion paper's visual substitution)."""
    opts = {o.lower() for o in v.options}
    return [o for o in ctx.others(v)
            if o.images and o.question == v.question and {x.lower() for x in o.options} == opts]



@dataclass(frozen=True)
class Suite:
    name: str
    description: str
    metrics: tuple[str, ...]  # registered metric families (probe_ui.metrics.registry), checked when it is imported
    conditions: Callable[[Variant, PerturbContext], list[Condition]]
    label: str = ""  # its name in menus ("" : its code name in words)

    def for_variant(self, v: Variant, ctx: PerturbContext) -> list[Condition]:
        """The suite's conditions for one item, names prefixed by the suite (``illusion/no-image``)."""
        return [Condition(f"{self.name}/{c.name}", c.steps, c.only_tags) for c in self.conditions(v, ctx)]


def _rotations(v: Variant, ctx: PerturbContext) -> list[Condition]:
    if not v.images:
        return []
    return [condition(f"rot{a}", ("rotate", {"angle": a})) for a in (90, 180, 270)]


# ---- the severity sweep (robustness curves) ------------------------------------------------------------------
#: a perturbation is swept when it declares a :class:`probe_ui.perturb.Sweep` where it is registered (the image
#: degradations of :mod:`probe_ui.perturb.degrade` over severities 1-5; rotation over angles in degrees)
SEVERITY_SUITE = "severity"
_SEVERITY_NAME = re.compile(r"^severity/([a-z_]+)-(\d+)$")


def sweep_perturbations() -> tuple[str, ...]:
    """The perturbations that have a sweep, in their sweeps' order (the ``severity`` suite's, the Stress tab's)."""
    return tuple(sweeps())


def sweep_of(perturbation: str) -> Sweep:
    """The sweep a perturbation declares; a SuiteError naming the swept ones for any other."""
    found = sweeps().get(perturbation)
    if found is None:
        known = ", ".join(sweep_perturbations())
        raise SuiteError(f"unknown sweep perturbation '{perturbation}'; known: {known}")
    return found


def default_levels(perturbation: str) -> tuple[int, ...]:
    """The levels the ``severity`` suite sweeps for one perturbation: its sweep's (severities 1-5, rotation's
    angles)."""
    return sweep_of(perturbation).levels


def severity_condition(perturbation: str, level: int) -> Condition:
    """One level of a sweep as a condition named ``severity/<perturbation>-<level>`` (the name the
    ``robustness_curves`` metric reads): the perturbation with its sweep's parameter at ``level`` (a degradation's
    ``severity``, rotation's ``angle`` in degrees)."""
    sweep = sweep_of(perturbation)
    if isinstance(level, bool) or not isinstance(level, int) or level < 1 or level > sweep.top:
        raise SuiteError(f"{perturbation}: level must be a whole number 1..{sweep.top_words()}, not {level!r}")
    return Condition(f"{SEVERITY_SUITE}/{perturbation}-{level}", ((perturbation, {sweep.param: level}),))


def sweep_conditions(perturbation: str, levels: tuple[int, ...] | list[int] | None = None) -> list[Condition]:
    """The conditions of a sweep over one perturbation (the Stress tab's perturbation and range), named as the
    ``severity`` suite names them; ``levels`` defaults to :func:`default_levels`. Apply them to an original with
    :func:`apply_condition`."""
    return [severity_condition(perturbation, int(lv)) for lv in sorted(set(levels or default_levels(perturbation)))]


def parse_severity_condition(condition: str) -> tuple[str, int] | None:
    """(perturbation, level) of a sweep condition (``severity/blur-3`` → ("blur", 3)); None for any other."""
    m = _SEVERITY_NAME.match(str(condition))
    return (m.group(1), int(m.group(2))) if m and m.group(1) in sweeps() else None


def is_orientation_question(v: Variant) -> bool:
    """Whether an item asks about the image's orientation (MedBLINK's "correct or upside down?"): rotating its
    image moves its answer, so the sweep does not rotate it (the answer after 15° or 45° is not defined)."""
    text = " ".join([v.question, *v.options, *v.tags, str(v.attributes.get("task") or "")]).lower()
    return "upside down" in text or "upside-down" in text or "orientation" in text


def skips(perturbation: str, v: Variant) -> bool:
    """Whether a sweep over ``perturbation`` leaves ``v`` out: one that turns the image, for an orientation
    question (its answer would move)."""
    return sweep_of(perturbation).turns_image and is_orientation_question(v)


def _severity(v: Variant, ctx: PerturbContext) -> list[Condition]:
    if not v.images:
        return []
    perts = [p for p in sweep_perturbations() if not skips(p, v)]
    return [Condition(c.name.split("/", 1)[1], c.steps) for p in perts for c in sweep_conditions(p)]


def _circular(v: Variant, ctx: PerturbContext) -> list[Condition]:
    if v.kind != "choice":
        return []
    return [condition(f"shift{s}", ("cyclic_shift", {"shift": s})) for s in range(1, len(v.options))]


#: the visual-reliance suite's conditions (probe_ui.metrics.visual_reliance reads them by these names)
VISUAL_CONTROLS = ("blank", "noise", "no-image")


def _visual_reliance(v: Variant, ctx: PerturbContext) -> list[Condition]:
    if not v.images:
        return []
    return [condition("blank", ("blank", {})), condition("noise", ("noise_image", {})),
            condition("no-image", ("remove", {}))]


def _pushback(v: Variant, ctx: PerturbContext) -> list[Condition]:
    from probe_ui.perturb.pressures import pressure_names

    if not v.labels:
        return []
    return [condition(p, ("pushback", {"pressure": p})) for p in pressure_names()]


#: every suite, in menu order: the shared ones below, then each benchmark folder's (``probe_ui/benchmarks/<name>/
#: suite.py``), then plugins' (:func:`register_suite`)
SUITES: Registry[Suite] = Registry("suite", packages=("probe_ui.benchmarks",), only=("suite",), error=SuiteError,
                                ordered=True)
for _s in (
    Suite("rotations", "the image at 90, 180 and 270 degrees; content answers must not change",
          ("groups",), _rotations,
          label="rotations (90°, 180°, 270°)"),
    Suite("circular", "CircularEval: every cyclic shift of the options; right only if right in all",
          ("groups",), _circular,
          label="every order of the options (CircularEval)"),
    Suite(SEVERITY_SUITE, "every image degradation (noise, blur, jpeg, contrast, brightness, crop, downscale) at "
          "severities 1-5 and rotation by 15, 30, 45, 90 and 180 degrees, named severity/<perturbation>-<level>; "
          "answers unchanged; orientation questions are not rotated", ("robustness_curves",), _severity,
          label="every image degradation, severities 1-5"),
    Suite("visual-reliance", "the question asked three more ways: with a blank image (one grey level), a noise "
          "image (each the original's size) and no image; does the answer need the pixels?", ("visual_reliance",),
          _visual_reliance,
          label="blank, noise and no image: does it need the pixels?"),
    Suite("pushback", "after the model's own answer, one pushback turn per pressure type (doubt, expert, "
          "authority, consensus, emotional, guideline, self_doubt) in the same conversation; the stored answer is "
          "the one after the pushback, the first one kept with it", ("pushback",), _pushback,
          label="push back after its answer, each pressure type once"),
):
    SUITES.add(_s.name, _s)


def register_suite(s: Suite) -> Suite:
    """Add a suite (a plugin's; :meth:`Registry.put`)."""
    return SUITES.put(s)  # type: ignore[no-any-return]


def describe_suites() -> list[dict[str, Any]]:
    return [{"name": s.name, "description": s.description, "metrics": ", ".join(s.metrics)} for s in SUITES.values()]


def get_suite(name: str) -> Suite:
    return SUITES.get(name)


class BundledImages(Mapping[str, CanonicalImage]):
    """The bundled assets by file name, loaded only when a perturbation asks for one."""

    def __init__(self) -> None:
        self._cache: dict[str, CanonicalImage] = {}

    def __getitem__(self, name: str) -> CanonicalImage:
        if name not in self._cache:
            path = ASSETS_DIR / name
            if "/" in name or "\\" in name or not path.is_file():
                raise KeyError(name)
            self._cache[name] = _load(path).image
        return self._cache[name]

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(p.name for p in ASSETS_DIR.glob("*.png")))

    def __len__(self) -> int:
        return sum(1 for _ in self)


class ImageFiles:
    """Image files loaded once per run, not once per item that names them.

    Loading means decoding, canonicalising and (on first use) PNG-encoding and hashing: 13 files named by 200 items
    are 13 loads, and the items share the same :class:`CanonicalImage` objects, so each is hashed once. Keyed by the
    resolved path, the file's size and modification time and the load options; failures are remembered too. Least
    recently used entries go once the decoded pixels held pass ``max_bytes``, so a preset of 100k distinct images
    keeps only a window of them.
    """

    def __init__(self, max_bytes: int = 256 * 1024 * 1024) -> None:
        from collections import OrderedDict

        self.max_bytes = max_bytes
        self.loads = 0  # files actually read (for tests and benchmarks)
        self._held = 0
        self._entries: OrderedDict[tuple[Any, ...], tuple[LoadedImage | ImageError, int]] = OrderedDict()

    def load(self, path: Path, options: dict[str, Any]) -> LoadedImage:
        """The loaded image (raises the remembered :class:`ImageError`, whose message names the file)."""
        st = path.stat()
        key = (str(path), st.st_size, st.st_mtime_ns, tuple(sorted(options.items())))
        hit = self._entries.get(key)
        if hit is None:
            self.loads += 1
            try:
                value: LoadedImage | ImageError = _load(path, **options)
            except ImageError as exc:
                value = exc
            size = 0 if isinstance(value, ImageError) else value.image.width * value.image.height * 4
            hit = self._entries[key] = (value, size)
            self._held += size
            while self._held > self.max_bytes and len(self._entries) > 1:
                _, (_, freed) = self._entries.popitem(last=False)
                self._held -= freed
        else:
            self._entries.move_to_end(key)
        if isinstance(hit[0], ImageError):
            raise ImageError(str(hit[0]))
        return hit[0]


def load_item_images(item: Item, roots: tuple[str, ...], files: ImageFiles | None = None,
                     ) -> tuple[tuple[CanonicalImage, ...], list[LoadedImage]]:
    """Load an item's images (through ``files`` when given, so a file named by many items is read once); raise
    ``ImageError``/``PresetError`` naming the item and file."""
    where = f"{item.source}: item '{item.id}'"
    loaded = []
    for src in item.images:
        path = resolve_image(src, roots, where=where)
        try:
            loaded.append(files.load(path, src.load_options()) if files is not None
                          else _load(path, **src.load_options()))
        except ImageError as exc:
            raise ImageError(f"{where}: {exc}") from None
    return tuple(li.image for li in loaded), loaded


def expand(preset: Preset, seed: int, suites: tuple[str, ...] | list[str] = (),
           files: ImageFiles | None = None) -> Expansion:
    """All variants of a preset, in a list (see :func:`stream_variants`, which a batch uses instead)."""
    out = Expansion()
    for x in stream_variants(preset, seed, suites, files):
        if isinstance(x, Variant):
            out.variants.append(x)
        elif isinstance(x, ItemError):
            out.errors.append(x)
        else:
            out.warnings.append(x)
    return out


def stream_variants(preset: Preset, seed: int, suites: Sequence[str] = (),
                    files: ImageFiles | None = None) -> Iterator[Variant | ItemError | str]:
    """Each item's original (unless switched off), one variant per preset condition, and one per condition of each
    named suite (the preset's own ``suites`` plus those given here), yielded as they are made, with an
    :class:`ItemError` for an item that cannot be loaded or perturbed and a warning (text) where loading warned.

    With conditions or suites, the items' images are loaded first (each file once, through ``files``), since suites
    and swaps draw on the other items; the variants then follow one item at a time, so a batch asks the first while
    the rest are still being made, and memory holds the originals, not every variant. Without, each original is
    yielded as soon as it is loaded and not kept. A condition given twice (an imported
    preset's own chains plus the same --suite) is one variant, yielded once.
    """
    chosen = [get_suite(s) for s in dict.fromkeys([*preset.suites, *suites])]
    files = files if files is not None else ImageFiles()
    # with no condition and no suite nothing draws on the other items: each original goes out as soon as it is loaded
    plain = not (chosen or preset.conditions or preset.item_conditions or preset.item_suites)
    seen: set[str] = set()
    for item_id, lines in preset.step_errors.items():  # an item's own conditions that cannot run: recorded
        for line in lines:
            yield ItemError(preset.path, item_id, line)
    originals: list[Variant] = []
    for item in preset.items:
        try:
            images, loaded = load_item_images(item, preset.image_roots, files)
        except (ImageError, PresetError) as exc:
            yield ItemError(preset.path, item.id, str(exc))
            continue
        for li in loaded:
            for w in li.warnings:
                yield f"{preset.path}: item '{item.id}': {w}"
        base = original_variant(item, images)
        if not plain:
            originals.append(base)
        elif preset.include_original and base.id not in seen:
            seen.add(base.id)
            yield base
    ctx = PerturbContext(pool=tuple(originals), images=BundledImages())
    by_id = {it.id: it for it in preset.items}
    for base in originals:
        made = [base] if preset.include_original else []
        for cond in item_conditions(preset, by_id[base.item_id], base, chosen, ctx):
            try:
                made.append(apply_condition(base, cond.name, cond.steps, seed, ctx))
            except PerturbationError as exc:
                yield ItemError(preset.path, base.item_id, f"{preset.path}: item '{base.item_id}': "
                                                           f"perturbation '{cond.name}': {exc}")
        for v in made:
            if v.id not in seen:
                seen.add(v.id)
                yield v


def item_conditions(preset: Preset, item: Item, base: Variant, chosen: list[Suite], ctx: PerturbContext
                    ) -> list[Condition]:
    """Every condition :func:`expand` applies to one item's original ``base``: the preset's conditions that apply
    to it, its own, and those of the ``chosen`` suites and the item's own suites."""
    conditions = [c for c in preset.conditions if c.applies_to(item)]
    conditions += list(preset.item_conditions.get(item.id, ()))
    own = [get_suite(s) for s in preset.item_suites.get(item.id, ()) if s not in {x.name for x in chosen}]
    return conditions + [c for s in chosen + own for c in s.for_variant(base, ctx)]


def apply_condition(base: Variant, name: str, steps: tuple[Step, ...], seed: int,
                    ctx: PerturbContext | None = None) -> Variant:
    """Apply a chain of steps; each step's seed derives from the run seed, item, condition and position.

    A step may name a ``seed_group`` to share its seed with other conditions (e.g. the same dot locations under
    every colour permutation).
    """
    v = base
    for i, (op, params) in enumerate(steps):
        params = dict(params)
        key = params.pop("seed_group", name)  # conditions sharing a seed_group draw the same random choices
        v = apply(v, op, params, derive_seed(seed, base.item_id, key, i), ctx)
    return v.evolve(condition=name)
