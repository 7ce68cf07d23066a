"""VLMEvalKit (open-compass/VLMEvalKit): a set as a custom multiple-choice TSV, and its predictions back as a run.

Export (``probe-ui export-set PRESET --to vlmevalkit --out DIR``)::

    DIR/<NAME>.tsv      VLMEvalKit's custom multiple-choice dataset (docs/en/Development.md, "Prepare your benchmark
                        tsv file"): ``index`` (1, 2, ...), ``image`` (the PNG as base64; a question about several images
                        holds a list of them, written as VLMEvalKit reads one: "['<b64>', '<b64>']"), ``question``,
                        ``A``, ``B``, ... (the options), ``answer`` (the letter), ``category`` (the variant's
                        condition), ``l2-category`` (the item's first category), and ``probe_ui_set``,
                        ``probe_ui_variant``, ``probe_ui_item``: VLMEvalKit keeps every column but the image in its
                        prediction file, which is how ``probe-ui import vlmevalkit`` maps each prediction back;
                        written by :mod:`probe_ui.files.spreadsheet`'s writer, so a text cell a spreadsheet would run
                        as a formula (``=``, ``+``, ``-``, ``@``) starts with an apostrophe, in the prompt too
    DIR/images/, DIR/probe-ui-set.json   the set (probe_ui.interop.benchset)

With ``LMUData=DIR`` (VLMEvalKit's data folder), ``python run.py --data <NAME> --model <MODEL>`` treats a TSV it
does not know, with ``A``/``B`` and ``image`` columns, as a custom multiple-choice dataset (CustomMCQDataset). Its
prompt is VLMEvalKit's own (ImageMCQDataset.build_prompt: "Question: ...", "Options:", "A. ...", "Please select
the correct answer from the options above."), not probe-ui's, so replies are stored under the prompt name
:data:`PROMPT` with that text as the messages sent (a model with its own multiple-choice prompt,
``use_custom_prompt``, was sent that instead). VLMEvalKit re-saves each image as a PNG file (same pixels).

Only what that format holds is written: multiple-choice variants with at least one image and no few-shot examples
(VLMEvalKit drops rows without an image and has no few-shot turns); the summary says how many others were left
out. ``<NAME>`` is ``probeui_<preset>_<set id>`` without the words VLMEvalKit reads as a dataset type (circular,
mmbench, ccbench, mmcr: they switch on its circular evaluation).

Import (``probe-ui import vlmevalkit FILE``): the prediction file ``<model>_<NAME>.xlsx`` (or ``.tsv`` / ``.csv``
with ``PRED_FORMAT``), or the result file its evaluation writes (``..._exact_matching_result.xlsx``, or another
judge's), whose ``hit`` column is VLMEvalKit's verdict. xlsx needs openpyxl (``pip install 'probe-ui[vlmevalkit]'``).
The model is the file name's part before ``_<NAME>``; the set is ``--set DIR``, else ``$LMUData`` when it holds it.
"""

from __future__ import annotations

import base64
import csv
import io
import os
import re
import sys
from pathlib import Path
from typing import Any

from probe_ui.files import safe_write, spreadsheet
from probe_ui.importers.common import ImportFileError
from probe_ui.interop import register_harness
from probe_ui.interop.benchset import BenchmarkSet, SetError, SetSample
from probe_ui.interop.exporting import Written
from probe_ui.interop.importing import HarnessAnswer, HarnessResults, read_file, sha256, verdict_of
from probe_ui.items import LETTERS

NAME = "vlmevalkit"
TITLE = "VLMEvalKit"
#: what `probe-ui import vlmevalkit` reads
READS = "its prediction or result file (xlsx, tsv or csv)"
PROMPT = "vlmevalkit-mcq"
#: words in a dataset name that switch VLMEvalKit's evaluation to another dataset type
_TYPE_WORDS = re.compile(r"circular|mmbench|ccbench|mmcr|mmt|mmsci|mmvp", re.IGNORECASE)
_DATASET = re.compile(r"probeui_[a-z0-9_]+?_[0-9a-f]{16}")


def dataset_name(bset: BenchmarkSet) -> str:
    preset = _TYPE_WORDS.sub("x", re.sub(r"[^a-z0-9]+", "_", bset.preset["name"].lower())).strip("_") or "set"
    return f"probeui_{preset}_{bset.set_id}"


def exportable(s: SetSample) -> str | None:
    """Why a sample cannot be a row of a custom multiple-choice TSV, or None when it can."""
    if s.variant.kind != "choice" or s.template == "free":
        return "not multiple choice"
    if s.variant.examples:
        return "few-shot examples"
    if not s.variant.images:
        return "no image"
    return None


def build_prompt(s: SetSample) -> str:
    """VLMEvalKit's default multiple-choice prompt for this sample (ImageMCQDataset.build_prompt, no hint)."""
    # the cells as the TSV holds them (and VLMEvalKit reads them): a formula-like text starts with an apostrophe
    options = "".join(f"{L}. {spreadsheet.neutral(o)}\n" for L, o in zip(LETTERS, s.variant.options))
    return (f"Question: {spreadsheet.neutral(s.variant.question)}\nOptions:\n{options}"
            "Please select the correct answer from the options above. \n")


def messages(s: SetSample) -> list[dict[str, Any]]:
    """What VLMEvalKit sends for a row, in the store's form: the images, then its prompt."""
    parts: list[dict[str, Any]] = [{"type": "image", "image_id": im.id} for im in s.variant.images]
    parts.append({"type": "text", "text": build_prompt(s)})
    return [{"role": "user", "content": parts}]


