"""The Models tab's library: endpoints added by hand (key in memory only), the models table, the connection test."""

from __future__ import annotations

import asyncio
import os
import socket
from pathlib import Path

import pytest
from fake_openai import FakeOpenAIServer
from helpers import choice_item, write_png, write_preset

from probe_ui.catalogue.endpoints import (
    MODEL_COLUMNS,
    TABLE_COLUMNS,
    TEST_QUESTION,
    EndpointError,
    Endpoints,
    models_for_people,
    models_table,
    test_model,
)
from probe_ui.presets import load_preset
from probe_ui.runner import BatchOptions, resolve_models, run_batch
from probe_ui.store import Store

SECRET = "sk-typed-in-the-app-7f3a9c"
WRONG = "sk-wrong-key-typed-5e1d0b"


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "VLLM_API_KEY",
                "VLLM_BASE_URL", "OLLAMA_API_KEY", "PROBE_UI_BACKENDS", "PROBE_UI_OPENAI_SERVERS"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("PROBE_UI_DISCOVER", "0")


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def one_line(msg: str) -> bool:
    return "\n" not in msg and "\r" not in msg


# ---- adding endpoints ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("provider, url, model, match", [
    ("nope", "http://127.0.0.1:8000/v1", "m", "unknown provider 'nope'"),
    ("", "http://127.0.0.1:8000/v1", "m", "unknown provider"),
    ("baseline", "http://127.0.0.1:8000/v1", "random", "takes no base URL"),
    ("hf", "http://127.0.0.1:8000/v1", "x/y", "takes no base URL"),
    ("openai", "", "m", "base URL"),
    ("openai", "ftp://127.0.0.1/v1", "m", "http:// or https://"),
    ("openai", "127.0.0.1:8000/v1", "m", "http:// or https://"),
    ("openai", "localhost:8000", "m", "http:// or https://"),
    ("openai", "http:///v1", "m", "name a host"),
    ("openai", "http://127.0.0.1:port/v1", "m", "port"),
    ("openai", "http://user:pw@127.0.0.1:8000/v1", "m", "user name or password"),
    ("openai", "http://127.0.0.1:8000/v1?api_key=abc", "m", "query"),
    ("openai", "http://127.0.0.1:8000/v1 x", "m", "spaces"),
    ("openai", "http://127.0.0.1:8000/v1", "", "model's name"),
    ("openai", "http://127.0.0.1:8000/v1", "   ", "model's name"),
    ("vllm", "http://127.0.0.1:8000/v1", "a\nb", "one line"),
])
def test_add_rejects_bad_fields(provider: str, url: str, model: str, match: str) -> None:
    eps = Endpoints()
    with pytest.raises(EndpointError, match=match) as info:
        eps.add(provider, url, model, key=SECRET)
    assert SECRET not in str(info.value) and one_line(str(info.value))
    assert isinstance(info.value, ValueError)
    assert len(eps) == 0 and eps.configs() == {}


def test_add_rejects_a_malformed_key_without_echoing_it() -> None:
    with pytest.raises(EndpointError, match="spaces or line breaks") as info:
        Endpoints().add("openai", "http://127.0.0.1:8000/v1", "m", key="sk-secret part\n")
    assert "sk-secret" not in str(info.value)


def test_add_defaults_names_replaces_and_removes() -> None:
    eps = Endpoints()
    cfg = eps.add(" OpenAI ", "http://127.0.0.1:8000", "Qwen/Qwen2.5-VL-7B-Instruct", key=f"  {SECRET}\n")
    assert cfg.name == "openai/Qwen/Qwen2.5-VL-7B-Instruct@127.0.0.1:8000"
    assert cfg.provider == "openai" and cfg.model == "Qwen/Qwen2.5-VL-7B-Instruct"
    assert cfg.base_url == "http://127.0.0.1:8000/v1"  # an OpenAI-compatible server lives under /v1
    assert cfg.secret == SECRET and cfg.api_key_env is None
    assert cfg.api_key("OPENAI_API_KEY") == SECRET
    assert eps.add("anthropic", "https://proxy.example", "claude").base_url == "https://proxy.example"
    assert eps.add("anthropic", "https://proxy.example", "claude").name == "anthropic/claude@proxy.example:443"
    # the same endpoint again replaces it (e.g. a new key); the same model elsewhere gets its own name
    eps.add("openai", "http://127.0.0.1:8000/v1", "Qwen/Qwen2.5-VL-7B-Instruct")
    assert len(eps) == 2 and not eps.has_key(cfg.name)
    other = eps.add("openai", "http://127.0.0.1:8000/other/v1", "Qwen/Qwen2.5-VL-7B-Instruct")
    assert other.name == cfg.name + " #2"
    named = eps.add("vllm", "http://10.0.0.5:8000/v1", "m", key=SECRET, name=" my server ")
    assert named.name == "my server" and set(eps.configs()) == {cfg.name, other.name, named.name,
                                                                 "anthropic/claude@proxy.example:443"}
    with pytest.raises(EndpointError, match="catalogue model"):
        eps.add("openai", "http://127.0.0.1:8000/v1", "gpt-4o", name="gpt-4o")
    eps.remove("my server")
    assert "my server" not in eps and len(eps) == 3
    with pytest.raises(EndpointError, match="no endpoint named"):
        eps.remove("my server")


