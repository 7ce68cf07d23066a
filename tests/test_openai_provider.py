"""OpenAIProvider through the real ``openai`` SDK against the loopback fake server (tests/fake_openai.py)."""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import json
import socket
import sys

import pytest
from fake_openai import TOKENS_PER_IMAGE, FakeOpenAIServer
from PIL import Image

from probe_ui.images import CanonicalImage
from probe_ui.messages import GenerationSettings, ImagePart, Message, Request, Response, TextPart
from probe_ui.providers.base import ModelConfig, ProviderError
from probe_ui.providers.openai_compat import OpenAIProvider

PLANTED_KEY = "sk-planted-Zx9qW3rT7yU1iO5pA2sD"


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """The developer's own OpenAI settings must not leak into (or change) these tests."""
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_ADMIN_KEY", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID",
                "OPENAI_CUSTOM_HEADERS", "MY_GATEWAY_KEY"):
        monkeypatch.delenv(var, raising=False)


def _image() -> CanonicalImage:
    img = Image.new("RGB", (16, 12), (10, 20, 30))
    img.putpixel((3, 4), (250, 0, 0))
    return CanonicalImage.from_pil(img)


def _request(*, stream: bool = False, timeout_s: float = 5.0, **settings: object) -> Request:
    return Request(
        messages=(
            Message("system", (TextPart("You are a radiologist. Answer with one letter."),)),
            Message("user", (TextPart("Which side is the lesion on?"), ImagePart(_image()),
                             TextPart("A. left B. right"))),
        ),
        settings=GenerationSettings(stream=stream, timeout_s=timeout_s, **settings),  # type: ignore[arg-type]
    )


def _config(base_url: str | tuple[str, ...] | None, **kw: object) -> ModelConfig:
    options = kw.pop("options", {"max_retries": 0})
    return ModelConfig(name="gpt4o", provider="openai", model="gpt-4o", base_url=base_url,
                       options=options, **kw)  # type: ignore[arg-type]


def _generate(config: ModelConfig, request: Request) -> Response:
    async def go() -> Response:
        provider = OpenAIProvider(config)
        try:
            return await provider.generate(request)
        finally:
            await provider.aclose()

    return asyncio.run(go())


def _error(config: ModelConfig, request: Request) -> ProviderError:
    with pytest.raises(ProviderError) as info:
        _generate(config, request)
    return info.value


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---- what goes over the wire ---------------------------------------------------------------------------------

def test_image_system_prompt_and_settings_are_sent(fake_openai: FakeOpenAIServer) -> None:
    request = _request(temperature=0.0, max_tokens=7, seed=1234, top_p=0.9)
    response = _generate(_config(fake_openai.base_url), request)
    assert response.text == "A"

    body = fake_openai.last_body
    assert body["model"] == "gpt-4o"
    assert body["temperature"] == 0.0 and body["max_tokens"] == 7 and body["seed"] == 1234
    assert body["top_p"] == 0.9 and body["n"] == 1
    assert "stream" not in body and "max_completion_tokens" not in body and "timeout" not in body
    system, user = body["messages"]
    assert system == {"role": "system", "content": "You are a radiologist. Answer with one letter."}
    assert user["role"] == "user"
    kinds = [p["type"] for p in user["content"]]
    assert kinds == ["text", "image_url", "text"]
    url = user["content"][1]["image_url"]["url"]
    prefix = "data:image/png;base64,"
    assert url.startswith(prefix)
    assert base64.b64decode(url[len(prefix):]) == _image().png


def test_optional_settings_are_omitted_and_options_passed_through(fake_openai: FakeOpenAIServer) -> None:
    config = _config(fake_openai.base_url, options={
        "max_retries": 0, "max_tokens_param": "max_completion_tokens",
        "extra_body": {"top_k": 5, "chat_template_kwargs": {"enable_thinking": False}}})
    _generate(config, _request(max_tokens=9))
    body = fake_openai.last_body
    assert body["max_completion_tokens"] == 9 and "max_tokens" not in body
    assert "seed" not in body and "top_p" not in body
    assert body["top_k"] == 5 and body["chat_template_kwargs"] == {"enable_thinking": False}


def test_unknown_max_tokens_param_is_a_clear_error(fake_openai: FakeOpenAIServer) -> None:
    err = _error(_config(fake_openai.base_url, options={"max_tokens_param": "max_toks"}), _request())
    assert "max_tokens_param" in str(err) and not fake_openai.requests


def test_placeholder_key_for_a_configured_base_url(fake_openai: FakeOpenAIServer) -> None:
    config = _config(fake_openai.base_url)
    assert OpenAIProvider.unavailable_reason(config) is None
    _generate(config, _request())
    assert fake_openai.requests[-1].authorization == "Bearer not-needed"


