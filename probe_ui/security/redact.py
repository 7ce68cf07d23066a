"""What may leave the process: the one place that decides.

Everything probe-ui writes where others can read it (the store, stderr and logs, exports, the report, the app's
pages) passes through here:

- **Keys** are masked in every encoding a message may carry them in: raw, stripped and whitespace-folded,
  ``repr``-escaped (``'\\r\\n'``, ``b'...'``), JSON-escaped, URL-encoded, HTML-escaped and mis-decoded UTF-8; and
  not only whole: any run of 8 or more characters of a key is masked, so an echo cut short (or a 200-character
  preview of it) cannot leak a usable piece. Masking runs on the full text, before any folding or truncation
  (:func:`clip`). The keys known here are those probe-ui read to send (:func:`register_secret`,
  :func:`env_key`) and, for a process that sends nothing (export, report), the values of key-like environment
  variables and of the variables a run names (:func:`known_secrets`).
- **URLs** lose user info, query and fragment (``https://user:pw@host/v1?key=K#f`` → ``https://host/v1``);
  a local database or file URL shows only its file name where a local path must not leave (exports, report).
- **Configuration**: a run records of a model only :data:`RUN_MODEL_FIELDS`, an export or report only
  :data:`PUBLIC_MODEL_FIELDS` (no key variable names); any setting named like a secret is dropped.
- **Local folders** in an export (a dataset, a benchmark set): :class:`Scrubber` rewrites this machine's folders
  (:func:`local_roots`: the store's, the presets', the home and temp folders, ...) to neutral names, masks keys and,
  in bookkeeping fields, reduces any absolute path to its file name; :func:`leak_check` looks at the written files
  once more.

Keys are stripped of surrounding whitespace where they are read (:func:`clean_key`): a key file saved on Windows
ends in CR LF, which no server accepts and which made the HTTP library quote the key in its error.
"""

from __future__ import annotations

import html
import json
import math
import os
import re
import tempfile
import threading
from functools import lru_cache
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any, Iterable, Mapping
from urllib.parse import quote, quote_plus, urlsplit, urlunsplit

if TYPE_CHECKING:
    from probe_ui.store import Store

#: what a masked key (or piece of one) becomes
MASK = "***"
#: a run of this many characters of a key is masked wherever it appears
PIECE = 8
#: shorter values are never treated as secrets (masking "ab" everywhere would wreck every text)
MIN_SECRET = 4

#: the fields a run records about a model (the key's variable *name*, never its value)
RUN_MODEL_FIELDS = ("name", "provider", "model", "base_url", "api_key_env", "generation")
#: the fields an export, a dataset card or a report may carry about a model
PUBLIC_MODEL_FIELDS = ("name", "provider", "model", "base_url", "generation")

#: setting names that may hold a secret (or name where one is kept): dropped from anything published
SECRET_NAME = re.compile(r"(^|_)(api_?key|key|keys|token|secret|password|passwd|auth|authorization|credentials?|"
                         r"cookie|headers?)(_env)?$", re.I)
#: field names that only ever hold credentials: dropped wherever they appear, data fields (attributes, a reply's
#: details) included, where :data:`SECRET_NAME` would also drop a user's own ``key`` or ``headers``
CREDENTIAL_FIELD = re.compile(r"^(api_?key|api_key_env|authorization|password|passwd|secret|access_token|"
                              r"auth_token|x-api-key)$", re.I)
#: environment variables whose values are treated as secrets by a process that reads no key itself
SECRET_ENV_NAME = re.compile(r"(^|_)(API_?KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?|AUTH)$", re.I)

_URL = re.compile(r"\b[A-Za-z][A-Za-z0-9+.\-]{1,20}://[^\s'\"<>`]+")
_BEARER = re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=\-]{8,}")
_ABS_PATH = re.compile(r"^(/|~|[A-Za-z]:[\\/]|\\\\)")
_PATH_NAMES = {"path", "file", "source", "images", "images_dir", "dir", "folder"}

