"""lmms-eval: the task folder export-set writes loads as lmms-eval loads a task (its YAML with `!function` tags
resolved against utils.py beside it, the data through `datasets.load_dataset("json", data_files=...)`), its
functions give the set's exact conversation, and a `--log_samples` file in lmms-eval's documented format (0.7's
flattened replies and 0.4's nested ones) imports into a run that scores like a batch of the same preset.

lmms-eval itself is not installed here (it pulls torch and much more): the facts come from its source (task_guide.md,
api/task.py ConfigurableTask.download, utils.load_yaml_config / import_function, evaluator.py's logged sample,
loggers/evaluation_tracker.py save_results_samples). One test runs lmms-eval's own task loader when it is installed.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml
from fake_openai import FakeOpenAIServer
from harness_fixtures import mixed_preset, reply_for, responder, set_conversation
from helpers import require_module

from probe_ui.cli import main
from probe_ui.interop.benchset import load_set

PRESET, SEED, MODEL = "probmed_adversarial", "2", "openai/gpt-4o"


def load_task(folder: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The task as lmms-eval reads it: the YAML (its `!function utils.f` tags resolved as lmms-eval's
    import_function does: the module file beside the YAML) and the test split's documents."""
    datasets = require_module("datasets", 'pip install -e ".[dev]"')
    (path,) = folder.glob("*.yaml")

    class Loader(yaml.SafeLoader):
        pass

    def function(loader: yaml.Loader, node: yaml.Node) -> Any:
        module_name, name = loader.construct_scalar(node).rsplit(".", 1)  # type: ignore[arg-type]
        spec = importlib.util.spec_from_file_location(module_name, path.parent / f"{module_name}.py")
        module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
        spec.loader.exec_module(module)  # type: ignore[union-attr]
        return getattr(module, name)

    Loader.add_constructor("!function", function)
    cfg = yaml.load(path.read_text(encoding="utf-8"), Loader=Loader)  # noqa: S506 - the loader above
    ds = datasets.load_dataset(cfg["dataset_path"], cache_dir=str(folder.parent / "hf-cache"),
                               **cfg["dataset_kwargs"])[cfg["test_split"]]
    return cfg, list(ds)


def log_samples(cfg: dict[str, Any], docs: list[dict[str, Any]], folder: Path, out: Path, *,
                nested: bool = False) -> Path:
    """What `lmms-eval ... --output_path OUT --log_samples` writes for these documents, the model being
    :func:`harness_fixtures.reply_for`: OUT/<model>/<date>_samples_<task>.jsonl and <date>_results.json beside it."""
    bset = load_set(folder)
    model_dir = out / "gpt-4o"
    model_dir.mkdir(parents=True)
    path = model_dir / f"20260101_120000_samples_{cfg['task']}.jsonl"
    with path.open("w", encoding="utf-8") as f:
        for doc_id, doc in enumerate(docs):
            reply = reply_for(set_conversation(bset.sample(doc["variant_id"])))
            line = {"doc_id": doc_id, "target": str(cfg["doc_to_target"](doc)),
                    "filtered_resps": [reply] if nested else reply, "doc_hash": f"{doc_id:064x}",
                    "input": cfg["doc_to_text"](doc), **cfg["process_results"](doc, [reply])}
            if nested:  # lmms-eval 0.4 kept the per-request lists
                line["resps"] = [[reply]]
            f.write(json.dumps(line, ensure_ascii=False) + "\n")
    results = {"results": {cfg["task"]: {}}, "configs": {cfg["task"]: {"dataset_kwargs": cfg["dataset_kwargs"]}},
               "model_source": "openai_compatible", "model_name": "gpt-4o", "lmms_eval_version": "0.7.2"}
    (model_dir / "20260101_120000_results.json").write_text(json.dumps(results), encoding="utf-8")
    return path


@pytest.fixture
def exported(tmp_path: Path) -> Path:
    assert main(["export-set", PRESET, "--seed", SEED, "--to", "lmms-eval", "--out", str(tmp_path / "set")]) == 0
    return tmp_path / "set"


def test_the_task_loads_as_lmms_eval_loads_it_and_asks_the_sets_exact_conversation(tmp_path: Path) -> None:
    (tmp_path / "p").mkdir()
    preset = mixed_preset(tmp_path / "p")
    assert main(["export-set", str(preset), "--to", "lmms-eval", "--out", str(tmp_path / "set")]) == 0
    cfg, docs = load_task(tmp_path / "set")
    assert cfg["task"] == "probe_ui_mixed_seed0" and cfg["output_type"] == "generate_until"
    assert cfg["test_split"] == "test" and cfg["dataset_path"] == "json"
    assert cfg["metric_list"][0]["metric"] == "probe_ui_accuracy" and callable(cfg["metric_list"][0]["aggregation"])
    assert cfg["generation_kwargs"] == {"max_new_tokens": 32, "temperature": 0, "do_sample": False}
    bset = load_set(tmp_path / "set")
    assert [d["variant_id"] for d in docs] == [s.variant.id for s in bset.samples]
    for doc in docs:
        s = bset.sample(doc["variant_id"])
        messages = cfg["doc_to_messages"](doc)
        assert [(m["role"], m["content"][-1]["text"]) for m in messages] == [(t.role, t.text) for t in s.turns]
        sent = [c["url"] for m in messages for c in m["content"] if c["type"] == "image"]
        want = [bset.images[h].pil().convert("RGB") for t in s.turns for h in t.images]
        assert len(sent) == len(want) and all(np.array_equal(np.asarray(a), np.asarray(b))
                                              for a, b in zip(sent, want))
        assert [np.asarray(im).shape for im in cfg["doc_to_visual"](doc)] == [np.asarray(im).shape for im in want]
        assert cfg["doc_to_text"](doc) == s.user_text
        assert cfg["doc_to_target"](doc) == (s.answer_label or "")
    shots = next(d for d in docs if d["item_id"] == "mc-b" and d["condition"] == "shots")
    roles = [m["role"] for m in cfg["doc_to_messages"](shots)]
    assert roles == ["system", "user", "assistant", "user"]  # the solved example first, then the question
    two = next(d for d in docs if d["item_id"] == "mc-two")
    assert len(cfg["doc_to_visual"](two)) == 2
    # process_results reads with probe-ui's reader and names the variant; the aggregation is its accuracy
    yn = next(d for d in docs if d["item_id"] == "yn")
    got = cfg["process_results"](yn, ["No, there is no fracture."])["probe_ui_accuracy"]
    assert got == {"probe_ui_set": bset.set_id, "variant_id": yn["variant_id"], "parsed": "no", "correct": True,
                   "reader": "probe-ui"}
    assert cfg["metric_list"][0]["aggregation"]([got, dict(got, correct=False), dict(got, correct=None)]) == 50.0


