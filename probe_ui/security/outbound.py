"""Where endpoints added in the app may point: the outbound policy of an app served to other people.

An endpoint typed into the Models tab makes the server send requests to an address chosen by whoever typed it. On
the person's own machine (the app on loopback, no allowlist) that is their business. On a server open to a room it
would let anyone probe the server's network (an internal admin page, a cloud metadata address) with the server's
own reach, so there:

- an admin may add an endpoint at any host;
- anyone else only at a host of the allowlist (``--endpoint-hosts``): exact host names, ``*.example.org`` for the
  names under a domain, IP addresses and networks (``10.0.0.5``, ``10.1.0.0/16``, ``fd00::/8``);
- and a host name is resolved, and every address it resolves to must be a public address or lie in an allowlisted
  address or network: ``models.example.org`` that resolves to ``127.0.0.1`` or ``10.0.0.7`` is refused unless that
  address or network is itself in the list.

The check runs when an endpoint is added and again before every use (test, probe, batch), so a name that later
resolves elsewhere is caught then; a name that changes its address between the check and the request itself (DNS
rebinding within seconds) is not, which is why the allowlist names hosts you trust.

Every HTTP client probe-ui makes for a request on a user's behalf (the SDK clients of endpoints, catalogue models and
judges; readiness looks and discovery) is made here (:func:`http_client`, :func:`url_opener`), and none follows a
redirect: an allowed host answering 301/302/303/307/308 would otherwise send the request (with 307/308 its body: the
question and the image; with some clients the key) to a host the policy never checked, and the reply there would be
shown as the model's. A redirect is a one-line error instead (:func:`redirect_refused`).

A model loaded in the server's own process (``hf/<folder or Hub id>``) is no endpoint, but reaches the server's files
and the Hub all the same: in an app served to several people only an admin may name one; everyone else picks one an
admin put in the catalogue (:func:`local_model_refused`, checked by
:meth:`probe_ui.catalogue.endpoints.EndpointBook.usable`).
"""

from __future__ import annotations

import ipaddress
import re
import socket
import urllib.request
from dataclasses import dataclass, field
from typing import Any, Callable
from urllib.parse import urljoin, urlsplit

from probe_ui.errors import ProbeUIError

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Resolver = Callable[[str, int], list[str]]


class OutboundRefused(ProbeUIError, ValueError):
    """An endpoint URL the app's outbound policy does not allow for this user; the message says what would."""

    field = "base_url"


