"""Build the bundled example images in assets/ from medical test images shipped inside pip packages.

    python assets/build_assets.py [--out DIR]

Every image goes through ``probe_ui.images.load_image`` (the same windowing, colour and orientation code a user's
upload goes through), then at most a downscale to a long side of 1024 px. The output is deterministic: the same
package versions give the same PNG bytes, so the committed assets can be checked for reproducibility
(tests/test_images.py does). Nothing is downloaded: pydicom's files are taken with ``download=False`` and
scikit-image's straight from its installed data folder.

Besides the PNGs it writes SOURCES.md (provenance and licence of each image, with the licence text quoted from the
installed package and checked to be there) and manifest.json (id, modality and facts a question writer can rely on).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # runnable as a plain script from a checkout
    sys.path.insert(0, str(REPO))

from probe_ui.images import CanonicalImage, LoadedImage, load_image  # noqa: E402

MAX_SIDE = 1024
OVERLAY_COLOUR = (255, 255, 0)

# --- licence statements, quoted from files inside the installed packages (checked at build time) -------------------

PYDICOM_README = "pydicom/data/test_files/README.txt"
PYDICOM_NO_RESTRICTION = "I believe there is no restriction on using any of these files in this manner."
PYDICOM_LICENCE = f'pydicom (MIT). Its {PYDICOM_README} says of the test files: "{PYDICOM_NO_RESTRICTION}"'
NIBABEL_COPYING_QUOTE = (
    "The nibabel package, including all examples, code snippets and attached documentation is covered by the MIT "
    "license."
)


@dataclass(frozen=True)
class Source:
    """Where an image comes from: a file inside an installed package."""

    package: str  # distribution name, for the version
    path: str  # the file inside the package, as shown in SOURCES.md
    locate: Callable[[], Path]
    licence: str
    evidence: tuple[tuple[str, str], ...] = ()  # (file inside site-packages, exact text it must contain)


@dataclass(frozen=True)
class Asset:
    name: str
    source: Source
    modality: str
    body_part: str
    description: str
    facts: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)
    post: Callable[[CanonicalImage, Path], tuple[CanonicalImage, str]] | None = None


def _site() -> Path:
    import pydicom

    return Path(pydicom.__file__).resolve().parent.parent


def _pydicom_file(name: str) -> Callable[[], Path]:
    def locate() -> Path:
        from pydicom.data import get_testdata_file

        found = get_testdata_file(name, download=False)
        if found is None:
            raise SystemExit(f"pydicom {metadata.version('pydicom')} does not ship {name} inside its wheel")
        return Path(found)

    return locate


def _nibabel_file(name: str) -> Callable[[], Path]:
    def locate() -> Path:
        import nibabel

        return Path(nibabel.__file__).resolve().parent / "tests" / "data" / name

    return locate


def _skimage_file(name: str) -> Callable[[], Path]:
    def locate() -> Path:
        import skimage.data

        return Path(skimage.data.__file__).resolve().parent / name

    return locate


def _pydicom(name: str, origin: str, extra: tuple[tuple[str, str], ...] = ()) -> Source:
    return Source(
        package="pydicom",
        path=f"pydicom/data/test_files/{name}",
        locate=_pydicom_file(name),
        licence=f"{PYDICOM_LICENCE} {origin}",
        evidence=((PYDICOM_README, PYDICOM_NO_RESTRICTION),) + extra,
    )


def _skimage(name: str, loader: str, quote: str) -> Source:
    return Source(
        package="scikit-image",
        path=f"skimage/data/{name}",
        locate=_skimage_file(name),
        licence=f'scikit-image (BSD-3-Clause); the docstring of skimage.data.{loader}() says: "{quote}"',
        evidence=(("skimage/data/_fetchers.py", quote),),
    )


def _draw_overlay(image: CanonicalImage, dicom_path: Path) -> tuple[CanonicalImage, str]:
    """Burn the file's first overlay plane (a clinician's lesion outline) into the pixels, in yellow."""
    import pydicom

    ds = pydicom.dcmread(dicom_path)
    mask = ds.overlay_array(0x6000).astype(bool)
    rgb = np.array(image.pil().convert("RGB"))
    rgb[mask] = OVERLAY_COLOUR
    return CanonicalImage.from_pil(Image.fromarray(rgb, "RGB")), "overlay plane 6000 drawn in yellow"


def _assets() -> list[Asset]:
    ct_small = _pydicom(
        "CT_small.dcm",
        "README: CT image downsized from 'CT1_UNC' of the NEMA WG04 data sets.",
        (("pydicom/data/test_files/README.txt", "Downsized to 128x128 from 'CT1_UNC'"),),
    )
    overlay = _pydicom(
        "examples_overlay.dcm",
        "README: MR-SIEMENS-DICOM-WithOverlays.dcm (from GDCM, BSD-style licence quoted in the same README) "
        "with cropped pixel and overlay data.",
        (("pydicom/data/test_files/README.txt", "MR-SIEMENS-DICOM-WithOverlays.dcm with cropped Pixel Data"),),
    )
    return [
        Asset(
            name="ct_small_axial.png",
            source=ct_small,
            modality="CT",
            body_part="chest (thoracic spine)",
            description=(
                "Axial contrast-enhanced CT, 128x128, field of view limited to the spine region: vertebral body, "
                "spinal canal and posterior elements, paraspinal muscles, both lungs at the sides and the "
                "contrast-filled descending aorta to the patient's left of the vertebral body. Wide window "
                "(the file has none, so min-max of the Hounsfield units): lungs, bone and soft tissue all visible."
            ),
            facts=(
                "axial CT slice",
                "contrast-enhanced (header: ISOVUE300/100)",
                "thoracic level: lung fields on both sides of the spine",
                "a thoracic vertebra with its spinal canal fills the centre of the image",
                "the round bright structure anterior and to the image right of the vertebral body is the "
                "descending aorta (patient's left)",
                "displayed with the patient's right on the image left and anterior at the top",
                "grayscale (MONOCHROME2); no window in the file, so min-max scaled",
            ),
        ),
        Asset(
            name="ct_small_axial_soft_tissue.png",
            source=ct_small,
            modality="CT",
            body_part="chest (thoracic spine)",
            description=(
                "The same axial CT slice as ct_small_axial.png in a soft-tissue window (WL 40 / WW 400 HU): muscle "
                "and the aorta show grey detail, bone is white and the lungs are black."
            ),
            facts=(
                "axial CT slice",
                "soft-tissue window (level 40 HU, width 400 HU)",
                "bone appears saturated white and lung black in this window",
                "same slice and pixels grid as ct_small_axial.png; only the window differs",
            ),
            options={"window": (40.0, 400.0)},
        ),
        Asset(
            name="ct_head_axial.png",
            source=_pydicom(
                "J2K_pixelrep_mismatch.dcm",
                "README: 'Dataset from issue 1149' (a JPEG 2000 lossless head CT); the README gives no other "
                "origin for this file.",
                (("pydicom/data/test_files/README.txt", "Dataset from issue 1149"),),
            ),
            modality="CT",
            body_part="head",
            description=(
                "Axial head CT (512x512) in the file's brain window (WL 40 / WW 100 HU) at the level of the skull "
                "base and posterior fossa: cerebellar hemispheres, temporal lobes in the middle cranial fossae, "
                "petrous temporal bones with black mastoid air cells, and anteriorly the orbital roof / frontal "
                "sinus region. Bone is saturated white; air and fat are black. Acquired with gantry tilt."
            ),
            facts=(
                "axial CT of the head",
                "brain window from the file (level 40 HU, width 100 HU)",
                "no contrast agent is recorded in the header",
                "level of the posterior cranial fossa: the cerebellum is visible",
                "petrous temporal bones with mastoid air cells are visible on both sides",
                "displayed with the patient's right on the image left and anterior at the top",
                "grayscale (MONOCHROME2)",
            ),
        ),
        Asset(
            name="mr_small.png",
            source=_pydicom(
                "MR_small.dcm",
                "README: MR image downsized to 64x64 from 'MR1_UNC' of the NEMA WG04 data sets.",
                (("pydicom/data/test_files/README.txt", "Downsized to 64x64 from 'MR1_UNC'"),),
            ),
            modality="MR",
            body_part="not identifiable",
            description=(
                "A 64x64 MR image (downsized test file) in the file's window (WL 600 / WW 1600). The header "
                "describes a heavily T2-weighted 3D spin-echo acquisition (TR 4000 ms, TE 240 ms) with a small "
                "field of view; at this size the anatomy cannot be identified reliably."
            ),
            facts=(
                "MR image (not CT)",
                "grayscale (MONOCHROME2), window from the file (level 600, width 1600)",
                "only 64x64 pixels",
                "header: spin-echo, TR 4000 ms, TE 240 ms (heavily T2-weighted)",
            ),
        ),
        Asset(
            name="mr_abdomen_axial.png",
            source=overlay,
            modality="MR",
            body_part="abdomen",
            description=(
                "Axial T1-weighted fat-suppressed 3D gradient-echo MR of the upper abdomen after gadolinium "
                "(protocol t1_vibe_fs_tra_bh_dyn, header contrast: Omniscan), at the level of both kidneys. The "
                "liver (image left) holds a large round lesion with a dark centre and a brighter rim, and a small "
                "lesion at its lateral edge (outlined in mr_abdomen_axial_marked.png). Both kidneys enhance with "
                "cortex brighter than medulla; the aorta is bright in front of the spine. The arms are cut at the "
                "image edges. File window WL 450 / WW 790 (the first of its two windows)."
            ),
            facts=(
                "axial MR slice of the upper abdomen",
                "T1-weighted, fat-suppressed, after intravenous gadolinium contrast (header)",
                "both kidneys are visible and enhance",
                "the liver is on the image left (patient's right) and contains a large round lesion with a dark "
                "centre and enhancing rim",
                "the aorta is the round bright structure just in front of the vertebral body",
                "grayscale (MONOCHROME2), window from the file (level 450, width 790)",
            ),
        ),
        Asset(
            name="mr_abdomen_axial_marked.png",
            source=overlay,
            modality="MR",
            body_part="abdomen",
            description=(
                "mr_abdomen_axial.png with the file's own overlay plane drawn in yellow: a hand-drawn outline "
                "around a small lesion at the lateral edge of the liver, the text 'Tra' (top right) and a small "
                "box symbol (bottom right). The series is named 'marked lesion'."
            ),
            facts=(
                "axial MR slice of the upper abdomen, T1-weighted post-contrast",
                "a yellow hand-drawn outline marks a small lesion at the lateral edge of the liver (image left)",
                "the yellow marks come from the DICOM overlay plane, not from the scanner image",
            ),
            post=_draw_overlay,
        ),
        Asset(
            name="us_lymph_node_doppler.png",
            source=_pydicom(
                "examples_rgb_color.dcm",
                "README: US1_UNCR.dcm (NEMA WG04 data sets) with cropped pixel data.",
                (
                    (
                        "pydicom/data/test_files/README.txt",
                        "examples_rgb_color.dcm: US1_UNCR.dcm with cropped Pixel Data",
                    ),
                ),
            ),
            modality="US",
            body_part="lymph node (small-parts / musculoskeletal preset)",
            description=(
                "Ultrasound (GE LOGIQ 700, linear probe) of an elongated oval hypoechoic structure labelled "
                "'LYMPH NODE' (possibly two adjacent nodes across two sample boxes), with power Doppler colour "
                "(orange/yellow, 'PWR' colour bars) showing internal branching vascular flow. Burned-in text: an "
                "institution name, scanner settings, a scale bar and 'TIS<0.4 MI=0.8'. RGB file, colours as stored."
            ),
            facts=(
                "ultrasound image (B-mode grey scale with power Doppler colour overlay)",
                "burned-in label 'LYMPH NODE'",
                "internal vascular flow is shown in orange/yellow",
                "the image carries burned-in text (annotations from the scanner)",
                "colour image (RGB)",
            ),
        ),
        Asset(
            name="us_echo_4chamber.png",
            source=_pydicom(
                "examples_ybr_color.dcm",
                "README: color3d_jpeg_baseline.dcm with reduced frames and rescaled pixel data.",
                (("pydicom/data/test_files/README.txt", "examples_ybr_color.dcm: color3d_jpeg_baseline.dcm"),),
            ),
            modality="US",
            body_part="heart",
            description=(
                "Transthoracic echocardiogram (SonoSite), first frame of a 30-frame cine stored as YBR_FULL_422 "
                "JPEG and converted to RGB. It appears to be an apical four-chamber view: the sector apex at the "
                "top, both ventricles above and both atria below, the septum vertical in the middle, the "
                "atrioventricular valves seen as a horizontal line. The label 'PLA' and scanner settings are "
                "burned in; the picture itself is grey scale."
            ),
            facts=(
                "ultrasound of the heart (echocardiography)",
                "sector-shaped grey-scale image with burned-in scanner text",
                "frame 0 of a 30-frame cine loop",
                "stored as YBR_FULL_422 (JPEG) and converted to RGB",
            ),
        ),
        Asset(
            name="nm_bone_scan.png",
            source=_pydicom(
                "JPEG2000.dcm",
                "README: edited 'NM1_J2KI' of the NEMA WG04 data sets.",
                (("pydicom/data/test_files/README.txt", "Edited 'NM1_J2KI' from"),),
            ),
            modality="NM",
            body_part="whole body",
            description=(
                "Whole-body bone scintigraphy (GE Millennium MG, study 'Whole Body Bone'), one view, 256x1024. "
                "Very blurred: the file is JPEG 2000 lossy at about 2097:1. The skeleton is faintly visible; the "
                "brightest focus is in the pelvis, consistent with tracer in the urinary bladder. Shown with "
                "uptake bright (MONOCHROME2, not inverted) in a window of 0-120 counts, which saturates the "
                "bladder."
            ),
            facts=(
                "nuclear medicine whole-body bone scan (scintigraphy)",
                "uptake is shown bright on a dark background",
                "the most intense focus is in the pelvis (urinary bladder activity)",
                "heavily compressed (lossy JPEG 2000), so fine detail is lost",
            ),
            options={"window": (60.0, 120.0)},
        ),
        Asset(
            name="brain_epi_axial.png",
            source=Source(
                package="nibabel",
                path="nibabel/tests/data/example4d.nii.gz",
                locate=_nibabel_file("example4d.nii.gz"),
                licence=(
                    f'nibabel (MIT). Its COPYING says: "{NIBABEL_COPYING_QUOTE}" (COPYING\'s third-party data '
                    "section lists PDDL-licensed PAR/REC files and an MNI template; example4d.nii.gz is not "
                    "among them)."
                ),
                evidence=(("nibabel-*.dist-info/licenses/COPYING", NIBABEL_COPYING_QUOTE),),
            ),
            modality="MR",
            body_part="brain",
            description=(
                "Axial slice (12 of 24, first of 2 volumes) of a 4-D low-resolution brain MR series (2 mm in-plane, "
                "2.2 mm slices; its size and time axis suggest functional EPI, written by FSL 3.3), at the level "
                "of the lateral ventricles: frontal horns, atria with choroid plexus, deep grey matter and cortex; "
                "grey matter is brighter than white matter. Radiological orientation (patient's right on image "
                "left, anterior up); 0.5-99.5 percentile window of the slice."
            ),
            facts=(
                "axial brain MR slice",
                "low resolution (2 mm pixels, 128x96)",
                "level of the lateral ventricles",
                "anterior is at the top; patient's right is on the image left",
                "grayscale",
            ),
            options={"axis": 2, "slice": 12, "frame": 0},
        ),
        Asset(
            name="fundus_retina.png",
            source=_skimage(
                "retina.jpg",
                "retina",
                "This file is made available under the Creative Commons CC0 1.0 Universal\n    Public Domain "
                "Dedication.",
            ),
            modality="fundus photography",
            body_part="eye (retina)",
            description=(
                "Colour fundus photograph of a normal left eye (source title: 'Fundus photograph of normal left "
                "eye', Häggström 2014): optic disc on the image left with a thin pigmented crescent at its edge, "
                "retinal arteries and veins arching from it, the macula with a dark fovea at the centre, black "
                "background outside the circular field and a small notch marker at the upper right. Downscaled "
                "from 1411x1411 to 1024x1024."
            ),
            facts=(
                "colour fundus photograph (retina)",
                "left eye, described by its source as normal",
                "the optic disc is on the left of the image and the fovea near the centre",
                "colour image (RGB)",
            ),
        ),
        Asset(
            name="fundus_microaneurysms.png",
            source=_skimage(
                "microaneurysms.png",
                "microaneurysms",
                "No copyright restrictions. CC0 given by owner (Andreas Maier).",
            ),
            modality="fundus photography (green channel)",
            body_part="eye (retina)",
            description=(
                "102x102 grey-scale detail (green channel) of a fundus photograph from a diabetic retinopathy case "
                "(HRF database image 07_dr): three dark vessels cross horizontally and two small round dark dots "
                "between them are microaneurysms."
            ),
            facts=(
                "grey-scale crop of a retinal fundus photograph (green channel)",
                "from a diabetic retinopathy case",
                "the small round dark dots are microaneurysms",
                "the dark curved lines are retinal vessels",
            ),
        ),
        Asset(
            name="ihc_histology.png",
            source=_skimage(
                "ihc.png",
                "immunohistochemistry",
                "No known copyright restrictions.",
            ),
            modality="histology (immunohistochemistry)",
            body_part="colon",
            description=(
                "Light micrograph of colonic glands stained by immunohistochemistry for FHL2 with DAB (brown) and "
                "haematoxylin counterstain (blue): the glandular epithelium is brown, stromal nuclei between the "
                "glands are blue."
            ),
            facts=(
                "histology slide (light microscopy), immunohistochemistry",
                "colonic glands",
                "brown = DAB (FHL2 protein), blue = haematoxylin counterstain",
                "colour image (RGB)",
            ),
        ),
    ]


def _check_evidence(source: Source) -> None:
    """Fail loudly if a quoted licence text is not in the installed package (so SOURCES.md never misquotes)."""
    site = _site()
    for pattern, quote in source.evidence:
        files = sorted(site.glob(pattern))
        if not files:
            raise SystemExit(f"{pattern} not found in {site}; cannot confirm the licence of {source.path}")
        texts = [" ".join(f.read_text(encoding="utf-8", errors="replace").split()) for f in files]
        wanted = " ".join(quote.split())
        if not any(wanted in text for text in texts):
            raise SystemExit(f"{pattern} no longer says {quote!r}; update the licence statement of {source.path}")


def _downscale(image: CanonicalImage) -> tuple[CanonicalImage, str | None]:
    long_side = max(image.width, image.height)
    if long_side <= MAX_SIDE:
        return image, None
    scale = MAX_SIDE / long_side
    size = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
    small = image.pil().resize(size, Image.Resampling.LANCZOS)
    return CanonicalImage.from_pil(small), f"downscaled from {image.width}x{image.height} (Lanczos)"


def _windowing(loaded: LoadedImage) -> str:
    info = loaded.info
    source = info.get("window_source")
    if source is None:
        colour = info.get("colour")
        if colour:
            return f"none (colour image; {colour})"
        return "none (colour image as stored)" if loaded.image.mode == "RGB" else "none (8-bit grey image as stored)"
    center, width = info["window"]
    if source == "file":
        return f"file window WL {center:g} / WW {width:g}"
    if source == "user":
        return f"chosen window WL {center:g} / WW {width:g}"
    if source == "percentile":
        lo, hi = info["percentiles"]
        return f"{lo:g}-{hi:g} percentile window of the slice (WL {center:.1f} / WW {width:.1f})"
    return f"min-max (WL {center:g} / WW {width:g}; the file has no window)"


def build(out: Path) -> list[dict[str, Any]]:
    """Write every asset, SOURCES.md and manifest.json into ``out``; return the manifest rows."""
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for asset in _assets():
        _check_evidence(asset.source)
        path = asset.source.locate()
        loaded = load_image(path, **asset.options)
        image = loaded.image
        steps = []
        if asset.post is not None:
            image, step = asset.post(image, path)
            steps.append(step)
        image, step = _downscale(image)
        if step:
            steps.append(step)
        (out / asset.name).write_bytes(image.png)
        rows.append(
            {
                "name": asset.name,
                "id": image.id,
                "width": image.width,
                "height": image.height,
                "mode": image.mode,
                "modality": asset.modality,
                "body_part": asset.body_part,
                "description": asset.description,
                "facts": list(asset.facts),
                "windowing": _windowing(loaded),
                "processing": steps,
                "loader_info": loaded.info,
                "source": {
                    "package": asset.source.package,
                    "version": metadata.version(asset.source.package),
                    "file": asset.source.path,
                    "licence": asset.source.licence,
                },
            }
        )
    manifest = {row["name"]: {k: v for k, v in row.items() if k != "name"} for row in rows}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    (out / "SOURCES.md").write_text(_sources_md(rows), encoding="utf-8")
    return rows


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _sources_md(rows: list[dict[str, Any]]) -> str:
    lines = [
        "# Bundled images: provenance and licences",
        "",
        "Generated by `python assets/build_assets.py`; do not edit by hand. Each PNG was built from a file shipped",
        "inside a pip package, through `probe_ui.images.load_image` (the same code that loads a user's upload),",
        f"downscaled only where its long side exceeded {MAX_SIDE} px. The id is the sha256 of the PNG bytes.",
        "Licence statements are quoted from the installed packages; the build fails if a quote is no longer there.",
        "",
        "| file | package | file inside the package | licence | modality / body part | windowing | size | sha256 id |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for row in rows:
        src = row["source"]
        size = f"{row['width']}x{row['height']} {row['mode']}"
        if row["processing"]:
            size += " (" + "; ".join(row["processing"]) + ")"
        lines.append(
            "| "
            + " | ".join(
                _cell(v)
                for v in (
                    f"`{row['name']}`",
                    f"{src['package']} {src['version']}",
                    f"`{src['file']}`",
                    src["licence"],
                    f"{row['modality']} / {row['body_part']}",
                    row["windowing"],
                    size,
                    f"`{row['id']}`",
                )
            )
            + " |"
        )
    lines += ["", "## What each image shows", ""]
    for row in rows:
        lines.append(f"- `{row['name']}`: {_cell(row['description'])}")
    lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out", type=Path, default=Path(__file__).resolve().parent, help="output folder (default: assets/)"
    )
    args = parser.parse_args(argv)
    for row in build(args.out):
        size = f"{row['width']}x{row['height']}"
        print(f"{row['name']:34} {size:>9} {row['mode']:3} {row['id'][:16]}  {row['windowing']}")
    print(f"wrote {args.out / 'SOURCES.md'} and {args.out / 'manifest.json'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
