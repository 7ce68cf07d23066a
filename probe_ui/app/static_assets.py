"""Gradio's own front-end files, read and compressed once, then served from memory.

Every visitor's browser fetches about 115 of Gradio's script and style files (``/assets/...``, ``/static/...``) when
it opens the app. Gradio serves each from disk through its whole middleware stack, a worker thread and a fresh
brotli compression: about 0.6 s of the server's CPU per page opened on two cores, most of what opening a page costs
the server. Fifty people arriving at a demo paid that fifty times (issue 23's "page load").

:class:`StaticAssets` (an ASGI middleware inside Gradio's own) answers those two routes itself: a file is read
once, compressed once per encoding the browsers ask for (brotli, gzip) and kept; later requests get the kept bytes,
with an ``ETag`` (a browser that has the file gets ``304 Not Modified``) and, for the build's content-hashed names,
``Cache-Control: immutable`` so that a browser does not ask again. Only files that exist under Gradio's two
front-end folders when the app starts are served (a fixed list; no path from a request touches the disk); every
other request goes on to Gradio unchanged.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import re
import threading
from pathlib import Path
from typing import Any

#: the URL prefixes served, and where Gradio keeps their files
_ROUTES = ("/assets/", "/static/")
#: kinds of file worth compressing (fonts and images are compressed already)
_COMPRESSIBLE = frozenset({".js", ".mjs", ".css", ".html", ".json", ".svg", ".txt", ".map", ".md", ".xml"})
#: the build tool's content-hashed names (``Index-Akn07EZk2.js``): their content never changes under that name
_HASHED = re.compile(r"-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$")
#: brotli's quality for a file compressed once and kept (Gradio's per-request compression uses 4)
BROTLI_QUALITY = 6
_TYPES = {".js": "text/javascript; charset=utf-8", ".mjs": "text/javascript; charset=utf-8",
          ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml", ".json": "application/json",
          ".woff2": "font/woff2", ".map": "application/json"}


def gradio_frontend_folders() -> dict[str, Path]:
    """The folders Gradio serves ``/assets/`` and ``/static/`` from."""
    from gradio.routes import BUILD_PATH_LIB, STATIC_PATH_LIB

    return {"/assets/": Path(BUILD_PATH_LIB), "/static/": Path(STATIC_PATH_LIB)}


def _listing(folders: dict[str, Path]) -> dict[str, Path]:
    """Every regular file under each folder, by the URL path that names it (symbolic links left to Gradio)."""
    out: dict[str, Path] = {}
    for prefix, root in folders.items():
        if not root.is_dir():
            continue
        for path in root.rglob("*"):
            if path.is_file() and not path.is_symlink():
                out[prefix + path.relative_to(root).as_posix()] = path
    return out


def _encoding(headers: list[tuple[bytes, bytes]]) -> str:
    """The encoding to send: brotli or gzip when the request accepts it, else none."""
    accept = b",".join(v for k, v in headers if k.lower() == b"accept-encoding").decode("latin-1").lower()
    offered = {part.split(";")[0].strip(): "q=0" not in part.replace(" ", "") for part in accept.split(",")}
    for name in ("br", "gzip"):
        if offered.get(name):
            return name
    return "identity"


class _File:
    """One file's bytes, as read and in each encoding made so far."""

    def __init__(self, path: Path) -> None:
        raw = path.read_bytes()
        self.bodies: dict[str, bytes] = {"identity": raw}
        self.suffix = path.suffix.lower()
        self.type = _TYPES.get(self.suffix) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        self.etag = '"' + hashlib.blake2b(raw, digest_size=12).hexdigest() + '"'
        self.immutable = path.parent.name == "assets" and bool(_HASHED.search(path.name))

    def body(self, encoding: str) -> tuple[str, bytes]:
        """(the encoding actually used, the bytes): small or incompressible files go as they are."""
        raw = self.bodies["identity"]
        if encoding == "identity" or self.suffix not in _COMPRESSIBLE or len(raw) < 512:
            return "identity", raw
        if encoding not in self.bodies:
            if encoding == "br":
                import brotli

                self.bodies["br"] = brotli.compress(raw, quality=BROTLI_QUALITY)
            else:
                self.bodies["gzip"] = gzip.compress(raw, compresslevel=6, mtime=0)
        return encoding, self.bodies[encoding]


class StaticAssets:
    """ASGI middleware: Gradio's ``/assets/`` and ``/static/`` files from memory (see the module docstring)."""

    def __init__(self, app: Any, folders: dict[str, Path] | None = None) -> None:
        self.app = app
        self._paths = _listing(folders if folders is not None else gradio_frontend_folders())
        self._kept: dict[str, _File] = {}
        self._lock = threading.Lock()
        self.served = 0  # requests answered from memory (tests read it)

    def _file(self, path: str) -> _File | None:
        with self._lock:
            kept = self._kept.get(path)
        if kept is not None:
            return kept
        source = self._paths.get(path)
        if source is None:
            return None
        try:
            made = _File(source)
        except OSError:
            return None  # gone or unreadable: Gradio answers it as it would have
        with self._lock:
            return self._kept.setdefault(path, made)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        path = _route_path(scope) if scope["type"] == "http" else ""
        if not path.startswith(_ROUTES) or scope.get("method") not in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        headers = scope.get("headers") or []
        if any(k.lower() == b"range" for k, _ in headers):
            await self.app(scope, receive, send)  # a part of a file: Gradio's ranged response
            return
        found = self._file(path)
        if found is None:
            await self.app(scope, receive, send)
            return
        self.served += 1
        encoding, body = found.body(_encoding(headers))
        out = [(b"content-type", found.type.encode()), (b"etag", found.etag.encode()), (b"vary", b"Accept-Encoding"),
               (b"cache-control", b"public, max-age=31536000, immutable" if found.immutable else b"no-cache")]
        if encoding != "identity":
            out.append((b"content-encoding", encoding.encode()))
        asked = b",".join(v for k, v in headers if k.lower() == b"if-none-match").decode("latin-1")
        if found.etag in [t.strip().removeprefix("W/") for t in asked.split(",")]:
            await send({"type": "http.response.start", "status": 304, "headers": out})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
            return
        out.append((b"content-length", str(len(body)).encode()))
        await send({"type": "http.response.start", "status": 200, "headers": out})
        await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body,
                    "more_body": False})


def _route_path(scope: dict[str, Any]) -> str:
    """The request's path as Gradio's router matches it: without the root path the app is mounted under (what
    Starlette's router does)."""
    path, root = str(scope.get("path", "")), str(scope.get("root_path", ""))
    return path[len(root):] if root and path.startswith(root) else path


__all__ = ["StaticAssets", "gradio_frontend_folders"]
