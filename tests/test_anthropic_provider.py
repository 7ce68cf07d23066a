"""AnthropicProvider through the real ``anthropic`` SDK against the loopback fake server (tests/fake_anthropic.py)."""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import json
import socket
import sys

import anthropic  # noqa: F401 - imported at collection, so the first test's time excludes the SDK's ~1.5 s import
import pytest
from fake_anthropic import TOKENS_PER_IMAGE, FakeAnthropicServer
from PIL import Image

from probe_ui.images import CanonicalImage
from probe_ui.messages import GenerationSettings, ImagePart, Message, Request, Response, TextPart
from probe_ui.providers import create
from probe_ui.providers.anthropic import AnthropicProvider
from probe_ui.providers.base import ModelConfig, ProviderError

PLANTED_KEY = "sk-ant-planted-Qm4vB8nX2cL6kJ0hG5fD"
SYSTEM = "You are a radiologist. Answer with one letter."
QUESTION = "Which side is the lesion on? A. left B. right"


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """The developer's own Anthropic settings must not leak into (or change) these tests."""
    for var in ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL", "ANTHROPIC_CUSTOM_HEADERS",
                "ANTHROPIC_PROFILE", "ANTHROPIC_CONFIG_DIR", "MY_CLAUDE_KEY"):
        monkeypatch.delenv(var, raising=False)


def _image() -> CanonicalImage:
    img = Image.new("RGB", (16, 12), (10, 20, 30))
    img.putpixel((3, 4), (250, 0, 0))
    return CanonicalImage.from_pil(img)


def _request(*, stream: bool = False, timeout_s: float = 5.0, **settings: object) -> Request:
    """As the prompt templates build it: the system prompt, then the image before the question."""
    return Request(
        messages=(Message("system", (TextPart(SYSTEM),)), Message("user", (ImagePart(_image()), TextPart(QUESTION)))),
        settings=GenerationSettings(stream=stream, timeout_s=timeout_s, **settings),  # type: ignore[arg-type]
    )


def _config(base_url: str | None, **kw: object) -> ModelConfig:
    options = kw.pop("options", {"max_retries": 0})
    return ModelConfig(name="sonnet", provider="anthropic", model="claude-sonnet-4-6", base_url=base_url,
                       options=options, **kw)  # type: ignore[arg-type]


def _generate(config: ModelConfig, request: Request) -> Response:
    async def go() -> Response:
        provider = AnthropicProvider(config)
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

def test_registry_resolves_the_provider() -> None:
    assert isinstance(create(_config("http://127.0.0.1:1")), AnthropicProvider)


def test_image_system_prompt_and_settings_are_sent(fake_anthropic: FakeAnthropicServer) -> None:
    response = _generate(_config(fake_anthropic.base_url), _request(temperature=0.0, max_tokens=7, top_p=0.9))
    assert response.text == "A"

    request = fake_anthropic.message_requests[-1]
    assert request.path == "/v1/messages" and request.headers["anthropic-version"] >= "2026-10-21"
    body = fake_anthropic.last_body
    assert body["model"] == "claude-sonnet-4-6"
    assert body["system"] == SYSTEM
    assert body["max_tokens"] == 7
    # the SDK's API version rejects sampling parameters: not sent, and the response says so
    assert "temperature" not in body and "top_p" not in body and response.details["sampling"] == "api-default"
    assert "stream" not in body and "seed" not in body
    (user,) = body["messages"]
    assert user["role"] == "user"
    image, text = user["content"]
    assert text == {"type": "text", "text": QUESTION}
    assert image["type"] == "image"
    assert image["source"]["type"] == "base64" and image["source"]["media_type"] == "image/png"
    assert base64.b64decode(image["source"]["data"]) == _image().png


@pytest.mark.parametrize("stream", [False, True])
def test_older_api_version_sends_sampling_settings(fake_anthropic: FakeAnthropicServer, stream: bool) -> None:
    config = _config(fake_anthropic.base_url, options={"max_retries": 0, "api_version": "2023-06-01"})
    response = _generate(config, _request(stream=stream, temperature=0.7, top_p=0.9))
    assert response.text == "A" and "sampling" not in response.details
    assert fake_anthropic.message_requests[-1].headers["anthropic-version"] == "2023-06-01"
    body = fake_anthropic.last_body
    assert body["temperature"] == 0.7 and body["top_p"] == 0.9
    _generate(config, _request())
    assert fake_anthropic.last_body["temperature"] == 0.0 and "top_p" not in fake_anthropic.last_body


