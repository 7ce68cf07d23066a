"""Small builders shared by tests: images and presets written into a temporary folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import yaml
from PIL import Image


def write_png(path: Path, size: tuple[int, int] = (48, 32), seed: int = 0, mode: str = "L") -> Path:
    rng = np.random.default_rng(seed)
    shape = (size[1], size[0]) if mode == "L" else (size[1], size[0], 3)
    Image.fromarray(rng.integers(0, 256, shape, dtype=np.uint8), mode=mode).save(path)
    return path


def write_preset(path: Path, items: list[dict[str, Any]], **top: Any) -> Path:
    path.write_text(yaml.safe_dump({"items": items, **top}, sort_keys=False), encoding="utf-8")
    return path


def choice_item(i: int, image: str, answer: str = "A", n: int = 2, **extra: Any) -> dict[str, Any]:
    opts = [f"finding {i}-{k}" for k in range(n)]
    return {"id": f"q{i}", "image": image, "question": f"What does image {i} show?", "options": opts,
            "answer": answer, **extra}


# ---- searching artifacts for a secret ------------------------------------------------------------------------------

def key_pieces(key: str, n: int = 8) -> set[str]:
    """Every ``n``-character piece of a key (as sent: stripped, and whitespace-folded) holding a letter or digit:
    finding any of them in an artifact is a leak."""
    out: set[str] = set()
    for form in {key.strip(), " ".join(key.split())}:
        out |= {form[i:i + n] for i in range(len(form) - n + 1) if any(c.isalnum() for c in form[i:i + n])}
    return out


def artifact_texts(root: Path) -> dict[str, str]:
    """Every file under ``root`` as text to search, decoded so that an escaped key is found too: the raw bytes
    (UTF-8, then UTF-16), JSON and JSON lines with their strings unescaped, CSV cells, Parquet rows, every value of
    every SQLite table (JSON values unescaped) and HTML unescaped."""
    import csv
    import html
    import io
    import json
    import sqlite3

    def unescaped_json(text: str) -> str:
        parts = []
        for line in text.splitlines() or [text]:
            try:
                parts.append(json.dumps(json.loads(line), ensure_ascii=False))
            except ValueError:
                parts.append(line)
        return "\n".join(parts)

    out: dict[str, str] = {}
    for f in sorted(root.rglob("*")):
        if not f.is_file() or f.is_symlink():
            continue
        name, data = str(f.relative_to(root)), f.read_bytes()
        views = [data.decode("utf-8", "replace"), data.decode("utf-16-le", "replace")]
        text = views[0]
        if f.suffix in (".json", ".jsonl"):
            views.append(unescaped_json(text))
        elif f.suffix == ".csv":
            views.append("\n".join("\t".join(row) for row in csv.reader(io.StringIO(text))))
            views.append(unescaped_json("\n".join(c for row in csv.reader(io.StringIO(text)) for c in row)))
        elif f.suffix == ".parquet":
            import pyarrow.parquet as pq

            views.append(json.dumps(pq.read_table(f).to_pylist(), ensure_ascii=False, default=str))
        elif f.suffix in (".html", ".htm", ".md"):
            views.append(html.unescape(text))
        elif data.startswith(b"SQLite format 3"):
            con = sqlite3.connect(f"file:{f}?mode=ro", uri=True)
            try:
                tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
                for t in tables:
                    for row in con.execute(f'SELECT * FROM "{t}"'):
                        views += [unescaped_json(v) if isinstance(v, str) else str(v) for v in row]
            finally:
                con.close()
        out[name] = "\n".join(views)
    return out


def leaked(texts: dict[str, str], *keys: str) -> list[str]:
    """``"<piece> in <where>"`` for every 8-character piece of a key found in the texts."""
    hits = []
    for key in keys:
        pieces = key_pieces(key)
        for where, text in texts.items():
            found = sorted(p for p in pieces if p in text)
            if found:
                hits.append(f"{found[0]!r} (of {len(found)} pieces) in {where}")
    return hits
