"""A Hugging Face dataset folder: the set as an imagefolder with a dataset card and Croissant metadata.

Export (``probe-ui export-set PRESET --to hf --out DIR``)::

    DIR/metadata.jsonl   one row per variant: ``file_name`` (its first image, loaded as the ``image`` column) and
                         ``images_file_names`` (all of them, loaded as ``images``; datasets 4 reads an empty
                         ``file_names`` list as missing and fails on it, a question without an image), then the
                         columns of a probe-ui export's
                         variant rows (:mod:`probe_ui.exports`: variant_id, item_id, condition, group, kind, question,
                         options, answer, answer_label, ...; nested values as JSON strings) and the sample's
                         ``prompt`` (template), ``prompt_text`` (the exact messages, images marked ``<image N>``),
                         ``labels``, ``max_tokens`` and ``set_id``
    DIR/images/          every image once, images/<sha256>.png
    DIR/README.md        the dataset card: front matter (licence, task, size, a ``configs`` entry so the Hub and
                         ``datasets.load_dataset(DIR)`` read metadata.jsonl with its images), how the set was made,
                         every column, each image's licence, and how to push it
    DIR/croissant.json   Croissant 1.0 metadata (mlcommons.org/croissant): the files, the variants record set (one
                         field per column) and the images record set, which ``mlcroissant`` validates and reads

``datasets.load_dataset("imagefolder", data_dir=DIR)`` loads it, ``probe-ui import dataset DIR`` turns it back into a
preset, and the card shows ``push_to_hub`` (never run by probe-ui). The folder carries no local path: presets
appear by file name, local folders are rewritten (:mod:`probe_ui.exports`'s scrubber), and the set's manifest is
not written (it records the preset's path; nothing imports a Hub dataset's answers).
"""

from __future__ import annotations

import hashlib
import json
import sys
from datetime import date
from pathlib import Path
from typing import Any

from probe_ui import __version__
from probe_ui.files import safe_write
from probe_ui.interop import register_harness
from probe_ui.interop.benchset import IMAGES_DIR, BenchmarkSet
from probe_ui.interop.exporting import Written
from probe_ui.prompts import messages_text
from probe_ui.security import redact

NAME = "hf"
TITLE = "a Hugging Face dataset"
WRITES_MANIFEST = False
DATA_FILE = "metadata.jsonl"
CROISSANT_FILE = "croissant.json"
CARD_FILE = "README.md"

COLUMNS = ["set_id", "seed", "variant_id", "item_id", "condition", "group", "item_group", "source", "kind", "question",
           "options", "answer", "answer_label", "labels", "category", "tags", "attributes", "provenance",
           "prompt_args", "prompt", "max_tokens", "prompt_text", "images"]
#: column → (Croissant data type, meaning); lists are repeated fields
DOCS: dict[str, tuple[str, str]] = {
    "file_name": ("sc:Text", "the variant's first image (images/<sha256>.png); loaded as the `image` column"),
    "images_file_names": ("sc:Text", "all of the variant's images, in the order sent; loaded as the `images` "
                                     "column"),
    "set_id": ("sc:Text", "the set's id: a hash of every variant and prompt in it"),
    "seed": ("sc:Integer", "the seed the perturbations derive their randomness from"),
    "variant_id": ("sc:Text", "content hash of the variant: what probe-ui stores its answers under"),
    "item_id": ("sc:Text", "the item's id in its preset"),
    "condition": ("sc:Text", "'original', or the perturbation condition that made this variant (suite/condition)"),
    "group": ("sc:Text", "the variants of one item under one suite (scored together)"),
    "item_group": ("sc:Text", "the item's own group from the preset (a pair), or null"),
    "source": ("sc:Text", "the preset's file name"),
    "kind": ("sc:Text", "choice (answer with a letter), yesno, label or free"),
    "question": ("sc:Text", "the question as asked (after perturbations)"),
    "options": ("sc:Text", "answer options of a choice item (shown as A, B, ...) or the labels of a label item"),
    "answer": ("sc:Text", "the correct answer as option text / label / yes / no; null when unknown"),
    "answer_label": ("sc:Text", "the correct answer as the model should write it (a letter for choice items)"),
    "labels": ("sc:Text", "what a valid answer is written as (letters, yes/no, label words)"),
    "category": ("sc:Text", "the item's categories"),
    "tags": ("sc:Text", "the item's tags"),
    "attributes": ("sc:Text", "free-form attributes of the item, as a JSON string"),
    "provenance": ("sc:Text", "the perturbation chain that made this variant ({op, params, seed, answer: [before, "
                              "after]} per step), as a JSON string"),
    "prompt_args": ("sc:Text", "arguments a perturbation gave the prompt, as a JSON string, or null"),
    "prompt": ("sc:Text", "the prompt template's name"),
    "max_tokens": ("sc:Integer", "the template's token budget"),
    "prompt_text": ("sc:Text", "the exact messages sent, each under a [role] header, images marked <image N>"),
}
_LISTS = ("options", "labels", "category", "tags", "images_file_names")
IMAGE_COLUMNS = ["file_name", "images_file_names"]


