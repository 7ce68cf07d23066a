"""A benchmark set: a preset with its suites expanded into variants, each with its exact images and prompt.

This is what ``probe-ui export-set`` hands to a harness, and what ``probe-ui import <harness>`` maps answers back
onto. It is built by the same code a batch uses (:func:`probe_ui.presets.suites.expand`,
:func:`probe_ui.prompts.render`), so each variant has the id, image hashes and prompt text a ``probe-ui batch`` of the
same preset, suites and seed gives it; that is what lets ``score``, the Results tab, the report and every paper metric
read an imported harness run exactly as they read a batch.

Every export folder holds the set's manifest, :data:`MANIFEST` (``probe-ui-set.json``): every variant's content
(what its id hashes, images by sha256), every sample's template name, token budget and rendered messages, the
item errors, and the set id (a hash of all that). The images are ``images/<sha256>.png``: probe-ui's canonical PNG
bytes, so a file's name is the hash of its bytes. :func:`load_set` rebuilds the variants from the manifest and the
image files and checks every hash; an edited manifest or image is refused, never imported as if it were the set.

The manifest names the preset, each variant's ``source`` and each item error's by file name only (the variant id
hashes the file's name, never its folder), so a set exported on one machine carries no local path and imports on
another. A set written before ids left the folder out (its variants hash the preset's whole path) still loads:
its ids are checked the old way and kept as aliases of the new ones, so a harness's answers to it map back.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from probe_ui import __version__, prompts
from probe_ui.errors import ProbeUIError
from probe_ui.files import safe_write
from probe_ui.images import CanonicalImage
from probe_ui.items import Variant, content_hash, source_name
from probe_ui.messages import GenerationSettings, ImagePart, Request, TextPart

MANIFEST = "probe-ui-set.json"
IMAGES_DIR = "images"
FORMAT_VERSION = 1
MAX_MANIFEST_BYTES = 512 * 1024 * 1024


class SetError(ProbeUIError, ValueError):
    """The set cannot be built, written or read back; the message names the file and what is wrong."""


@dataclass(frozen=True)
class Turn:
    """One message of a sample: its role, its images (in order, before the text) and its text."""

    role: str
    text: str
    images: tuple[str, ...] = ()  # image ids


@dataclass(frozen=True)
class SetSample:
    """One variant as a harness asks it: the variant, the template it is rendered with and the exact request."""

    variant: Variant
    request: Request

    @property
    def template(self) -> str:
        return self.request.prompt

    @property
    def max_tokens(self) -> int:
        return self.request.settings.max_tokens

    @property
    def turns(self) -> list[Turn]:
        out = []
        for m in self.request.messages:
            text = "".join(p.text for p in m.content if isinstance(p, TextPart))
            ims = tuple(p.image.id for p in m.content if isinstance(p, ImagePart))
            out.append(Turn(m.role, text, ims))
        return out

    @property
    def system(self) -> str | None:
        """The system prompt, when the template has one."""
        return next((t.text for t in self.turns if t.role == "system"), None)

    @property
    def user_text(self) -> str:
        """The text of the last user turn: the question as the model reads it (options and instructions included)."""
        return [t for t in self.turns if t.role == "user"][-1].text

    @property
    def labels(self) -> tuple[str, ...]:
        """What a valid answer is written as (letters, yes/no, label words); none for a free-form template."""
        return self.request.labels

    @property
    def answer_label(self) -> str | None:
        return None if self.template == "free" else self.variant.answer_label

    @property
    def image_ids(self) -> tuple[str, ...]:
        """Every image the request sends, few-shot examples' first, each once."""
        return tuple(dict.fromkeys(im for t in self.turns for im in t.images))


