"""The store's schema and what makes a row storable: the tables (SQLAlchemy Core), the limits of their indexed
columns, and the cleaning every value goes through so that SQLite and PostgreSQL store the same thing.

Rows are append-only except that a response row holding an error is replaced when the same cell is retried and
succeeds. A unique key (run, variant, model, prompt, sample) makes a re-run skip work that is already done.
Schema changes go through :mod:`probe_ui.store.migrations`.
"""

from __future__ import annotations

import json
import math
from datetime import datetime, timezone
from typing import Any

import sqlalchemy as sa

from probe_ui.store.errors import StoreError

md = sa.MetaData()
runs = sa.Table(
    "runs", md,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.Text, nullable=False, unique=True),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("settings", sa.JSON, nullable=False),
    sa.Column("versions", sa.JSON, nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=False),
    # who made the run: the app's signed-in user ("local" without a login), else the system user that ran probe-ui
    sa.Column("created_by", sa.Text),
)
images = sa.Table(
    "images", md,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("width", sa.Integer, nullable=False),
    sa.Column("height", sa.Integer, nullable=False),
    sa.Column("mode", sa.String(8), nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
)
variants = sa.Table(
    "variants", md,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("item_id", sa.Text, nullable=False),
    sa.Column("source", sa.Text, nullable=False),
    sa.Column("condition", sa.Text, nullable=False),
    sa.Column("group_id", sa.Text, nullable=False),
    sa.Column("item_group", sa.Text),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("question", sa.Text, nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("answer", sa.Text),
    sa.Column("answer_label", sa.Text),
    sa.Column("n_labels", sa.Integer, nullable=False),
    sa.Column("image_ids", sa.JSON, nullable=False),
    sa.Column("category", sa.JSON, nullable=False),
    sa.Column("tags", sa.JSON, nullable=False),
    sa.Column("attributes", sa.JSON, nullable=False),
    sa.Column("provenance", sa.JSON, nullable=False),
    sa.Column("prompt", sa.Text),  # a template chosen by a perturbation
    sa.Column("prompt_args", sa.JSON),  # e.g. MedVH FCJ's suggested answer
    sa.Column("example_ids", sa.JSON),  # few-shot examples (variant ids)
    sa.Column("created_at", sa.String(40), nullable=False),
)
image_data = sa.Table(
    "image_data", md,  # the PNG bytes themselves, for a shared database (PostgreSQL): every machine sees them
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("png", sa.LargeBinary, nullable=False),
)
run_variants = sa.Table(
    "run_variants", md,
    sa.Column("run_id", sa.Integer, sa.ForeignKey("runs.id"), primary_key=True),
    sa.Column("variant_id", sa.String(64), sa.ForeignKey("variants.id"), primary_key=True),
)
responses = sa.Table(
    "responses", md,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("run_id", sa.Integer, sa.ForeignKey("runs.id"), nullable=False),
    sa.Column("variant_id", sa.String(64), sa.ForeignKey("variants.id"), nullable=False),
    sa.Column("model", sa.Text, nullable=False),
    sa.Column("prompt", sa.Text, nullable=False),
    sa.Column("sample", sa.Integer, nullable=False),
    sa.Column("request_hash", sa.String(64), nullable=False),
    sa.Column("messages", sa.JSON, nullable=False),
    sa.Column("settings", sa.JSON, nullable=False),
    sa.Column("raw_text", sa.Text),
    sa.Column("parsed", sa.Text),
    sa.Column("method", sa.String(60)),
    sa.Column("invalid", sa.Boolean),
    sa.Column("refusal", sa.Boolean),
    sa.Column("sure", sa.Boolean),  # the robust reading is sure (probe_ui.reading.sureness); None: not read so
    sa.Column("correct", sa.Boolean),
    sa.Column("latency_s", sa.Float),
    sa.Column("input_tokens", sa.Integer),
    sa.Column("output_tokens", sa.Integer),
    sa.Column("cost", sa.Float),
    sa.Column("error", sa.Text),
    sa.Column("finish_reason", sa.String(60)),
    sa.Column("details", sa.JSON),
    sa.Column("role", sa.String(16), nullable=False, server_default="answer"),  # answer | judge
    sa.Column("parent_id", sa.Integer),  # a judge call: the answer it judged
    sa.Column("parse_version", sa.String(40)),  # the robust parser that wrote parsed..correct (a cache of it)
    # who asked the call (the app's signed-in user, or the system user): what their spending limit counts. None:
    # the run's maker (calls stored before schema 11, and imports)
    sa.Column("asked_by", sa.Text),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.UniqueConstraint("run_id", "variant_id", "model", "prompt", "sample", name="uq_response_cell"),
    sa.Index("ix_responses_request_hash", "request_hash"),
)
item_errors = sa.Table(
    "item_errors", md,
    sa.Column("run_id", sa.Integer, sa.ForeignKey("runs.id"), primary_key=True),
    sa.Column("source", sa.Text, primary_key=True),
    sa.Column("item_id", sa.Text, primary_key=True),
    sa.Column("message", sa.Text, nullable=False),
    sa.Column("created_at", sa.String(40), nullable=False),
)

RATER_MAX = 100  # characters in a rater's name
ratings = sa.Table(
    "ratings", md,  # a person's judgement of one answer; append-only, the latest per response counts
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("response_id", sa.Integer, sa.ForeignKey("responses.id"), nullable=False, index=True),
    sa.Column("rating", sa.String(16), nullable=False),
    sa.Column("note", sa.Text, nullable=False, server_default=""),
    sa.Column("created_at", sa.String(40), nullable=False),
    # who rated: the app's --auth user or rater field, the CLI's --rater, a CSV's column; "" = nobody named (ratings
    # made before raters were recorded). The latest rating of each rater per response counts.
    sa.Column("rater", sa.String(RATER_MAX), nullable=False, server_default=""),
    # whether the rater's identity was checked: true = the app's signed-in user; false = a name typed in an app
    # without a login (anyone could have typed it); null = not from the app (a CSV import, a script, older ratings)
    sa.Column("verified", sa.Boolean),
)
RATINGS = ("correct", "incorrect", "unsure")

settlements = sa.Table(
    "settlements", md,  # a clinician's reading of one reply (issue 46); append-only, each settler's latest counts
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("response_id", sa.Integer, sa.ForeignKey("responses.id"), nullable=False, index=True),
    # the label the reply gives, as the item spells it ("B", "yes"); "" = the reply gives no answer
    sa.Column("label", sa.Text, nullable=False),
    sa.Column("settled_by", sa.String(RATER_MAX), nullable=False, server_default=""),
    sa.Column("verified", sa.Boolean),  # as ratings.verified: the app's signed-in user (true), a typed name (false)
    sa.Column("created_at", sa.String(40), nullable=False),
)
#: a settlement's label that says the reply gives no answer
NO_ANSWER = ""

send_ledger = sa.Table(
    "send_ledger", md,  # every request that left for a host that is not trusted (issue 47); append-only, hash-chained
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.Column("user", sa.Text, nullable=False, server_default=""),  # who asked: the signed-in user, or the OS user
    sa.Column("run", sa.Text, nullable=False, server_default=""),
    sa.Column("cell", sa.Text, nullable=False, server_default=""),  # variant id / model / sample
    sa.Column("provider", sa.Text, nullable=False),
    sa.Column("host", sa.Text, nullable=False),
    sa.Column("model", sa.Text, nullable=False),
    sa.Column("images", sa.Text, nullable=False, server_default=""),  # sha256 of each image sent, ", " between
    # the send gate's verdict: sent (checked, nothing found), redacted, warned, blocked, unchecked (gate off)
    sa.Column("verdict", sa.Text, nullable=False),
    sa.Column("prev_hash", sa.String(64), nullable=False),
    sa.Column("entry_hash", sa.String(64), nullable=False),
)

provider_batches = sa.Table(
    "provider_batches", md,  # cells sent through a provider's batch API (issue 50): recorded before its results come
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("run_id", sa.Integer, sa.ForeignKey("runs.id"), nullable=False, index=True),
    sa.Column("model", sa.Text, nullable=False),  # the model's name in the run
    sa.Column("api", sa.String(16), nullable=False),  # which batch API (probe_ui.providers.batch_api)
    sa.Column("batch_id", sa.Text),  # the provider's id of the batch; none while it is being submitted
    # submitting | pending (submitted, results not stored yet) | collected | failed | expired | cancelled
    sa.Column("status", sa.String(16), nullable=False),
    # custom_id -> [variant id, prompt, sample, request hash]: the cells it asks, as its lines name them
    sa.Column("cells", sa.JSON, nullable=False),
    sa.Column("shard", sa.String(40), nullable=False, server_default=""),  # "i/n" when a shard sent it
    sa.Column("estimate", sa.Float),  # the estimated cost of its requests at the batch price (the spend cap)
    sa.Column("details", sa.JSON),  # the provider's last word on it: status, request counts, why it ended
    sa.Column("created_at", sa.String(40), nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=False),
)

schema_version = sa.Table(
    "schema_version", md,  # one row: the schema version of this store (probe_ui.store.migrations)
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("updated_at", sa.String(40), nullable=False),
)

CellKey = tuple[str, str, str, int]  # variant id, model, prompt, sample

#: the longest run, model and prompt name, and item id or source in an item error, in UTF-8 bytes, on every back
#: end: these columns are indexed, and a PostgreSQL index entry holds about 2.7 kB (SQLite would take any length)
KEY_MAX_BYTES = 1000
_INT_RANGE: dict[type[sa.types.TypeEngine[Any]], tuple[int, int]] = {sa.Integer: (-2**31, 2**31 - 1),
                                                                sa.BigInteger: (-2**63, 2**63 - 1)}
#: the largest row id (an answer's, a rating's) any back end holds: ids are 32-bit integers on PostgreSQL
MAX_ID = _INT_RANGE[sa.Integer][1]



def check_key(value: str, what: str) -> str:
    """``value`` if it fits an indexed name column (:data:`KEY_MAX_BYTES`), else a one-line StoreError."""
    n = len(value.encode("utf-8", "surrogatepass"))
    if n > KEY_MAX_BYTES:
        raise StoreError(f"{what} is {n:,} bytes long; at most {KEY_MAX_BYTES:,} are stored: choose a shorter one")
    return value


def clip_key(value: str) -> str:
    """``value`` cleaned (:func:`clean_text`) and cut to :data:`KEY_MAX_BYTES` (item ids and sources in item
    errors: the error is kept, its id shortened)."""
    value = clean_text(value)
    data = value.encode("utf-8")
    return value if len(data) <= KEY_MAX_BYTES else data[:KEY_MAX_BYTES - 3].decode("utf-8", "ignore") + "..."


def clean_text(text: str) -> str:
    """Text every back end stores: a lone surrogate (valid in Python, not in UTF-8) and NUL (refused by
    PostgreSQL) become U+FFFD; everything else is kept."""
    if "\x00" in text:
        text = text.replace("\x00", "\ufffd")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def clean_json(value: Any) -> Any:
    """A JSON value every back end stores: strings cleaned, non-finite floats and integers past 64 bits as null.
    Other types are left for the database driver to refuse (a bug upstream, stored as an error cell)."""
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return value if -2**63 <= value < 2**63 else None
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {clean_text(k) if isinstance(k, str) else k: clean_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean_json(v) for v in value]
    return value


def storable(table: sa.Table, row: dict[str, Any]) -> dict[str, Any]:
    """``row`` as every back end takes it (issue 14, F6): text cleaned (:func:`clean_text`), text cut to its
    column's length, integers outside their column's range and non-finite floats stored as null, JSON cleaned
    (:func:`clean_json`). A reply with a lone surrogate, NUL bytes, token counts of 10**30 or a 5,000-character
    finish reason is stored, the same way on SQLite and PostgreSQL."""
    out = {}
    for key, value in row.items():
        col = table.c.get(key)
        if col is None or value is None:
            out[key] = value
            continue
        kind = col.type
        if isinstance(kind, sa.JSON):
            value = clean_json(value)
        elif isinstance(value, str):
            value = clean_text(value)
            length = getattr(kind, "length", None)
            if length and len(value) > length:
                value = value[:length]
        elif isinstance(value, bool):
            pass
        elif isinstance(value, int) and type(kind) in _INT_RANGE:
            lo, hi = _INT_RANGE[type(kind)]
            value = value if lo <= value <= hi else None
        elif isinstance(value, float) and isinstance(kind, sa.Float):
            value = value if math.isfinite(value) else None
        out[key] = value
    return out



def rater_name(name: Any) -> str:
    """A rater's name as stored: surrounding and repeated whitespace removed, "" for none; raises StoreError for a
    name longer than :data:`RATER_MAX` characters or one holding control characters."""
    text = " ".join(str(name or "").split())
    if len(text) > RATER_MAX:
        raise StoreError(f"rater name longer than {RATER_MAX} characters: {text[:40]!r}...")
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in text):
        raise StoreError(f"rater name {text!r} holds control characters")
    return text


def now() -> str:
    """The time a row is written: UTC, ISO 8601, milliseconds."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def decode_json(value: Any) -> Any:
    """JSON columns come back decoded from SQLAlchemy but as text through pandas; decode once here."""
    return json.loads(value) if isinstance(value, str) else value