def rows(bset: BenchmarkSet, scrub: Any) -> list[dict[str, Any]]:
    from probe_ui.views.rebuild import source_name

    out = []
    for s in bset.samples:
        v = s.variant
        out.append({
            "set_id": bset.set_id, "seed": bset.seed, "variant_id": v.id, "item_id": v.item_id,
            "condition": v.condition, "group": v.group, "item_group": v.item_group, "source": source_name(v.source),
            "kind": v.kind, "question": scrub.text(v.question), "options": [scrub.text(o) for o in v.options],
            "answer": scrub.text(v.answer), "answer_label": s.answer_label, "labels": list(s.labels),
            "category": list(v.category), "tags": list(v.tags), "attributes": scrub.deep(v.attributes, paths=True),
            "provenance": scrub.deep(list(v.provenance), paths=True),
            "prompt_args": scrub.deep(v.prompt_args, paths=True) if v.prompt_args else None,
            "prompt": s.template, "max_tokens": s.max_tokens,
            "prompt_text": scrub.text(messages_text(s.request.rendered())),
            "images": [f"{IMAGES_DIR}/{h}.png" for h in s.image_ids],
        })
    return out


def write(bset: BenchmarkSet, out: Path) -> Written:
    from probe_ui.export_formats.base import flat, json_text

    scrub = redact.Scrubber(redact.local_roots(None, out))
    data = rows(bset, scrub)
    rest = [c for c in COLUMNS if c != "images"]
    with safe_write.atomic_file(out / DATA_FILE) as f:
        for row in data:
            names = row["images"]
            f.write(json_text({"file_name": names[0] if names else None, "images_file_names": names,
                               **flat(row, rest, lists=True)}) + "\n")
    safe_write.write_text(out / CARD_FILE, scrub.text(card(bset, len(data))))
    safe_write.write_text(out / CROISSANT_FILE, json.dumps(croissant(bset, out), ensure_ascii=False, indent=1) + "\n")
    warnings = redact.leak_check(out, [DATA_FILE, CARD_FILE, CROISSANT_FILE], scrub)
    return Written(files=[DATA_FILE, CARD_FILE, CROISSANT_FILE], warnings=warnings, run=[
        f"load it with: datasets.load_dataset(\"imagefolder\", data_dir={str(out)!r}, split=\"test\")",
        "share it with: datasets.load_dataset(...).push_to_hub(\"<user>/<name>\") or huggingface-cli upload "
        f"<user>/<name> {out} --repo-type dataset (README.md shows both)",
        f"check the Croissant metadata with: mlcroissant validate --jsonld {out / CROISSANT_FILE}"])


# ---- the dataset card -------------------------------------------------------------------------------------------