@dataclass
class BenchmarkSet:
    """A preset's variants as samples, with what made them (preset, seed, suites, prompt)."""

    name: str
    preset: dict[str, str]  # name, path, sha256
    seed: int
    suites: tuple[str, ...]
    prompt: str | None
    samples: list[SetSample]
    item_errors: list[dict[str, str]] = field(default_factory=list)  # source, item_id, message
    warnings: list[str] = field(default_factory=list)
    images: dict[str, CanonicalImage] = field(default_factory=dict)
    set_id: str = ""

    aliases: dict[str, str] = field(default_factory=dict)  # an older set's variant id (its folder hashed) -> today's

    def sample(self, variant_id: str) -> SetSample | None:
        return self._by_id().get(self.aliases.get(variant_id, variant_id))

    def _by_id(self) -> dict[str, SetSample]:
        cache = self.__dict__.get("_index")
        if cache is None or len(cache) != len(self.samples):
            cache = self.__dict__["_index"] = {s.variant.id: s for s in self.samples}
        return cache

    def variants(self) -> list[Variant]:
        """Every variant the samples ask, few-shot examples included, each once."""
        seen: dict[str, Variant] = {}

        def add(v: Variant) -> None:
            for ex in v.examples:
                add(ex)
            seen.setdefault(v.id, v)

        for s in self.samples:
            add(s.variant)
        return list(seen.values())

    def run_settings(self) -> dict[str, Any]:
        """What an imported run records about the set, in the keys a batch run uses (presets, seed, suites, prompt)
        so that the report, the exports and the legacy parser read it as they read a batch."""
        return {"presets": [dict(self.preset)], "seed": self.seed, "suites": list(self.suites), "prompt": self.prompt,
                "set": {"id": self.set_id, "name": self.name}}

    def describe(self) -> dict[str, Any]:
        """A short description for dataset cards and harness metadata."""
        return {"set_id": self.set_id, "name": self.name, "preset": self.preset["name"],
                "preset_sha256": self.preset["sha256"], "seed": self.seed, "suites": list(self.suites),
                "prompt": self.prompt, "samples": len(self.samples), "images": len(self.images)}


def set_name(preset_name: str, seed: int, suites: Iterable[str]) -> str:
    """``<preset>[+suite...]-seed<N>``: the name a batch gives its run (:func:`probe_ui.runner.default_run_name`)."""
    return preset_name + "".join(f"+{s}" for s in suites) + f"-seed{seed}"


def build_set(preset_ref: str, seed: int = 0, suites: Iterable[str] = (), prompt: str | None = None,
              image_roots: Iterable[str] = ()) -> BenchmarkSet:
    """Expand a preset (a file or a shipped preset by name) exactly as ``probe-ui batch`` would, and render every
    variant with the template a batch would choose for it (``prompt``: the batch's ``--prompt``)."""
    from probe_ui.presets import PresetError, load_preset
    from probe_ui.presets.suites import SuiteError, expand, get_suite

    suites = tuple(dict.fromkeys(suites))
    try:
        for s in suites:
            get_suite(s)
        if prompt is not None and prompt not in prompts.TEMPLATES:
            raise SetError(f"unknown prompt template '{prompt}'; known: {', '.join(prompts.TEMPLATES)}")
        preset = load_preset(preset_ref, tuple(image_roots))
    except (PresetError, SuiteError) as exc:
        raise SetError(str(exc)) from None
    ex = expand(preset, seed, suites)
    samples = []
    for v in ex.variants:
        template = prompts.template_for(v, prompt or preset.prompt)
        # what a batch sends to a model without catalogue settings: temperature 0, the template's budget, the seed
        settings = GenerationSettings(temperature=0.0, max_tokens=template.max_tokens, seed=seed)
        samples.append(SetSample(v, prompts.render(v, template.name, settings)))
    if not samples:
        first = ex.errors[0].message if ex.errors else "it has no items"
        raise SetError(f"{preset.path}: no variant could be made ({first})")
    bset = BenchmarkSet(
        name=set_name(preset.name, seed, suites), preset={"name": preset.name, "path": source_name(preset.path),
                                                           "sha256": preset.sha256},
        seed=seed, suites=suites, prompt=prompt, samples=samples,
        item_errors=[{"source": source_name(e.source), "item_id": e.item_id, "message": e.message} for e in ex.errors],
        warnings=list(ex.warnings))
    for sample in samples:
        for m in sample.request.messages:
            for p in m.content:
                if isinstance(p, ImagePart):
                    bset.images.setdefault(p.image.id, p.image)
    bset.set_id = _set_id(bset.variants(), samples, seed)
    return bset


