"""Time every registered perturbation and check the speed goals.

Goals: an image perturbation on a 2048x2048 RGB image in under 50 ms; an option/text perturbation in under 1 ms.
Each perturbation runs through ``probe_ui.perturb.apply`` (provenance included) on one sample variant: a
5-option multiple-choice item with a 2048x2048 RGB image, and a small context pool. An operation counts as an
image operation when it changes the variant's image ids on the sample.

A perturbation returns images whose PNG (and so their id) is encoded lazily, when the variant is first hashed or
stored; that one-off cost is not part of the perturbation but is shown beside it ("encode ms": PNG encode +
sha256 of the result, i.e. the first ``.id``), since a run pays it once per new image.

    python perf/perturb.py [--runs 20] [--size 2048] [--image asset|noise] [--only dots,noise]

Prints one line per perturbation (median ms over the runs, PASS/FAIL/SKIP) and exits 1 if any fails.
"""

from __future__ import annotations

import argparse
import inspect
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np
from PIL import Image

from probe_ui.images import CanonicalImage
from probe_ui.items import Variant
from probe_ui.perturb import PerturbationError, PerturbContext, all_perturbations, apply

IMAGE_BUDGET_MS = 50.0
TEXT_BUDGET_MS = 1.0
ASSET = Path(__file__).resolve().parent.parent / "assets" / "ihc_histology.png"

# Sample parameters per operation: a list of (label suffix, params). Operations that are not listed run with
# their defaults; an unlisted operation with a required parameter is reported as "no sample params".
SAMPLE_PARAMS: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "rotate": [("90", {"angle": 90}), ("33", {"angle": 33})],
    "flip": [("", {"axis": "h"})],
    "swap": [("any", {"prefer": "any"}), ("partner", {"prefer": "same-question"}),
             ("image", {"source": "image", "image": "asset.png"})],
    "dots": [("uniform", {"target": "shallowest"}), ("mask", {"placement": "mask"}),
             ("ultrasound", {"placement": "ultrasound", "target": "shallowest"}),
             ("labels", {"labels": True})],
    "marker": [("arrow", {"shape": "arrow", "arrow": [1024, 1024]}),
               ("box", {"shape": "box", "box": [0.3, 0.3, 0.7, 0.6], "relative": True})],
    "noise": [("s3", {"severity": 3})],
    "blur": [("s3", {"severity": 3}), ("s5", {"severity": 5})],
    "jpeg": [("s3", {"severity": 3})],
    "crop": [("s3", {"severity": 3})],
    "downscale": [("s3", {"severity": 3}), ("7", {"factor": 7})],
    "cyclic_shift": [("", {"shift": 1})],
    "phrasing": [("", {"style": "expert-role"})],
    "probmed_question": [("modality-hallu", {"qa_type": "modality", "version": "hallu"}),
                         ("entity-gt", {"qa_type": "entity", "version": "gt"})],
}


def sample_image(size: int, kind: str) -> CanonicalImage:
    if kind == "noise":  # worst case for PNG: incompressible
        a = np.random.default_rng(0).integers(0, 256, (size, size, 3), dtype=np.uint8)
        return CanonicalImage.from_pil(Image.fromarray(a, mode="RGB"))
    with Image.open(ASSET) as im:  # realistic content: the bundled histology tile, scaled up
        return CanonicalImage.from_pil(im.convert("RGB").resize((size, size), Image.Resampling.BICUBIC))


def sample_variant(image: CanonicalImage) -> Variant:
    options = ("hepatic cyst", "haemangioma", "abscess", "metastasis", "hepatocellular carcinoma")
    return Variant(item_id="bench", question="What is the most likely diagnosis of the liver lesion?",
                   kind="choice", options=options, answer="hepatic cyst", images=(image,), group="bench",
                   attributes={"modality": "CT Scan", "organ": "Abdomen", "findings": ["a hepatic cyst"],
                               "positions": ["liver"], "absent_finding": "pneumoperitoneum"})


