"""Local servers: discovery (probe_ui/providers/discovery.py) and the Ollama / vLLM providers, against real HTTP servers
on 127.0.0.1 (tests/fake_openai.py also speaks Ollama's /api/tags and /api/show)."""

from __future__ import annotations

import asyncio
import logging
import re
import socket
from collections.abc import Iterator

import pytest
from fake_anthropic import FakeAnthropicServer
from fake_openai import FakeOpenAIServer, ollama_model

from probe_ui.catalogue import list_models, load_entry, resolve
from probe_ui.messages import GenerationSettings, Message, Request, TextPart
from probe_ui.providers import create
from probe_ui.providers.base import ModelConfig, ModelSpecError, ProviderError
from probe_ui.providers.discovery import DiscoveredModel, discover_all, discover_ollama, discover_openai_compatible
from probe_ui.providers.ollama import OllamaProvider, ollama_root_url
from probe_ui.providers.openai_compat import OpenAIProvider, VLLMProvider

PLANTED_KEY = "sk-planted-openai-Hj3kL9pQ2wE7rT5y"


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("OLLAMA_HOST", "OLLAMA_API_KEY", "VLLM_BASE_URL", "VLLM_API_KEY", "OPENAI_API_KEY",
                "OPENAI_BASE_URL", "PROBE_UI_OPENAI_SERVERS", "PROBE_UI_DISCOVER", "PROBE_UI_BACKENDS"):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture
def ollama(fake_openai: FakeOpenAIServer) -> FakeOpenAIServer:
    """The fake server with an Ollama model list: two vision models as a current Ollama reports them, one text
    model, and three from an older Ollama (no ``capabilities``) told apart by families or model info."""
    fake_openai.ollama_models = {
        "llava:7b": ollama_model("llava:7b"),
        "llama3.2:1b": ollama_model("llama3.2:1b", vision=False),
        "qwen2.5vl:7b": ollama_model("qwen2.5vl:7b", families=["qwen25vl"]),
        "old-llava:latest": ollama_model("old-llava:latest", legacy=True),
        "old-gemma3:4b": ollama_model("old-gemma3:4b", legacy=True, families=["gemma3"],
                                      model_info={"gemma3.vision.block_count": 27}),
        "old-text:latest": ollama_model("old-text:latest", legacy=True, vision=False),
    }
    return fake_openai


