"""The send gate's policy (issue 47): which requests it checks, what it does with burned-in text, what is recorded.

Why: a hospital lets a tool send images out only if nothing identifying leaves unchecked and every image sent out
is on a record. Before a request leaves, :func:`check_request` reads every image in it for burned-in identifying
text (:mod:`probe_ui.send_gate.detect`) and, per policy:

========= ===========================================================================================
``block`` the request is not sent; the cell fails with "burned-in text at x,y,w,h; not sent" (never the text)
``redact`` the boxes are filled and the redacted image is what is sent, stored and shown as sent
``warn``  the request is sent as it is; the answer's details and the ledger say what was found
``off``   nothing is checked
========= ===========================================================================================

Which hosts: loopback, the hosts of ``--trusted-hosts`` and a catalogue entry's ``trusted: true`` are trusted;
every other host (every hosted API) is not. With no policy given, the gate blocks for untrusted hosts when the OCR
extra is installed; without it, requests go out unchecked and probe-ui says the gate is missing. A policy given
explicitly (``--send-gate block``) applies to trusted hosts too (tests, sites that trust nothing), and fails before
anything is sent when the extra is missing. Models that send nothing anywhere (``hf/`` weights, baselines) are never
gated. Every request to an untrusted host, sent or stopped, goes on the send ledger
(:mod:`probe_ui.store.ledger`).
"""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from probe_ui.errors import ProbeUIError
from probe_ui.send_gate.ocr import INSTALL_HINT

if TYPE_CHECKING:
    from probe_ui.images import CanonicalImage
    from probe_ui.messages import Request
    from probe_ui.providers.base import ModelConfig

POLICIES = ("block", "redact", "warn", "off")
#: the OCR engine's import name (the ``ocr`` extra)
ENGINE_MODULES = ("rapidocr_onnxruntime",)
#: the environment variables that set the policy and the trusted hosts where no option does (the app, scripts)
POLICY_ENV, TRUSTED_ENV = "PROBE_UI_SEND_GATE", "PROBE_UI_TRUSTED_HOSTS"


class GateError(ProbeUIError, ValueError):
    """A send-gate setting that cannot be used: an unknown policy or host pattern, or a policy that needs the OCR
    extra where it is not installed."""


class Blocked(ProbeUIError, RuntimeError):
    """The gate stopped a request: the message says where the text is, never what it says."""


def is_loopback(host: str) -> bool:
    if host in ("localhost", "localhost.localdomain") or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def destinations(model: ModelConfig) -> tuple[str, ...]:
    """The hosts a model's requests go to (several for replicas); () for a model that sends nothing out."""
    from probe_ui.providers import provider_class
    from probe_ui.providers.sdk import SDKProvider, host_of

    try:
        cls = provider_class(model.provider)
    except ProbeUIError:
        return ()
    if not (isinstance(cls, type) and issubclass(cls, SDKProvider)):
        return ()
    urls = list(model.base_url) if isinstance(model.base_url, (tuple, list)) else [model.base_url]
    urls = [u for u in urls if u]
    if not urls:
        env = os.environ.get(cls.sdk_base_url_env or "", "").strip() if cls.sdk_base_url_env else ""
        fallback = env or cls.base_url_for(model) or (f"https://{cls.own_hosts[0]}" if cls.own_hosts else "")
        urls = [fallback] if fallback else []
    return tuple(dict.fromkeys(host_of(u) or u for u in urls))


def parse_trusted(entries: str | list[str] | tuple[str, ...] | None) -> tuple[str, ...]:
    """``--trusted-hosts`` (comma- or space-separated host names or ``*.domain`` patterns), checked."""
    if isinstance(entries, str):
        entries = entries.replace(",", " ").split()
    out: list[str] = []
    for raw in entries or ():
        entry = raw.strip().lower().rstrip(".")
        name = entry[2:] if entry.startswith("*.") else entry
        if not entry:
            continue
        if not name or any(not part or not all(c.isalnum() or c in "-:[]" for c in part) for part in name.split(".")):
            raise GateError(f"--trusted-hosts: {raw!r} is not a host name or *.domain pattern")
        out.append(entry)
    return tuple(out)


def ocr_available() -> bool:
    """Whether the OCR extra is installed (found, not imported: importing the engine takes seconds)."""
    import importlib.util

    for name in ENGINE_MODULES:
        try:
            if importlib.util.find_spec(name) is not None:
                return True
        except (ImportError, ValueError):
            continue
    return False


@dataclass(frozen=True)
class Decision:
    """What the gate does for one model: ``mode`` (a policy, or "" for no check), ``record`` (an untrusted host:
    every request goes on the ledger), its hosts, and ``missing`` (the gate would check but the extra is absent)."""

    mode: str
    record: bool
    hosts: tuple[str, ...]
    missing: bool = False