def sample_context(variant: Variant) -> PerturbContext:
    rng = np.random.default_rng(1)
    pool = [variant]
    for i in range(4):
        img = CanonicalImage.from_pil(Image.fromarray(rng.integers(0, 256, (96, 96, 3), dtype=np.uint8), "RGB"))
        same = i < 3  # three MediConfusion-style partners, one unrelated item
        pool.append(Variant(
            item_id=f"pool{i}", question=variant.question if same else f"Unrelated question {i}?",
            kind="choice", options=variant.options if same else (f"option {i}a", f"option {i}b", f"option {i}c"),
            answer=variant.options[i + 1] if same else f"option {i}a", images=(img,), group=f"pool{i}"))
    asset = CanonicalImage.from_pil(Image.fromarray(rng.integers(0, 256, (64, 64), dtype=np.uint8), "L"))
    return PerturbContext(pool=tuple(pool), images={"asset.png": asset})


def median_ms(fn: Callable[[], Any], runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--size", type=int, default=2048)
    ap.add_argument("--image", choices=["asset", "noise"], default="asset")
    ap.add_argument("--only", default="", help="comma-separated operation names")
    args = ap.parse_args(argv)
    runs = max(20, args.runs)
    only = {s.strip() for s in args.only.split(",") if s.strip()}

    image = sample_image(args.size, args.image)
    variant = sample_variant(image)
    ctx = sample_context(variant)
    raw = image.pil()
    png_encode = median_ms(lambda: CanonicalImage.from_pil(raw).id, 3)
    png_decode = median_ms(lambda: CanonicalImage.from_png(image.png).pil(), 3)
    copy_ms = median_ms(image.pil, 5)
    _ = variant.id  # the sample's own PNG and id, as after loading a preset
    print(f"sample: {args.size}x{args.size} RGB ({args.image}), PNG {len(image.png) / 1e6:.1f} MB; PNG encode + "
          f"sha256 (first .id) {png_encode:.1f} ms, PNG decode {png_decode:.1f} ms, .pil() copy {copy_ms:.1f} ms; "
          f"{runs} runs per operation")
    print(f"{'operation':<34} {'kind':<5} {'median ms':>10} {'budget':>7}  result  {'encode ms':>10}")

    failed = []
    for pert in all_perturbations():
        if only and pert.name not in only:
            continue
        samples = SAMPLE_PARAMS.get(pert.name)
        if samples is None:
            required = [n for n, d in pert.parameters().items() if d is inspect.Parameter.empty]
            if required:
                print(f"{pert.name:<34} no sample params for {pert.name} (needs {', '.join(required)}): SKIP")
                continue
            samples = [("", {})]
        for suffix, params in samples:
            label = f"{pert.name}[{suffix}]" if suffix else pert.name
            try:
                out = apply(variant, pert.name, params, seed=1, ctx=ctx)
            except PerturbationError as exc:
                print(f"{label:<34} does not apply to the sample: {exc}: SKIP")
                continue
            is_image = out.image_ids != variant.image_ids
            seeds = iter(range(2, 10**9))
            ms = median_ms(lambda: apply(variant, pert.name, params, seed=next(seeds), ctx=ctx), runs)
            budget = IMAGE_BUDGET_MS if is_image else TEXT_BUDGET_MS
            enc = ""
            if is_image and out.images:
                pixels = [im.pil() for im in out.images]
                enc = f"{median_ms(lambda: [CanonicalImage.from_pil(p).id for p in pixels], 3):10.1f}"
            ok = ms < budget
            if not ok:
                failed.append(label)
            print(f"{label:<34} {'image' if is_image else 'text':<5} {ms:10.3f} {budget:7.0f}  "
                  f"{'PASS' if ok else 'FAIL'}    {enc}")
    print(f"\n{len(failed)} failed" + (f": {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