_registered: set[str] = set()
_lock = threading.Lock()


# ---- keys ---------------------------------------------------------------------------------------------------------

def clean_key(value: str | None) -> str | None:
    """A key as read from the environment, a file or a form: surrounding whitespace (CR, LF, TAB, spaces)
    stripped; None when nothing is left."""
    if value is None:
        return None
    value = str(value).strip()
    return value or None


def key_problem(key: str, where: str) -> str | None:
    """Why ``key`` cannot be sent in an HTTP header (a control or non-ASCII character inside it), naming
    ``where`` it came from and never the key; None when it can."""
    bad = next((c for c in key if not (" " <= c <= "~")), None)
    if bad is None:
        return None
    what = "a control character (a line break or tab inside the key?)" if bad < " " or bad == "\x7f" \
        else "a non-ASCII character"
    return f"{where} holds {what}, which cannot be sent in a request header: check the key"


def register_secret(value: str | None) -> None:
    """Remember a key this process uses (in memory only), so that every text leaving the process masks it."""
    value = clean_key(value)
    if value and len(value) >= MIN_SECRET:
        with _lock:
            _registered.add(value)


def env_key(name: str | None) -> str | None:
    """The key in environment variable ``name``, stripped and registered for masking; None when unset or empty."""
    if not name:
        return None
    key = clean_key(os.environ.get(name))
    register_secret(key)
    return key


def known_secrets(env_names: Iterable[str] = ()) -> frozenset[str]:
    """The keys to mask: those registered, the values of key-like environment variables (``*_API_KEY``,
    ``*_TOKEN``, ``*_SECRET``, ...) and of the variables named in ``env_names`` (e.g. a run's ``api_key_env``)."""
    names = set(env_names)
    out = set(_registered)
    for name, value in list(os.environ.items()):
        if name in names or SECRET_ENV_NAME.search(name):
            v = clean_key(value)
            if v and len(v) >= MIN_SECRET:
                out.add(v)
    return frozenset(out)


@lru_cache(maxsize=512)
def _forms(secret: str) -> tuple[str, ...]:
    """``secret`` in every encoding a message may carry it in, longest first."""
    raw = secret.encode("utf-8", "surrogatepass")
    candidates = {
        secret, secret.strip(), " ".join(secret.split()),
        repr(secret)[1:-1], secret.encode("unicode_escape").decode("ascii"), repr(raw)[2:-1],
        json.dumps(secret)[1:-1], json.dumps(secret, ensure_ascii=False)[1:-1],
        quote(secret, safe=""), quote(secret), quote_plus(secret),
        html.escape(secret), html.escape(secret, quote=False),
        raw.decode("latin-1"),
    }
    return tuple(sorted((c for c in candidates if len(c) >= MIN_SECRET), key=len, reverse=True))


class Masker:
    """Masks a fixed set of secrets; built once per set (:func:`masker`), used for many texts."""

    def __init__(self, secrets: Iterable[str]) -> None:
        forms = {f for s in secrets if s and len(s) >= MIN_SECRET for f in _forms(s)}
        #: (form, its 4-character blocks at offsets 0, 4, 8, ...): every run of 8 characters of a form contains
        #: one whole block, so finding the blocks finds every piece
        self._long = [(f, [(j, f[j:j + 4]) for j in range(0, len(f) - 3, 4)]) for f in forms if len(f) >= PIECE]
        self._short = sorted((f for f in forms if len(f) < PIECE), key=len, reverse=True)

    def __bool__(self) -> bool:
        return bool(self._long or self._short)

    def spans(self, text: str) -> list[tuple[int, int]]:
        """Where ``text`` holds a secret or a piece of one (merged, sorted)."""
        spans: list[tuple[int, int]] = []
        for form, blocks in self._long:
            n = len(form)
            for j, block in blocks:
                at = text.find(block)
                while at != -1:
                    left = 0
                    while left < j and at - left > 0 and text[at - left - 1] == form[j - left - 1]:
                        left += 1
                    right = 0
                    while j + 4 + right < n and at + 4 + right < len(text) \
                            and text[at + 4 + right] == form[j + 4 + right]:
                        right += 1
                    if left + 4 + right >= PIECE:
                        spans.append((at - left, at + 4 + right))
                    at = text.find(block, at + 1)
        for form in self._short:
            at = text.find(form)
            while at != -1:
                spans.append((at, at + len(form)))
                at = text.find(form, at + 1)
        spans.sort()
        merged: list[tuple[int, int]] = []
        for a, b in spans:
            if merged and a <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(merged[-1][1], b))
            else:
                merged.append((a, b))
        return merged

    def mask(self, text: str) -> str:
        if not self or not text:
            return text
        spans = self.spans(text)
        if not spans:
            return text
        out, last = [], 0
        for a, b in spans:
            out += [text[last:a], MASK]
            last = b
        out.append(text[last:])
        return "".join(out)


