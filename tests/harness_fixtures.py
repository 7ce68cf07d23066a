"""A deterministic stand-in for a vision-language model, shared by the loopback server and the harness fixtures.

Its reply is a function of the exact conversation it is given (each message's role, each text, the sha256 of each
image's bytes, in order), so the same request gets the same reply whoever sends it: ``probe-ui batch`` through the
OpenAI SDK, Inspect AI through its own OpenAI provider, or a fixture that writes what lmms-eval or VLMEvalKit would
have logged for that request. The replies mix what the reader must handle: bare letters, bracketed and declared
answers, yes/no words, a refusal.
"""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path
from typing import Any, Iterable

REPLIES = ("A", "B", "(B)", "Answer: A", "yes", "no", "The answer is B.", "I cannot tell from this image.")

Part = tuple[str, str]  # ("text", text) or ("image", sha256 hex)


def reply_for(messages: Iterable[tuple[str, Iterable[Part]]]) -> str:
    """The model's reply to a conversation given as (role, parts) pairs."""
    h = hashlib.sha256()
    for role, parts in messages:
        h.update(b"\x00role:" + role.encode())
        for kind, value in parts:
            h.update(f"\x00{kind}:".encode() + value.encode())
    return REPLIES[int.from_bytes(h.digest()[:4], "big") % len(REPLIES)]


def wire_conversation(body: dict[str, Any]) -> list[tuple[str, list[Part]]]:
    """A chat-completions request body as (role, parts): a string content is one text part; an image is the sha256
    of the bytes its data URL carries."""
    out = []
    for m in body.get("messages") or []:
        content = m.get("content")
        parts: list[Part] = []
        for p in [{"type": "text", "text": content}] if isinstance(content, str) else content or []:
            if p.get("type") == "text":
                parts.append(("text", p["text"]))
            elif p.get("type") == "image_url":
                data = base64.b64decode(p["image_url"]["url"].split(",", 1)[1])
                parts.append(("image", hashlib.sha256(data).hexdigest()))
        out.append((str(m.get("role")), parts))
    return out


def responder(body: dict[str, Any]) -> str:
    """For ``FakeOpenAIServer(responder=...)``."""
    return reply_for(wire_conversation(body))


def set_conversation(sample: Any) -> list[tuple[str, list[Part]]]:
    """A set sample's request (:class:`probe_ui.interop.benchset.SetSample`) as (role, parts), as it goes on the
    wire: a user turn's images before its text."""
    return [(t.role, [*(("image", h) for h in t.images), ("text", t.text)]) for t in sample.turns]


def mixed_preset(folder: Path) -> Path:
    """A small preset with what every harness format must carry or refuse: multiple choice with one and with two
    images, yes/no, a question without an image, a label item, and few-shot examples (the ``shots`` condition asks
    one solved item first, as an earlier turn of the conversation)."""
    from helpers import write_png, write_preset

    for i in range(3):
        write_png(folder / f"img{i}.png", seed=i, mode="L" if i != 1 else "RGB")
    items = [
        {"id": "mc-a", "image": "img0.png", "question": "Which finding is shown?",
         "options": ["effusion", "pneumothorax", "normal"], "answer": "effusion", "category": ["Chest"]},
        {"id": "mc-b", "image": "img1.png", "question": "Which finding is shown here?",
         "options": ["effusion", "pneumothorax"], "answer": "pneumothorax", "category": ["Chest"], "tags": ["shots"]},
        {"id": "mc-two", "images": ["img0.png", "img2.png"], "question": "Which image is brighter?",
         "options": ["the first", "the second"], "answer": "the second"},
        {"id": "yn", "image": "img2.png", "question": "Is there a fracture?", "kind": "yesno", "answer": "no"},
        {"id": "text-only", "question": "Which organ produces insulin?", "options": ["pancreas", "liver"],
         "answer": "pancreas"},
        {"id": "colour", "image": "img1.png", "question": "Which colour dominates?", "kind": "label",
         "labels": ["red", "green", "blue"], "answer": "green"},
    ]
    return write_preset(folder / "mixed.yaml", items, name="mixed",
                        perturbations=[{"name": "shots", "steps": [{"op": "few_shot", "k": 1}],
                                        "only_tags": ["shots"]}])
