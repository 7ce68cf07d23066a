"""Answer cards: one per model x variant, filled in as answers stream back. Every string is escaped."""

from __future__ import annotations

from html import escape

from probe_ui.live import Card, LiveRun

CSS = """
.pu-cards {display:grid; grid-template-columns:repeat(auto-fill,minmax(260px,1fr)); gap:10px;}
.pu-card {border:1px solid #d0d7de; border-radius:8px; padding:8px 10px; font-size:0.9em; background:#fff;
          color:#1f2328;}
.pu-card h4 {margin:0 0 4px 0; font-size:1em;}
.pu-card .pu-cond {color:#57606a; font-size:0.85em; margin-bottom:6px; word-break:break-all;}
.pu-card pre {white-space:pre-wrap; word-break:break-word; max-height:9em; overflow:auto; background:#f6f8fa;
              padding:4px 6px; border-radius:4px; margin:4px 0; font-size:0.85em;}
.pu-card .pu-meta {color:#57606a; font-size:0.8em;}
.pu-right {border-left:6px solid #1a7f37;} .pu-wrong {border-left:6px solid #cf222e;}
.pu-error {border-left:6px solid #8c959f; background:#f6f8fa;} .pu-waiting {border-left:6px solid #d4a72c;}
.pu-unknown {border-left:6px solid #0969da;}
.pu-badge {display:inline-block; padding:0 6px; border-radius:10px; font-size:0.8em; font-weight:600;}
.pu-badge.right {background:#dafbe1; color:#1a7f37;} .pu-badge.wrong {background:#ffebe9; color:#cf222e;}
.pu-badge.error {background:#eaeef2; color:#57606a;} .pu-badge.waiting {background:#fff8c5; color:#7d4e00;}
.pu-badge.unknown {background:#ddf4ff; color:#0969da;}
"""


def card_state(card: Card) -> str:
    if card.status == "waiting":
        return "waiting"
    if card.status == "error":
        return "error"
    if card.correct is None:
        return "unknown"
    return "right" if card.correct else "wrong"


BADGE = {"waiting": "waiting…", "error": "error", "unknown": "no ground truth", "right": "right", "wrong": "wrong"}


def render_card(card: Card) -> str:
    state = card_state(card)
    ident = f"#{card.response_id}" if card.response_id is not None else ""
    body = []
    if card.status == "waiting":
        body.append("<div class='pu-meta'>asking…</div>")
    elif card.status == "error":
        body.append(f"<pre class='pu-errtext'>{escape(card.error or 'error')}</pre>")
    else:
        body.append(f"<pre class='pu-raw'>{escape(card.raw) or '(empty answer)'}</pre>")
        body.append(f"<div>parsed: <b class='pu-parsed'>{escape(card.parsed or 'invalid')}</b>"
                    f" · expected: <b>{escape(card.expected or '?')}</b></div>")
    meta = []
    if card.latency_s is not None:
        meta.append(f"{card.latency_s:.2f} s")
    if card.input_tokens is not None or card.output_tokens is not None:
        meta.append(f"tokens {card.input_tokens or 0} in / {card.output_tokens or 0} out")
    if card.cost is not None:
        meta.append(f"${card.cost:.5f}")
    if card.cached:
        meta.append("from cache")
    return (f"<div class='pu-card pu-{state}' data-model='{escape(card.model, quote=True)}' "
            f"data-condition='{escape(card.condition, quote=True)}' data-state='{state}' "
            f"data-response='{card.response_id if card.response_id is not None else ''}'>"
            f"<h4>{escape(card.model)} <span class='pu-badge {state}'>{BADGE[state]}</span> "
            f"<span class='pu-meta'>{ident}</span></h4>"
            f"<div class='pu-cond'>{escape(card.condition)}</div>{''.join(body)}"
            f"<div class='pu-meta'>{' · '.join(meta)}</div></div>")


def render_cards(state: LiveRun | None) -> str:
    if state is None or not state.cards:
        return "<div class='pu-cards-empty'>No answers yet: pick models and press Run.</div>"
    done = state.done
    head = (f"<div class='pu-progress' data-done='{done}' data-total='{len(state.cards)}' "
            f"data-finished='{str(state.finished).lower()}'>run <code>{escape(state.run)}</code>: "
            f"{done} of {len(state.cards)} answers{' · finished' if state.finished else ''}</div>")
    return head + "<div class='pu-cards'>" + "".join(render_card(c) for c in state.cards) + "</div>"


def rating_choices(state: LiveRun | None) -> list[tuple[str, int]]:
    """(label, response id) for every answered card, for the rating picker."""
    if state is None:
        return []
    return [(f"#{c.response_id} · {c.model} · {c.condition}", c.response_id) for c in state.cards
            if c.response_id is not None]
