"""What the Models tab shows of the rate controllers (issue 50, :mod:`probe_ui.providers.rate_control`): one row per
provider, server and key that this process has called, with the requests in flight now, the adaptive limit and its
ceiling, the answers and refusals so far, and until when the server has asked every new request to wait.

Each row names its server by host (and port), never by its path, user info or key; rows of the same server under two
keys are two rows (two accounts, two rate limits). Who sees which rows is the caller's choice (:func:`rate_rows`'s
``visible``): the app shows an admin every row and anyone else the rows of the models they can call
(:func:`visible_keys`): the catalogue's, any provider's default server, and the endpoints shared with everyone or
added by them. Calls made by another process (a ``probe-ui batch`` in a terminal) have controllers of their own
there, not here.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Iterable, Mapping
from typing import Any
from urllib.parse import urlsplit

from probe_ui.providers.base import ModelConfig
from probe_ui.providers.rate_control import control_key, controls, duration_text

__all__ = ["COLUMNS", "rate_rows", "server_words", "visible_keys"]

#: the table's columns, in plain words
COLUMNS = ("server", "provider", "in flight now", "limit now / ceiling", "answered so far", "refused (429) so far",
           "waiting until")

Key = tuple[str, str, str]


def _host(url: str) -> str:
    try:
        parts = urlsplit(url.strip())
        host, port = parts.hostname or "", parts.port
    except ValueError:
        return "?"
    if ":" in host:
        host = f"[{host}]"
    return f"{host}:{port}" if host and port else host or "?"


def server_words(server: str) -> str:
    """A controller's server as the table shows it: each URL's host (and port), nothing of its path, user info or
    query; words such as ``openai (default server)`` as they are."""
    if "://" not in server:
        return server
    return " ".join(_host(u) for u in server.split())


def _keys(configs: Iterable[ModelConfig]) -> set[Key]:
    from probe_ui.providers import provider_class

    keys: set[Key] = set()
    for cfg in configs:
        try:
            cls = provider_class(cfg.provider)
        except Exception:  # noqa: BLE001 - a provider that cannot load has made no calls
            continue
        if cls.takes_url:
            keys.add(control_key(cls, cfg))
    return keys


def visible_keys(endpoints: Iterable[ModelConfig] = ()) -> set[Key]:
    """The controllers a person who is not an admin may see: those of the models they can call, the catalogue's
    entries, any provider's default server (``provider/<model>`` with the server's own key) and ``endpoints`` (the
    endpoints shared with everyone and their own)."""
    from probe_ui import catalogue
    from probe_ui.providers import url_providers

    try:
        offered = list(catalogue.load_catalogue().values())
    except ValueError:  # a catalogue entry that does not load: the Models table says so
        offered = []
    offered += [ModelConfig(name=f"{p}/any", provider=p, model="any") for p in url_providers()]
    return _keys([*offered, *endpoints])


def rate_rows(visible: Collection[Key] | None = None, now: float | None = None,
              hidden: Mapping[str, str] | None = None) -> list[list[Any]]:
    """One row per controller (:data:`COLUMNS`), by server then provider; only those in ``visible`` unless it is
    None (an admin). ``now``: the wall-clock time the "waiting until" column counts from (default: now). A server in
    ``hidden`` (an endpoint an admin shared: :meth:`probe_ui.catalogue.endpoints.EndpointBook.hidden_servers`) is named
    by the words given there, not by its host."""
    hidden = hidden or {}
    now = time.time() if now is None else now
    rows = []
    for control in controls():
        if visible is not None and control.key not in visible:
            continue
        s = control.status()
        paused = float(s["paused_s"])
        until = (f"{time.strftime('%H:%M:%S', time.gmtime(now + paused))} UTC (in {duration_text(paused)})"
                 if paused > 0 else "")
        server = hidden.get(control.key[1]) or server_words(control.key[1])
        rows.append([server, control.key[0], s["in_flight"], f"{s['limit']} / {s['ceiling']}",
                     s["answered"], s["refused"], until])
    return sorted(rows, key=lambda r: (str(r[0]), str(r[1])))
