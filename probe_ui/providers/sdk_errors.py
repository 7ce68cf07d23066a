"""What the SDK-based providers share: status wording, safe URLs and one-line error text.

Error messages leave the process (terminal, store): they must be one line and never carry credentials.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit, urlunsplit

from probe_ui.providers.base import ModelConfig

MAX_DETAIL_CHARS = 200

STATUS_REASONS = {
    400: "bad request",
    401: "unauthorized (check the API key)",
    403: "forbidden",
    404: "not found (check the model name and base URL)",
    408: "request timeout",
    409: "conflict",
    413: "request too large",
    422: "unprocessable request",
    429: "rate limited",
    500: "server error",
    502: "bad gateway",
    503: "service unavailable",
    504: "gateway timeout",
    529: "overloaded",
}


def configured_base_url(config: ModelConfig) -> str | None:
    """The base URL to use: a string as is, the first of several replicas, or None (the SDK then reads
    ``OPENAI_BASE_URL``, falling back to api.openai.com)."""
    url = config.base_url
    if isinstance(url, (tuple, list)):
        url = url[0] if url else None
    return url or None


def safe_url(url: str) -> str:
    """A URL fit for an error message: no user info, query or fragment (they may carry credentials)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<invalid URL>"
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", "")).rstrip("/")


def one_line(text: str, limit: int = MAX_DETAIL_CHARS) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def retries_suffix(exc: Exception) -> str:
    """' (after N retries)' from the SDK's own retry-count header on the last request sent."""
    request = getattr(exc, "request", None)
    if request is None:
        response = getattr(exc, "response", None)
        request = getattr(response, "request", None)
    try:
        n = int(request.headers.get("x-stainless-retry-count", "0")) if request is not None else 0
    except (TypeError, ValueError, RuntimeError):
        n = 0
    return f" (after {n} {'retry' if n == 1 else 'retries'})" if n > 0 else ""


def status_message(status: int, retries: str, detail: str) -> tuple[str, bool]:
    """'HTTP 429 rate limited (after 2 retries): detail', and whether trying again may help (408/409/429/5xx)."""
    reason = STATUS_REASONS.get(status, "server error" if status >= 500 else "error")
    message = f"HTTP {status} {reason}{retries}" + (f": {detail}" if detail else "")
    return message, status in (408, 409, 429) or status >= 500
