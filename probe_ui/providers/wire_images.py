"""Images carried into a request body by reference and written in by probe-ui's own HTTP client (issue 50).

A request's JSON body holds each image as base64 text (192 KB for a 512x512 PNG). The SDKs JSON-encode the whole
body for every call and every retry, which scans those 192 KB character by character: 0.9 ms of CPU per call, a
fifth of a batch's CPU at concurrency 64, for text that is the same in every call of a run.

So before a call the provider's keyword arguments are walked once (:func:`stand_in`): a string that ends with an
image's base64 text (an OpenAI data URL, an Anthropic ``source.data``) ends instead with a short stand-in, made of
a mark that is random for each process and the image's id. The SDK encodes the small body; the HTTP client that
every SDK client of probe-ui is given (:func:`probe_ui.providers.sdk.capped_http_client`) puts the image's base64
bytes, made once per image, back in place of each stand-in (:func:`fill`) before the request leaves. The bytes on
the wire are those the SDK would have sent: base64 text needs no JSON escaping.

An image is lent for the length of a call (:func:`lent`): a stand-in whose image is not lent is an error, never
sent. The mark cannot occur in a user's text by chance, and a user who typed one could at most name an image that
is being sent at that moment by this process, in their own request, to the server of that request.
"""

from __future__ import annotations

import re
import secrets
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from probe_ui.errors import ProbeUIError

if TYPE_CHECKING:
    from probe_ui.images import CanonicalImage

#: the start of every stand-in, random for each process; an image's id (64 hex digits) follows it
MARK = f"probe-ui-image-{secrets.token_hex(16)}-"
_MARK_BYTES = MARK.encode("ascii")
_STAND_IN = re.compile(re.escape(_MARK_BYTES) + rb"([0-9a-f]{64})")
#: strings shorter than this are never an image's base64 text (the smallest PNG is over 60 bytes of base64)
_SHORTEST = 64

_lock = threading.Lock()
_lent: dict[str, list[Any]] = {}  # image id -> [image, calls lending it]


class StandInError(ProbeUIError, RuntimeError):
    """A request body names an image that is not lent: a bug in probe-ui, never sent."""


@contextmanager
def lent(images: Sequence[CanonicalImage]) -> Iterator[None]:
    """Lend ``images`` to the HTTP client for the length of the ``with`` block (one call, its retries included)."""
    ids = [im.id for im in images]
    with _lock:
        for im, key in zip(images, ids):
            entry = _lent.setdefault(key, [im, 0])
            entry[1] += 1
    try:
        yield
    finally:
        with _lock:
            for key in ids:
                entry = _lent[key]
                entry[1] -= 1
                if entry[1] == 0:
                    del _lent[key]


def stand_in(value: Any, images: Sequence[CanonicalImage]) -> Any:
    """``value`` (a provider's keyword arguments: dicts, lists, strings) with every string that ends with one of
    ``images``' base64 text ending with that image's stand-in instead; containers along the way are copied, the
    rest is shared."""
    tails = [(im.base64, MARK + im.id) for im in images]
    if not tails:
        return value

    def walk(v: Any) -> Any:
        if isinstance(v, str):
            if len(v) >= _SHORTEST:
                for b64, token in tails:
                    if v.endswith(b64):  # compared in place: no copy of the image's text is made
                        return v[:len(v) - len(b64)] + token
            return v
        if isinstance(v, dict):
            return {k: walk(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return type(v)(walk(x) for x in v)
        return v

    return walk(value)


def fill(body: bytes) -> bytes | None:
    """``body`` with each stand-in replaced by its image's base64 bytes; None when it holds none (the usual case
    for everything but a model call). Raises :class:`StandInError` for an image that is not lent."""
    if _MARK_BYTES not in body:
        return None
    parts: list[bytes] = []
    at = 0
    with _lock:
        for m in _STAND_IN.finditer(body):
            entry = _lent.get(m.group(1).decode("ascii"))
            if entry is None:
                raise StandInError("a request named an image that is not being sent; not sent (a bug in probe-ui)")
            parts += [body[at:m.start()], entry[0].base64.encode("ascii")]
            at = m.end()
    parts.append(body[at:])
    return b"".join(parts)
