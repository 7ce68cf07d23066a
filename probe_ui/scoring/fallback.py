"""A judge model for the replies the reading rules leave invalid (issue 21), as VLMEvalKit falls back to one.

Why: the rules (:func:`probe_ui.reading.answers.extract`) read what a careful clinician reads, and leave a reply invalid
rather than guess. Some of those replies do name an answer in words no rule covers; a judge model can map them to an
option. It is never on by default: it is asked only when a user names one (``--judge MODEL`` on ``score``,
``export`` and ``report``; the judge choice on the Results tab), and its decisions count only when that judge is
named again.

- Which replies: the answers of a run whose robust reading is invalid (not failed calls, not empty replies, not
  the free-form prompt, whose judge is the batch's ``--judge``), for choice, yes/no and label items.
- Asked once: the judge's call is stored as a row of its own (role ``judge``, ``parent_id`` the answer, prompt
  ``judge-fallback:<model>:<prompt>``, ``raw_text`` the judge's reply, and its reading: method ``judge``,
  ``judge-none`` or ``judge-unreadable``). An answer this judge model already decided is never asked again, and an
  identical call from another run (same reply, question, options and judge) is reused from the request cache.
  A failed call is kept as an error and asked again next time.
- Read: :func:`probe_ui.scoring.scored_answers` with ``judge=<model name>`` puts the judge's answer in place of
  "invalid" (method ``judge``; the judge's reply in ``judge_text``) for answers the rules still leave invalid;
  ``probe-ui score`` reports how many answers a judge decided, per model.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from dataclasses import dataclass, field
from typing import Any, Callable

from probe_ui.errors import ProbeUIError
from probe_ui.items import labels_for
from probe_ui.messages import GenerationSettings, Response
from probe_ui.providers.base import ModelConfig
from probe_ui.reading import answers
from probe_ui.runner.allowance import SpendLimitReached, UserCap
from probe_ui.runner.judge import FALLBACK_MAX_TOKENS, fallback_prompt_name, fallback_request, parse_fallback
from probe_ui.runner.spend import SpendCapReached
from probe_ui.store import Store

__all__ = ["JudgeError", "JudgeSummary", "judge_runs", "judge_unread", "resolve_judge", "unread_answers"]

_KINDS = ("choice", "yesno", "label")
# readings that leave nothing for a judge: nothing was said, or the reply answered N/A
_NOTHING = ("empty", "not_applicable", "free_text")


class JudgeError(ProbeUIError, ValueError):
    """The judge cannot be asked: an unknown or unusable judge model, a store that cannot be written."""


@dataclass
class JudgeSummary:
    """What a fallback judge did on one run."""

    run: str
    judge: str
    unread: int = 0  # answers the rules leave invalid (and a judge could read)
    reused: int = 0  # already decided by this judge: not asked again
    asked: int = 0  # judge calls made now (a cached identical call included)
    cached: int = 0  # of those, answered from the request cache
    decided: int = 0  # unread answers this judge has mapped to an answer (now or before)
    errors: list[str] = field(default_factory=list)
    not_asked: int = 0  # left unasked: the user's spending limit stopped the judge (asked next time)
    stopped: str | None = None  # the one line saying so (probe_ui.runner.allowance)

    def lines(self) -> list[str]:
        out = [f"judge {self.judge} on run '{self.run}': {_n(self.unread, 'answer')} the rules could not read; "
               f"{self.asked} asked now ({self.cached} from the cache), {self.reused} decided before; "
               f"{self.decided} now {'has' if self.decided == 1 else 'have'} an answer from the judge"]
        out += [f"  judge call failed: {e}" for e in self.errors[:10]]
        if len(self.errors) > 10:
            out.append(f"  ... and {len(self.errors) - 10} more failed calls (asked again next time)")
        if self.stopped:
            out.append(f"{self.stopped} {_n(self.not_asked, 'answer')} not judged yet (asked next time).")
        return out


def _n(k: int, word: str) -> str:
    return f"{k} {word}" + ("" if k == 1 else "s")


def resolve_judge(spec: str, extra_models: dict[str, ModelConfig] | None = None) -> ModelConfig:
    """The judge's model from a spec ("provider/model" or a catalogue name), checked before anything is asked."""
    from probe_ui.runner import BatchError, resolve_models

    if not spec or not str(spec).strip():
        raise JudgeError("--judge needs a model: provider/model or a catalogue name (see 'probe-ui models')")
    try:
        return resolve_models([str(spec).strip()], extra_models)[0]
    except BatchError as exc:
        raise JudgeError(f"judge '{spec}': {exc}") from None