def write(bset: BenchmarkSet, out: Path) -> Written:
    rows: list[SetSample] = []
    left: dict[str, int] = {}
    for s in bset.samples:
        why = exportable(s)
        if why:
            left[why] = left.get(why, 0) + 1
        else:
            rows.append(s)
    if not rows:
        raise SetError(f"{bset.preset['name']}: none of the set's {len(bset.samples)} variants fits "
                              "VLMEvalKit's custom multiple-choice format (multiple choice with an image): export it "
                              "--to inspect, lmms-eval or hf instead")
    n_opts = max(len(s.variant.options) for s in rows)
    letters = list(LETTERS[:n_opts])
    name = dataset_name(bset)
    buf = io.StringIO()
    # the one spreadsheet-safe writer: a question or option such as "=cmd|' /C calc'!A0" is text in Excel
    w = spreadsheet.writer(buf, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
    w.writerow(["index", "image", "question", *letters, "answer", "category", "l2-category", "probe_ui_set",
                "probe_ui_variant", "probe_ui_item"])
    for i, s in enumerate(rows, 1):
        v = s.variant
        ims = [base64.b64encode(im.png).decode("ascii") for im in v.images]
        image = ims[0] if len(ims) == 1 else "[" + ", ".join(f"'{b}'" for b in ims) + "]"
        opts = [v.options[k] if k < len(v.options) else "" for k in range(n_opts)]
        w.writerow([i, image, v.question, *opts, v.answer_label or "", v.condition,
                    v.category[0] if v.category else "", bset.set_id, v.id, v.item_id])
    safe_write.write_text(out / f"{name}.tsv", buf.getvalue())
    warnings = []
    if left:
        warnings.append(f"{sum(left.values())} variants are not in {name}.tsv, which holds only multiple-choice "
                        "questions with an image and no few-shot turns ("
                        + ", ".join(f"{k}: {n}" for k, n in sorted(left.items()))
                        + "); export --to inspect, lmms-eval or hf to ask them")
    return Written(files=[f"{name}.tsv"], samples=len(rows), warnings=warnings, run=[
        f"run it with: LMUData={out.resolve()} python run.py --data {name} --model <MODEL>  (in VLMEvalKit's folder)",
        f"then: LMUData={out.resolve()} probe-ui import vlmevalkit outputs/<MODEL>/<MODEL>_{name}.xlsx"])


# ---- import -----------------------------------------------------------------------------------------------------

def read_table(path: Path, data: bytes) -> list[dict[str, Any]]:
    """A prediction / result file's rows (xlsx, tsv, csv), every cell as text or None."""
    import pandas as pd

    suffix = path.suffix.lower()
    try:
        if suffix == ".xlsx":
            try:
                import openpyxl  # noqa: F401 - pandas' engine for xlsx
            except ImportError:
                raise ImportFileError(f"{path}: reading xlsx needs openpyxl, which is not installed: pip install "
                                      "'probe-ui[vlmevalkit]' (or have VLMEvalKit write tsv: PRED_FORMAT=tsv)"
                                      ) from None
            df = pd.read_excel(io.BytesIO(data), dtype=str, keep_default_na=False)
        elif suffix in (".tsv", ".csv"):
            df = pd.read_csv(io.BytesIO(data), sep="\t" if suffix == ".tsv" else ",", dtype=str,
                             keep_default_na=False)
        else:
            raise ImportFileError(f"{path}: not a VLMEvalKit prediction file (expected .xlsx, .tsv or .csv)")
    except ImportFileError:
        raise
    except Exception as exc:  # pandas', openpyxl's and zipfile's own errors
        raise ImportFileError(f"{path}: cannot be read as {suffix[1:]}: {type(exc).__name__}: "
                              f"{str(exc).strip().splitlines()[0][:200] if str(exc).strip() else ''}") from None
    return [{str(k): (None if v == "" else v) for k, v in r.items()} for r in df.to_dict("records")]


def read_results(path: Path) -> HarnessResults:
    data = read_file(path, "VLMEvalKit prediction file")
    rows = read_table(path, data)
    if not rows:
        raise ImportFileError(f"{path}: the file has no rows")
    for col in ("probe_ui_variant", "prediction"):
        if col not in rows[0]:
            raise ImportFileError(f"{path}: no column '{col}': not VLMEvalKit's predictions for a set 'probe-ui "
                                  "export-set --to vlmevalkit' wrote")
    answers = []
    for n, r in enumerate(rows, 2):  # row 1 is the header
        where = f"row {n}" + (f" (index {r['index']})" if r.get("index") else "")
        vid = r.get("probe_ui_variant")
        if not vid:
            raise ImportFileError(f"{path}: {where}: field 'probe_ui_variant' is empty")
        answers.append(HarnessAnswer(where=where, variant_id=vid, raw_text=r.get("prediction") or "",
                                     verdict=verdict_of(r["hit"]) if r.get("hit") is not None else None,
                                     scorer="hit" if r.get("hit") is not None else None,
                                     set_id=r.get("probe_ui_set")))
    m = _DATASET.search(path.stem)
    model = path.stem[: m.start()].rstrip("_") if m and m.start() > 0 else None
    hints = [Path(os.environ["LMUData"])] if os.environ.get("LMUData") else []
    hints.append(Path.home() / "LMUData")
    settings = {"dataset": m.group(0) if m else None, "result_file": any("hit" in r for r in rows[:1])}
    return HarnessResults(harness=NAME, path=path, sha256=sha256(data), answers=answers, model=model,
                          set_hints=hints, settings=settings, prompt=PROMPT, messages=messages)


register_harness(sys.modules[__name__])