def test_sampling_forced_on_the_new_api_version_is_a_clear_400(fake_anthropic: FakeAnthropicServer) -> None:
    config = _config(fake_anthropic.base_url, options={"max_retries": 2, "sampling": True})
    err = _error(config, _request())
    assert str(err) == ("anthropic/claude-sonnet-4-6: HTTP 400 bad request: "
                        "temperature: Extra inputs are not permitted")
    assert not err.retriable and len(fake_anthropic.message_requests) == 1


@pytest.mark.parametrize(("option", "value"), [("api_version", "latest"), ("thinking", "off"),
                                                ("max_retries", "3")])
def test_bad_options_are_clear_errors(fake_anthropic: FakeAnthropicServer, option: str, value: object) -> None:
    err = _error(_config(fake_anthropic.base_url, options={option: value}), _request())
    assert f"options.{option}" in str(err) and not fake_anthropic.requests


def test_part_order_is_kept(fake_anthropic: FakeAnthropicServer) -> None:
    request = dataclasses.replace(_request(), messages=(
        Message("user", (TextPart("Image 1:"), ImagePart(_image()), TextPart("Image 2:"), ImagePart(_image()),
                         TextPart("Same side?"))),))
    _generate(_config(fake_anthropic.base_url), request)
    body = fake_anthropic.last_body
    assert [b["type"] for b in body["messages"][0]["content"]] == ["text", "image", "text", "image", "text"]
    assert "system" not in body


def test_few_shot_turns_and_options(fake_anthropic: FakeAnthropicServer) -> None:
    request = dataclasses.replace(_request(), messages=(
        Message("system", (TextPart("Rule one."),)), Message("system", (TextPart("Rule two."),)),
        Message("user", (ImagePart(_image()), TextPart("Example?"))), Message("assistant", (TextPart("B"),)),
        Message("user", (ImagePart(_image()), TextPart(QUESTION)))))
    config = _config(fake_anthropic.base_url, options={"max_retries": 0, "thinking": {"type": "disabled"},
                                                       "extra_body": {"metadata": {"user_id": "u1"}}})
    _generate(config, request)
    body = fake_anthropic.last_body
    assert body["thinking"] == {"type": "disabled"}
    assert body["system"] == "Rule one.\n\nRule two."
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "user"]
    assert body["messages"][1]["content"] == [{"type": "text", "text": "B"}]
    assert body["metadata"] == {"user_id": "u1"}


def test_images_outside_user_messages_are_rejected(fake_anthropic: FakeAnthropicServer) -> None:
    request = dataclasses.replace(_request(), messages=(Message("system", (ImagePart(_image()),)),
                                                        Message("user", (TextPart("hi"),))))
    err = _error(_config(fake_anthropic.base_url), request)
    assert "only allowed in user messages" in str(err) and not fake_anthropic.requests


# ---- answers, usage, cost ------------------------------------------------------------------------------------

@pytest.mark.parametrize("stream", [False, True])
def test_full_text_usage_and_cost(fake_anthropic: FakeAnthropicServer, stream: bool) -> None:
    fake_anthropic.script("The lesion is on the left: A")
    config = _config(fake_anthropic.base_url, price_input_per_m=3.0, price_output_per_m=15.0)
    response = _generate(config, _request(stream=stream, max_tokens=50))

    assert response.text == "The lesion is on the left: A"
    expected_in = len(f"{SYSTEM} {QUESTION}".split()) + TOKENS_PER_IMAGE
    assert response.input_tokens == expected_in
    assert response.output_tokens == 7  # from message_delta when streaming, not message_start's 1
    assert response.cost == pytest.approx((expected_in * 3.0 + 7 * 15.0) / 1e6)
    assert response.finish_reason == "end_turn"
    assert response.latency_s > 0 and response.error is None
    assert response.details["id"].startswith("msg_fake") and response.details["retries"] == 0
    body = fake_anthropic.last_body
    if stream:
        assert body["stream"] is True and "first_token_s" in response.details
    else:
        assert "stream" not in body


@pytest.mark.parametrize("stream", [False, True])
def test_stop_reason_max_tokens(fake_anthropic: FakeAnthropicServer, stream: bool) -> None:
    fake_anthropic.script("one two three four five")
    response = _generate(_config(fake_anthropic.base_url), _request(stream=stream, max_tokens=2))
    assert response.text == "one two" and response.finish_reason == "max_tokens" and response.output_tokens == 2


