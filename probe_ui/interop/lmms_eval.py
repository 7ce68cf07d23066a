"""lmms-eval (EvolvingLMMs-Lab/lmms-eval): a set as a task folder, and its ``--log_samples`` JSONL back as a run.

Export (``probe-ui export-set PRESET --to lmms-eval --out DIR``), a folder ``lmms-eval --tasks TASK --include_path
DIR`` loads::

    DIR/<task>.yaml     the task: ``dataset_path: json`` over samples.jsonl (``dataset_kwargs.data_files.test``,
                        written as an absolute path: lmms-eval before 0.7.3 resolves a relative one against the
                        working folder, not the task's), ``test_split: test``, ``output_type: generate_until``,
                        ``doc_to_messages`` / ``doc_to_visual`` / ``doc_to_text`` / ``doc_to_target`` and
                        ``process_results`` from utils.py (``!function utils.<name>``), ``generation_kwargs``
                        (temperature 0, no sampling, ``max_new_tokens`` the largest template budget in the set) and
                        one metric, ``probe_ui_accuracy`` (aggregated by ``utils.probe_ui_aggregate``)
    DIR/utils.py        those functions (probe_ui_doc_to_messages, ..., probe_ui_process_results)
    DIR/samples.jsonl   one document per variant: probe_ui_set, variant_id, item_id, condition, kind, template,
                        max_tokens, messages (the conversation as a JSON string: role, text, image file names),
                        prompt_text, labels, options, answer_label, question
    DIR/images/, DIR/probe-ui-set.json   the set (probe_ui.interop.benchset)

Import (``probe-ui import lmms-eval FILE``): ``<date>_samples_<task>.jsonl`` as ``--log_samples`` writes it
(``--output_path OUT``: ``OUT/<model>/``): one JSON object per document with ``doc_id``, ``target``, ``input`` (the
prompt text), ``filtered_resps`` and, where they differ, ``resps`` (lmms-eval 0.4 wrote them nested in lists,
0.7 flattens a single reply), and the metrics ``process_results`` returned: ``probe_ui_accuracy`` carries the set
and variant ids and the task's verdict. The model is the ``model_name`` of the ``<date>_results.json`` beside the
file (what lmms-eval took from ``--model_args``), else the folder's name; ``--model`` overrides. The set is the
folder named by that results file's task config (its ``data_files``), else ``--set DIR``. With ``repeats`` > 1 only
the first reply of each document is imported.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

from probe_ui import __version__
from probe_ui.files import safe_write
from probe_ui.importers.common import ImportFileError, read_json
from probe_ui.interop import register_harness
from probe_ui.interop.benchset import BenchmarkSet, SetSample
from probe_ui.interop.exporting import Written
from probe_ui.interop.importing import HarnessAnswer, HarnessResults, read_file, verdict_of
from probe_ui.interop.templates import fill

NAME = "lmms-eval"
TITLE = "lmms-eval"
#: what `probe-ui import lmms-eval` reads
READS = "the samples lmms-eval wrote with --log_samples (JSONL)"
SAMPLES_FILE = "samples.jsonl"
UTILS_FILE = "utils.py"
METRIC = "probe_ui_accuracy"
#: the largest ``<date>_results.json`` read beside a samples file (lmms-eval writes a few hundred kB)
MAX_RESULTS_BYTES = 64 * 1024 * 1024


def task_name(bset: BenchmarkSet) -> str:
    """The task's name: ``probe_ui_`` and the set's name in lower-case letters, digits and underscores."""
    return "probe_ui_" + (re.sub(r"[^a-z0-9]+", "_", bset.name.lower()).strip("_") or "set")


def document(bset: BenchmarkSet, s: SetSample) -> dict[str, Any]:
    """One document of samples.jsonl (every row has the same keys and types, as datasets' JSON loader needs)."""
    turns = [{"role": t.role, "text": t.text, "images": [f"{h}.png" for h in t.images]} for t in s.turns]
    v = s.variant
    return {"probe_ui_set": bset.set_id, "variant_id": v.id, "item_id": v.item_id, "condition": v.condition,
            "kind": v.kind, "template": s.template, "max_tokens": s.max_tokens,
            "messages": json.dumps(turns, ensure_ascii=False), "prompt_text": s.user_text,
            "labels": list(s.labels), "options": list(v.options), "answer_label": s.answer_label or "",
            "question": v.question}


def task_yaml(bset: BenchmarkSet, data_file: Path) -> str:
    """The task's YAML, written as text: its ``!function`` tags are lmms-eval's own YAML constructor."""
    q = json.dumps  # a JSON string is a YAML scalar whatever it holds
    budget = max(s.max_tokens for s in bset.samples)
    return "\n".join([
        f"# lmms-eval task for the probe-ui benchmark set {q(bset.name)} (set id {bset.set_id}),",
        f"# written by probe-ui {__version__}. Run it with:",
        f"#   lmms-eval --model <model> --model_args <args> --tasks {task_name(bset)} --include_path <this folder> \\",
        "#     --output_path <out> --log_samples",
        "# then: probe-ui import lmms-eval <out>/<model>/<date>_samples_" + task_name(bset) + ".jsonl",
        "# Edit nothing here: export the set again instead.",
        f"task: {q(task_name(bset))}",
        "dataset_path: json",
        "dataset_kwargs:",
        "  data_files:",
        f"    test: {q(str(data_file))}",
        "test_split: test",
        "output_type: generate_until",
        "doc_to_messages: !function utils.probe_ui_doc_to_messages",
        "doc_to_visual: !function utils.probe_ui_doc_to_visual",
        "doc_to_text: !function utils.probe_ui_doc_to_text",
        "doc_to_target: !function utils.probe_ui_doc_to_target",
        "generation_kwargs:",
        f"  max_new_tokens: {budget}",
        "  temperature: 0",
        "  do_sample: false",
        "process_results: !function utils.probe_ui_process_results",
        "metric_list:",
        f"  - metric: {METRIC}",
        "    aggregation: !function utils.probe_ui_aggregate",
        "    higher_is_better: true",
        "metadata:",
        "  version: 1.0",
        f"  probe_ui_set: {q(bset.set_id)}",
        ""])


def write(bset: BenchmarkSet, out: Path) -> Written:
    with safe_write.atomic_file(out / SAMPLES_FILE) as f:
        for s in bset.samples:
            f.write(json.dumps(document(bset, s), ensure_ascii=False) + "\n")
    name = task_name(bset)
    safe_write.write_text(out / f"{name}.yaml", task_yaml(bset, (out / SAMPLES_FILE).resolve()))
    safe_write.write_text(out / UTILS_FILE, fill("lmms_eval_utils.py.tmpl", SET_NAME=name, SET_ID=bset.set_id,
                                       WRITTEN_BY=f"probe-ui {__version__}", SET_ID_LITERAL=json.dumps(bset.set_id)))
    return Written(files=[SAMPLES_FILE, f"{name}.yaml", UTILS_FILE], run=[
        f"run it with: lmms-eval --model <model> --model_args <args> --tasks {name} --include_path {out.resolve()} "
        "--output_path <out> --log_samples",
        f"then: probe-ui import lmms-eval <out>/<model>/<date>_samples_{name}.jsonl  (the YAML names samples.jsonl "
        "by its absolute path: export again if you move the folder)"])


# ---- import -----------------------------------------------------------------------------------------------------

_SAMPLES_NAME = re.compile(r"^(?P<date>.+?)_samples_(?P<task>.+)\.jsonl$")


def read_results(path: Path) -> HarnessResults:
    records, digest = read_json(path, what="lmms-eval samples file", jsonl=True)
    if isinstance(records, dict):  # one document: a file of one JSON line
        records = [records]
    if not isinstance(records, list):
        raise ImportFileError(f"{path}: expected one JSON object per line")
    lines = [n for n, line in enumerate(path.read_text(encoding="utf-8-sig").split("\n"), 1) if line.strip()]
    answers = [_answer(path, n, rec) for n, rec in zip(lines, records)]
    results = _results_file(path)
    model, hints, settings = None, [], {}
    m = _SAMPLES_NAME.match(path.name)
    if results is not None:
        model = results.get("model_name") or None
        settings = {"lmms_eval": results.get("lmms_eval_version"), "model_source": results.get("model_source")}
        configs = results.get("configs")
        configs = configs if isinstance(configs, dict) else {}
        for cfg in configs.values():
            files = ((cfg or {}).get("dataset_kwargs") or {}).get("data_files") if isinstance(cfg, dict) else None
            test = files.get("test") if isinstance(files, dict) else files
            for f in test if isinstance(test, list) else [test]:
                if isinstance(f, str) and f:
                    hints.append(Path(f).parent)
    if model is None and path.parent.name:
        model = path.parent.name  # lmms-eval writes into <output_path>/<model name, sanitized>/
    if m:
        settings["task"] = m.group("task")
    return HarnessResults(harness=NAME, path=path, sha256=digest, answers=answers, model=model,
                          set_hints=hints, settings={k: v for k, v in settings.items() if v is not None})


def _results_file(samples: Path) -> dict[str, Any] | None:
    """The ``<date>_results.json`` lmms-eval wrote beside ``<date>_samples_<task>.jsonl``, if it is there."""
    m = _SAMPLES_NAME.match(samples.name)
    if not m:
        return None
    p = samples.with_name(f"{m.group('date')}_results.json")
    if not os.path.exists(p):  # none (or a dangling link): the model's name comes from the folder
        return None
    data = read_file(p, "lmms-eval results file", MAX_RESULTS_BYTES)  # a regular file, size-capped: one line else
    try:
        doc = json.loads(data.decode("utf-8"))
    except ValueError:
        return None
    return doc if isinstance(doc, dict) else None


def _first_text(value: Any) -> str | None:
    """A reply as lmms-eval logs it: a string, or lists of them (``[[reply]]``, ``[reply]``); the first one."""
    while isinstance(value, list):
        if not value:
            return None
        value = value[0]
    return value if isinstance(value, str) else None


def _answer(path: Path, n: int, rec: Any) -> HarnessAnswer:
    where = f"line {n}"
    if not isinstance(rec, dict):
        raise ImportFileError(f"{path}: {where}: expected a JSON object, got {type(rec).__name__}")
    if "doc_id" in rec:
        where += f" (doc_id {rec['doc_id']})"
    metric = rec.get(METRIC)
    if not isinstance(metric, dict) or not isinstance(metric.get("variant_id"), str):
        raise ImportFileError(f"{path}: {where}: field '{METRIC}.variant_id' is missing: not a sample of a probe-ui "
                              "set's lmms-eval task (run the task 'probe-ui export-set --to lmms-eval' wrote, with "
                              "--log_samples)")
    key = "resps" if "resps" in rec else "filtered_resps"
    if key not in rec:
        raise ImportFileError(f"{path}: {where}: field 'filtered_resps' (the model's reply) is missing")
    raw = _first_text(rec[key])
    if raw is None and rec[key] not in (None, [], [[]]):
        raise ImportFileError(f"{path}: {where}: field '{key}' should hold the reply text, got "
                              f"{type(rec[key]).__name__}")
    prompt = rec.get("input") if isinstance(rec.get("input"), str) else None
    return HarnessAnswer(where=where, variant_id=metric["variant_id"], raw_text=raw,
                         verdict=verdict_of(metric.get("correct")), harness_answer=metric.get("parsed"),
                         scorer=f"{METRIC} ({metric.get('reader', 'unknown reader')})",
                         set_id=metric.get("probe_ui_set") if isinstance(metric.get("probe_ui_set"), str) else None,
                         prompt_text=prompt)


register_harness(sys.modules[__name__])
