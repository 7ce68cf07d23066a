"""Items and variants: the units a probe is made of.

An :class:`Item` is what a preset (or an upload, or an importer) describes: images, a question, its answer
options and the correct answer. A :class:`Variant` is what is actually sent to a model: an item after zero or more
perturbations, with its images already loaded (content-addressed) and the full chain of what was done to it, so
every logged answer can be traced back to exact pixels and text.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:  # annotations only: Pillow is not needed to name an item
    from probe_ui.images import CanonicalImage

Kind = Literal["choice", "yesno", "label", "free", "point"]
#: ``point``: "point to the finding", answered with coordinates and scored against the item's region
#: (:mod:`probe_ui.reading.pointing`)
KINDS: tuple[str, ...] = ("choice", "yesno", "label", "free", "point")
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
YES_NO: tuple[str, str] = ("yes", "no")


@dataclass(frozen=True)
class ImageSource:
    """Where an item's image comes from and how to turn it into pixels (window, frame, slice)."""

    path: str
    window: tuple[float, float] | None = None  # (center, width) override for DICOM / NIfTI
    frame: int | None = None  # multi-frame DICOM, 4-D NIfTI volume index
    axis: int | None = None  # NIfTI slicing axis
    slice: int | None = None  # NIfTI slice index along axis

    def load_options(self) -> dict[str, Any]:
        return {k: v for k, v in (("window", self.window), ("frame", self.frame), ("axis", self.axis),
                                  ("slice", self.slice)) if v is not None}


@dataclass(frozen=True)
class Item:
    """One question about zero or more images, as a preset or importer describes it.

    ``options`` are the answer texts of a ``choice`` item (shown with letters A, B, ...) or the allowed words of a
    ``label`` item (e.g. red/green/blue). ``answer`` is always an option text / label / "yes" / "no", never a
    letter, so it survives option shuffling; ``None`` means unknown. ``group`` ties items that are scored together
    (a MediConfusion pair, a ProbMed gt/hallucination pair, a MedVH hallucination/baseline pair).
    """

    id: str
    question: str
    kind: Kind
    images: tuple[ImageSource, ...] = ()
    options: tuple[str, ...] = ()
    answer: str | None = None
    category: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    group: str | None = None
    attributes: dict[str, Any] = field(default_factory=dict)
    source: str = ""  # the preset file (or importer) the item came from

    @property
    def labels(self) -> tuple[str, ...]:
        return labels_for(self.kind, self.options)


def suggested_letter(prompt_args: Any, attributes: Any) -> str | None:
    """The letter of a suggested answer (MedVH false confidence justification): ``prompt_args.suggestion.letter``
    (the ``suggest`` perturbation), else the letter that starts ``attributes.suggested_answer`` ("B: No.", imported
    MedVH records); None for a variant without a suggestion. The reader uses it to read a reply that agrees with
    the suggestion ("The physician's answer is correct."); the FCJ metrics to count disagreement."""
    sug = prompt_args.get("suggestion") if isinstance(prompt_args, dict) else None
    if isinstance(sug, dict) and sug.get("letter"):
        return str(sug["letter"]).strip().upper()
    s = attributes.get("suggested_answer") if isinstance(attributes, dict) else None
    if isinstance(s, str):
        m = re.match(r"\s*\(?([A-Za-z])\s*(?:[:.)]|$)", s)
        if m:
            return m.group(1).upper()
    return None


def labels_for(kind: str, options: tuple[str, ...]) -> tuple[str, ...]:
    """The strings a model is expected to answer with: letters, yes/no, or the label words themselves."""
    if kind == "choice":
        return tuple(LETTERS[: len(options)])
    if kind == "yesno":
        return YES_NO
    if kind == "label":
        return options
    return ()


