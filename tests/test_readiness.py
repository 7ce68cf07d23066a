"""Only what can run is offered as ready: keys, base URLs that answer, hf/ weights that are here
(probe_ui.providers.readiness).

Offline: a "dead" server is a loopback port nobody listens on; the Hub is made unreachable with HF_HUB_OFFLINE and
the Hugging Face cache is a folder of the test's own.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from app_server import free_port
from fake_openai import FakeOpenAIServer
from helpers import choice_item, write_png, write_preset

from probe_ui.catalogue import list_models
from probe_ui.cli import main
from probe_ui.providers import readiness
from probe_ui.store import Store, responses

KEYS = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "GEMINI_API_KEY",
        "GROQ_API_KEY", "OPENROUTER_API_KEY", "TOGETHER_API_KEY", "PROBE_UI_BACKENDS")


@pytest.fixture(autouse=True)
def no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh machine: no key, no base URL, no discovery, nothing remembered from another test."""
    for k in KEYS:
        monkeypatch.delenv(k, raising=False)
    monkeypatch.setenv("PROBE_UI_DISCOVER", "0")
    readiness.forget()
    yield
    readiness.forget()


def _rows() -> dict[str, dict]:
    return {r["name"]: r for r in list_models(discover=False)}


def test_api_placeholders_are_not_ready_without_a_key_or_a_base_url() -> None:
    rows = _rows()
    for name, var in (("openai/<model>", "OPENAI_API_KEY"), ("anthropic/<model>", "ANTHROPIC_API_KEY"),
                      ("openrouter/<model>", "OPENROUTER_API_KEY"), ("gpt-4o", "OPENAI_API_KEY")):
        assert not rows[name]["usable"] and rows[name]["reason"] == f"{var} is not set", name
    assert rows["baseline/<model>"]["usable"]


def test_a_key_or_a_base_url_that_answers_makes_it_ready(monkeypatch: pytest.MonkeyPatch,
                                                          fake_openai: FakeOpenAIServer) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-0123456789")
    assert _rows()["openai/<model>"]["usable"]
    monkeypatch.delenv("OPENAI_API_KEY")
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    readiness.forget()
    rows = _rows()
    assert rows["openai/<model>"]["usable"]  # any model of that server (gpt-4o's entry names its key: still needed)


def test_a_base_url_that_does_not_answer_is_not_ready_and_named(monkeypatch: pytest.MonkeyPatch) -> None:
    dead = f"http://127.0.0.1:{free_port()}/v1"
    monkeypatch.setenv("OPENAI_BASE_URL", dead)
    row = _rows()["openai/<model>"]
    assert not row["usable"] and row["reason"].startswith(f"no server answering at {dead}")


