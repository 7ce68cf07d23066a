"""Starting the app: loopback by default; any other address only with a password, because the app can spend
API credit and shows everything in the store."""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass
from typing import Any

from probe_ui.errors import ProbeUIError

DEFAULT_HOST, DEFAULT_PORT = "127.0.0.1", 7860
#: uploads over this are refused in the browser before they are sent (the loader has its own, larger limits)
DEFAULT_MAX_UPLOAD_MB = 100


class ServeError(ProbeUIError, ValueError):
    """The app cannot start as asked (an unsafe host without auth, a malformed --auth)."""


@dataclass(frozen=True)
class ServeOptions:
    db: str
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    auth: tuple[str, str] | None = None
    demo: bool = False
    max_upload_mb: int = DEFAULT_MAX_UPLOAD_MB


def is_loopback(host: str) -> bool:
    if host in ("localhost", "localhost.localdomain"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def parse_auth(value: str | None) -> tuple[str, str] | None:
    if value is None:
        return None
    user, sep, password = value.partition(":")
    if not sep or not user or not password:
        raise ServeError("--auth takes user:password (both non-empty), e.g. --auth alice:s3cret")
    return user, password


def check(host: str, auth: tuple[str, str] | None) -> None:
    """Refuse to listen beyond this machine without a password."""
    if not is_loopback(host) and auth is None:
        raise ServeError(
            f"refusing to listen on {host} without --auth: anyone who can reach this address could read every "
            "stored image and answer and spend your API keys. Add --auth user:password (and put it behind "
            "HTTPS), or keep the default --host 127.0.0.1.")


def options(db: str, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, auth: str | None = None,
            demo: bool = False, max_upload_mb: int | None = None) -> ServeOptions:
    creds = parse_auth(auth)
    check(host, creds)
    if not 0 < port < 65536:
        raise ServeError(f"--port must be 1-65535, not {port}")
    mb = max_upload_mb or int(os.environ.get("PROBE_UI_MAX_UPLOAD_MB", DEFAULT_MAX_UPLOAD_MB))
    return ServeOptions(db=db, host=host, port=port, auth=creds, demo=demo, max_upload_mb=mb)


def theme() -> Any:
    """Gradio's default look with system fonts: the page loads nothing from outside this machine."""
    import gradio as gr

    return gr.themes.Default(font=["ui-sans-serif", "system-ui", "sans-serif"],
                             font_mono=["ui-monospace", "monospace"])


def launch(opts: ServeOptions, *, block: bool = True, quiet: bool = False) -> Any:
    """Build the app on its store and serve it; returns the Blocks (with ``block=False``, for tests)."""
    from probe_ui.app.blocks import CSS, JS, AppContext, build_app
    from probe_ui.store import Store

    store = Store(opts.db)
    app = build_app(AppContext(store=store, db_location=opts.db, demo=opts.demo))
    url = f"http://{opts.host if ':' not in opts.host else f'[{opts.host}]'}:{opts.port}"
    if not quiet:
        print(f"probe-ui: serving at {url} (store {opts.db}){' · demo' if opts.demo else ''}; Ctrl+C stops",
              flush=True)
    app.launch(server_name=opts.host, server_port=opts.port, auth=opts.auth, max_file_size=f"{opts.max_upload_mb}mb",
               show_error=True, prevent_thread_lock=not block, quiet=True, css=CSS, js=JS, inbrowser=False,
               footer_links=["api"], theme=theme())
    return app