def test_an_endpoint_without_a_key_never_gets_the_environments_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    cfg = Endpoints().add("openai", "http://10.1.2.3:8000/v1", "m")
    assert cfg.api_key("OPENAI_API_KEY") != SECRET


def test_the_key_is_never_shown() -> None:
    eps = Endpoints()
    keyed = eps.add("openai", "http://127.0.0.1:8000/v1", "fake-vlm", key=SECRET)
    plain = eps.add("vllm", f"http://127.0.0.1:{closed_port()}/v1", "fake-vlm")
    t = eps.table()
    assert list(t.columns) == TABLE_COLUMNS
    assert dict(zip(t["name"], t["key"])) == {keyed.name: "set", plain.name: "none"}
    assert t.loc[t["name"] == keyed.name, "base_url"].item() == "http://127.0.0.1:8000/v1"
    m = models_table(eps, discover=False)
    assert list(m.columns) == MODEL_COLUMNS
    for text in (repr(keyed), str(keyed), repr(eps), t.to_string(), t.to_csv(), m.to_string(), m.to_csv(),
                 m.to_json(), t.to_json()):
        assert SECRET not in text
    assert SECRET not in os.environ.values()


def test_models_table_lists_catalogue_and_endpoints(fake_openai: FakeOpenAIServer) -> None:
    eps = Endpoints()
    up = eps.add("openai", fake_openai.base_url, "fake-vlm", key=SECRET)  # a base URL of its own: it must answer
    down = eps.add("vllm", f"http://127.0.0.1:{closed_port()}/v1", "fake-vlm")
    m = models_table(eps, discover=False).set_index("name")
    assert m.loc["baseline/<model>", "usable"]
    assert "gpt-4o" in m.index  # a catalogue entry
    assert m.loc[up.name, "usable"] and m.loc[up.name, "provider"] == "openai"
    assert m.loc[up.name, "model"] == "fake-vlm" and "added in this session" in m.loc[up.name, "description"]
    assert not m.loc[down.name, "usable"] and "no server answering" in m.loc[down.name, "reason"]
    assert m["usable"].dtype == bool
    assert len(models_table(None, discover=False)) == len(m) - 2
    # the Models tab shows it in words, as `probe-ui models` does, the same rows and reasons
    shown = models_for_people(m.reset_index()).set_index("name")
    assert "usable" not in shown.columns and set(shown["ready here"]) == {"yes", "no"}
    assert shown.loc[up.name, "ready here"] == "yes" and shown.loc[down.name, "ready here"] == "no"
    assert shown.loc[down.name, "why not"] == m.loc[down.name, "reason"] and len(shown) == len(m)


