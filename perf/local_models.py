"""Local models through ``probe-ui batch``: every architecture family, micro-batched against one at a time.

For each family of tests/tiny_vlm.py (LLaVA 1.5, LLaVA-NeXT, Gemma 3 / MedGemma, Idefics3 / SmolVLM, Idefics2,
PaliGemma, Qwen2-VL, Qwen2.5-VL) it builds a random checkpoint into a temporary folder (the family's real processor
and chat template, ``save_pretrained``), writes a small preset next to it (``--items`` multiple-choice items on
generated images, every third one on two images) and a catalogue entry for ``hf/<folder>``, then runs ``probe-ui
batch`` in this process on the same cells, each run into its own database with ``--no-cache``: a warm-up (loads
the model), then ``--repeats`` rounds of micro-batched (the provider's default: ``batch_size`` 8, twice that in
flight) and one at a time (``--concurrency 1``), alternating; the fastest run of each kind counts (other jobs on a
shared machine only ever slow a run down). A family is "ok" when every timed run answers every cell without an
error and all give the same greedy answers (in float32; with ``--dtype bfloat16`` their agreement is reported);
otherwise its entry is the reason, from the batch's first error line (e.g. a processor that needs torchvision).

Figures: wall time of the timed runs; model time (each micro-batch's time counted once, from the stored
latencies); the tool's overhead (wall / model time - 1, of the batched run); a lone request's time from submission
to answer on the idle model (live probing: it waits ``batch_wait_ms`` for company), against ``batch_size`` 1;
``batch_speedup`` = the summed one-at-a-time walls over the summed batched walls of the ok families.

Goals: at least 4 families ok and a batch speedup of at least 2 (tiny models on a CPU); with ``--large``
(~0.34 B parameters a family) on a GPU (``--device cuda``): a speedup of at least 3 and overhead under 5 %.
Exits 1 when a goal is missed. The LAST line printed is one JSON object:
``{"architectures": {"llava": "ok", "qwen2_vl": "<reason>", ...}, "batch_speedup": <float>}``.

    python perf/local_models.py [--items 24] [--families llava,gemma3] [--large] [--device cpu|cuda]
                                      [--dtype float32] [--batch-size 8] [--max-tokens 32] [--repeats 3]
                                      [--threads N]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import sqlalchemy as sa  # noqa: E402
import tiny_vlm  # noqa: E402
import yaml  # noqa: E402
from helpers import write_png, write_preset  # noqa: E402

from probe_ui.cli import main as probe_ui  # noqa: E402
from probe_ui.store import Store, responses  # noqa: E402


def preset(folder: Path, items: int) -> Path:
    """``items`` multiple-choice items on generated 96 x 64 images; every third asks about two images."""
    for i in range(items + 1):
        write_png(folder / f"im{i}.png", size=(96, 64), seed=i)
    rows = []
    for i in range(items):
        item: dict[str, Any] = {"id": f"q{i}", "question": f"Which finding does image {i} show?",
                                "options": ["pleural effusion", "pneumothorax", "no finding"], "answer": "A"}
        if i % 3 == 0:
            item["images"] = [f"im{i}.png", f"im{i + 1}.png"]
        else:
            item["image"] = f"im{i}.png"
        rows.append(item)
    return write_preset(folder / "bench.yaml", rows)


def batch(preset_path: Path, model: str, db: Path, *extra: str) -> dict[str, Any]:
    """One ``probe-ui batch`` run in this process: wall time, exit code, its error lines and stored rows."""
    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = probe_ui(["batch", str(preset_path), "-m", model, "--db", str(db), "--no-progress", "--no-cache",
                         "--run", "bench", *extra])
    wall = time.perf_counter() - start
    rows: list[dict[str, Any]] = []
    if db.exists():
        with Store(db).engine.connect() as c:
            rows = [dict(r) for r in c.execute(sa.select(responses).order_by(responses.c.variant_id)).mappings()]
    errors = [line[len("error: "):] for line in err.getvalue().splitlines() if line.startswith("error: ")]
    return {"wall": wall, "code": code, "errors": errors, "rows": rows}


def model_time(rows: list[dict[str, Any]]) -> float:
    """Time the model was busy: each response's share of its micro-batch's time, summed (each batch once)."""
    return sum((r["latency_s"] or 0.0) / max(1, (r["details"] or {}).get("batch_size", 1)) for r in rows)


def reason(run: dict[str, Any], folder: Path, family: str) -> str:
    """Why a family is not ok, in one line without the temporary path."""
    if run["errors"]:
        text = run["errors"][0]
    elif any(r["error"] for r in run["rows"]):
        text = next(r["error"] for r in run["rows"] if r["error"])
    else:
        text = f"exit code {run['code']}"
    text = text.split(": ", 1)[1] if text.startswith("bench-") else text  # "<model> on <item>: <message>"
    return text.replace(f"hf/{folder}", f"hf/<{family}>").replace(str(folder), f"<{family}>")


def run_family(family: str, args: argparse.Namespace, work: Path) -> dict[str, Any]:
    folder = work / family
    size = tiny_vlm.LARGE if args.large else tiny_vlm.TINY
    t0 = time.perf_counter()
    try:
        tiny_vlm.build(family, folder, size=size)
    except Exception as exc:  # noqa: BLE001 - a family that cannot even be built is reported, not fatal
        return {"status": f"cannot build: {type(exc).__name__}: {exc}".splitlines()[0]}
    built = time.perf_counter() - t0
    backends = work / "backends"
    backends.mkdir(exist_ok=True)
    name = f"bench-{family}"
    (backends / f"{name}.yaml").write_text(yaml.safe_dump({
        "name": name, "provider": "hf", "model": str(folder), "generation": {"max_tokens": args.max_tokens},
        "options": {"device": args.device, "dtype": args.dtype, "batch_size": args.batch_size}}))
    os.environ["PROBE_UI_BACKENDS"] = str(backends)
    (work / f"{family}-preset").mkdir()
    p = preset(work / f"{family}-preset", args.items)
    warm = batch(p, name, work / f"{family}-warm.db")
    if warm["code"] != 0 or not warm["rows"]:
        return {"status": reason(warm, folder, family), "build_s": built}
    runs: dict[str, list[dict[str, Any]]] = {"batched": [], "single": []}
    for k in range(args.repeats):  # alternating, so that other work on the machine hits both alike
        runs["batched"].append(batch(p, name, work / f"{family}-batched{k}.db"))
        runs["single"].append(batch(p, name, work / f"{family}-single{k}.db", "--concurrency", "1"))
    lone = lone_request(folder, args)
    from probe_ui.providers.hf import unload

    unload()  # free the model before the next family
    for run in runs["batched"] + runs["single"]:
        if run["code"] != 0 or any(r["error"] for r in run["rows"]) or len(run["rows"]) != len(warm["rows"]):
            return {"status": reason(run, folder, family), "build_s": built}
    batched, single = (min(runs[k], key=lambda r: r["wall"]) for k in ("batched", "single"))
    reference = [r["raw_text"] for r in single["rows"]]
    agree = min(sum(a == b for a, b in zip(reference, (r["raw_text"] for r in run["rows"])))
                for run in runs["batched"] + runs["single"])
    # float32 must agree exactly; in 16-bit floats a padded batch may round a near-tie of a random model differently
    same = agree == len(reference) or args.dtype != "float32"
    busy = model_time(batched["rows"])
    return {"status": "ok" if same else f"batched greedy answers differ from one at a time ({agree} of "
                                        f"{len(reference)} agree)", "agree": agree, "build_s": built,
            "cells": len(batched["rows"]), "batched_s": batched["wall"], "single_s": single["wall"],
            "model_s": busy, "overhead": batched["wall"] / busy - 1 if busy else float("nan"),
            "mean_batch": sum((r["details"] or {}).get("batch_size", 1) for r in batched["rows"])
            / len(batched["rows"]),
            **lone}


def lone_request(folder: Path, args: argparse.Namespace, rounds: int = 10) -> dict[str, float]:
    """Live probing's case: one request to an idle model, from submission to answer (median of ``rounds``), with
    micro-batching (it waits ``batch_wait_ms`` for company) and with ``batch_size`` 1."""
    import statistics

    from probe_ui.messages import GenerationSettings

    request = tiny_vlm.mc_request(GenerationSettings(max_tokens=args.max_tokens))
    kinds = {"lone_batched_ms": tiny_vlm.provider(folder, device=args.device, batch_size=args.batch_size),
             "lone_single_ms": tiny_vlm.provider(folder, device=args.device, batch_size=1)}
    times: dict[str, list[float]] = {k: [] for k in kinds}
    for _ in range(rounds):
        for kind, p in kinds.items():
            r = tiny_vlm.ask(p, request)
            assert r.details["batch_size"] == 1
            times[kind].append(1000 * (r.latency_s + r.details["wait_s"]))
    return {k: statistics.median(v) for k, v in times.items()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--items", type=int, default=24, help="preset items a family (default 24)")
    ap.add_argument("--families", default=",".join(tiny_vlm.FAMILIES), help="comma-separated (default: all)")
    ap.add_argument("--large", action="store_true", help="~0.34 B-parameter models (for a GPU) instead of tiny ones")
    ap.add_argument("--device", default="cpu", help="cpu (default) or cuda / cuda:N")
    ap.add_argument("--dtype", default="float32", choices=("float32", "bfloat16", "float16"),
                    help="model dtype (default float32, where batched greedy answers must equal one-at-a-time "
                         "ones; in 16-bit floats their agreement is reported)")
    ap.add_argument("--batch-size", type=int, default=8, help="options.batch_size of the batched run (default 8)")
    ap.add_argument("--max-tokens", type=int, default=32, help="new tokens an answer (default 32, the MC prompt's)")
    ap.add_argument("--threads", type=int, default=None,
                    help="torch CPU threads (default on --device cpu: 1; a CPU shared with other jobs stalls "
                         "multi-threaded kernels whenever one of their threads is descheduled)")
    ap.add_argument("--repeats", type=int, default=3,
                    help="timed runs of each kind, alternating; the fastest counts (default 3)")
    args = ap.parse_args()
    families = [f for f in args.families.split(",") if f]
    unknown = [f for f in families if f not in tiny_vlm.FAMILIES]
    if unknown:
        ap.error(f"unknown families {unknown}; known: {', '.join(tiny_vlm.FAMILIES)}")
    os.environ.setdefault("PROBE_UI_DISCOVER", "0")  # no looking for model servers on the network
    import torch
    from transformers.utils import logging

    logging.disable_progress_bar()
    logging.set_verbosity_error()
    if args.device.startswith("cuda") and not torch.cuda.is_available():
        print(f"--device {args.device}: no CUDA device on this machine (torch {torch.__version__}); nothing measured",
              file=sys.stderr)
        return 1
    threads = args.threads or (1 if args.device == "cpu" else None)
    if threads:
        torch.set_num_threads(threads)
    where = torch.cuda.get_device_name(args.device) if args.device.startswith("cuda") else \
        f"CPU ({os.cpu_count()} cores), torch threads {torch.get_num_threads()}"
    print(f"{'large' if args.large else 'tiny'} {args.dtype} models on {where}; {args.items} items a family, "
          f"batch_size {args.batch_size}, max_tokens {args.max_tokens}")
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="probe-ui-local-models-") as tmp:
        for family in families:
            results[family] = r = run_family(family, args, Path(tmp))
            if r["status"] == "ok":
                print(f"{family:12s} ok: {r['cells']} cells, batched {r['batched_s']:.2f} s (mean batch "
                      f"{r['mean_batch']:.1f}), one at a time {r['single_s']:.2f} s, "
                      f"x{r['single_s'] / r['batched_s']:.2f}; same answers {r['agree']} of {r['cells']};"
                      f" model busy {r['model_s']:.2f} s, tool overhead {100 * r['overhead']:.0f} %; a lone request "
                      f"{r['lone_batched_ms']:.1f} ms ({r['lone_single_ms']:.1f} ms with batch_size 1)")
            else:
                print(f"{family:12s} {r['status']}")
            if args.large:
                import shutil

                shutil.rmtree(Path(tmp) / family, ignore_errors=True)  # ~1.3 GB a family
    ok = [r for r in results.values() if r["status"] == "ok"]
    speedup = sum(r["single_s"] for r in ok) / sum(r["batched_s"] for r in ok) if ok else 0.0
    overhead = (sum(r["batched_s"] for r in ok) / sum(r["model_s"] for r in ok) - 1) if ok else float("nan")
    goal_speedup = 3.0 if args.large else 2.0
    print(f"families ok: {len(ok)} of {len(results)} (goal >= 4); batch speedup x{speedup:.2f} (goal >= "
          f"{goal_speedup:g}); tool overhead of the batched runs {100 * overhead:.1f} % of model time"
          + (" (goal < 5 %)" if args.large and args.device != "cpu" else " (no goal on CPU)"))
    met = len(ok) >= 4 and speedup >= goal_speedup and (not args.large or args.device == "cpu" or overhead < 0.05)
    print(json.dumps({"architectures": {f: r["status"] for f, r in results.items()},
                      "batch_speedup": round(speedup, 2)}))
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