@pytest.mark.parametrize("stream", [False, True])
def test_refusal_is_flagged(fake_anthropic: FakeAnthropicServer, stream: bool) -> None:
    fake_anthropic.stop_reason = "refusal"
    fake_anthropic.script("I can't help with that.")
    response = _generate(_config(fake_anthropic.base_url), _request(stream=stream))
    assert response.finish_reason == "refusal" and response.details["refusal"] is True


@pytest.mark.parametrize("stream", [False, True])
def test_thinking_is_kept_apart_from_the_answer(fake_anthropic: FakeAnthropicServer, stream: bool) -> None:
    fake_anthropic.thinking = "The opacity is in the left lower lobe."
    fake_anthropic.script("A")
    response = _generate(_config(fake_anthropic.base_url), _request(stream=stream))
    assert response.text == "A" and response.details["reasoning"] == "The opacity is in the left lower lobe."
    assert response.output_tokens == 9  # thinking counts as output
    no_thinking = _config(fake_anthropic.base_url, options={"max_retries": 0, "thinking": {"type": "disabled"}})
    assert "reasoning" not in _generate(no_thinking, _request(stream=stream)).details


def test_no_prices_means_no_cost(fake_anthropic: FakeAnthropicServer) -> None:
    assert _generate(_config(fake_anthropic.base_url), _request()).cost is None


def test_one_client_per_provider_instance(fake_anthropic: FakeAnthropicServer) -> None:
    async def go() -> None:
        provider = AnthropicProvider(_config(fake_anthropic.base_url))
        await provider.generate(_request())
        client = provider._client
        await provider.generate(_request(stream=True))
        assert provider._client is client
        await provider.aclose()
        assert provider._client is None

    asyncio.run(go())
    assert len(fake_anthropic.message_requests) == 2


# ---- retries and errors --------------------------------------------------------------------------------------

def test_429_retry_after_is_honoured_by_the_sdk(fake_anthropic: FakeAnthropicServer) -> None:
    """A 1 s Retry-After: the SDK's own first backoff would be at most 0.5 s, so a gap of ≥ 1 s proves it obeyed."""
    fake_anthropic.fail(429, retry_after=1)
    response = _generate(_config(fake_anthropic.base_url, options={"max_retries": 2}), _request())
    assert response.text == "A" and response.details["retries"] == 1
    first, second = fake_anthropic.message_requests
    assert 0.95 <= second.received_at - first.received_at < 1.6
    assert second.headers["x-stainless-retry-count"] == "1"


def test_529_overloaded_is_retried_by_the_sdk(fake_anthropic: FakeAnthropicServer) -> None:
    fake_anthropic.fail(529, retry_after=0.05)
    response = _generate(_config(fake_anthropic.base_url, options={"max_retries": 1}), _request(stream=True))
    assert response.text == "A" and response.details["retries"] == 1
    assert len(fake_anthropic.message_requests) == 2


def test_rate_limit_after_retries_names_status_and_retries(fake_anthropic: FakeAnthropicServer) -> None:
    fake_anthropic.fail(429, retry_after=0.01, times=3)
    err = _error(_config(fake_anthropic.base_url, options={"max_retries": 2}), _request())
    assert str(err).startswith("anthropic/claude-sonnet-4-6: HTTP 429 rate limited (after 2 retries)")
    assert err.retriable and len(fake_anthropic.message_requests) == 3
    assert err.status == 429 and err.retry_after == "0.01"  # type: ignore[attr-defined]


@pytest.mark.parametrize(("status", "words"), [(500, "server error"), (529, "overloaded: Overloaded")])
@pytest.mark.parametrize("stream", [False, True])
def test_5xx_and_overloaded_without_retries(fake_anthropic: FakeAnthropicServer, status: int, words: str,
                                            stream: bool) -> None:
    fake_anthropic.fail(status)
    err = _error(_config(fake_anthropic.base_url, options={"max_retries": 0}), _request(stream=stream))
    assert str(err).startswith(f"anthropic/claude-sonnet-4-6: HTTP {status} {words}")
    assert err.retriable and len(fake_anthropic.message_requests) == 1


