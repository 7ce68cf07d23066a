"""A full run's artifacts hold no API key and no patient data.

One DICOM file carries a planted patient name and id; one model's key is planted in an environment variable and
another is typed into the app. The batch, score, every export format, the import back, the report, and a live probe
in the app (upload, run, rating, benchmark set, downloads) all run; then every file they left (store, images,
exports, report, logs, presets, the app's upload cache) and every request the model server received are searched.

Then the leaks issue 14 found, each planted on its own: a key file saved on Windows (F1), a server that echoes the
key past a cut, escaped or next to non-ASCII text (F2), a key in a catalogue base URL's query (F14); every artifact
is searched for any 8-character piece of the key (tests/helpers.py: ``leaked``).
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pydicom
import pytest
import yaml
from app_server import api_client, start_app
from fake_anthropic import FakeAnthropicServer
from fake_openai import FakeOpenAIServer, loopback_no_proxy
from gradio_client import handle_file
from helpers import artifact_texts, leaked, write_png, write_preset
from pydicom.data import get_testdata_file

from probe_ui.cli import main
from probe_ui.messages import GenerationSettings, Message, Request, TextPart
from probe_ui.providers import create
from probe_ui.providers.base import ModelConfig, ProviderError

#: every test here takes seconds (tests/markers.py: the fast loop leaves them out)
pytestmark = pytest.mark.slow

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


def test_no_key_and_no_patient_data_in_any_artifact(tmp_path, fake_openai, monkeypatch, capsys):
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

    def cli(name: str, *args: str, key: str = KEY, status: int = 0) -> str:
        """``probe-ui ARGS`` run in ``work`` as a person would, its output kept in ``logs`` (searched below); the
        commands after the first run in this process (``main``, as the other tests here): a subprocess each would
        import probe-ui again, seconds of CPU per command, for the same code and the same output."""
        with monkeypatch.context() as m:
            for var in ("PROBE_UI_BACKENDS", "PROBE_UI_DISCOVER", "NO_PROXY"):
                m.setenv(var, env[var])
            m.setenv("PLANTED_KEY_VAR", key)
            m.chdir(work)
            code = main(list(args))
        out = capsys.readouterr()
        (logs / f"{name}.out").write_text(out.out)
        (logs / f"{name}.err").write_text(out.err)
        assert code == status, (name, out.err[-1500:])
        return out.err

    # the first command as a person types it, in a process of its own
    r = subprocess.run([sys.executable, "-m", "probe_ui", "batch", str(preset), "-m", "loop", "-m", "baseline/first",
                        "--suite", "rotations", "--run", "sec"], capture_output=True, text=True, env=env, cwd=work,
                       timeout=300)
    (logs / "batch.out").write_text(r.stdout)
    (logs / "batch.err").write_text(r.stderr)
    assert r.returncode == 0, r.stderr[-1500:]
    cli("batch-again", "--debug", "batch", str(preset), "-m", "loop", "--run", "sec")
    cli("score", "score", "--run", "sec", "--json")
    for fmt in ("jsonl", "parquet", "csv", "imagefolder"):
        cli(f"export-{fmt}", "export", "--run", "sec", "--format", fmt, "--out", f"exports/{fmt}")
    cli("import", "import", "dataset", "exports/jsonl", "--with-perturbations", "--to-preset", "replay/replay.yaml")
    cli("report", "report", "--run", "sec", "--out", "report.html")
    # a wrong key: the server's 401 echoes part of what it got; the message must not carry it on
    assert "401" in cli("wrong", "batch", str(preset), "-m", "loop", "--run", "wrong", "--no-cache",
                        key=KEY[:-4] + "0000", status=1)

    # the app: upload the planted DICOM, a model whose key is typed in, run, rate, save, download
    monkeypatch.setenv("GRADIO_TEMP_DIR", str(work / "gradio-cache"))
    monkeypatch.setenv("PROBE_UI_DISCOVER", "0")
    monkeypatch.chdir(work)
    server = start_app(work / "app")
    try:
        c = api_client(server.url, download_files=str(work / "downloads"))
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
        c.predict(rid, "unsure", "looked fine", {"html": "", "run": run}, "", api_name="/rate")
        c.predict("Which modality?", "choice", "CT\nMRI", "CT", "", steps0, [], "sec-set",
                  api_name="/add_to_benchmark_set")
        for path in (c.predict([run], "jsonl", "response", "robust", api_name="/export"),
                     c.predict([run], "robust", api_name="/report")):
            shutil.copy(path, work / "downloads")
        assert c.predict("typed", api_name="/test_model").startswith("<b>Works</b>")
    finally:
        server.app.close()

    assert found(work) == ["Plantedname in presets/scan.dcm", "Patricia in presets/scan.dcm",
                           f"{PATIENT_ID} in presets/scan.dcm"]  # only the input file itself
    bodies = json.dumps([r.body for r in fake_openai.requests], default=str)
    assert not [n for n in ["Plantedname", "Patricia", PATIENT_ID] if n in bodies]  # no header data was sent
    assert any(r.api_key == KEY for r in fake_openai.requests)  # the keys were used, only where they belong
    assert any(r.api_key == TYPED_KEY for r in fake_openai.requests)


F1_KEY = "sk-planted-F1-9f8e7d6c5b4a3210"
F1_WRONG = "sk-wrong-F1-0123456789abcdefgh"


# ---- F1: a key file saved on Windows -------------------------------------------------------------------------------

def _loop_backend(tmp_path: Path, base_url: str, key_env: str, provider: str = "openai") -> Path:
    backends = tmp_path / "backends"
    backends.mkdir(exist_ok=True)
    (backends / "loop.yaml").write_text(yaml.safe_dump({
        "name": "loop", "provider": provider, "model": "gpt-4o", "base_url": base_url, "api_key_env": key_env,
        "options": {"max_retries": 0}}), encoding="utf-8")
    return backends


def _everything(tmp_path: Path, db: Path, runs: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    """Export every run in all four formats and as a report, then every artifact and all output, as text."""
    for run in runs:
        for fmt in ("jsonl", "csv", "parquet", "imagefolder"):
            assert main(["export", "--db", str(db), "--run", run, "--format", fmt,
                         "--out", str(tmp_path / "out" / f"{run}-{fmt}")]) == 0
        assert main(["report", "--db", str(db), "--run", run, "--out", str(tmp_path / "out" / f"{run}.html")]) == 0
    printed = capsys.readouterr()
    texts = artifact_texts(db.parent) | artifact_texts(tmp_path / "out")
    return texts | {"stdout": printed.out, "stderr": printed.err}


@pytest.mark.parametrize("ending", ["\r", "\n", "\r\n", "\t"])
def test_f1_a_key_saved_on_windows_is_stripped_and_never_written(ending: str, tmp_path: Path, fake_openai:
                                                                 FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A key with a trailing CR/LF/TAB used to fail with httpx's "Illegal header value b'Bearer KEY\\r\\n'", and
    that message (the key in it) went to the store, stderr, every export and the report."""
    monkeypatch.setenv("PROBE_UI_BACKENDS", str(_loop_backend(tmp_path, fake_openai.base_url, "F1_KEY")))
    write_png(tmp_path / "x.png")
    preset = write_preset(tmp_path / "p.yaml", [{"id": "q", "image": "x.png", "question": "Which?",
                                                 "options": ["left", "right"], "answer": "left"}])
    db = tmp_path / "data" / "probe-ui.db"
    fake_openai.expected_key = F1_KEY
    monkeypatch.setenv("F1_KEY", F1_KEY + ending)
    assert main(["batch", str(preset), "-m", "loop", "--db", str(db), "--run", "ok", "--no-progress"]) == 0
    assert fake_openai.chat_requests[-1].api_key == F1_KEY  # stripped, and accepted
    monkeypatch.setenv("F1_KEY", F1_WRONG + ending)  # refused: the server's 401 quotes the key it got
    assert main(["batch", str(preset), "-m", "loop", "--db", str(db), "--run", "bad", "--no-progress",
                 "--no-cache"]) == 1
    assert fake_openai.chat_requests[-1].api_key == F1_WRONG
    texts = _everything(tmp_path, db, ["ok", "bad"], capsys)
    assert "401" in texts["stderr"] and "***" in texts["stderr"]
    assert not leaked(texts, F1_KEY, F1_WRONG)