def _val(x: Any) -> Any:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else x


def unread_answers(df: Any) -> Any:
    """The rows of a scored-answer table (robust parser) that a fallback judge may read: invalid, answered, of a
    kind with labels, not the free-form prompt, not empty or N/A."""
    if df.empty:
        return df
    keep = (df["state"] == "invalid") & df["kind"].isin(_KINDS) & (df["prompt"] != "free") \
        & ~df["method"].isin(_NOTHING) & df["raw_text"].fillna("").str.strip().ne("")
    return df[keep.to_numpy()]


def judge_unread(store: Store, run_name: str | None, judge: str | ModelConfig, *,
                 extra_models: dict[str, ModelConfig] | None = None, concurrency: int | None = None,
                 on_progress: Callable[[int, int], None] | None = None,
                 spend: UserCap | None = None) -> JudgeSummary:
    """Ask ``judge`` about every answer of the run that the rules leave invalid and it has not decided yet; store
    each call. Returns what was done (:class:`JudgeSummary`). Raises :class:`JudgeError` before asking anything
    when the judge cannot be used or the store cannot be written.

    ``spend`` (:class:`probe_ui.runner.allowance.UserCap`): the app's user's spending limit holds every call. A
    limit already reached raises :class:`~probe_ui.runner.allowance.SpendLimitReached` before anything is asked
    (a judge with no price, :class:`JudgeError`); a call that would pass it is not made, nor any after it, and
    :attr:`JudgeSummary.stopped` says so (the verdicts already in are kept)."""
    from probe_ui.scoring import scored_answers

    if store.read_only:
        raise JudgeError(f"{store.where}: opened read-only, so the judge's answers could not be stored; give a "
                         "store this process can write")
    model = judge if isinstance(judge, ModelConfig) else resolve_judge(judge, extra_models)
    if spend is not None:
        held = spend.refusals([model])
        if held:
            raise JudgeError(held[model.name])
        spend.check([model])
    run = store.get_run(run_name)
    todo = unread_answers(scored_answers(store, run.name, "robust"))
    summary = JudgeSummary(run=run.name, judge=model.name, unread=len(todo))
    done = store.fallback_judge_frame(run.id, model.name)
    finished = set(done.loc[done["judge_error"].isna(), "parent_id"].astype(int)) if len(done) else set()
    rows = [r for r in todo.to_dict("records") if int(r["response_id"]) not in finished]
    summary.reused = len(todo) - len(rows)
    if rows:
        with spend if spend is not None else contextlib.nullcontext():  # held until every call is stored
            asyncio.run(_ask_all(store, run.id, run.seed, model, rows, summary, concurrency, on_progress, spend))
        summary.stopped = spend.limit_line() if spend is not None else None
    done = store.fallback_judge_frame(run.id, model.name)
    if len(done):
        decided = set(done.loc[done["judge_error"].isna() & done["parsed"].notna(), "parent_id"].astype(int))
        summary.decided = int(todo["response_id"].astype(int).isin(decided).sum())
    store.touch_run(run.id)
    return summary