def test_4xx_is_not_retriable_and_quotes_the_server(fake_anthropic: FakeAnthropicServer) -> None:
    fake_anthropic.fail(400, body='{"type": "error", "error": {"type": "invalid_request_error", '
                                  '"message": "image exceeds 5 MB maximum"}}')
    err = _error(_config(fake_anthropic.base_url, options={"max_retries": 2}), _request())
    assert str(err) == "anthropic/claude-sonnet-4-6: HTTP 400 bad request: image exceeds 5 MB maximum"
    assert not err.retriable and len(fake_anthropic.message_requests) == 1


def test_overloaded_in_the_middle_of_a_stream(fake_anthropic: FakeAnthropicServer) -> None:
    fake_anthropic.script("one two three four")
    fake_anthropic.fail(stream_error="overloaded_error")
    err = _error(_config(fake_anthropic.base_url), _request(stream=True))
    assert str(err) == "anthropic/claude-sonnet-4-6: error in the stream: overloaded_error: fake overloaded_error"
    assert err.retriable


@pytest.mark.parametrize("stream", [False, True])
def test_timeout(fake_anthropic: FakeAnthropicServer, stream: bool) -> None:
    fake_anthropic.fail(delay_s=1.5)  # the answer would come after 1.5 s: an error means the 0.3 s timeout fired
    err = _error(_config(fake_anthropic.base_url), _request(stream=stream, timeout_s=0.3))
    assert str(err) == "anthropic/claude-sonnet-4-6: timed out after 0.3 s" and err.retriable


@pytest.mark.parametrize("stream", [False, True])
def test_malformed_body(fake_anthropic: FakeAnthropicServer, stream: bool) -> None:
    fake_anthropic.fail(malformed=True)
    err = _error(_config(fake_anthropic.base_url), _request(stream=stream))
    assert str(err).startswith("anthropic/claude-sonnet-4-6: malformed response:") and not err.retriable


def test_json_without_content_is_malformed(fake_anthropic: FakeAnthropicServer) -> None:
    fake_anthropic.fail(200, body='{"type": "message"}')
    err = _error(_config(fake_anthropic.base_url), _request())
    assert "malformed response: no content" in str(err)


@pytest.mark.parametrize("fault", ["close", "reset"])
def test_dropped_or_reset_connection(fake_anthropic: FakeAnthropicServer, fault: str) -> None:
    fake_anthropic.fail(**{fault: True})  # type: ignore[arg-type]
    err = _error(_config(fake_anthropic.base_url), _request())
    assert f"connection to {fake_anthropic.base_url} failed" in str(err) and err.retriable
    if fault == "reset":
        assert "Connection reset by peer" in str(err)


def test_reset_connection_is_retried_by_the_sdk(fake_anthropic: FakeAnthropicServer) -> None:
    fake_anthropic.fail(reset=True)
    response = _generate(_config(fake_anthropic.base_url, options={"max_retries": 1}), _request())
    assert response.text == "A" and len(fake_anthropic.message_requests) == 2


def test_connection_refused() -> None:
    url = f"http://127.0.0.1:{_closed_port()}"
    err = _error(_config(url), _request(timeout_s=1.0))
    assert str(err).startswith(f"anthropic/claude-sonnet-4-6: cannot connect to {url}") and err.retriable


# ---- keys and environment ------------------------------------------------------------------------------------

def test_missing_key_names_the_variable() -> None:
    config = _config(None)
    assert AnthropicProvider.unavailable_reason(config) == "ANTHROPIC_API_KEY is not set"
    err = _error(config, _request())
    assert str(err) == "anthropic/claude-sonnet-4-6: ANTHROPIC_API_KEY is not set" and not err.retriable


def test_catalogue_entry_naming_its_key_needs_it_even_with_a_base_url(fake_anthropic: FakeAnthropicServer) -> None:
    config = _config(fake_anthropic.base_url, api_key_env="MY_CLAUDE_KEY")
    assert AnthropicProvider.unavailable_reason(config) == "MY_CLAUDE_KEY is not set"
    assert "MY_CLAUDE_KEY" in str(_error(config, _request()))
    assert not fake_anthropic.requests