def test_first_replica_is_used(fake_openai: FakeOpenAIServer) -> None:
    config = _config((fake_openai.base_url, f"http://127.0.0.1:{_closed_port()}/v1"))
    assert _generate(config, _request()).text == "A"
    assert len(fake_openai.chat_requests) == 1


# ---- answers, usage, cost ------------------------------------------------------------------------------------

@pytest.mark.parametrize("stream", [False, True])
def test_full_text_usage_and_cost(fake_openai: FakeOpenAIServer, stream: bool) -> None:
    fake_openai.script("The lesion is on the left: A")
    config = _config(fake_openai.base_url, price_input_per_m=2.5, price_output_per_m=10.0)
    response = _generate(config, _request(stream=stream, max_tokens=50))

    assert response.text == "The lesion is on the left: A"
    expected_in = len("You are a radiologist. Answer with one letter. Which side is the lesion on? A. left B. right"
                      .split()) + TOKENS_PER_IMAGE
    assert response.input_tokens == expected_in
    assert response.output_tokens == 7
    assert response.cost == pytest.approx((expected_in * 2.5 + 7 * 10.0) / 1e6)
    assert response.finish_reason == "stop"
    assert response.latency_s > 0 and response.error is None
    body = fake_openai.last_body
    if stream:
        assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
        assert "first_token_s" in response.details
    else:
        assert "stream" not in body


@pytest.mark.parametrize("stream", [False, True])
def test_finish_reason_length(fake_openai: FakeOpenAIServer, stream: bool) -> None:
    fake_openai.script("one two three four five")
    response = _generate(_config(fake_openai.base_url), _request(stream=stream, max_tokens=2))
    assert response.text == "one two" and response.finish_reason == "length" and response.output_tokens == 2


def test_no_prices_means_no_cost(fake_openai: FakeOpenAIServer) -> None:
    assert _generate(_config(fake_openai.base_url), _request()).cost is None


