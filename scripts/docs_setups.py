"""The states the docs' examples start from that no command makes without a hosted model: a run whose model gave
the replies a page shows, and a send ledger (scripts/docs_examples.py runs these as ``<!-- example: setup -->``).

    python scripts/docs_setups.py replies RUN MODEL PRESET.yaml REPLY [REPLY ...]   # one reply per item, in order
    python scripts/docs_setups.py ledger USER RUN N_SENT N_BLOCKED                  # ledger rows for openai gpt-4o
    python scripts/docs_setups.py tamper-ledger ROW                                  # change a row with SQL

Each works on the store of the current folder (probe-ui-data/probe-ui.db), as a command run there would.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from probe_ui.files.data_folder import DEFAULT_DB  # noqa: E402
from probe_ui.items import labels_for  # noqa: E402
from probe_ui.presets import load_preset  # noqa: E402
from probe_ui.presets.suites import expand  # noqa: E402
from probe_ui.reading.answers import cache_row  # noqa: E402
from probe_ui.store import Store  # noqa: E402


def default_db() -> Path:
    """The store a command run in this folder opens (made if missing, as a batch makes it)."""
    Path(DEFAULT_DB).parent.mkdir(parents=True, exist_ok=True)
    return Path(DEFAULT_DB)


def replies(run: str, model: str, preset: str, texts: list[str]) -> None:
    """A run of the preset's items (no perturbation) whose answers are ``texts``, read and stored as a batch does."""
    store = Store(default_db())
    stored = store.ensure_run(run, 0, {})
    variants = expand(load_preset(Path(preset)), 0).variants
    if len(texts) != len(variants):
        raise SystemExit(f"{preset} has {len(variants)} items: give one reply each, not {len(texts)}")
    store.add_variants(stored.id, variants)
    for v, text in zip(variants, texts):
        parse = cache_row(text, v.kind, labels_for(v.kind, tuple(v.options)), tuple(v.options), v.answer_label,
                          question=v.question)
        store.save_response({"run_id": stored.id, "variant_id": v.id, "model": model, "prompt": "default",
                             "sample": 0, "request_hash": f"{v.id}{model}", "messages": [], "settings": {},
                             "raw_text": text, **parse, "latency_s": 0.8, "input_tokens": 300, "output_tokens": 12,
                             "cost": 0.0009, "error": None})


def ledger(user: str, run: str, sent: int, blocked: int) -> None:
    """``sent`` then ``blocked`` rows of ``user``'s requests to OpenAI's gpt-4o."""
    store = Store(default_db())
    rows = [{"user": user, "run": run, "cell": f"{i:04x}/gpt-4o/0", "provider": "openai", "host": "api.openai.com",
             "model": "gpt-4o", "images": [hashlib.sha256(f"image {i}".encode()).hexdigest()],
             "verdict": "sent" if i < sent else "blocked"} for i in range(sent + blocked)]
    store.record_sends(rows)


def tamper_ledger(row: int) -> None:
    import sqlalchemy as sa

    engine = sa.create_engine(f"sqlite:///{default_db()}")
    with engine.begin() as c:
        c.execute(sa.text("UPDATE send_ledger SET verdict = 'sent' WHERE id = :id"), {"id": row})


def main(argv: list[str]) -> None:
    if not argv:
        raise SystemExit(__doc__)
    what, rest = argv[0], argv[1:]
    if what == "replies":
        replies(rest[0], rest[1], rest[2], rest[3:])
    elif what == "ledger":
        ledger(rest[0], rest[1], int(rest[2]), int(rest[3]))
    elif what == "tamper-ledger":
        tamper_ledger(int(rest[0]))
    else:
        raise SystemExit(f"unknown setup {what!r}: {__doc__}")


if __name__ == "__main__":
    main(sys.argv[1:])