def test_placeholder_key_for_a_configured_base_url(fake_anthropic: FakeAnthropicServer,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A server of its own (a proxy, a compatible service) never receives ANTHROPIC_API_KEY unless named."""
    monkeypatch.setenv("ANTHROPIC_API_KEY", PLANTED_KEY)
    config = _config(fake_anthropic.base_url)
    assert AnthropicProvider.unavailable_reason(config) is None
    _generate(config, _request())
    assert fake_anthropic.requests[-1].api_key == "not-needed"


def test_key_from_environment_is_sent(fake_anthropic: FakeAnthropicServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", PLANTED_KEY)
    fake_anthropic.expected_key = PLANTED_KEY  # the fake accepts it as x-api-key or as a bearer token
    config = _config(fake_anthropic.base_url, api_key_env="ANTHROPIC_API_KEY")  # named: sent to this server
    assert _generate(config, _request()).text == "A"
    assert fake_anthropic.requests[-1].api_key == PLANTED_KEY


def test_planted_key_never_appears_in_errors(fake_anthropic: FakeAnthropicServer,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The fake echoes a wrong key in its 401 body (as real APIs partly do); no error text may carry it."""
    monkeypatch.setenv("ANTHROPIC_API_KEY", PLANTED_KEY)
    fake_anthropic.expected_key = "sk-ant-the-right-one"
    config = _config(fake_anthropic.base_url, api_key_env="ANTHROPIC_API_KEY")
    errors = [_error(config, _request()), _error(config, _request(stream=True))]
    fake_anthropic.expected_key = None
    for fault in ({"status": 500}, {"status": 529}, {"delay_s": 1.0}, {"malformed": True}, {"close": True},
                  {"reset": True}, {"stream_error": "overloaded_error"}):
        fake_anthropic.fail(**fault)  # type: ignore[arg-type]
        errors.append(_error(config, _request(timeout_s=0.3, stream="stream_error" in fault)))
    errors.append(_error(_config(f"http://127.0.0.1:{_closed_port()}"), _request()))

    assert fake_anthropic.message_requests[0].api_key == PLANTED_KEY  # it was really sent
    assert "HTTP 401 unauthorized" in str(errors[0]) and "***" in str(errors[0])
    for err in errors:
        for text in (str(err), repr(err), repr(err.args)):
            assert PLANTED_KEY not in text
        assert err.__cause__ is None and err.__context__ is None  # no chained SDK exception quoting it


def test_anthropic_base_url_env_is_honoured(fake_anthropic: FakeAnthropicServer,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake_anthropic.base_url)
    config = _config(None)
    assert AnthropicProvider.unavailable_reason(config) is None  # no key needed: an endpoint is configured
    assert _generate(config, _request()).text == "A"
    assert len(fake_anthropic.message_requests) == 1
    assert fake_anthropic.requests[-1].api_key == "not-needed"


def test_missing_sdk_disables_only_this_provider(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "anthropic", None)  # makes `import anthropic` raise ImportError
    assert AnthropicProvider.unavailable_reason() == "the anthropic package is not installed (pip install anthropic)"
    err = _error(_config("http://127.0.0.1:1"), _request())
    assert "pip install anthropic" in str(err)


def test_models_endpoint(fake_anthropic: FakeAnthropicServer) -> None:
    """The fake also lists models, for clients that probe the server first."""
    from anthropic import Anthropic

    with Anthropic(base_url=fake_anthropic.base_url, api_key="x", max_retries=0) as client:
        assert [m.id for m in client.models.list()] == ["claude-sonnet-4-6", "claude-haiku-4-5"]


def test_negative_token_counts_become_null(fake_anthropic: FakeAnthropicServer) -> None:
    """Issue 14 F16: a provider's negative token counts were stored as they came (and priced)."""
    body = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-6",
            "content": [{"type": "text", "text": "B"}], "stop_reason": "end_turn", "stop_sequence": None,
            "usage": {"input_tokens": -7, "output_tokens": -2}}
    fake_anthropic.override("/v1/messages", json.dumps(body))
    response = _generate(dataclasses.replace(_config(fake_anthropic.base_url), price_input_per_m=1.0,
                                             price_output_per_m=1.0), _request())
    assert response.text == "B" and response.input_tokens is None and response.output_tokens is None
    assert response.cost == 0


def test_a_reply_over_the_cap_is_refused(fake_anthropic: FakeAnthropicServer) -> None:
    """Issue 14, "Also": the Anthropic provider caps the reply body too (shared SDKProvider client)."""
    fake_anthropic.script("B " * 400_000)
    config = _config(fake_anthropic.base_url, options={"max_retries": 0, "max_reply_bytes": 100_000})
    err = _error(config, _request(max_tokens=500_000))
    assert "larger than 100,000 bytes" in str(err) and not err.retriable