# ---- the connection test -------------------------------------------------------------------------------------------
def test_an_added_endpoint_is_called_with_its_key(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.expected_key = SECRET
    fake_openai.script("Yes")
    eps = Endpoints()
    cfg = eps.add("openai", fake_openai.base_url, "fake-vlm", key=SECRET)
    r = test_model(cfg.name, eps, timeout_s=10)
    assert r == {"ok": True, "model": cfg.name, "latency_s": r["latency_s"], "text": "Yes", "error": None}
    assert r["latency_s"] > 0
    assert len(fake_openai.chat_requests) == 1  # ONE request
    req = fake_openai.chat_requests[0]
    assert req.api_key == SECRET
    body = req.body
    assert body["model"] == "fake-vlm" and body["temperature"] == 0
    parts = body["messages"][-1]["content"]
    assert parts[0]["type"] == "image_url" and parts[0]["image_url"]["url"].startswith("data:image/png;base64,")
    assert TEST_QUESTION in parts[-1]["text"]
    # the Models tab says it in words first (a sign alone can be an empty box in a font without it), escaped
    from probe_ui.catalogue.endpoints import model_check_html

    assert model_check_html(r).startswith(f"<b>Works</b>: <b>{cfg.name}</b> answered in ")
    failed = model_check_html({"ok": False, "model": "", "error": "no <server>"}, "typed")
    assert failed == "<b>Does not work</b>: <b>typed</b>: no &lt;server&gt;"


def test_a_root_url_reaches_the_v1_api(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.script("no")
    eps = Endpoints()
    cfg = eps.add("vllm", fake_openai.root_url, "fake-vlm")
    r = test_model(cfg.name, eps, timeout_s=10)
    assert r["ok"] and r["text"] == "no", r
    assert fake_openai.chat_requests[0].api_key == "not-needed"


def test_a_wrong_key_fails_clearly_without_showing_it(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.expected_key = SECRET
    eps = Endpoints()
    cfg = eps.add("openai", fake_openai.base_url, "fake-vlm", key=WRONG)
    r = test_model(cfg.name, eps, timeout_s=10)
    assert r["ok"] is False and r["model"] == cfg.name and r["text"] == ""
    assert "401" in r["error"] and "unauthorized" in r["error"], r
    assert WRONG not in r["error"] and one_line(r["error"])
    # the server echoed the key it got: that is what the message had to hide
    assert fake_openai.chat_requests[0].api_key == WRONG


def test_a_server_error_fails_after_one_request(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.fail(500, times=3)
    eps = Endpoints()
    cfg = eps.add("openai", fake_openai.base_url, "fake-vlm", key=SECRET)
    r = test_model(cfg.name, eps, timeout_s=10)
    assert r["ok"] is False and "HTTP 500" in r["error"] and one_line(r["error"]), r
    assert SECRET not in r["error"]
    assert len(fake_openai.chat_requests) == 1  # no retries: one tiny request


def test_a_down_server_fails_clearly() -> None:
    eps = Endpoints()
    port = closed_port()
    cfg = eps.add("openai", f"http://127.0.0.1:{port}/v1", "fake-vlm", key=SECRET)
    # its base URL is looked at before the request (probe_ui.providers.readiness)
    r = test_model(cfg.name, eps, timeout_s=5)
    assert r["ok"] is False and f"no server answering at http://127.0.0.1:{port}/v1" in r["error"], r
    assert r["latency_s"] is None and SECRET not in r["error"] and one_line(r["error"])
    # a local-server provider is checked before any request is sent
    local = eps.add("vllm", f"http://127.0.0.1:{port}/v1", "fake-vlm", key=SECRET)
    r = test_model(local.name, eps, timeout_s=5)
    assert r["ok"] is False and "not usable here" in r["error"] and "no server answering" in r["error"], r
    assert r["latency_s"] is None and SECRET not in r["error"]


def test_a_slow_server_times_out(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.fail(delay_s=5)  # an error (not the 5 s answer) means the 0.5 s timeout fired
    eps = Endpoints()
    cfg = eps.add("openai", fake_openai.base_url, "fake-vlm", key=SECRET)
    r = test_model(cfg.name, eps, timeout_s=0.5)
    assert r["ok"] is False and ("timed out" in r["error"] or "no answer within" in r["error"]), r
    assert SECRET not in r["error"]


def test_unknown_models_and_missing_keys() -> None:
    r = test_model("no-such-model")
    assert r["ok"] is False and "unknown model 'no-such-model'" in r["error"] and r["latency_s"] is None
    r = test_model("nope/model")
    assert r["ok"] is False and "unknown provider 'nope'" in r["error"]
    r = test_model("baseline/nope")
    assert r["ok"] is False and "unknown baseline" in r["error"]
    r = test_model("openai/gpt-4o")
    assert r["ok"] is False and "OPENAI_API_KEY is not set" in r["error"] and one_line(r["error"])
    r = test_model("gpt-4o")  # the catalogue entry
    assert r["ok"] is False and r["model"] == "gpt-4o" and "OPENAI_API_KEY is not set" in r["error"]
    assert test_model("")["ok"] is False


def test_a_baseline_tests_ok_without_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_network(*args: object, **kwargs: object) -> None:
        raise AssertionError("a baseline must not touch the network")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    r = test_model("baseline/random")
    assert r["ok"] is True and r["error"] is None and r["model"] == "baseline/random"
    assert r["text"] in ("yes", "no")

    async def inside_a_loop() -> dict:  # e.g. an async app handler
        return test_model("baseline/first")

    r = asyncio.run(inside_a_loop())
    assert r["ok"] is True and r["text"] == "yes"


# ---- batches use the added endpoint, and the key is written nowhere --------------------------------------------------
def test_a_batch_uses_the_key_and_stores_none_of_it(fake_openai: FakeOpenAIServer, tmp_path: Path) -> None:
    fake_openai.expected_key = SECRET
    write_png(tmp_path / "im0.png")
    preset = load_preset(write_preset(tmp_path / "p.yaml", [choice_item(i, "im0.png") for i in range(3)]))
    eps = Endpoints()
    cfg = eps.add("openai", fake_openai.base_url, "fake-vlm", key=SECRET)
    assert [m.name for m in resolve_models([cfg.name], eps.configs())] == [cfg.name]
    db = tmp_path / "data" / "probe.db"
    store = Store(db)
    result = run_batch(store, [preset], [cfg.name], BatchOptions(progress=False), extra_models=eps.configs())
    assert result.errors == 0 and result.answered == 3, result.error_messages
    assert {r.api_key for r in fake_openai.chat_requests} == {SECRET}
    run = store.get_run(result.run.name)
    assert run.settings["models"][0]["name"] == cfg.name and SECRET not in repr(run.settings)
    store.close()
    for path in (tmp_path / "data").rglob("*"):
        if path.is_file():
            assert SECRET.encode() not in path.read_bytes(), path
    assert SECRET not in os.environ.values()