def judge_runs(store: Store, runs: list[str], judge: ModelConfig,
               cap_of: Callable[[str], UserCap | None] | None = None) -> list[str]:
    """:func:`judge_unread` on each of ``runs`` (the Results tab's "ask the judge"), the lines of each; ``cap_of(run)``
    is the user's spending limit for a run (:meth:`probe_ui.runner.allowance.Allowance.cap`). Once the limit stops
    the judge, the runs after are not asked, and the last line says why."""
    lines: list[str] = []
    for run in runs:
        try:
            summary = judge_unread(store, run, judge, spend=cap_of(run) if cap_of is not None else None)
        except SpendLimitReached as exc:
            if not lines:
                raise
            lines.append(f"{exc.line} Not asked: {', '.join(runs[runs.index(run):])}.")
            break
        lines += summary.lines()
        if summary.stopped:
            break
    return lines


async def _ask_all(store: Store, run_id: int, seed: int, model: ModelConfig, rows: list[dict[str, Any]],
                   summary: JudgeSummary, concurrency: int | None,
                   on_progress: Callable[[int, int], None] | None, spend: UserCap | None = None) -> None:
    from probe_ui.runner import ProviderPool, ask, call_row

    pool = ProviderPool(concurrency)
    provider, limit = pool.get(model)
    if spend is not None:
        asked_by = spend.user  # the app's user: their limit counts the judge, whoever made the run
    else:
        from probe_ui.security.users import system_user

        asked_by = system_user()
    settings = GenerationSettings(temperature=0.0, max_tokens=int(model.generation.get("max_tokens",
                                                                                        FALLBACK_MAX_TOKENS)),
                                  seed=seed, timeout_s=float(model.generation.get("timeout_s", 120.0)))
    progress = [0]

    async def one(r: dict[str, Any]) -> None:
        kind = str(r["kind"])
        options = tuple(_val(r.get("options")) or ())
        labels = labels_for(kind, options)
        req = fallback_request(kind, str(_val(r.get("question")) or ""), options, str(r["raw_text"]), settings,
                               variant_id=str(r["variant_id"]), sample=int(r["sample"]),
                               prompt=fallback_prompt_name(str(r["model"]), str(r["prompt"])))
        key = req.cache_key(model.provider, model.model, model.options)
        cached = store.cached_response(key, role="judge") if provider.cacheable else None
        if cached is not None:
            resp = Response(text=cached["raw_text"] or "", latency_s=0.0, input_tokens=cached["input_tokens"],
                            output_tokens=cached["output_tokens"], cost=0.0, finish_reason=cached["finish_reason"],
                            details={"cached_from": cached["id"], "cached_cost": cached["cost"]})
            summary.cached += 1
        else:
            async with limit:
                try:  # the user's spending limit: a call that would pass it is not made, nor any after it
                    reserved = spend.reserve(model, req) if spend is not None else 0.0
                except SpendCapReached:
                    summary.not_asked += 1
                    return
                resp_: Response | None = None
                try:
                    resp = resp_ = await ask(provider, req, pool.pacings.get(model.name))  # rate limits waited out
                finally:
                    if spend is not None:
                        spend.settle(reserved, resp_)
        row = call_row(run_id, str(r["variant_id"]), model, req, resp)
        if resp.error is None:
            got = parse_fallback(resp.text, kind, labels, options)
            gt = _val(r.get("answer_label"))
            row.update(parsed=got.choice, method=got.method, invalid=got.invalid, refusal=None,
                       correct=answers.is_correct(got, gt) if gt is not None else None)
        else:
            summary.errors.append(f"{r['model']} on {r['item_id']}: {resp.error}")
        store.save_response(dict(row, role="judge", parent_id=int(r["response_id"]), asked_by=asked_by))
        summary.asked += 1
        progress[0] += 1
        if on_progress is not None:
            on_progress(progress[0], len(rows))

    try:
        await asyncio.gather(*(one(r) for r in rows))
    finally:
        await pool.aclose()