def test_a_dead_base_url_is_reported_once_before_any_cell(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    dead = f"http://127.0.0.1:{free_port()}/v1"
    monkeypatch.setenv("OPENAI_BASE_URL", dead)
    write_png(tmp_path / "a.png")
    preset = write_preset(tmp_path / "p.yaml", [choice_item(i, "a.png") for i in range(12)])
    db = str(tmp_path / "s.db")
    assert main(["batch", str(preset), "-m", "openai/gpt-4o", "--db", db, "--no-progress"]) == 1
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(err) == 1 and dead in err[0] and "openai/gpt-4o" in err[0], err
    assert not Path(db).exists() or Store(db).count(responses) == 0  # nothing was sent, nothing stored


def test_hf_weights_neither_cached_nor_downloadable_name_the_command(monkeypatch: pytest.MonkeyPatch,
                                                                     tmp_path: Path) -> None:
    import huggingface_hub.constants as hub

    monkeypatch.setattr(hub, "HF_HUB_CACHE", str(tmp_path / "hub"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    why = readiness.hf_weights_problem("google/medgemma-4b-it")
    assert why is not None and "hf download google/medgemma-4b-it" in why and "HF_HUB_OFFLINE" in why
    # the same id with its config.json in the cache is ready, and nothing was downloaded to find out
    snap = tmp_path / "hub" / "models--google--medgemma-4b-it" / "snapshots" / "abc"
    snap.mkdir(parents=True)
    (snap / "config.json").write_text("{}")
    (tmp_path / "hub" / "models--google--medgemma-4b-it" / "refs").mkdir()
    (tmp_path / "hub" / "models--google--medgemma-4b-it" / "refs" / "main").write_text("abc")
    assert readiness.hf_weights_problem("google/medgemma-4b-it") is None
    assert readiness.hf_weights_problem(str(tmp_path)) is None  # a local folder: the provider's own check


def test_a_model_in_the_cache_named_by_the_environment_is_found_without_the_hub_client(tmp_path: Path) -> None:
    """Before huggingface_hub is imported (``probe-ui models`` never imports it for a model not downloaded), the
    cache folder is the one the environment gives it: HF_HUB_CACHE, else HF_HOME/hub."""
    for var, root in (("HF_HUB_CACHE", tmp_path / "a"), ("HF_HOME", tmp_path / "b")):
        repo = (root if var == "HF_HUB_CACHE" else root / "hub") / "models--org--tiny"
        (repo / "snapshots" / "abc").mkdir(parents=True)
        (repo / "snapshots" / "abc" / "config.json").write_text("{}")
        (repo / "refs").mkdir()
        (repo / "refs" / "main").write_text("abc")
        code = ("import sys; from probe_ui.providers import readiness; "
                "print(readiness.hub_cached('org/tiny'), readiness.hub_cached('org/absent'), "
                "'huggingface_hub' in sys.modules)")
        env = {k: v for k, v in os.environ.items() if k not in ("HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE", "HF_HOME")}
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                              env={**env, var: str(root)})
        assert done.returncode == 0, done.stderr
        # found (through huggingface_hub, imported for the one model whose folder exists); the absent one is not
        assert done.stdout.split() == ["True", "False", "True"], (var, done.stdout)
        done = subprocess.run([sys.executable, "-c", code.replace("'org/tiny'", "'org/absent2'")],
                              capture_output=True, text=True, timeout=60, env={**env, var: str(root)})
        assert done.stdout.split() == ["False", "False", "False"], (var, done.stdout)  # never imported


def test_dry_run_marks_a_model_that_cannot_run_and_does_not_price_it(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    write_png(tmp_path / "a.png")
    preset = write_preset(tmp_path / "p.yaml", [choice_item(1, "a.png")])
    assert main(["batch", str(preset), "-m", "baseline/first", "-m", "gpt-4o", "--dry-run"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.strip().startswith("gpt-4o:"))
    assert "cannot run here (OPENAI_API_KEY is not set)" in line and "$" not in line
    assert "cannot run here, not priced: gpt-4o" in out


def test_models_table_columns_line_up(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["models"]) == 0
    lines = capsys.readouterr().out.splitlines()
    header = lines[0]
    at = header.index("usable")
    for line in lines[1:]:
        assert line[at:at + 3] in ("yes", "no "), line  # the openrouter row too


def test_the_app_and_the_demo_offer_only_ready_models(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The Probe and Stress tabs tick from ready_models(model_menu(...)): on a machine without keys, servers or
    downloaded weights, that is the models that need no setup (each provider's ``ready_models``: the baselines, and
    any provider added that declares some); every other entry is listed greyed out with its reason."""
    import huggingface_hub.constants as hub

    from probe_ui.app.common import ready_models
    from probe_ui.catalogue.endpoints import model_menu
    from probe_ui.providers import all_ready_models

    monkeypatch.setattr(hub, "HF_HUB_CACHE", str(tmp_path / "hub"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("OLLAMA_HOST", f"127.0.0.1:{free_port()}")
    monkeypatch.setenv("VLLM_BASE_URL", f"http://127.0.0.1:{free_port()}/v1")
    menu = model_menu(None, discover=False)
    assert sorted(ready_models(menu)) == sorted(all_ready_models())
    assert {"baseline/first", "baseline/last", "baseline/random"} <= set(ready_models(menu))
    reasons = {r["name"]: r["reason"] for r in menu if not r["usable"]}
    assert {"gpt-4o", "claude-sonnet", "ollama-llava", "vllm-qwen2.5-vl-7b", "hf-medgemma-4b"} <= set(reasons)
    assert "OPENAI_API_KEY is not set" in reasons["gpt-4o"]
    assert "no server answering" in reasons["ollama-llava"]
    # hf-*: without torch the extra is missing; with it, the weights (and the command that fetches them)
    assert "hf download google/medgemma-4b-it" in reasons["hf-medgemma-4b"] or "needs the local extra" in \
        reasons["hf-medgemma-4b"]


def test_a_base_url_with_a_proxys_login_is_looked_at_with_that_login(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 48: ``http://user:password@host/v1`` (a reverse proxy's basic auth) was "no server answering": the
    readiness look took the login for part of the host name. It now sends it as the SDKs' client does."""
    import base64
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from fake_openai import loopback_no_proxy

    loopback_no_proxy(monkeypatch)
    seen: list[str | None] = []

    class Proxy(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:  # noqa: N802 - the standard library's name
            seen.append(self.headers.get("Authorization"))
            ok = self.headers.get("Authorization") == "Basic " + base64.b64encode(b"ward 4:p@ss").decode()
            body = b'{"data": []}' if ok else b"{}"
            self.send_response(200 if ok else 401)
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        readiness.forget()
        url = f"http://ward%204:p%40ss@127.0.0.1:{httpd.server_port}/v1"
        assert readiness.server_problem(url) is None
        assert seen == ["Basic " + base64.b64encode(b"ward 4:p@ss").decode()]
    finally:
        httpd.shutdown()
        httpd.server_close()
    readiness.forget()
    dead = f"http://ward:secret-pw@127.0.0.1:{free_port()}/v1"
    problem = readiness.server_problem(dead) or ""
    assert problem.startswith("no server answering at http://127.0.0.1:") and "secret-pw" not in problem
