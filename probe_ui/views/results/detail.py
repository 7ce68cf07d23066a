"""One answer in detail (the drill-down): the table a person scans to pick a response, and the Markdown text and
images of exactly what was sent and read."""

from __future__ import annotations

import html
import math
import re
from typing import TYPE_CHECKING, Any

import pandas as pd

from probe_ui.reading.methods import describe
from probe_ui.scoring import UNRATED
from probe_ui.views.results.breakdowns import INVALID

if TYPE_CHECKING:  # pragma: no cover - hints only; importing these costs time the CLI does not want to spend
    from PIL import Image

    from probe_ui.store import Store


TABLE_LIMIT = 500


RESPONSE_COLUMNS = ["response_id", "run", "model", "item_id", "what was done", "answer", "correct answer", "state",
                    "rating", "latency_s", "error"]


# ---- drill-down ---------------------------------------------------------------------------------------------------

def response_table(df: pd.DataFrame, limit: int = TABLE_LIMIT) -> pd.DataFrame:
    """The columns a person scans to pick a response to open, at most ``limit`` rows (in the frame's order): what
    was done to the item in words, the answer and the correct answer as letter and option text, its state
    (right, wrong, invalid, error, unknown), the rating, the latency and any error."""
    from probe_ui.conditions import describe
    from probe_ui.views.comparison import answer_text

    d = df.head(limit)
    if d.empty:
        return pd.DataFrame(columns=RESPONSE_COLUMNS)
    words = []
    for r in d.to_dict("records"):
        got = r.get("options")
        kind, opts = str(r.get("kind")), tuple(got) if isinstance(got, (list, tuple)) else ()
        words.append({"what was done": describe(r.get("provenance") if isinstance(r.get("provenance"), list)
                                                else None, r.get("condition")),
                      "answer": answer_text(kind, opts, r.get("parsed")),
                      "correct answer": answer_text(kind, opts, r.get("answer_label"))})
    out = d.assign(**{k: [w[k] for w in words] for k in ("what was done", "answer", "correct answer")})
    out = out.assign(latency_s=pd.to_numeric(out["latency_s"], errors="coerce").round(2))
    return out.reindex(columns=RESPONSE_COLUMNS).reset_index(drop=True)


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~>$:])")


def md_text(value: Any) -> str:
    """A value shown literally inside Markdown prose: HTML and Markdown punctuation escaped, one line."""
    s = html.escape("" if value is None else str(value), quote=False)
    return _MD_SPECIAL.sub(r"\\\1", s).replace("\r", " ").replace("\n", " ")