@lru_cache(maxsize=64)
def masker(secrets: frozenset[str]) -> Masker:
    """The :class:`Masker` of a set of secrets (cached: building one costs more than using it)."""
    return Masker(secrets)


def mask(text: Any, secrets: Iterable[str] | None = None) -> Any:
    """``text`` with every secret (default: :func:`known_secrets`) masked in every encoding, and any
    ``Bearer <token>`` credential masked; non-strings are returned as they are."""
    if not isinstance(text, str) or not text:
        return text
    m = masker(frozenset(known_secrets() if secrets is None else secrets))
    return _BEARER.sub(lambda g: f"{g.group(1)} {MASK}", m.mask(text))


def mask_deep(obj: Any, secrets: Iterable[str] | None = None) -> Any:
    """:func:`mask` applied to every string inside lists and mappings (keys included)."""
    chosen = frozenset(known_secrets() if secrets is None else secrets)
    if isinstance(obj, str):
        return mask(obj, chosen)
    if isinstance(obj, Mapping):
        return {mask(k, chosen): mask_deep(v, chosen) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [mask_deep(v, chosen) for v in obj]
    return obj


def clip(text: Any, limit: int = 200, secrets: Iterable[str] | None = None) -> str:
    """One line of at most ``limit`` characters, secrets and URL credentials masked first, on the full text (a
    cut made before masking could leave the start of a key behind)."""
    text = mask_urls(mask(str(text), secrets))
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


#: the longest name (of a run, a model, a preset) printed whole: a longer one is cut, with "…" (the store keeps it)
NAME_LIMIT = 120
#: characters a terminal acts on or does not show: C0 and C1 controls (ESC starts the sequences that set a window's
#: title or clear the screen), DEL, the line and paragraph separators, the bidirectional overrides and isolates, and
#: the zero-width and other invisible format characters
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f"
                          "\ufeff\ufff9-\ufffb]")


def printable(text: Any, limit: int | None = NAME_LIMIT, keep: str = "") -> str:
    """``text`` fit to print on a terminal: every control or invisible formatting character written as its escape
    (``\\x1b``, ``\\u202e``), except those in ``keep`` (``"\\n"`` for a whole printout), then cut to ``limit``
    characters with "…" (None: not cut). The one helper for every run, model and preset name the CLI prints (a name
    with ``ESC ] 0 ;`` retitled the window; a 100,000-character one was echoed whole)."""
    s = _UNPRINTABLE.sub(lambda m: m.group(0) if m.group(0) in keep else _escaped(m.group(0)), str(text))
    return s if limit is None or len(s) <= limit else s[: max(limit - 1, 0)] + "…"


def _escaped(ch: str) -> str:
    n = ord(ch)
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}"


# ---- URLs ---------------------------------------------------------------------------------------------------------