def test_responder_sees_the_request(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.responder = lambda body: f"{len(body['messages'])} messages"
    assert _generate(_config(fake_openai.base_url), _request()).text == "2 messages"


def test_one_client_per_provider_instance(fake_openai: FakeOpenAIServer) -> None:
    async def go() -> None:
        provider = OpenAIProvider(_config(fake_openai.base_url))
        await provider.generate(_request())
        client = provider._client
        await provider.generate(_request(stream=True))
        assert provider._client is client
        await provider.aclose()
        assert provider._client is None

    asyncio.run(go())
    assert len(fake_openai.chat_requests) == 2


# ---- retries and errors --------------------------------------------------------------------------------------

def test_429_retry_after_is_honoured_by_the_sdk(fake_openai: FakeOpenAIServer) -> None:
    """A 1 s Retry-After: the SDK's own first backoff would be at most 0.5 s, so a gap of ≥ 1 s proves it obeyed
    (a lower bound only: a busy machine can make the gap longer, never shorter)."""
    fake_openai.fail(429, retry_after=1)
    response = _generate(_config(fake_openai.base_url, options={"max_retries": 2}), _request())
    assert response.text == "A" and response.details["retries"] == 1
    first, second = fake_openai.chat_requests
    assert second.received_at - first.received_at >= 0.95
    assert second.headers["x-stainless-retry-count"] == "1"


def test_small_fractional_retry_after_is_honoured_too(fake_openai: FakeOpenAIServer) -> None:
    """0.05 s is used as given (the SDK's own backoff would wait 0.375-0.5 s); the gap is timed by
    perf/limits.py, since an upper bound on it fails on a busy machine."""
    fake_openai.fail(429, retry_after=0.05)
    _generate(_config(fake_openai.base_url, options={"max_retries": 2}), _request())
    first, second = fake_openai.chat_requests
    assert second.received_at - first.received_at >= 0.04


def test_rate_limit_after_retries_names_status_and_retries(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.fail(429, retry_after=0.01, times=3)
    err = _error(_config(fake_openai.base_url, options={"max_retries": 2}), _request())
    assert str(err).startswith("openai/gpt-4o: HTTP 429 rate limited (after 2 retries)")
    assert err.retriable and len(fake_openai.chat_requests) == 3


@pytest.mark.parametrize("status", [500, 503])
def test_5xx_without_retries(fake_openai: FakeOpenAIServer, status: int) -> None:
    fake_openai.fail(status)
    err = _error(_config(fake_openai.base_url, options={"max_retries": 0}), _request())
    assert f"HTTP {status}" in str(err) and str(err).startswith("openai/gpt-4o:")
    assert err.retriable and len(fake_openai.chat_requests) == 1


def test_4xx_is_not_retriable_and_quotes_the_server(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.fail(400, body='{"error": {"message": "image too large", "type": "invalid_request_error"}}')
    err = _error(_config(fake_openai.base_url, options={"max_retries": 2}), _request())
    assert str(err) == "openai/gpt-4o: HTTP 400 bad request: image too large"
    assert not err.retriable and len(fake_openai.chat_requests) == 1


@pytest.mark.parametrize("stream", [False, True])
def test_timeout(fake_openai: FakeOpenAIServer, stream: bool) -> None:
    fake_openai.fail(delay_s=1.5)  # the answer would come after 1.5 s: an error means the 0.3 s timeout fired
    err = _error(_config(fake_openai.base_url), _request(stream=stream, timeout_s=0.3))
    assert str(err) == "openai/gpt-4o: timed out after 0.3 s" and err.retriable


@pytest.mark.parametrize("stream", [False, True])
def test_malformed_body(fake_openai: FakeOpenAIServer, stream: bool) -> None:
    fake_openai.fail(malformed=True)
    err = _error(_config(fake_openai.base_url), _request(stream=stream))
    assert str(err).startswith("openai/gpt-4o: malformed response:") and not err.retriable


def test_json_without_choices_is_malformed(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.fail(200, body='{"object": "chat.completion"}')
    err = _error(_config(fake_openai.base_url), _request())
    assert "malformed response: no choices" in str(err)


def test_dropped_connection(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.fail(close=True)
    err = _error(_config(fake_openai.base_url), _request())
    assert f"connection to {fake_openai.base_url} failed" in str(err) and err.retriable


def test_dropped_connection_is_retried_by_the_sdk(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.fail(close=True)
    response = _generate(_config(fake_openai.base_url, options={"max_retries": 1}), _request())
    assert response.text == "A" and len(fake_openai.chat_requests) == 2


def test_connection_refused() -> None:
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    err = _error(_config(url), _request(timeout_s=1.0))
    assert str(err).startswith(f"openai/gpt-4o: cannot connect to {url}") and err.retriable


# ---- keys and environment ------------------------------------------------------------------------------------

def test_missing_key_names_the_variable() -> None:
    config = _config(None)
    assert OpenAIProvider.unavailable_reason(config) == "OPENAI_API_KEY is not set"
    err = _error(config, _request())
    assert "OPENAI_API_KEY is not set" in str(err) and not err.retriable


def test_missing_custom_key_names_that_variable(fake_openai: FakeOpenAIServer) -> None:
    """A catalogue entry naming its own key variable needs that key, even with a base URL (a hosted gateway)."""
    config = _config(fake_openai.base_url, api_key_env="MY_GATEWAY_KEY")
    assert OpenAIProvider.unavailable_reason(config) == "MY_GATEWAY_KEY is not set"
    assert "MY_GATEWAY_KEY" in str(_error(config, _request()))
    assert not fake_openai.requests


def test_key_from_environment_is_sent(fake_openai: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_GATEWAY_KEY", PLANTED_KEY)
    config = _config(fake_openai.base_url, api_key_env="MY_GATEWAY_KEY")
    assert OpenAIProvider.unavailable_reason(config) is None
    _generate(config, _request())
    assert fake_openai.requests[-1].authorization == f"Bearer {PLANTED_KEY}"


def test_planted_key_never_appears_in_errors(fake_openai: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fake server echoes a wrong key in its 401 body (as real APIs partly do); the error must not."""
    monkeypatch.setenv("OPENAI_API_KEY", PLANTED_KEY)
    fake_openai.expected_key = "sk-the-right-one"
    config = _config(fake_openai.base_url, api_key_env="OPENAI_API_KEY")  # named: sent to this server
    errors = [_error(config, _request()), _error(config, _request(stream=True))]
    for fault in ({"status": 500}, {"delay_s": 1.0}, {"malformed": True}, {"close": True}):
        fake_openai.fail(**fault)  # type: ignore[arg-type]
        errors.append(_error(config, _request(timeout_s=0.3)))
    errors.append(_error(_config(f"http://127.0.0.1:{_closed_port()}/v1"), _request()))

    assert fake_openai.chat_requests[0].authorization == f"Bearer {PLANTED_KEY}"  # it was really sent
    assert "HTTP 401 unauthorized" in str(errors[0]) and "***" in str(errors[0])
    for err in errors:
        for text in (str(err), repr(err), repr(err.args)):
            assert PLANTED_KEY not in text
        assert err.__cause__ is None and err.__context__ is None  # no chained SDK exception quoting it


def test_the_openai_key_goes_only_to_openai_unless_an_entry_names_it(fake_openai: FakeOpenAIServer,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A catalogue entry or discovered server with its own base URL (a hosted service, a proxy) never receives
    OPENAI_API_KEY by accident: only OpenAI's own host, the server in OPENAI_BASE_URL (as the SDK does) or an entry
    whose api_key_env names it get it."""
    monkeypatch.setenv("OPENAI_API_KEY", PLANTED_KEY)
    _generate(_config(fake_openai.base_url), _request())
    assert fake_openai.chat_requests[-1].authorization == "Bearer not-needed"
    _generate(_config(fake_openai.base_url, api_key_env="OPENAI_API_KEY"), _request())
    assert fake_openai.chat_requests[-1].authorization == f"Bearer {PLANTED_KEY}"
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    _generate(_config(None), _request())
    assert fake_openai.chat_requests[-1].authorization == f"Bearer {PLANTED_KEY}"
    assert OpenAIProvider.resolve_key(_config("https://api.openai.com/v1"))[0] == PLANTED_KEY


def test_openai_base_url_env_is_honoured(fake_openai: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    config = _config(None)
    assert OpenAIProvider.unavailable_reason(config) is None  # no key needed: an endpoint is configured
    assert _generate(config, _request()).text == "A"
    assert len(fake_openai.chat_requests) == 1
    assert fake_openai.requests[-1].authorization == "Bearer not-needed"


def test_missing_sdk_disables_only_this_provider(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "openai", None)  # makes `import openai` raise ImportError
    assert OpenAIProvider.unavailable_reason() == "the openai package is not installed (pip install openai)"
    err = _error(_config("http://127.0.0.1:1/v1"), _request())
    assert "pip install openai" in str(err)


def test_images_outside_user_messages_are_rejected(fake_openai: FakeOpenAIServer) -> None:
    request = dataclasses.replace(_request(), messages=(Message("system", (ImagePart(_image()),)),))
    err = _error(_config(fake_openai.base_url), request)
    assert "only allowed in user messages" in str(err) and not fake_openai.requests


def test_models_endpoint(fake_openai: FakeOpenAIServer) -> None:
    """The fake also lists models, for clients that probe the server first."""
    from openai import OpenAI

    with OpenAI(base_url=fake_openai.base_url, api_key="x", max_retries=0) as client:
        assert [m.id for m in client.models.list()] == ["gpt-4o", "fake-vlm"]


@pytest.mark.parametrize("usage", [{"prompt_tokens": -5, "completion_tokens": -1, "total_tokens": -6},
                                   {"prompt_tokens": 3.5, "completion_tokens": True, "total_tokens": "x"}])
def test_negative_or_odd_token_counts_become_null(fake_openai: FakeOpenAIServer, usage: dict[str, object]) -> None:
    """Issue 14 F16: a provider's negative token counts were stored as they came (and priced)."""
    body = {"id": "c1", "object": "chat.completion", "created": 1, "model": "gpt-4o",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": "B"}, "finish_reason": "stop"}],
            "usage": usage}
    fake_openai.override("/v1/chat/completions", json.dumps(body))
    response = _generate(_config(fake_openai.base_url, price_input_per_m=1.0, price_output_per_m=1.0), _request())
    assert response.text == "B" and response.input_tokens is None and response.output_tokens is None
    assert response.cost == 0


@pytest.mark.parametrize("gzipped", [False, True])
def test_a_reply_over_the_cap_is_refused_before_it_is_held(fake_openai: FakeOpenAIServer, gzipped: bool) -> None:
    """Issue 14, "Also": replies had no size cap (a 300 MB gzip reply cost 1.4 GB). Each provider caps the body
    after decompression (options.max_reply_bytes), with a clear error; a reply under the cap still works."""
    import gzip

    big = json.dumps({"id": "c", "object": "chat.completion", "created": 1, "model": "m", "choices": [
        {"index": 0, "message": {"role": "assistant", "content": "B" + " " * 3_000_000}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}).encode()
    data = gzip.compress(big) if gzipped else big
    fake_openai.fail(200, data=data, headers={"Content-Encoding": "gzip"} if gzipped else {})
    config = _config(fake_openai.base_url, options={"max_retries": 0, "max_reply_bytes": 1_000_000})
    err = _error(config, _request())
    assert "larger than 1,000,000 bytes" in str(err) and "max_reply_bytes" in str(err) and not err.retriable
    fake_openai.fail(200, data=data, headers={"Content-Encoding": "gzip"} if gzipped else {})
    roomy = _config(fake_openai.base_url, options={"max_retries": 0, "max_reply_bytes": 4_000_000})
    assert _generate(roomy, _request()).text.strip() == "B"


def test_a_streamed_reply_over_the_cap_is_cut_off(fake_openai: FakeOpenAIServer) -> None:
    fake_openai.script(" ".join(["word"] * 20_000))  # ~20,000 SSE events: several MB on the wire
    config = _config(fake_openai.base_url, options={"max_retries": 0, "max_reply_bytes": 200_000})
    err = _error(config, _request(stream=True, max_tokens=50_000))
    assert "larger than 200,000 bytes" in str(err) and not err.retriable