def _set_id(variants: list[Variant], samples: list[SetSample], seed: int, *, legacy: bool = False) -> str:
    """The set's id: a hash of its variants' ids and its samples (``legacy``: with the ids an older set
    gave its variants, the preset's whole path in each)."""
    vid = (lambda v: v.legacy_id()) if legacy else (lambda v: v.id)
    rows = [[vid(s.variant), s.template, s.max_tokens, s.request.rendered()] for s in samples]
    return content_hash({"seed": seed, "variants": sorted(vid(v) for v in variants), "samples": rows})


# ---- the manifest -----------------------------------------------------------------------------------------------

def manifest(bset: BenchmarkSet, harness: str) -> dict[str, Any]:
    """The manifest's JSON: enough to rebuild every variant and request, and to check that nothing changed."""
    return {
        "probe_ui_set": FORMAT_VERSION,
        "set_id": bset.set_id,
        "name": bset.name,
        "harness": harness,
        "written_by": f"probe-ui {__version__}",
        "preset": dict(bset.preset),
        "seed": bset.seed,
        "suites": list(bset.suites),
        "prompt": bset.prompt,
        "variants": {v.id: v.content() for v in bset.variants()},
        "samples": [{"variant_id": s.variant.id, "template": s.template, "max_tokens": s.max_tokens,
                     "messages": s.request.rendered()} for s in bset.samples],
        "item_errors": bset.item_errors,
        "images": sorted(bset.images),
    }


def write_images(bset: BenchmarkSet, out: Path) -> list[str]:
    """Every image once, as ``images/<sha256>.png``; returns the files written (relative to ``out``)."""
    folder = out / IMAGES_DIR
    folder.mkdir(parents=True, exist_ok=True)
    files = []
    for h, im in bset.images.items():
        safe_write.write_bytes(folder / f"{h}.png", im.png)
        files.append(f"{IMAGES_DIR}/{h}.png")
    return files


def write_manifest(bset: BenchmarkSet, out: Path, harness: str) -> str:
    safe_write.write_text(out / MANIFEST, json.dumps(manifest(bset, harness), ensure_ascii=False, indent=1) + "\n")
    return MANIFEST


def find_manifest(folder: str | os.PathLike[str]) -> Path | None:
    """The manifest of the set in ``folder`` (or ``folder`` itself when it names the manifest file)."""
    p = Path(folder)
    if p.is_file() and p.name == MANIFEST:
        return p
    return p / MANIFEST if (p / MANIFEST).is_file() else None