def url_forms(server: str) -> list[str]:
    """The ways a message may name ``server`` (one URL or several, space-separated), longest first: each URL as
    given and without user info, its ``scheme://host:port`` and ``host:port`` (the port written or implied)."""
    forms: set[str] = set()
    for url in server.split():
        forms |= {url, url.rstrip("/"), str(public_url(url))}
        try:
            parts = urlsplit(url)
            host, port = parts.hostname or "", parts.port or (443 if parts.scheme == "https" else 80)
        except ValueError:
            continue
        if not host:
            continue
        host = f"[{host}]" if ":" in host else host
        forms |= {f"{parts.scheme}://{host}:{port}", f"{parts.scheme}://{host}", f"{host}:{port}"}
    return sorted((f for f in forms if f), key=len, reverse=True)


def veil_server(text: str, server: str, words: str) -> str:
    """``text`` with every way of naming ``server`` (:func:`url_forms`, and its bare host name) replaced by
    ``words``: a shared endpoint named, not located, for someone who may not see where it is."""
    for form in url_forms(server):
        text = text.replace(form, words)
    for host in {urlsplit(u).hostname or "" for u in server.split() if "://" in u} - {""}:
        text = re.sub(rf"(?<![\w.-]){re.escape(host)}(?![\w-]|\.\w)", words, text)  # a bare host name
    return text


def public_url(url: Any, *, local_names: bool = False) -> Any:
    """A URL without user info, query or fragment (they may carry credentials); lists element-wise; anything
    else as it is. ``local_names``: a ``sqlite:`` or ``file:`` URL becomes its file name (a local path)."""
    if isinstance(url, (list, tuple)):
        return [public_url(u, local_names=local_names) for u in url]
    if not isinstance(url, str) or "://" not in url:
        return url
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:  # e.g. a port that is not a number: cut what may hold credentials by hand
        scheme, _, rest = url.strip().partition("://")
        rest = re.split(r"[?#]", rest, maxsplit=1)[0]
        return f"{scheme}://{rest.rpartition('@')[2]}"
    if local_names and (parts.scheme.startswith("sqlite") or parts.scheme == "file"):
        return PurePath(parts.path).name
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = f"{host}:{port}" if port else host
    if not netloc:  # sqlite:///x.db, file:///x: urlunsplit would drop the empty host's "//" (sqlite:/x.db)
        return f"{parts.scheme}://{parts.path}".rstrip("/") if parts.path.strip("/") else f"{parts.scheme}://"
    return urlunsplit((parts.scheme, netloc, parts.path, "", "")).rstrip("/") or url.split("://", 1)[0] + "://"


def mask_urls(text: Any) -> Any:
    """Every URL inside a free text (an error message, a driver's message) made public (:func:`public_url`)."""
    if not isinstance(text, str) or "://" not in text:
        return text

    def public(m: re.Match[str]) -> str:
        url = m.group(0)
        body = url.rstrip(".,:;!?)]}'")  # punctuation that ends a sentence, not the URL
        return public_url(body) + url[len(body):]

    return _URL.sub(public, text)


def public_text(text: Any) -> Any:
    """A free text fit to publish (an error, a driver's message): keys masked, URLs without credentials."""
    return mask_urls(mask(text))


def public_location(location: str) -> str:
    """A store location fit to print: a URL without credentials, a path as it is."""
    return public_url(location) if "://" in location else location


#: an absolute path inside a free text (POSIX, or a Windows drive), not a URL's path
_ABS_IN_TEXT = re.compile(r"(?<![\w:/.~\\-])(?:/|[A-Za-z]:[\\/])(?:[^\s/\\'\"<>()|]+[/\\])+[^\s/\\'\"<>()|,;:]*")


def public_paths(text: Any) -> Any:
    """A free text fit to show to other people (the app's pages): every absolute path in it reduced to its last
    part (a file or folder name), as :func:`public_settings` does with ``paths``; nothing else changed."""
    if not isinstance(text, str) or ("/" not in text and "\\" not in text):
        return text
    return _ABS_IN_TEXT.sub(lambda m: PurePath(m.group(0).replace("\\", "/").rstrip("/")).name or m.group(0),
                            text)


