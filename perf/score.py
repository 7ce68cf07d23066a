"""Time the scoring path on a synthetic 1,000,000-answer table and check the speed goal.

Goal: accuracy_by_model + majority_vote + paper_metrics for every model of a 1,000,000-answer table (several models,
every suite family: MediConfusion pairs with the circular suite, ProbMed questions, MedVH hallucination/baseline
pairs and FCJ, MedBLINK label tasks, the Illusion suite) in under 10 s in total. The table has the columns and
value types of ``Store.answers_frame(run_id, full=True)``; building it is not timed.

    python perf/score.py [--rows 1000000] [--models 4] [--samples 1] [--budget 10] [--seed 0]

``--samples 3`` gives every cell three samples, so majority_vote has real work to do (the table then holds
rows / 3 cells); with one sample per cell (the default, as in temperature-0 runs) majority_vote returns the table
unchanged. Prints the time of each step, the total (wall and CPU) and PASS/FAIL; exits 1 on FAIL.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import numpy as np
import pandas as pd

from probe_ui.metrics import accuracy_by_model, paper_metrics
from probe_ui.metrics.samples import majority_vote

LETTERS = np.array(list("ABCDEFGH"), dtype=object)
BUDGET_S = 10.0

# share of one model's cells per family (the rest of the size follows from --rows / --models / --samples)
FAMILIES = {"mediconfusion": 0.12, "probmed": 0.22, "medvh": 0.16, "medblink": 0.14, "illusion": 0.36}


def _variants_mediconfusion(n_cells: int, rng: np.random.Generator) -> list[dict[str, Any]]:
    """Pairs (2 originals) + the circular suite (1 shift each): 4 cells per pair."""
    cats = ["Cerebral", "Vascular", "Head and Neck", "Spinal", "Musculoskeletal", "Cardiac", "Gastrointestinal",
            "Pulmonary", "Nuclear Medicine"]
    out = []
    for p in range(max(1, n_cells // 4)):
        q = f"mc question {p}?"
        opts = [f"option a {p}", f"option b {p}"]
        for m, ans in ((1, 0), (2, 1)):
            item = f"mc{p}-{m}"
            cat = [cats[(p + m) % 9]] + ([cats[(p + 3) % 9]] if p % 3 == 0 else [])
            base = dict(item_id=item, source="presets/mediconfusion_pairs.yaml", group_id=item, item_group=f"pair{p}",
                        kind="choice", question=q, category=cat, tags=[], attributes={"pair_member": m},
                        prompt_args=None)
            out.append({**base, "condition": "original", "options": opts, "ans": ans})
            out.append({**base, "condition": "circular/shift1", "options": opts[::-1], "ans": 1 - ans})
    return out


def _variants_probmed(n_cells: int, rng: np.random.Generator) -> list[dict[str, Any]]:
    types = ["ct scan_abdomen", "x-ray_chest", "mri_brain", "ct scan_chest", "mri_spine", "x-ray_spine"]
    out = []
    img = 0
    while len(out) < n_cells:
        img += 1
        it = types[img % len(types)]
        normal = img % 4 == 0
        qas = ["modality_gt", "modality_hallu", "body_part_gt", "body_part_hallu", "abnormality"]
        if normal:
            qas.append("entity_hallu")
        else:
            k = 1 + img % 3
            qas += [f"entity_{v}_{j}" for j in range(k) for v in ("gt", "hallu")]
            qas += [f"grounding_{v}_{j}" for j in range(k) for v in ("gt", "hallu")]
        for i, qa in enumerate(qas):
            ans = "no" if ("hallu" in qa or (qa == "abnormality" and normal)) else "yes"
            out.append(dict(item_id=f"pm{img}-{qa}", source="probmed/test.json", group_id=f"pm{img}-{qa}",
                            item_group=None, kind="yesno", question=f"Is this {qa}? (please answer yes/no)",
                            category=[], tags=[], attributes={"image_id": img, "image_type": it, "qa_type": qa,
                                                              "order": len(out)},
                            prompt_args=None, condition="original", options=[], ans=ans))
    return out


def _variants_medvh(n_cells: int, rng: np.random.Generator) -> list[dict[str, Any]]:
    """Per item: wrongful-image, nota, premise (each with baseline), fcj, fcj-student and the original: 9 cells."""
    out = []
    for i in range(max(1, n_cells // 9)):
        opts = [f"x{i}", f"y{i}", f"z{i}", "None of the above."]
        base = dict(item_id=f"vh{i}", source="presets/medvh.yaml", group_id=f"vh{i}", item_group=None, kind="choice",
                    question=f"medvh q{i}", category=["Chest"], tags=[], attributes={}, prompt_args=None)
        out.append({**base, "condition": "original", "options": opts[:3], "ans": i % 3})
        for task in ("wrongful-image", "nota", "premise"):
            out.append({**base, "condition": f"medvh/{task}", "options": opts, "ans": 3})
            out.append({**base, "condition": f"medvh/{task}-baseline", "options": opts, "ans": i % 3})
        for cond, wording in (("medvh/fcj", "physician"), ("medvh/fcj-student", "student")):
            wrong = (i + 1) % 3
            out.append({**base, "condition": cond, "options": opts[:3], "ans": i % 3,
                        "prompt_args": {"suggestion": {"letter": LETTERS[wrong], "text": opts[wrong],
                                                       "wording": wording, "hint": wording == "student"}}})
    return out


def _variants_medblink(n_cells: int, rng: np.random.Generator) -> list[dict[str, Any]]:
    rgb = ["red", "green", "blue"]
    tasks = [("contrast", ["yes", "no"]), ("depth", rgb), ("orientation", ["correct", "upside down"]),
             ("histology-depth", rgb), ("ultrasound-depth", rgb)]
    out = []
    for i in range(n_cells):
        task, labels = tasks[i % len(tasks)]
        kind = "yesno" if labels == ["yes", "no"] else "label"
        out.append(dict(item_id=f"bl{i}", source="medblink/val.json", group_id=f"bl{i}", item_group=None, kind=kind,
                        question=f"{task} {i}?", category=[task], tags=[], attributes={"task": task},
                        prompt_args=None, condition="original", options=[] if kind == "yesno" else labels,
                        ans=i % len(labels)))
    return out


def _variants_illusion(n_cells: int, rng: np.random.Generator) -> list[dict[str, Any]]:
    """5-option items under original, no-image, shuffle, 1R-4R, unknown, substitution: 9 cells per item."""
    out = []
    for i in range(max(1, n_cells // 9)):
        opts = [f"dx{i}-{k}" for k in range(5)]
        src = "nejm.jsonl" if i % 2 else "jama.jsonl"
        base = dict(item_id=f"il{i}", source=src, group_id=f"il{i}", item_group=None, kind="choice",
                    question=f"vignette {i}", category=[], tags=["visual-required"] if i % 5 == 0 else [],
                    attributes={}, prompt_args=None)
        ans = i % 5
        conds = [("original", opts, ans), ("illusion/no-image", opts, ans), ("illusion/shuffle", opts[::-1], 4 - ans)]
        for k in range(1, 5):
            conds.append((f"illusion/{k}R", opts, ans))
        conds.append(("illusion/unknown", opts, ans))
        conds.append(("illusion/substitution", opts, (ans + 1) % 5))
        for cond, o, a in conds:
            out.append({**base, "condition": cond, "options": o, "ans": a})
    return out


BUILDERS = {"mediconfusion": _variants_mediconfusion, "probmed": _variants_probmed, "medvh": _variants_medvh,
            "medblink": _variants_medblink, "illusion": _variants_illusion}


def build_table(rows: int = 1_000_000, models: int = 4, samples: int = 1, seed: int = 0) -> pd.DataFrame:
    """A synthetic answer table with ``answers_frame(full=True)`` columns: ``models`` models, ``samples`` samples
    per cell, the cells spread over every metric family; model m is right with probability 0.5 + 0.1·m."""
    rng = np.random.default_rng(seed)
    cells = max(1, rows // (models * samples))
    variants: list[dict[str, Any]] = []
    for fam, share in FAMILIES.items():
        variants += BUILDERS[fam](int(cells * share), rng)
    v = pd.DataFrame(variants)
    v["variant_id"] = [f"v{i:08d}" for i in range(len(v))]
    n_opts = v["options"].map(len).to_numpy()
    kind = v["kind"].to_numpy()
    n_labels = np.where(kind == "yesno", 2, n_opts)
    ans = v["ans"].to_numpy()
    label_of = np.empty(len(v), dtype=object)
    choice = kind == "choice"
    yesno = kind == "yesno"
    label = kind == "label"
    label_of[choice] = LETTERS[ans[choice].astype(int)]
    label_of[yesno] = ans[yesno]
    label_of[label] = [o[a] for o, a in zip(v.loc[label, "options"], ans[label])]
    v["answer_label"] = label_of
    v["n_labels"] = n_labels
    v["answer"] = [o[a] if k != "yesno" else a for o, a, k in zip(v["options"], ans, kind)]
    # label words of every variant (letters / yes-no / label words) for wrong answers
    ans_idx = np.array([(0 if a == "yes" else 1) if isinstance(a, str) else int(a) for a in ans], dtype=np.int64)

    n_var = len(v)
    reps = models * samples
    idx = np.tile(np.arange(n_var), reps)
    model_no = np.repeat(np.arange(models), n_var * samples)
    sample_no = np.tile(np.repeat(np.arange(samples), n_var), models)
    n = len(idx)
    right = rng.random(n) < (0.5 + 0.1 * model_no)
    invalid = ~right & (rng.random(n) < 0.1)
    nl = n_labels[idx]
    wrong = (ans_idx[idx] + 1 + rng.integers(0, np.maximum(nl - 1, 1))) % np.maximum(nl, 1)
    chosen = np.where(right, ans_idx[idx], wrong)
    parsed = np.empty(n, dtype=object)
    k = kind[idx]
    parsed[k == "choice"] = LETTERS[chosen[k == "choice"]]
    parsed[k == "yesno"] = np.where(chosen[k == "yesno"] == 0, "yes", "no")
    lab = np.flatnonzero(k == "label")
    opts = v["options"].to_numpy()
    parsed[lab] = [opts[i][c] for i, c in zip(idx[lab], chosen[lab])]
    parsed[invalid] = None
    correct = (parsed == label_of[idx]) & ~invalid
    df = pd.DataFrame({
        "response_id": np.arange(n),
        "model": np.array([f"provider/model-{m}" for m in range(models)], dtype=object)[model_no],
        "prompt": "default",
        "sample": sample_no,
        "variant_id": v["variant_id"].to_numpy()[idx],
        "parsed": parsed,
        "method": "declaration",
        "invalid": invalid,
        "refusal": invalid & (rng.random(n) < 0.3),
        "correct": correct.astype(object),
        "error": None,
        "latency_s": 0.5, "input_tokens": 100, "output_tokens": 5, "cost": 0.0,
    })
    for col in ("item_id", "source", "condition", "group_id", "item_group", "kind", "answer_label", "n_labels",
                "question", "options", "answer", "category", "tags", "attributes", "prompt_args"):
        df[col] = v[col].to_numpy()[idx]
    df["raw_text"] = parsed
    return df


def run(rows: int, models: int, samples: int, seed: int, budget: float) -> bool:
    t0 = time.perf_counter()
    df = build_table(rows, models, samples, seed)
    print(f"built {len(df):,} answers ({df['model'].nunique()} models, {samples} sample(s) per cell, "
          f"{df['variant_id'].nunique():,} variants) in {time.perf_counter() - t0:.1f} s (not timed)")
    times: dict[str, float] = {}
    cpu0 = time.process_time()
    t = time.perf_counter()
    acc = accuracy_by_model(df)
    times["accuracy_by_model"] = time.perf_counter() - t
    t = time.perf_counter()
    voted = majority_vote(df)
    times["majority_vote"] = time.perf_counter() - t
    t = time.perf_counter()
    per_model: dict[str, dict[str, Any]] = {}
    for model, g in voted.groupby("model", sort=True):
        tm = time.perf_counter()
        per_model[str(model)] = paper_metrics(g)
        times[f"paper_metrics[{model}]"] = time.perf_counter() - tm
    times["paper_metrics (all models)"] = time.perf_counter() - t
    total = times["accuracy_by_model"] + times["majority_vote"] + times["paper_metrics (all models)"]
    cpu = time.process_time() - cpu0
    for k, s in times.items():
        print(f"  {k:<40} {s:7.2f} s")
    errors = [(m, fam, r["error"]) for m, res in per_model.items() for fam, r in res.items()
              if isinstance(r, dict) and "error" in r]
    for m, fam, e in errors:
        print(f"  ERROR {m} {fam}: {e}")
    fams = sorted(next(iter(per_model.values()))["detected"]) if per_model else []
    print(f"  families: {', '.join(fams)}")
    print(f"  accuracy of {next(iter(acc))}: {next(iter(acc.values()))['accuracy']['value']:.2f} %")
    if samples == 1:
        print("  (one sample per cell: majority_vote has nothing to vote on; --samples 3 times it)")
    ok = total < budget and not errors
    print(f"total {total:.2f} s wall ({cpu:.2f} s CPU) for {len(df):,} answers (goal < {budget:.0f} s): "
          f"{'PASS' if ok else 'FAIL'}")
    return ok


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--models", type=int, default=4)
    ap.add_argument("--samples", type=int, default=1)
    ap.add_argument("--budget", type=float, default=BUDGET_S)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    return 0 if run(a.rows, a.models, a.samples, a.seed, a.budget) else 1


if __name__ == "__main__":
    sys.exit(main())