def load_set(folder: str | os.PathLike[str]) -> BenchmarkSet:
    """The set exported into ``folder``, rebuilt from its manifest and image files, every hash checked."""
    from probe_ui.files.paths import PathError, file_inside

    path = find_manifest(folder)
    if path is None:
        raise SetError(f"{folder}: no {MANIFEST} here: give the folder 'probe-ui export-set' wrote (--set DIR)")
    root = path.parent
    if path.stat().st_size > MAX_MANIFEST_BYTES:
        raise SetError(f"{path}: {path.stat().st_size:,} bytes, over the {MAX_MANIFEST_BYTES:,}-byte limit")
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise SetError(f"{path}: not valid JSON: {exc}") from None
    if not isinstance(doc, dict) or doc.get("probe_ui_set") != FORMAT_VERSION:
        raise SetError(f"{path}: not a probe-ui set manifest (field 'probe_ui_set' should be {FORMAT_VERSION})")
    for key, typ in (("set_id", str), ("name", str), ("preset", dict), ("seed", int), ("suites", list),
                     ("variants", dict), ("samples", list), ("item_errors", list)):
        if not isinstance(doc.get(key), typ):
            raise SetError(f"{path}: field '{key}' is missing or not a {typ.__name__}")

    images: dict[str, CanonicalImage] = {}

    def image(h: str) -> CanonicalImage:
        if h not in images:
            try:
                data = file_inside(root, f"{IMAGES_DIR}/{h}.png", f"image {h[:12]}").read_bytes()
            except PathError as exc:
                raise SetError(f"{path}: {exc}") from None
            try:
                im = CanonicalImage.from_png(data)
            except Exception:  # PIL's own errors: not an image any more
                im = None
            if im is None or im.id != h:
                raise SetError(f"{root / IMAGES_DIR / (h + '.png')}: its bytes do not hash to its name: the image was "
                               "changed after the set was exported")
            images[h] = im
        return images[h]

    contents: dict[str, Any] = doc["variants"]
    built: dict[str, Variant] = {}
    aliases: dict[str, str] = {}

    def variant(vid: str, depth: int = 0) -> Variant:
        if vid in built:
            return built[vid]
        c = contents.get(vid)
        if not isinstance(c, dict) or depth > 8:
            raise SetError(f"{path}: variant {vid} is not described in field 'variants'")
        try:
            v = Variant(item_id=c["item_id"], question=c["question"], kind=c["kind"], options=tuple(c["options"]),
                        answer=c["answer"], images=tuple(image(h) for h in c["image_ids"]),
                        condition=c["condition"], group=c["group"], item_group=c["item_group"],
                        category=tuple(c["category"]), tags=tuple(c["tags"]), attributes=dict(c["attributes"]),
                        provenance=tuple(c["provenance"]), source=c["source"], prompt=c.get("prompt"),
                        prompt_args=dict(c.get("prompt_args") or {}),
                        examples=tuple(variant(e, depth + 1) for e in c.get("examples") or ()))
        except (KeyError, TypeError, ValueError) as exc:
            raise SetError(f"{path}: variant {vid}: field {exc} is missing or malformed") from None
        if v.id != vid:
            if v.legacy_id() != vid:
                raise SetError(f"{path}: variant {vid} does not hash to its id: the manifest was changed after export")
            aliases[vid] = v.id
        built[vid] = v
        return v

    samples = []
    for n, s in enumerate(doc["samples"], 1):
        if not isinstance(s, dict) or not isinstance(s.get("variant_id"), str) or s.get("template") not in \
                prompts.TEMPLATES or not isinstance(s.get("max_tokens"), int):
            raise SetError(f"{path}: sample {n}: fields 'variant_id', 'template' or 'max_tokens' missing or malformed")
        v = variant(s["variant_id"])
        settings = GenerationSettings(temperature=0.0, max_tokens=s["max_tokens"], seed=doc["seed"])
        try:
            req = prompts.render(v, s["template"], settings)
        except prompts.PromptError as exc:
            raise SetError(f"{path}: sample {n}: {exc}") from None
        if req.rendered() != s.get("messages"):
            raise SetError(f"{path}: sample {n} (variant {v.id}): its messages are not what the template renders: "
                           "the manifest was changed after export")
        samples.append(SetSample(v, req))
    bset = BenchmarkSet(name=doc["name"], preset={k: str(x) for k, x in doc["preset"].items()}, seed=doc["seed"],
                        suites=tuple(doc["suites"]), prompt=doc.get("prompt"), samples=samples,
                        item_errors=list(doc["item_errors"]), images=images, aliases=aliases)
    bset.set_id = _set_id(bset.variants(), samples, bset.seed)
    if aliases and _set_id(bset.variants(), samples, bset.seed, legacy=True) == doc["set_id"]:
        bset.set_id = doc["set_id"]  # an older set keeps the id its harness files carry
    if bset.set_id != doc["set_id"]:
        raise SetError(f"{path}: the set's content does not match its id {doc['set_id']}: it was changed after export")
    return bset