# ---- configuration ------------------------------------------------------------------------------------------------

def public_settings(obj: Any, *, paths: bool = False, name: str = "", secrets: Iterable[str] | None = None) -> Any:
    """Settings fit to publish: entries named like secrets (:data:`SECRET_NAME`, ``api_key_env`` included)
    dropped, URLs without credentials, keys masked (``secrets``, default :func:`known_secrets`); ``paths``: absolute
    paths (and any path under a name like ``path`` or ``file``) reduced to their file name. ``name``: the setting
    a lone value belongs to."""
    chosen = frozenset(known_secrets() if secrets is None else secrets)
    if isinstance(obj, Mapping):
        return {str(k): public_settings(v, paths=paths, name=str(k), secrets=chosen) for k, v in obj.items()
                if not SECRET_NAME.search(str(k))}
    if isinstance(obj, (list, tuple)):
        return [public_settings(v, paths=paths, name=name, secrets=chosen) for v in obj]
    if isinstance(obj, str):
        if "://" in obj:
            return public_url(mask(obj, chosen), local_names=paths)
        if paths and (_ABS_PATH.match(obj) or (name.lower() in _PATH_NAMES and ("/" in obj or "\\" in obj))):
            return PurePath(obj.replace("\\", "/")).name
        return mask(obj, chosen)
    return obj


def scrubbed_settings(settings: Any, scrub: Scrubber) -> dict[str, Any] | None:
    """A call's generation settings fit to publish (:func:`probe_ui.security.redact.public_settings`: no key variable
    names, no credentials in URLs), local folders rewritten."""
    if not isinstance(settings, dict):
        return None
    return scrub.deep(public_settings(settings, secrets=()), paths=True)  # the scrubber masks the keys


# ---- scrubbing an export: local folders, keys, credentials in bookkeeping fields -------------------------------------

def local_roots(store: Store | None, out: Path) -> list[tuple[str, str]]:
    """Folders of this machine that must not appear in an export, each with what replaces it (``store``: the store
    exported from, whose folders are among them; None for a set written from presets alone)."""
    pairs: list[tuple[str, str]] = []

    def add(p: Any, repl: str) -> None:
        if not p:
            return
        for form in {str(p), str(Path(p).resolve())}:
            form = form.rstrip("/\\")
            if len(form) > 1 and form.count("/") + form.count("\\") >= 1 and form not in ("/",):
                pairs.append((form, repl))

    add(out.resolve(), "")
    add(getattr(store, "images_dir", None), "images")
    url = str(getattr(store, "url", ""))
    if url.startswith("sqlite:///") and len(url) > len("sqlite:///"):
        add(Path(url[len("sqlite:///"):]).parent, "")
    from probe_ui.files.resources import ASSETS_DIR, PRESETS_DIR

    add(ASSETS_DIR, "assets")
    add(PRESETS_DIR, "presets")
    add(ASSETS_DIR.parent, "")
    try:
        add(Path.cwd(), "")
    except OSError:  # pragma: no cover - a deleted working folder
        pass
    add(tempfile.gettempdir(), "$TMPDIR")
    add(Path.home(), "~")
    for var in ("TMPDIR", "HOME", "VIRTUAL_ENV"):
        add(os.environ.get(var), "~" if var == "HOME" else f"${var}")
    # longest first, so that a store inside the temp folder is rewritten as the store, not as $TMPDIR/...
    seen, uniq = set(), []
    for root, repl in sorted(pairs, key=lambda p: -len(p[0])):
        if root not in seen:
            seen.add(root)
            uniq.append((root, repl))
    return uniq


_ABS_IN_BOOKKEEPING = re.compile(r"(?<![\w.:/~$])(/(?:[^/\s'\"<>|]+/)+[^/\s'\"<>|,;)\]]*|"
                                 r"[A-Za-z]:\\(?:[^\\\s'\"<>|]+\\)+[^\\\s'\"<>|,;)\]]*)")