@pytest.mark.parametrize("nested", [False, True], ids=["lmms-eval 0.7", "lmms-eval 0.4"])
def test_log_samples_import_and_score_like_a_batch(exported: Path, tmp_path: Path, nested: bool,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    cfg, docs = load_task(exported)
    log = log_samples(cfg, docs, exported, tmp_path / "out", nested=nested)
    imported, batch = tmp_path / "i.db", tmp_path / "b.db"
    assert main(["import", "lmms-eval", str(log), "--db", str(imported), "--model", MODEL]) == 0
    assert "22 new" in capsys.readouterr().out
    with FakeOpenAIServer(responder=responder) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-loopback")
        assert main(["batch", PRESET, "--seed", SEED, "--model", MODEL, "--db", str(batch), "--no-progress"]) == 0
    capsys.readouterr()
    reports = []
    for db in (imported, batch):
        assert main(["score", "--db", str(db), "--json"]) == 0
        reports.append(json.loads(capsys.readouterr().out))
    a, b = reports
    assert a["models"] == b["models"] and "probmed" in a["models"][MODEL]["paper"]
    assert 0 < a["models"][MODEL]["accuracy"]["value"] < 100
    agreement = a["harness_agreement"]["models"][MODEL]
    assert agreement["agree"] == agreement["compared"] > 0


def test_the_model_and_the_set_are_found_from_lmms_evals_own_files(exported: Path, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    cfg, docs = load_task(exported)
    log = log_samples(cfg, docs, exported, tmp_path / "out")
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert main(["import", "lmms-eval", str(log), "--db", str(tmp_path / "s.db")]) == 0
    out = capsys.readouterr().out
    assert "of 'gpt-4o'" in out and "into run 'lmms-eval-probmed_adversarial-seed2'" in out


def _import_fails(log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    from probe_ui.store import Store

    db = tmp_path / "bad.db"
    capsys.readouterr()
    assert main(["import", "lmms-eval", str(log), "--db", str(db), *extra]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert not db.exists() or not Store(str(db)).list_runs()  # nothing half-imported
    return err


def test_bad_lines_are_named_and_nothing_is_imported(exported: Path, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    cfg, docs = load_task(exported)
    log = log_samples(cfg, docs, exported, tmp_path / "out")
    lines = log.read_text(encoding="utf-8").splitlines()

    bad = log.with_name("20260101_120000_samples_bad.jsonl")
    bad.write_text("\n".join(lines[:2] + ["{not json"] + lines[3:]) + "\n", encoding="utf-8")
    err = _import_fails(bad, tmp_path, capsys)
    assert f"{bad}: neither JSON nor JSON lines: line 3" in err

    other = json.loads(lines[4])
    other.pop("probe_ui_accuracy")
    bad.write_text("\n".join(lines[:4] + [json.dumps(other)] + lines[5:]) + "\n", encoding="utf-8")
    err = _import_fails(bad, tmp_path, capsys)
    assert f"{bad}: line 5 (doc_id 4): field 'probe_ui_accuracy.variant_id' is missing" in err

    stray = json.loads(lines[6])
    stray["probe_ui_accuracy"]["variant_id"] = "ffffffffffffffff"
    bad.write_text("\n".join(lines[:6] + [json.dumps(stray)] + lines[7:]) + "\n", encoding="utf-8")
    err = _import_fails(bad, tmp_path, capsys, "--set", str(exported))
    assert "line 7 (doc_id 6): variant 'ffffffffffffffff' is not in the set" in err

    no_reply = json.loads(lines[1])
    no_reply.pop("filtered_resps")
    bad.write_text("\n".join([lines[0], json.dumps(no_reply)] + lines[2:]) + "\n", encoding="utf-8")
    err = _import_fails(bad, tmp_path, capsys, "--set", str(exported))
    assert "line 2 (doc_id 1): field 'filtered_resps' (the model's reply) is missing" in err


def test_lmms_evals_own_task_loader_reads_the_folder(exported: Path) -> None:
    """Only where lmms-eval is installed (it is not a dependency: it brings torch and much more)."""
    tasks = pytest.importorskip("lmms_eval.tasks", reason="lmms-eval is not installed (pip install lmms-eval)")
    manager = tasks.TaskManager("INFO", include_path=str(exported))
    name = next(exported.glob("*.yaml")).stem
    task = tasks.get_task_dict([name], manager)[name]
    docs = list(task.test_docs())
    assert len(docs) == 22 and task.doc_to_text(docs[0]) == load_set(exported).samples[0].user_text