@dataclass(frozen=True)
class GatePolicy:
    """The policy of a batch, a live probe or a server: ``mode`` (one of :data:`POLICIES`, or None for the default
    of the module doc) and the trusted hosts."""

    mode: str | None = None
    trusted_hosts: tuple[str, ...] = ()
    available: bool | None = field(default=None, compare=False)  # tests set it; None: ask ocr_available()
    #: loopback is the machine itself; False treats it as any other host (the loopback test servers stand for an API)
    trust_loopback: bool = True

    @classmethod
    def from_options(cls, mode: str | None = None, trusted: str | list[str] | tuple[str, ...] | None = None
                     ) -> GatePolicy:
        """The policy from ``--send-gate`` / ``--trusted-hosts``, else ``PROBE_UI_SEND_GATE`` /
        ``PROBE_UI_TRUSTED_HOSTS``; an unknown policy or host pattern is a GateError."""
        mode = (mode or os.environ.get(POLICY_ENV, "")).strip().lower() or None
        if mode is not None and mode not in POLICIES:
            raise GateError(f"--send-gate must be one of {', '.join(POLICIES)}, not {mode!r}")
        hosts = parse_trusted(trusted if trusted is not None else os.environ.get(TRUSTED_ENV, ""))
        return cls(mode, hosts)

    def with_mode(self, mode: str | None) -> GatePolicy:
        return replace(self, mode=mode)

    def _available(self) -> bool:
        return ocr_available() if self.available is None else self.available

    def trusted(self, model: ModelConfig, host: str) -> bool:
        if model.trusted or (self.trust_loopback and is_loopback(host)):
            return True
        for entry in self.trusted_hosts:
            if host == entry or (entry.startswith("*.") and host.endswith(entry[1:]) and host != entry[2:]):
                return True
        return False

    def decide(self, model: ModelConfig) -> Decision:
        """What the gate does for ``model``'s requests (module doc)."""
        hosts = destinations(model)
        if not hosts:
            return Decision("", False, ())
        untrusted = not all(self.trusted(model, h) for h in hosts)
        if self.mode == "off":
            return Decision("", untrusted, hosts)
        if self.mode is not None:
            if not self._available():
                raise GateError(f"--send-gate {self.mode} needs the OCR extra, which is not installed: {INSTALL_HINT}")
            return Decision(self.mode, untrusted, hosts)
        if not untrusted:
            return Decision("", False, hosts)
        if not self._available():
            return Decision("", True, hosts, missing=True)
        return Decision("block", True, hosts)

    def check(self, models: list[ModelConfig]) -> list[str]:
        """Before a batch or probe asks anything: a GateError for a policy that cannot work here, and the warnings
        to say (the gate is missing for the models that would be checked)."""
        missing = [m.name for m in models if self.decide(m).missing]
        if not missing:
            return []
        return [f"the send gate is missing ({INSTALL_HINT}): images to {', '.join(missing)} leave without a check "
                "for burned-in text"]


@dataclass
class Checked:
    """A request after the gate: the request to send (images redacted where the policy redacts), the verdict for
    the ledger (sent, redacted, warned, blocked, unchecked) and, where text was found, where (for the answer's
    details; never the text)."""

    request: Request
    verdict: str
    found: list[dict[str, Any]] = field(default_factory=list)


def _images(request: Request) -> list[CanonicalImage]:
    from probe_ui.messages import ImagePart

    seen: dict[str, CanonicalImage] = {}
    for m in request.messages:
        for p in m.content:
            if isinstance(p, ImagePart):
                seen.setdefault(p.image.id, p.image)
    return list(seen.values())


def _replace_images(request: Request, swap: dict[str, CanonicalImage]) -> Request:
    from probe_ui.messages import ImagePart, Message

    messages = tuple(Message(m.role, tuple(ImagePart(swap[p.image.id]) if isinstance(p, ImagePart)
                                             and p.image.id in swap else p for p in m.content))
                     for m in request.messages)
    return replace(request, messages=messages)


def where_words(found: list[dict[str, Any]]) -> str:
    """Where text was found, in words: "burned-in text at 12,400,180,22 (name), ..." (never the text itself)."""
    return ", ".join(f"{f['x']},{f['y']},{f['w']},{f['h']} ({f['kind']})" for f in found[:6]) + \
        (f" and {len(found) - 6} more" if len(found) > 6 else "")


def check_request(decision: Decision, request: Request, detector: Any = None) -> Checked:
    """Apply ``decision`` to one request (module doc). ``detector(image) -> findings`` defaults to
    :func:`probe_ui.send_gate.detect.find_identifying_text`. Under ``block`` a request with text found comes back
    with the verdict "blocked": the caller records it and fails the cell with :class:`Blocked`, never sending it."""
    if not decision.mode:
        return Checked(request, "unchecked" if decision.record else "sent")
    images = _images(request)
    if not images:
        return Checked(request, "sent")
    if detector is None:
        from probe_ui.send_gate.detect import find_identifying_text

        detector = find_identifying_text
    found: list[dict[str, Any]] = []
    per_image: dict[str, list[Any]] = {}
    for im in images:
        hits = list(detector(im))
        if hits:
            per_image[im.id] = hits
            found += [{"image": im.id, "x": h.x, "y": h.y, "w": h.w, "h": h.h, "kind": h.kind} for h in hits]
    if not found:
        return Checked(request, "sent")
    if decision.mode == "redact":
        from probe_ui.send_gate.redact import redact

        swap = {i: redact(im, per_image[i]) for im in images if (i := im.id) in per_image}
        return Checked(_replace_images(request, swap), "redacted", found)
    if decision.mode == "warn":
        return Checked(request, "warned", found)
    return Checked(request, "blocked", found)