def card(bset: BenchmarkSet, n: int) -> str:
    import yaml

    from probe_ui.exports.licences import image_licences, licence_section, size_category

    meta = {
        "license": "other", "license_name": "mixed",
        "license_details": "each image's licence is listed in this card (bundled test images and what was derived "
                           "from them; anything else was supplied by the set's author)",
        "pretty_name": f"probe-ui set {bset.name}",
        "tags": ["probe-ui", "medical", "vision-language-models", "evaluation", "robustness"],
        "task_categories": ["visual-question-answering"],
        "size_categories": [size_category(n)],
        "configs": [{"config_name": "default",
                     "data_files": [{"split": "test", "path": [DATA_FILE, f"{IMAGES_DIR}/*.png"]}]}],
    }
    variants = {s.variant.id: {"source": s.variant.source, "item_id": s.variant.item_id,
                               "condition": s.variant.condition, "provenance": list(s.variant.provenance),
                               "image_ids": list(s.variant.image_ids)} for s in bset.samples}
    used = list(bset.images)
    licences = image_licences(used, set(used), variants)
    d = bset.describe()
    suites = ", ".join(f"`{x}`" for x in bset.suites) or "none"
    lines = ["---", yaml.safe_dump(meta, sort_keys=False, allow_unicode=True, width=120).rstrip(), "---",
             f"# probe-ui benchmark set `{bset.name}`", "",
             f"Medical-image questions for vision-language models, written by probe-ui {__version__} "
             f"(`probe-ui export-set --to hf`): the preset `{d['preset']}` (sha256 {d['preset_sha256'][:12]}) with "
             f"its suites expanded into {n} variants, one row each, with the exact images and prompt a `probe-ui "
             "batch` of the same preset, suites and seed sends. Set id `" + bset.set_id + "`.", "",
             "## How it was made", "",
             f"- preset: `{d['preset']}` (sha256 {d['preset_sha256']})", f"- suites: {suites}",
             f"- seed: {bset.seed}", f"- prompt template: {bset.prompt or 'per kind (the preset default)'}",
             f"- items not loaded (left out): {len(bset.item_errors)}", "",
             "To make the same variants again and ask models directly:", "", "```bash",
             "probe-ui batch " + " ".join([_preset_arg(bset), *(f"--suite {x}" for x in bset.suites),
                                           f"--seed {bset.seed}"]) + " --model <provider/model>",
             "```", "",
             "## Use", "", "```python", "import datasets", "",
             "ds = datasets.load_dataset(\"imagefolder\", data_dir=\"path/to/this/folder\", split=\"test\")",
             "ds[0][\"image\"], ds[0][\"prompt_text\"], ds[0][\"answer_label\"]",
             "# share it (needs a Hugging Face login; probe-ui never uploads anything itself):",
             "ds.push_to_hub(\"<user>/<name>\")  # or: huggingface-cli upload <user>/<name> . --repo-type dataset",
             "```", "",
             "`probe-ui import dataset path/to/this/folder --with-perturbations` turns it back into a preset.", "",
             "## Layout", "",
             f"- `{DATA_FILE}`: one JSON object per variant. `file_name` is its first image and `images_file_names` "
             "all of them, in the order sent; `datasets`' imagefolder loads them as `image` and `images`. Nested "
             "values (attributes, provenance, prompt_args) are JSON strings, so that every row has the same types.",
             f"- `{IMAGES_DIR}/<sha256>.png`: every image once, named by the sha256 of its bytes (probe-ui's "
             "canonical PNG: 8-bit L or RGB pixels, no metadata).",
             f"- `{CROISSANT_FILE}`: Croissant 1.0 metadata of the same files.", "",
             "## Columns", "", "| column | meaning |", "|---|---|"]
    for c in [*IMAGE_COLUMNS, *[c for c in COLUMNS if c != "images"]]:
        lines.append(f"| `{c}` | {DOCS[c][1]} |")
    lines.append("")
    lines += licence_section(licences)
    return "\n".join(lines) + "\n"


def _preset_arg(bset: BenchmarkSet) -> str:
    """How a batch names the preset: a shipped one by name, any other by its file name (no local folder)."""
    from probe_ui.presets import PRESETS_DIR
    from probe_ui.views.rebuild import source_name

    path = Path(bset.preset["path"])
    shipped = path.resolve().parent == PRESETS_DIR.resolve()
    return bset.preset["name"] if shipped else source_name(str(path))


# ---- Croissant ----------------------------------------------------------------------------------------------------

