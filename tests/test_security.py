"""A full run's artifacts hold no API key and no patient data.

One DICOM file carries a planted patient name and id; one model's key is planted in an environment variable and
another is typed into the app. The batch, score, every export format, the import back, the report, and a live probe
in the app (upload, run, rating, benchmark set, downloads) all run; then every file they left (store, images,
exports, report, logs, presets, the app's upload cache) and every request the model server received are searched.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pydicom
from gradio_client import Client, handle_file
from pydicom.data import get_testdata_file

from app_server import start_app
from helpers import write_preset

KEY = "sk-planted-key-9f8e7d6c5b4a"
TYPED_KEY = "sk-typed-in-the-app-1a2b3c"
PATIENT = "Plantedname^Patricia"
PATIENT_ID = "PLANTED-ID-4711"
NEEDLES = [KEY, TYPED_KEY, "Plantedname", "Patricia", PATIENT_ID]


def planted_dicom(path: Path) -> Path:
    ds = pydicom.dcmread(get_testdata_file("CT_small.dcm", download=False))
    ds.PatientName = PATIENT
    ds.PatientID = PATIENT_ID
    ds.InstitutionName = "Plantedname Hospital"
    ds.save_as(path)
    assert PATIENT_ID.encode() in path.read_bytes()
    return path


def found(root: Path) -> list[str]:
    hits = []
    for f in root.rglob("*"):
        if f.is_file() and not f.is_symlink():
            data = f.read_bytes()
            for n in NEEDLES:
                if n.encode() in data or n.encode("utf-16-le") in data:
                    hits.append(f"{n} in {f.relative_to(root)}")
    return hits


def test_the_search_finds_what_is_planted(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "x.bin").write_bytes(b"..." + KEY.encode("utf-16-le") + b"...")
    (tmp_path / "y.txt").write_text(f"name {PATIENT_ID}")
    assert sorted(found(tmp_path)) == [f"{PATIENT_ID} in y.txt", f"{KEY} in a/x.bin"]


def test_no_key_and_no_patient_data_in_any_artifact(tmp_path, fake_openai, monkeypatch):
    work = tmp_path / "work"
    (work / "presets").mkdir(parents=True)
    dcm = planted_dicom(tmp_path / "scan.dcm")  # outside the searched folder: the only place the name may be
    shutil.copy(dcm, work / "presets" / "scan.dcm")
    preset = write_preset(work / "presets" / "planted.yaml", [
        {"id": "ct-1", "image": "scan.dcm", "question": "Which modality?", "options": ["CT", "MRI"], "answer": "CT"},
        {"id": "ct-2", "image": {"path": "scan.dcm", "window": [40, 400]}, "question": "Is there a bleed?",
         "answer": "no"}])
    backends = work / "backends"
    backends.mkdir()
    (backends / "loop.yaml").write_text(f"name: loop\nprovider: openai\nmodel: gpt-4o\nbase_url: "
                                        f"{fake_openai.base_url}\napi_key_env: PLANTED_KEY_VAR\n", encoding="utf-8")
    fake_openai.expected_key = KEY
    env = {**os.environ, "PLANTED_KEY_VAR": KEY, "PROBE_UI_BACKENDS": str(backends), "PROBE_UI_DISCOVER": "0",
           "NO_PROXY": "127.0.0.1,localhost"}
    logs = work / "logs"
    logs.mkdir()

    def cli(name: str, *args: str) -> None:
        r = subprocess.run([sys.executable, "-m", "probe_ui", *args], capture_output=True, text=True, env=env,
                           cwd=work, timeout=300)
        (logs / f"{name}.out").write_text(r.stdout)
        (logs / f"{name}.err").write_text(r.stderr)
        assert r.returncode == 0, (name, r.stderr[-1500:])

    cli("batch", "batch", str(preset), "-m", "loop", "-m", "baseline/first", "--suite", "rotations", "--run", "sec")
    cli("batch-again", "--debug", "batch", str(preset), "-m", "loop", "--run", "sec")
    cli("score", "score", "--run", "sec", "--json")
    for fmt in ("jsonl", "parquet", "csv", "imagefolder"):
        cli(f"export-{fmt}", "export", "--run", "sec", "--format", fmt, "--out", f"exports/{fmt}")
    cli("import", "import", "dataset", "exports/jsonl", "--with-perturbations", "--to-preset", "replay/replay.yaml")
    cli("report", "report", "--run", "sec", "--out", "report.html")
    # a wrong key: the server's 401 echoes part of what it got; the message must not carry it on
    env_wrong = dict(env, PLANTED_KEY_VAR=KEY[:-4] + "0000")
    r = subprocess.run([sys.executable, "-m", "probe_ui", "batch", str(preset), "-m", "loop", "--run", "wrong",
                        "--no-cache"],
                       capture_output=True, text=True, env=env_wrong, cwd=work, timeout=300)
    (logs / "wrong.err").write_text(r.stderr + r.stdout)
    assert r.returncode == 1 and "401" in r.stderr

    # the app: upload the planted DICOM, a model whose key is typed in, run, rate, save, download
    monkeypatch.setenv("GRADIO_TEMP_DIR", str(work / "gradio-cache"))
    monkeypatch.setenv("PROBE_UI_DISCOVER", "0")
    monkeypatch.chdir(work)
    server = start_app(work / "app")
    try:
        c = Client(server.url, verbose=False, download_files=str(work / "downloads"))
        steps0 = {"headers": ["variant", "perturbation", "parameters"], "data": []}
        info = c.predict(handle_file(str(dcm)), steps0, api_name="/load_image")[1]
        assert "withheld" in info
        typed = fake_openai.base_url
        c.predict("openai", typed, "gpt-4o", TYPED_KEY, "typed", api_name="/add_endpoint")
        fake_openai.expected_key = TYPED_KEY
        run = c.predict("Which modality?", "choice", "CT\nMRI", "CT", "", {"headers": ["variant", "perturbation",
                        "parameters"], "data": [[1, "rotate", '{"angle": 180}']]}, 0, [], True,
                        "auto (per kind)", ["baseline/first"], "typed", api_name="/run")[1]
        store = server.store()
        rid = int(store.answers_frame(store.get_run(run).id).response_id.iloc[0])
        c.predict(rid, "unsure", "looked fine", {"html": "", "run": run}, api_name="/rate")
        c.predict("Which modality?", "choice", "CT\nMRI", "CT", "", steps0, [], "sec-set", api_name="/add_to_benchmark_set")
        for path in (c.predict([run], "jsonl", "response", "robust", api_name="/export"),
                     c.predict([run], "robust", api_name="/report")):
            shutil.copy(path, work / "downloads")
        assert c.predict("typed", api_name="/test_model").startswith("✅")
    finally:
        server.app.close()

    assert found(work) == ["Plantedname in presets/scan.dcm", "Patricia in presets/scan.dcm",
                           f"{PATIENT_ID} in presets/scan.dcm"]  # only the input file itself
    bodies = json.dumps([r.body for r in fake_openai.requests], default=str)
    assert not [n for n in ["Plantedname", "Patricia", PATIENT_ID] if n in bodies]  # no header data was sent
    assert any(r.api_key == KEY for r in fake_openai.requests)  # the keys were used, only where they belong
    assert any(r.api_key == TYPED_KEY for r in fake_openai.requests)