def md_code(text: Any, lang: str = "text") -> str:
    """A fenced code block that shows ``text`` literally, whatever it contains (the fence is longer than any run
    of backticks in it, so the text cannot close it early)."""
    body = "" if text is None else str(text)
    longest = max((len(m) for m in re.findall(r"`+", body)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{lang}\n{body}\n{fence}"


def _block(title: str, text: Any) -> list[str]:
    if text is None or str(text) == "":
        return [f"**{title}**: *(empty)*", ""]
    return [f"**{title}**", "", md_code(text), ""]


def sent_image_ids(store: Store, response_id: int) -> list[str]:
    """The ids of the images one answer was sent, in the order sent (the detail view shows them whole)."""
    r = store.get_response(int(response_id))
    return _message_image_ids(r.get("messages")) or [str(i) for i in r.get("image_ids") or []]


def _message_image_ids(messages: Any) -> list[str]:
    return [p["image_id"] for m in messages or [] for p in m.get("content") or []
            if p.get("type") == "image" and p.get("image_id")]


def _load_images(store: Store, ids: list[str]) -> tuple[list[Image.Image], list[str]]:
    """The stored pixels of each id (a copy each), and a line for every image that could not be read."""
    from probe_ui.store import StoreError

    images, missing = [], []
    for i in ids:
        try:
            images.append(store.get_image(i).pil())
        except (StoreError, OSError) as exc:
            missing.append(f"{i}: {exc}")
    return images, missing


def _options_text(kind: str, options: Any) -> str:
    from probe_ui.items import labels_for

    opts = tuple(str(o) for o in options or ())
    if kind == "choice":
        return "\n".join(f"{lb}: {o}" for lb, o in zip(labels_for(kind, opts), opts))
    return "\n".join(opts or labels_for(kind, opts))  # label words, or yes / no


def _fmt(v: Any, spec: str = "", none: str = "-") -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return none
    return format(v, spec)


def _rating(store: Store, run_id: int, response_id: int) -> tuple[str, str]:
    r = store.ratings_frame(run_id)
    r = r[r["response_id"] == response_id]
    return (str(r["rating"].iloc[-1]), str(r["note"].iloc[-1] or "")) if len(r) else (UNRATED, "")


def _current_reading(r: dict[str, Any]) -> dict[str, Any]:
    """The reply's reading by the robust reader as it is now (the stored parse is a cache of an older reader when
    its version differs): parsed, method, invalid, refusal, correct."""
    from probe_ui.reading import answers
    from probe_ui.scoring import read_reply

    if r.get("error") is not None or r.get("parse_version") == answers.parser_version():
        return {}
    got = read_reply(r, "robust")
    if got is None:
        return {}
    ans = got[0]
    gt = None if r.get("prompt") == "free" or r.get("kind") == "free" else r.get("answer_label")
    return {"parsed": ans.choice, "method": ans.method, "invalid": ans.invalid, "refusal": ans.refusal,
            "correct": answers.is_correct(ans, gt)}


def _judge_lines(store: Store, response_id: int) -> list[str]:
    """What judge models said about this answer (the batch's judge, or the fallback judge of ``--judge``)."""
    out: list[str] = []
    for j in store.judge_calls(response_id):
        fallback = str(j.get("prompt") or "").startswith("judge-fallback:")
        if j.get("error"):
            said = f"could not be asked: {j['error']}"
        elif j.get("parsed") is not None:
            said = f"read it as {j['parsed']}"
        else:
            said = f"found no answer either ({describe(j.get('method'))})"
        when = " · counts where this judge is chosen (Results tab, or --judge)" if fallback else ""
        out += [f"**Judge** {md_text(j['model'])} {md_text(said)}{md_text(when)}", "",
                *_block("Judge's reply", j.get("raw_text"))]
    return out


def response_detail(store: Store, response_id: int) -> tuple[list[Image.Image], str]:
    """What one model was sent and what it said: the images (as stored, in the order sent) and a Markdown text
    with question, options, expected answer, the exact prompt, raw and parsed answer, cost, settings, provenance
    and rating. Text from users and models is escaped or fenced, so it is shown literally, never rendered."""
    from probe_ui import labels
    from probe_ui.conditions import describe as describe_variant
    from probe_ui.prompts import messages_text
    from probe_ui.views.answer_record import technical_record

    r = store.get_response(int(response_id))
    ids = _message_image_ids(r.get("messages")) or [str(i) for i in r.get("image_ids") or []]
    images, missing = _load_images(store, ids)
    run = next((x.name for x in store.list_runs() if x.id == r["run_id"]), str(r["run_id"]))
    rating, note = _rating(store, r["run_id"], int(r["id"]))
    r.update(_current_reading(r))
    chain = r.get("provenance") or []
    verdicts: dict[Any, str] = {True: "yes", False: "no"}  # the stored value as it is (a bool, 0/1 or None)
    correct = verdicts.get(r.get("correct"), "not scored")
    expected = md_text(r.get("answer_label") or "-") + (f" ({md_text(r['answer'])})" if r.get("answer") else "")
    lines = [
        f"### Response #{int(r['id'])}",
        "",
        f"**Run** {md_text(run)} · **model** {md_text(r['model'])} · **item** {md_text(r['item_id'])} · "
        f"**what was done** {md_text(describe_variant(chain, r['condition']))} · **prompt** "
        f"{md_text(labels.template(str(r['prompt'])))} · **sample** {int(r['sample'])}",
        "",
        *_block("Question", r.get("question")),
        *_block("Options", _options_text(str(r.get("kind")), r.get("options"))),
        f"**Expected answer**: {expected}",
        "",
        *_block("Prompt sent (exact text; images shown beside)", messages_text(r.get("messages"))),
        *_block("Raw answer", r.get("raw_text")),
        f"**Answer read**: {md_text(r.get('parsed') if r.get('parsed') is not None else INVALID)} · **correct**: "
        f"{correct}" + (" · **the reply declines to answer** (refusal)" if r.get("refusal") else ""),
        "",
        f"**How it was read**: {md_text(describe(r.get('method')) or '-')}",
        "",
        *_judge_lines(store, int(r["id"])),
        f"**Latency** {_fmt(r.get('latency_s'), '.2f')} s · **tokens** in {_fmt(r.get('input_tokens'))}, "
        f"out {_fmt(r.get('output_tokens'))} · **cost** {_fmt(r.get('cost'), '.4f')} · "
        f"**finish** {md_text(r.get('finish_reason') or '-')}",
        "",
    ]
    if r.get("error"):
        lines += _block("Error", r["error"])
    if missing:
        lines += _block("Images that could not be loaded", "\n".join(missing))
    lines += ["**Settings**", "", *(f"- {md_text(x)}" for x in labels.settings_words(r.get("settings"))), ""]
    lines += [f"**Rating**: {md_text(rating)}", ""]
    if note:
        lines += _block("Note", note)
    lines += technical_record(r, chain)  # the code names, for an audit: one click away
    return images, "\n".join(lines).rstrip() + "\n"