CONTEXT = {
    "@language": "en", "@vocab": "https://schema.org/", "citeAs": "cr:citeAs", "column": "cr:column",
    "conformsTo": "dct:conformsTo", "cr": "http://mlcommons.org/croissant/", "rai": "http://mlcommons.org/croissant/RAI/",
    "data": {"@id": "cr:data", "@type": "@json"}, "dataType": {"@id": "cr:dataType", "@type": "@vocab"},
    "dct": "http://purl.org/dc/terms/", "equivalentProperty": "cr:equivalentProperty",
    "examples": {"@id": "cr:examples", "@type": "@json"},
    "extract": "cr:extract", "field": "cr:field", "fileProperty": "cr:fileProperty", "fileObject": "cr:fileObject",
    "fileSet": "cr:fileSet", "format": "cr:format", "includes": "cr:includes", "isLiveDataset": "cr:isLiveDataset",
    "jsonPath": "cr:jsonPath", "key": "cr:key", "md5": "cr:md5", "parentField": "cr:parentField", "path": "cr:path",
    "recordSet": "cr:recordSet", "references": "cr:references", "regex": "cr:regex", "repeated": "cr:repeated",
    "replace": "cr:replace", "samplingRate": "cr:samplingRate", "sc": "https://schema.org/",
    "separator": "cr:separator", "source": "cr:source",
    "subField": "cr:subField", "transform": "cr:transform",
}


def croissant(bset: BenchmarkSet, out: Path) -> dict[str, Any]:
    """Croissant 1.0 JSON-LD describing metadata.jsonl and the images."""
    data_sha = hashlib.sha256((out / DATA_FILE).read_bytes()).hexdigest()
    fields = []
    for c in [*IMAGE_COLUMNS, *[c for c in COLUMNS if c != "images"]]:
        typ, meaning = DOCS[c]
        f: dict[str, Any] = {"@type": "cr:Field", "@id": f"variants/{c}", "name": c, "description": meaning,
                             "dataType": typ,
                             "source": {"fileObject": {"@id": DATA_FILE}, "extract": {"column": c}}}
        if c in _LISTS:
            f["repeated"] = True
        fields.append(f)
    return {
        "@context": CONTEXT,
        "@type": "sc:Dataset",
        "name": bset.name,
        "conformsTo": "http://mlcommons.org/croissant/1.0",
        "description": f"probe-ui benchmark set {bset.name} (set id {bset.set_id}): the preset "
                       f"{bset.preset['name']} with its suites expanded into variants, each with its exact images and "
                       "prompt. See README.md.",
        "license": "other: see README.md (each image's licence)",
        "version": "1.0.0",
        "datePublished": date.today().isoformat(),
        "keywords": ["probe-ui", "medical imaging", "vision-language models", "evaluation"],
        "distribution": [
            {"@type": "cr:FileObject", "@id": DATA_FILE, "name": DATA_FILE, "contentUrl": DATA_FILE,
             "encodingFormat": "application/jsonlines", "sha256": data_sha},
            {"@type": "cr:FileSet", "@id": "image-files", "name": "image-files", "encodingFormat": "image/png",
             "includes": f"{IMAGES_DIR}/*.png"},
        ],
        "recordSet": [
            {"@type": "cr:RecordSet", "@id": "variants", "name": "variants",
             "description": "one record per variant (a row of metadata.jsonl)", "field": fields},
            {"@type": "cr:RecordSet", "@id": "images", "name": "images",
             "description": "every image of the set, once",
             "field": [
                 {"@type": "cr:Field", "@id": "images/file_name", "name": "file_name", "dataType": "sc:Text",
                  "description": "the image's path in the folder (images/<sha256>.png)",
                  "source": {"fileSet": {"@id": "image-files"}, "extract": {"fileProperty": "filepath"}}},
                 {"@type": "cr:Field", "@id": "images/image", "name": "image", "dataType": "sc:ImageObject",
                  "description": "the image", "source": {"fileSet": {"@id": "image-files"},
                                                         "extract": {"fileProperty": "content"}}},
             ]},
        ],
    }


register_harness(sys.modules[__name__])