@dataclass(frozen=True)
class Variant:
    """An item as sent to a model, after perturbations, with provenance.

    ``group`` collects the variants generated from one item by a suite (they must all be answered correctly for
    group consistency); ``item_group`` is the item's own ``group`` from the preset. ``provenance`` is the ordered
    list of perturbation records ``{"op", "params", "seed", "answer": [before, after]}``; replaying it on the item
    gives this variant back.
    """

    item_id: str
    question: str
    kind: Kind
    options: tuple[str, ...] = ()
    answer: str | None = None
    images: tuple[CanonicalImage, ...] = ()
    condition: str = "original"
    group: str = ""
    item_group: str | None = None
    category: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    attributes: dict[str, Any] = field(default_factory=dict)
    provenance: tuple[dict[str, Any], ...] = ()
    source: str = ""
    prompt: str | None = None  # a template chosen by a perturbation (wins over the preset's)
    prompt_args: dict[str, Any] = field(default_factory=dict)  # e.g. a suggested answer, chain-of-thought
    examples: tuple[Variant, ...] = ()  # few-shot examples, asked before this variant with their answers

    @property
    def labels(self) -> tuple[str, ...]:
        return labels_for(self.kind, self.options)

    @property
    def answer_label(self) -> str | None:
        """The correct answer as the model should write it (a letter for choice items)."""
        if self.answer is None:
            return None
        if self.kind == "choice":
            try:
                return LETTERS[self.options.index(self.answer)]
            except ValueError:
                return None
        return self.answer

    @property
    def image_ids(self) -> tuple[str, ...]:
        return tuple(im.id for im in self.images)

    @property
    def suggested(self) -> str | None:
        """The letter of the answer a MedVH false-confidence prompt suggests (:func:`suggested_letter`)."""
        return suggested_letter(self.prompt_args, self.attributes)

    def content(self) -> dict[str, Any]:
        """Everything that identifies this variant, JSON-able (images by hash).

        Optional fields enter only when set, so ids of plain variants stay stable as fields are added.
        """
        out = {
            "item_id": self.item_id,
            "question": self.question,
            "kind": self.kind,
            "options": list(self.options),
            "answer": self.answer,
            "image_ids": list(self.image_ids),
            "condition": self.condition,
            "group": self.group,
            "item_group": self.item_group,
            "category": list(self.category),
            "tags": list(self.tags),
            "attributes": self.attributes,
            "provenance": list(self.provenance),
            "source": source_name(self.source),  # the file's name, never its folder: ids are the same everywhere
        }
        if self.prompt is not None:
            out["prompt"] = self.prompt
        if self.prompt_args:
            out["prompt_args"] = self.prompt_args
        if self.examples:
            out["examples"] = [e.id for e in self.examples]
        return out

    @cached_property
    def id(self) -> str:
        """The hash of :meth:`content`, worked out once per variant: a batch asks for it at every step of a cell
        (planning, storing, labelling, the request's cache key), and hashing the JSON each time was a tenth of a
        batch's CPU. A variant is not changed once made (:meth:`evolve` makes a new one, without this cache)."""
        return content_hash(self.content())

    def legacy_id(self) -> str:
        """The id probe-ui gave this variant before store schema 9, when it hashed the source's whole path:
        how a set exported then, and a store's variants, are recognised (:mod:`probe_ui.store.migrations`)."""
        out = {**self.content(), "source": self.source}
        if self.examples:
            out["examples"] = [e.legacy_id() for e in self.examples]
        return content_hash(out)

    def evolve(self, **changes: Any) -> Variant:
        return replace(self, **changes)


def source_name(source: str | None) -> str:
    """A preset (or imported file) by its file name only: what identifies it on any machine, in any folder."""
    if not source:
        return ""
    return re.split(r"[\\/]", str(source).rstrip("/\\"))[-1]


def content_hash(obj: Any, length: int = 16) -> str:
    """A stable short hash of a JSON-able object (sorted keys, no whitespace)."""
    data = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(data.encode()).hexdigest()[:length]


def original_variant(item: Item, images: tuple[CanonicalImage, ...]) -> Variant:
    """The unperturbed variant of an item, its images already loaded."""
    return Variant(
        item_id=item.id,
        question=item.question,
        kind=item.kind,
        options=item.options,
        answer=item.answer,
        images=images,
        condition="original",
        group=item.id,
        item_group=item.group,
        category=item.category,
        tags=item.tags,
        attributes=dict(item.attributes),
        source=item.source,
    )