def resolve_host(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to (IPv4 and IPv6)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return sorted({str(info[4][0]).split("%", 1)[0] for info in infos})


def _address(text: str) -> Address | None:
    try:
        ip = ipaddress.ip_address(text.strip("[]"))
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


@dataclass(frozen=True)
class OutboundPolicy:
    """``enforced``: the app is served beyond this machine, or an allowlist was given; ``hosts``: host names and
    ``*.domain`` patterns; ``networks``: allowlisted addresses and networks (module doc)."""

    enforced: bool = False
    hosts: tuple[str, ...] = ()
    networks: tuple[Network, ...] = ()
    resolver: Resolver = field(default=resolve_host, repr=False, compare=False)

    @classmethod
    def parse(cls, entries: str | list[str] | tuple[str, ...] | None, *, enforced: bool,
              resolver: Resolver = resolve_host) -> OutboundPolicy:
        """A policy from ``--endpoint-hosts`` (comma- or space-separated entries); raises OutboundRefused for an
        entry that is neither a host name, a ``*.domain`` pattern nor an address or network."""
        if isinstance(entries, str):
            entries = entries.replace(",", " ").split()
        hosts: list[str] = []
        networks: list[Network] = []
        for raw in entries or ():
            entry = raw.strip().lower().rstrip(".")
            if not entry:
                continue
            try:
                networks.append(ipaddress.ip_network(entry.strip("[]"), strict=False))
                continue
            except ValueError:
                pass
            name = entry[2:] if entry.startswith("*.") else entry
            if not name or any(not part or not all(c.isalnum() or c == "-" for c in part)
                               for part in name.split(".")):
                raise OutboundRefused(f"--endpoint-hosts: {raw!r} is not a host name, *.domain, address or network")
            hosts.append(entry)
        return cls(enforced=enforced or bool(hosts or networks), hosts=tuple(hosts), networks=tuple(networks),
                   resolver=resolver)

    def describe(self) -> str:
        """The allowlist in words, for messages and the Models tab."""
        entries = [*self.hosts, *(str(n) for n in self.networks)]
        return ", ".join(entries) if entries else "none"

    def _listed_name(self, host: str) -> bool:
        host = host.lower().rstrip(".")
        for entry in self.hosts:
            if entry.startswith("*.") and host.endswith(entry[1:]) and host != entry[2:]:
                return True
            if host == entry:
                return True
        return False

    def _listed_address(self, ip: Address) -> bool:
        return any(ip.version == n.version and ip in n for n in self.networks)

    def check(self, url: str, *, admin: bool = False) -> None:
        """Raise OutboundRefused unless this user may send requests to ``url`` (module doc)."""
        if not self.enforced or admin:
            return
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
        if not host:
            raise OutboundRefused("the base URL names no host")
        if not (self.hosts or self.networks):
            raise OutboundRefused("on this server only an admin can add an endpoint (no hosts are allowed for "
                                  "others: the server's --endpoint-hosts); the shared models are in the list above")
        literal = _address(host)
        if literal is not None:
            if not self._listed_address(literal):
                raise OutboundRefused(f"{host} is not among the hosts this server allows endpoints at "
                                      f"({self.describe()})")
            return
        if not self._listed_name(host):
            raise OutboundRefused(f"{host} is not among the hosts this server allows endpoints at "
                                  f"({self.describe()})")
        try:
            port = parts.port or (443 if parts.scheme == "https" else 80)
            addresses = self.resolver(host, port)
        except (OSError, UnicodeError, ValueError):
            raise OutboundRefused(f"{host} cannot be resolved from this server") from None
        if not addresses:
            raise OutboundRefused(f"{host} cannot be resolved from this server")
        for text in addresses:
            ip = _address(text)
            if ip is None:
                raise OutboundRefused(f"{host} resolves to something that is not an address")
            if not ip.is_global and not self._listed_address(ip):
                raise OutboundRefused(f"{host} resolves to {ip}, an internal address (private, loopback or "
                                      "link-local) that this server does not allow endpoints at; an admin can "
                                      "allow it with --endpoint-hosts")


#: the policy of an app used on this machine only: anything goes (the person at the keyboard owns the network)
OPEN = OutboundPolicy()


# ---- redirects -------------------------------------------------------------------------------------------------
#: the statuses that ask a client to go elsewhere
REDIRECTS = frozenset({301, 302, 303, 307, 308})
_UNPRINTABLE = re.compile(r"[^\x21-\x7e]")


def redirect_refused(status: int, location: str | None, url: str) -> str:
    """The one line a redirect answered to a request for ``url`` becomes: the status and the host it pointed to
    (never the rest of the target, which the server chose), and what to do."""
    try:
        target = urlsplit(urljoin(url, (location or "").strip())).hostname or ""
    except ValueError:
        target = ""
    target = _UNPRINTABLE.sub("?", target)[:80] or "an unreadable address"
    return (f"the server answered {status} (a redirect to {target}); probe-ui does not follow redirects: "
            "use the final URL as the base URL")


def http_client(client_class: type, **kwargs: Any) -> Any:
    """An httpx-style async client of ``client_class`` (an SDK's default client) that never follows a redirect,
    whatever the class's default (both SDKs follow them); a request that asks to (``follow_redirects=True``) is
    held to it by :func:`no_redirects`."""
    return client_class(**{**kwargs, "follow_redirects": False})


def no_redirects(send_kwargs: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments of one ``send`` with redirects off (an SDK may pass ``follow_redirects`` per request)."""
    return {**send_kwargs, "follow_redirects": False}


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """urllib's redirect handler, told to follow nothing: a 3xx reply raises HTTPError with its status."""

    def redirect_request(self, req: Any, fp: Any, code: int, msg: str, headers: Any, newurl: str) -> None:
        return None


def url_opener(*, use_proxy: bool = True) -> urllib.request.OpenerDirector:
    """A urllib opener that follows no redirect (readiness looks, discovery); ``use_proxy`` false: the
    environment's proxy is not used (the loopback address)."""
    handlers: list[Any] = [_NoRedirect()]
    if not use_proxy:
        handlers.append(urllib.request.ProxyHandler({}))
    return urllib.request.build_opener(*handlers)


# ---- models in the server's own process ---------------------------------------------------------------------------
#: what a person who may not name a local model is told, whatever the name (it says nothing of the server's files)
LOCAL_MODELS_ADMIN_ONLY = ("models on this server's own machine (hf/, ollama/, vllm/) are chosen by an admin of this "
                           "server: pick one from the model list, or ask an admin to add it to the catalogue")


class LocalModelRefused(OutboundRefused):
    """A model name typed by someone who may not load a model into the server's own process."""

    field = "models"


def local_model_refused() -> LocalModelRefused:
    return LocalModelRefused(LOCAL_MODELS_ADMIN_ONLY)
