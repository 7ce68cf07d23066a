"""Images carried by reference through the SDK and written in by probe-ui's HTTP client (issue 50's cost of a call):
what reaches the server is the image itself, on every attempt, for OpenAI-compatible servers and Anthropic alike,
and nothing is sent with a stand-in left in it."""

from __future__ import annotations

import asyncio
import base64
import json

import pytest
from fake_anthropic import FakeAnthropicServer
from fake_openai import FakeOpenAIServer
from PIL import Image

from probe_ui.images import CanonicalImage
from probe_ui.messages import GenerationSettings, ImagePart, Message, Request, TextPart
from probe_ui.providers import create, wire_images
from probe_ui.providers.base import ModelConfig


def image(seed: int, size: tuple[int, int] = (64, 48)) -> CanonicalImage:
    im = Image.new("RGB", size, (seed % 256, 40, 90))
    im.putpixel((seed % size[0], 3), (250, 250, 0))
    return CanonicalImage.from_pil(im)


def request(*images: CanonicalImage, text: str = "Which side?") -> Request:
    parts = tuple(ImagePart(im) for im in images) + (TextPart(text),)
    return Request(messages=(Message("user", parts),),
                   settings=GenerationSettings(temperature=0.0, max_tokens=8, timeout_s=10.0))


def ask(config: ModelConfig, req: Request) -> str:
    async def go() -> str:
        provider = create(config)
        try:
            return (await provider.generate(req)).text
        finally:
            await provider.aclose()

    return asyncio.run(go())


def test_two_images_and_the_same_image_twice_reach_an_openai_server_whole_on_every_attempt(
        fake_openai: FakeOpenAIServer) -> None:
    a, b = image(1), image(2, (80, 80))
    fake_openai.fail(500, times=1)  # the SDK retries: its second attempt is built again from the stand-ins
    config = ModelConfig(name="m", provider="openai", model="gpt-4o", base_url=fake_openai.base_url,
                         options={"max_retries": 2})
    assert ask(config, request(a, b, a)) == "A"
    chats = fake_openai.chat_requests
    assert len(chats) == 2
    for rec in chats:
        urls = [p["image_url"]["url"] for p in rec.body["messages"][0]["content"] if p["type"] == "image_url"]
        assert [base64.b64decode(u.removeprefix("data:image/png;base64,")) for u in urls] == [a.png, b.png, a.png]
        assert wire_images.MARK not in json.dumps(rec.body)
    assert not wire_images._lent  # noqa: SLF001 - every image is given back after the call


def test_an_anthropic_server_gets_the_image_itself(fake_anthropic: FakeAnthropicServer) -> None:
    a = image(3)
    config = ModelConfig(name="c", provider="anthropic", model="claude-x", base_url=fake_anthropic.base_url,
                         options={"max_retries": 0})
    ask(config, request(a))
    body = fake_anthropic.last_body
    source = next(p for p in body["messages"][0]["content"] if p["type"] == "image")["source"]
    assert base64.b64decode(source["data"]) == a.png
    assert wire_images.MARK not in json.dumps(body)


def test_a_stand_in_whose_image_is_not_lent_is_never_sent() -> None:
    a = image(4)
    body = json.dumps(wire_images.stand_in({"url": "data:image/png;base64," + a.base64}, [a])).encode()
    assert wire_images.MARK.encode() in body and len(body) < 200  # the image itself is not in the small body
    with pytest.raises(wire_images.StandInError):
        wire_images.fill(body)
    with wire_images.lent([a]):
        filled = wire_images.fill(body)
    assert filled is not None and json.loads(filled) == {"url": "data:image/png;base64," + a.base64}
    assert wire_images.fill(b'{"messages": []}') is None  # a body without stand-ins is left as it is


def test_text_that_is_not_an_image_is_left_alone() -> None:
    a = image(5)
    value = {"text": "a" * 500, "short": a.base64[-10:], "n": 3, "list": [a.base64[:100]]}
    assert wire_images.stand_in(value, [a]) == value