class Scrubber:
    """Masks keys (:mod:`probe_ui.security.redact`) and rewrites local folders in every string; in bookkeeping fields,
    URLs lose their credentials and any absolute path becomes its file name."""

    def __init__(self, roots: list[tuple[str, str]], secrets: frozenset[str] = frozenset()) -> None:
        self.roots = roots
        self.pattern = re.compile("|".join(f"(?:{re.escape(r)})(?=[/\\\\]|$|[^\\w.-])" for r, _ in roots)) \
            if roots else None
        self.repl = dict(roots)
        self.masker = masker(frozenset(secrets))

    def text(self, s: Any, paths: bool = False) -> Any:
        if not isinstance(s, str):
            return s
        s = self.masker.mask(s)  # on the full text, before anything else touches it
        if paths:  # bookkeeping fields: no credentials in URLs; an absolute path is only ever a file name
            s = mask_urls(s)
            s = _ABS_IN_BOOKKEEPING.sub(lambda m: re.split(r"[\\/]", m.group(0).rstrip("/\\"))[-1], s)
        if self.pattern is not None:
            s = self.pattern.sub(self._sub, s)
        return s

    def _sub(self, m: re.Match[str]) -> str:
        repl = self.repl.get(m.group(0), "")
        return repl if repl else "."

    def deep(self, obj: Any, paths: bool = False) -> Any:
        if isinstance(obj, str):
            return self.text(obj, paths)
        if isinstance(obj, dict):
            return {k: self.deep(v, paths) for k, v in obj.items()
                    if not (isinstance(k, str) and CREDENTIAL_FIELD.match(k))}
        if isinstance(obj, (list, tuple)):
            return [self.deep(v, paths) for v in obj]
        if isinstance(obj, float) and not math.isfinite(obj):
            return None
        return obj

    def leaks(self, text: str) -> list[str]:
        return sorted({r for r, _ in self.roots if r in text and len(r) > 4})


def leak_check(out: Path, names: list[str], scrub: Scrubber) -> list[str]:
    """A last look at the written text files for a local folder that slipped through."""
    found = []
    for name in names:
        leaks = scrub.leaks((out / name).read_text(encoding="utf-8", errors="replace"))
        if leaks:
            found.append(f"{name} mentions a local folder ({leaks[0]}); check it before sharing the export")
    return found


def model_record(m: Any, fields: tuple[str, ...] = RUN_MODEL_FIELDS) -> dict[str, Any]:
    """What may be written about a model (a :class:`~probe_ui.providers.base.ModelConfig` or a run's stored
    record): only ``fields`` (a run: :data:`RUN_MODEL_FIELDS`; an export or report: :data:`PUBLIC_MODEL_FIELDS`),
    the base URL without credentials, the generation settings without anything named like a secret."""
    get = m.get if isinstance(m, Mapping) else (lambda k, d=None: getattr(m, k, d))
    out: dict[str, Any] = {}
    for k in fields:
        if isinstance(m, Mapping) and k not in m:
            continue
        v = get(k)
        if k == "base_url":
            v = public_url(list(v) if isinstance(v, tuple) else v)
        elif k == "generation":
            v = public_settings(v or {})
        out[k] = v
    return out


def public_model(m: Any) -> dict[str, Any]:
    """A model as an export, dataset card or report shows it: no key variable name, no credentials."""
    return model_record(m, PUBLIC_MODEL_FIELDS)


__all__ = ["CREDENTIAL_FIELD", "MASK", "Masker", "PUBLIC_MODEL_FIELDS", "RUN_MODEL_FIELDS", "SECRET_NAME",
           "Scrubber", "clean_key", "clip", "env_key", "key_problem", "known_secrets", "leak_check", "local_roots",
           "mask", "mask_deep", "mask_urls", "masker", "model_record", "printable", "public_location", "public_model",
           "public_settings", "public_text", "public_url", "register_secret", "scrubbed_settings"]