# ---- F2: an echo past the cut, JSON-escaped, next to non-ASCII text -----------------------------------------------

ECHOES = {
    "past the 200-character cut": lambda k: (401, "x" * 175 + f" bad key {k} given"),
    "JSON-escaped": lambda k: (400, json.dumps({"you sent": {"authorization": f"Bearer {k}"}})),
    "after non-ASCII text, past the cut": lambda k: (401, "clé refusée " * 15 + f"« {k} » — vérifiez-la"),
    "URL-encoded": lambda k: (403, f"see https://example.invalid/keys?k={quote(k, safe='')}"),
    "in the reply": lambda k: (200, f"Your key is {k} (reply text)"),
    "cut short": lambda k: (401, f"key {k[:14]}... is not valid"),
}
F2_KEY = 'sk-F2"quoted\\slash-0123456789abcdef'


def _ask(config: ModelConfig) -> tuple[str, str]:
    """(reply text, error text) of one request."""
    async def go() -> tuple[str, str]:
        provider = create(config)
        try:
            r = await provider.generate(Request(messages=(Message("user", (TextPart("Which?"),)),),
                                                settings=GenerationSettings(max_tokens=64, timeout_s=10)))
            return r.text, r.error or ""
        except ProviderError as exc:
            return "", f"{exc} {exc!r}"
        finally:
            await provider.aclose()

    return asyncio.run(go())


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
@pytest.mark.parametrize("how", list(ECHOES))
def test_f2_a_key_echoed_by_the_server_is_masked_on_the_full_text(provider: str, how: str,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    loopback_no_proxy(monkeypatch)
    monkeypatch.setenv("F2_KEY", F2_KEY)
    with (FakeOpenAIServer() if provider == "openai" else FakeAnthropicServer()) as server:
        server.key_echo = ECHOES[how]
        config = ModelConfig(name="e", provider=provider, model="m", base_url=server.base_url, api_key_env="F2_KEY",
                             options={"max_retries": 0})
        text, error = _ask(config)
        assert server.requests[-1].api_key == F2_KEY  # it was sent, and echoed
    assert text or error
    assert not leaked({"reply": text, "error": error}, F2_KEY)


# ---- F14: a key in a catalogue base_url's query ----------------------------------------------------------------

def test_f14_a_key_in_a_base_url_query_is_in_no_artifact(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    secret = "Q-planted-query-key-5d4c3b2a1"
    backends = tmp_path / "backends"
    backends.mkdir()
    (backends / "q.yaml").write_text(yaml.safe_dump({
        "name": "q-first", "provider": "baseline", "model": "first",
        "base_url": f"https://user:{secret}@gw.example.invalid/v1?api_key={secret}#{secret}"}), encoding="utf-8")
    (backends / "r.yaml").write_text(yaml.safe_dump({  # replicas: the one that answered is recorded too
        "name": "r-first", "provider": "baseline", "model": "first",
        "base_url": [f"https://gw1.example.invalid/v1?key={secret}", f"https://gw2.example.invalid/v1?key={secret}"]}),
        encoding="utf-8")
    monkeypatch.setenv("PROBE_UI_BACKENDS", str(backends))
    write_png(tmp_path / "x.png")
    preset = write_preset(tmp_path / "p.yaml", [{"id": "q", "image": "x.png", "question": "Which?",
                                                 "options": ["left", "right"], "answer": "left"}])
    db = tmp_path / "data" / "probe-ui.db"
    assert main(["batch", str(preset), "-m", "q-first", "-m", "r-first", "--db", str(db), "--run", "q",
                 "--no-progress"]) == 0
    texts = _everything(tmp_path, db, ["q"], capsys)
    assert any("gw.example.invalid/v1" in t for name, t in texts.items() if name.endswith("README.md"))
    assert not leaked(texts, secret)