@pytest.fixture
def hanging_port() -> Iterator[int]:
    """A port that accepts connections (the kernel's backlog) but never answers."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(8)
        yield s.getsockname()[1]


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _request() -> Request:
    return Request(messages=(Message("user", (TextPart("Is this a chest X-ray?"),)),),
                   settings=GenerationSettings(timeout_s=5.0))


def _generate(provider_cls: type[OpenAIProvider], config: ModelConfig) -> str:
    async def go() -> str:
        provider = provider_cls(config)
        try:
            return (await provider.generate(_request())).text
        finally:
            await provider.aclose()

    return asyncio.run(go())


# ---- Ollama discovery ----------------------------------------------------------------------------------------

def test_ollama_vision_models_only(ollama: FakeOpenAIServer) -> None:
    found = discover_ollama(ollama.root_url)
    assert [m.spec for m in found] == ["ollama/llava:7b", "ollama/qwen2.5vl:7b", "ollama/old-llava:latest",
                                       "ollama/old-gemma3:4b"]
    llava = found[0]
    assert llava == DiscoveredModel(spec="ollama/llava:7b", provider="ollama", model="llava:7b",
                                    base_url=f"{ollama.root_url}/v1", vision=True,
                                    source=f"Ollama at {ollama.root_url}")
    shows = [r.body for r in ollama.requests if r.path == "/api/show"]
    assert {"model": "llama3.2:1b"} in shows and len(shows) == 6
    config = llava.config()
    assert (config.provider, config.model, config.base_url) == ("ollama", "llava:7b", f"{ollama.root_url}/v1")


def test_ollama_base_with_v1_and_from_ollama_host(ollama: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    assert len(discover_ollama(f"{ollama.root_url}/v1/")) == 4
    monkeypatch.setenv("OLLAMA_HOST", f"127.0.0.1:{ollama.port}")
    assert len(discover_ollama()) == 4


def test_ollama_show_failing_falls_back_to_tag_families(ollama: FakeOpenAIServer,
                                                        caplog: pytest.LogCaptureFixture) -> None:
    ollama.override("/api/show", "{not json")
    with caplog.at_level(logging.WARNING, logger="probe_ui.providers.discovery"):
        found = discover_ollama(ollama.root_url)
    # /api/tags carries details.families: the clip projector still marks the LLaVA builds
    assert [m.spec for m in found] == ["ollama/llava:7b", "ollama/old-llava:latest"]
    assert "POST /api/show for llava:7b gave not JSON" in caplog.text


@pytest.mark.parametrize("body", ["{not json", '{"models": "llava"}', "[1, 2]"])
def test_ollama_malformed_tags(ollama: FakeOpenAIServer, caplog: pytest.LogCaptureFixture, body: str) -> None:
    ollama.override("/api/tags", body)
    with caplog.at_level(logging.WARNING, logger="probe_ui.providers.discovery"):
        assert discover_ollama(ollama.root_url) == []
    assert f"Ollama at {ollama.root_url}: GET /api/tags" in caplog.text


def test_not_an_ollama_server(fake_anthropic: FakeAnthropicServer, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="probe_ui.providers.discovery"):
        assert discover_ollama(fake_anthropic.root_url) == []
    assert "HTTP 404; is this an Ollama server?" in caplog.text


def test_nothing_running_is_empty_fast_and_quiet(caplog: pytest.LogCaptureFixture) -> None:
    url = f"http://127.0.0.1:{_closed_port()}"  # refused at once; perf/limits.py times it
    with caplog.at_level(logging.WARNING, logger="probe_ui.providers.discovery"):
        assert discover_ollama(url) == []
        assert discover_openai_compatible(f"{url}/v1") == []
        assert discover_openai_compatible(url) == []
    assert not caplog.records


def test_a_server_that_never_answers_is_given_up(hanging_port: int) -> None:
    """perf/limits.py times it (goal: one timeout each, under a second for both)."""
    assert discover_ollama(f"http://127.0.0.1:{hanging_port}", timeout=0.2) == []
    assert discover_openai_compatible(f"http://127.0.0.1:{hanging_port}/v1", timeout=0.2) == []


def test_default_address_when_nothing_is_set() -> None:
    assert ollama_root_url() == "http://127.0.0.1:11434"


# ---- OpenAI-compatible discovery -----------------------------------------------------------------------------

def test_openai_compatible_models(fake_openai: FakeOpenAIServer) -> None:
    found = discover_openai_compatible(fake_openai.base_url, api_key="sk-local")
    assert [(m.spec, m.model, m.vision, m.base_url) for m in found] == [
        ("openai/gpt-4o", "gpt-4o", None, fake_openai.base_url),
        ("openai/fake-vlm", "fake-vlm", None, fake_openai.base_url)]
    assert fake_openai.requests[-1].path == "/v1/models"
    assert fake_openai.requests[-1].authorization == "Bearer sk-local"
    vllm = discover_openai_compatible(f"{fake_openai.base_url}/", provider="vllm")
    assert vllm[0].spec == "vllm/gpt-4o" and vllm[0].config().base_url == fake_openai.base_url
    assert "authorization" not in fake_openai.requests[-1].headers  # no key given, none sent


def test_openai_compatible_tries_v1(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.override("/models", '{"detail": "Not Found"}', status=404)  # a server that only serves /v1
    found = discover_openai_compatible(f"127.0.0.1:{fake_openai.port}")
    assert [m.spec for m in found] == ["openai/gpt-4o", "openai/fake-vlm"]
    assert found[0].base_url == fake_openai.base_url


@pytest.mark.parametrize("body", ["{not json", '{"object": "list"}', '{"data": {"id": "x"}}'])
def test_openai_compatible_malformed(fake_openai: FakeOpenAIServer, caplog: pytest.LogCaptureFixture,
                                     body: str) -> None:
    fake_openai.override("/v1/models", body)
    with caplog.at_level(logging.WARNING, logger="probe_ui.providers.discovery"):
        assert discover_openai_compatible(fake_openai.base_url) == []
    assert f"GET {fake_openai.base_url}/models" in caplog.text


# ---- the catalogue -------------------------------------------------------------------------------------------

def test_list_models_adds_discovered_servers(ollama: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    ollama.ollama_models["llava:latest"] = ollama_model("llava:latest")  # what the ollama-llava entry names
    monkeypatch.setenv("OLLAMA_HOST", ollama.root_url)
    monkeypatch.setenv("PROBE_UI_OPENAI_SERVERS", f" {ollama.base_url} , http://127.0.0.1:{_closed_port()}/v1")
    rows = {r["name"]: r for r in list_models()}

    llava = rows["ollama/llava:7b"]
    assert llava["usable"] is True and llava["provider"] == "ollama" and llava["model"] == "llava:7b"
    assert llava["description"] == f"found on Ollama at {ollama.root_url}"
    assert "ollama/llama3.2:1b" not in rows
    assert "ollama/llava:latest" not in rows  # the catalogue entry says where it runs instead
    assert rows["ollama-llava"]["description"].endswith(f"(found on Ollama at {ollama.root_url})")
    served = rows["openai/fake-vlm"]
    assert served["usable"] is True
    assert f"OPENAI_BASE_URL={ollama.base_url}" in served["description"]
    assert "does not say whether it takes images" in served["description"]
    assert set(llava) == set(rows["baseline/<model>"])  # the same columns as every other row

    monkeypatch.setenv("PROBE_UI_DISCOVER", "0")
    assert discover_all() == []
    assert not any(r["description"].startswith("found on") for r in list_models())


def test_discovered_ollama_spec_resolves_to_the_same_server(ollama: FakeOpenAIServer,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OLLAMA_HOST", ollama.root_url)
    (first, *_) = discover_ollama()
    config = resolve(first.spec, catalogue={})
    assert OllamaProvider.base_url_for(config) == first.base_url
    assert _generate(OllamaProvider, config) == "A"
    assert ollama.last_body["model"] == "llava:7b"


@pytest.mark.parametrize(("content", "expected"), [
    (b"name: x\nprovider: openai\nmodel: \xe9t\xe9\n", "not a UTF-8 text file"),  # Latin-1 (was UnicodeDecodeError)
    (b"generation: " + b"[" * 1000 + b"]" * 1000, r"the YAML is nested too deeply \(line 1, column \d+\)"),
    # accepted before, then a run hung (a billion laughs), or failed, storing the entry's settings as JSON
    (b"name: x\nprovider: openai\nmodel: m\ngeneration: {a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1], "
     + b", ".join(b"%c: &%c [%s]" % (98 + i, 98 + i, b", ".join([b"*%c" % (97 + i)] * 10)) for i in range(8))
     + b"}\n", "expands to more than 10,000 values"),
    (b"name: x\nprovider: openai\nmodel: m\ngeneration: &g {again: *g}\n", "expands to more than 10,000 values"),
    (b"name: x\nprovider: openai\nmodel: m\ngeneration: {seed: 2024-06-01}\n",
     "field 'generation': only numbers, text, true/false, null, lists and mappings are allowed"),
])
@pytest.mark.slow
def test_backend_yaml_that_cannot_be_read_is_a_model_spec_error(tmp_path, content: bytes, expected: str) -> None:
    path = tmp_path / "broken.yaml"
    path.write_bytes(content)
    with pytest.raises(ModelSpecError, match=f"^{re.escape(str(path))}: .*{expected}"):
        load_entry(path)


# ---- the Ollama provider -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("host", "root"), [
    ("", "http://127.0.0.1:11434"),
    ("127.0.0.1:11500", "http://127.0.0.1:11500"),
    ("0.0.0.0", "http://127.0.0.1:11434"),
    ("0.0.0.0:8080", "http://127.0.0.1:8080"),
    (":11434", "http://127.0.0.1:11434"),
    ("gpu-box", "http://gpu-box:11434"),
    ("http://gpu-box:9999/", "http://gpu-box:9999"),
    ("https://ollama.example.org", "https://ollama.example.org:443"),
    ("http://gpu-box", "http://gpu-box:80"),
    ("[::1]:11434", "http://[::1]:11434"),
    ("http://proxy:8000/ollama", "http://proxy:8000/ollama"),
])
def test_ollama_host_forms(host: str, root: str) -> None:
    assert ollama_root_url(host) == root


def test_ollama_defaults_and_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    config = ModelConfig(name="ollama/llava", provider="ollama", model="llava")
    assert isinstance(create(config), OllamaProvider)
    assert OllamaProvider.base_url_for(config) == "http://127.0.0.1:11434/v1"
    assert OllamaProvider.unavailable_reason(config) is None  # no key needed
    monkeypatch.setenv("OLLAMA_HOST", "10.0.0.5:11434")
    assert OllamaProvider.base_url_for(config) == "http://10.0.0.5:11434/v1"
    pinned = ModelConfig(name="x", provider="ollama", model="llava", base_url="http://127.0.0.1:9/v1")
    assert OllamaProvider.base_url_for(pinned) == "http://127.0.0.1:9/v1"  # the catalogue wins


def test_ollama_request_goes_to_ollama_host_without_the_openai_key(fake_openai: FakeOpenAIServer,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OLLAMA_HOST", f"127.0.0.1:{fake_openai.port}")
    monkeypatch.setenv("OPENAI_API_KEY", PLANTED_KEY)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")  # the OpenAI provider's: not used here
    fake_openai.script("yes")
    assert _generate(OllamaProvider, resolve("ollama/llava", catalogue={})) == "yes"
    request = fake_openai.chat_requests[-1]
    assert request.path == "/v1/chat/completions" and fake_openai.last_body["model"] == "llava"
    assert request.authorization == "Bearer not-needed"


def test_ollama_not_running_says_how_to_start_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OLLAMA_HOST", f"127.0.0.1:{_closed_port()}")
    config = ModelConfig(name="o", provider="ollama", model="llava", options={"max_retries": 0})
    with pytest.raises(ProviderError) as info:
        _generate(OllamaProvider, config)
    assert str(info.value).startswith("ollama/llava: cannot connect to http://127.0.0.1:")
    assert "is Ollama running?" in str(info.value) and info.value.retriable


# ---- the vLLM provider ---------------------------------------------------------------------------------------

def test_vllm_defaults_and_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    config = resolve("vllm/Qwen/Qwen2.5-VL-7B-Instruct", catalogue={})
    assert config.model == "Qwen/Qwen2.5-VL-7B-Instruct" and isinstance(create(config), VLLMProvider)
    assert VLLMProvider.base_url_for(config) == "http://127.0.0.1:8000/v1"
    assert VLLMProvider.unavailable_reason(config) is None
    monkeypatch.setenv("VLLM_BASE_URL", "http://gpu-box:8001/v1")
    assert VLLMProvider.base_url_for(config) == "http://gpu-box:8001/v1"


def test_vllm_request_through_vllm_base_url(fake_openai: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VLLM_BASE_URL", fake_openai.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", PLANTED_KEY)
    config = resolve("vllm/Qwen/Qwen2.5-VL-7B-Instruct", catalogue={})
    assert _generate(VLLMProvider, config) == "A"
    assert fake_openai.last_body["model"] == "Qwen/Qwen2.5-VL-7B-Instruct"
    assert fake_openai.chat_requests[-1].authorization == "Bearer not-needed"  # never the OpenAI key
    monkeypatch.setenv("VLLM_API_KEY", "vllm-secret")  # a server started with --api-key
    _generate(VLLMProvider, config)
    assert fake_openai.chat_requests[-1].authorization == "Bearer vllm-secret"


def test_vllm_entry_naming_a_key_needs_it(fake_openai: FakeOpenAIServer) -> None:
    config = ModelConfig(name="v", provider="vllm", model="m", base_url=fake_openai.base_url,
                         api_key_env="MY_VLLM_KEY")
    assert VLLMProvider.unavailable_reason(config) == "MY_VLLM_KEY is not set"


def test_vllm_not_running_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VLLM_BASE_URL", f"http://127.0.0.1:{_closed_port()}/v1")
    config = ModelConfig(name="v", provider="vllm", model="m", options={"max_retries": 0})
    with pytest.raises(ProviderError) as info:
        _generate(VLLMProvider, config)
    assert "cannot connect" in str(info.value) and "VLLM_BASE_URL" in str(info.value)
