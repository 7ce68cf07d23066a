"""Reading answers: one answer with its variant (drill-down), a run's answers as a frame, judge calls, item
errors and counts. Views score through :func:`probe_ui.scoring.scored_answers`, which reads these."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from probe_ui.store.errors import StoreError
from probe_ui.store.opening import StoreBase
from probe_ui.store.schema import decode_json, item_errors, responses, variants

if TYPE_CHECKING:  # pandas costs 0.7 s to import: only the reading side (scores, exports, the app) needs it
    import pandas as pd


class ReadingMixin(StoreBase):
    """What a store's answers are read through (see :class:`probe_ui.store.Store`)."""

    def get_response(self, response_id: int) -> dict[str, Any]:
        """One response joined with its variant (for drill-down), JSON columns decoded."""
        r, v = responses, variants
        q = (sa.select(r, v.c.item_id, v.c.question, v.c.options, v.c.answer, v.c.answer_label, v.c.condition,
                       v.c.image_ids, v.c.provenance, v.c.category, v.c.kind, v.c.source, v.c.attributes,
                       v.c.prompt_args)
             .join(v, v.c.id == r.c.variant_id).where(r.c.id == self._known_id(response_id)))
        with self.engine.connect() as c:
            row = c.execute(q).mappings().first()
        if row is None:
            raise StoreError(f"no response #{response_id} in {self.where}")
        return {k: decode_json(x) if k in ("messages", "settings", "details", "options", "image_ids", "provenance",
                                     "category", "attributes", "prompt_args") else x for k, x in dict(row).items()}

    def judge_calls(self, response_id: int) -> list[dict[str, Any]]:
        """Every judge call on one answer, oldest first: model, prompt, raw_text, parsed, method, error."""
        r = responses
        q = (sa.select(r.c.model, r.c.prompt, r.c.raw_text, r.c.parsed, r.c.method, r.c.error)
             .where(r.c.parent_id == int(response_id), r.c.role == "judge").order_by(r.c.id))
        with self.engine.connect() as c:
            return [dict(x) for x in c.execute(q).mappings()]

    def details_of(self, response_ids: list[int]) -> dict[int, Any]:
        """The stored ``details`` of some responses, decoded, by id (a pushback's turns: what the scored-answer
        table reads for its few rows without loading every row's details)."""
        out: dict[int, Any] = {}
        ids = [int(i) for i in response_ids]
        with self.engine.connect() as c:
            for start in range(0, len(ids), 500):  # SQLite allows a few thousand parameters per statement
                q = sa.select(responses.c.id, responses.c.details).where(responses.c.id.in_(ids[start:start + 500]))
                out.update({int(i): decode_json(d) for i, d in c.execute(q)})
        return out

    def details_with(self, run_id: int, key: str) -> dict[int, Any]:
        """The decoded ``details`` of a run's answers whose details hold ``key`` (e.g. a provider's
        ``option_probs``), by id: found by the database in the stored text, so a run without any costs one scan."""
        r = responses
        q = (sa.select(r.c.id, r.c.details)
             .where(r.c.run_id == run_id, r.c.role == "answer",
                    sa.cast(r.c.details, sa.Text).like(f'%"{key}"%')))
        with self.engine.connect() as c:
            return {int(i): decode_json(d) for i, d in c.execute(q)}

    def item_errors(self, run_id: int) -> list[dict[str, Any]]:
        with self.engine.connect() as c:
            q = sa.select(item_errors).where(item_errors.c.run_id == run_id).order_by(item_errors.c.source,
                                                                                      item_errors.c.item_id)
            return [dict(r) for r in c.execute(q).mappings()]

    def count(self, table: sa.Table, run_id: int | None = None) -> int:
        q = sa.select(sa.func.count()).select_from(table)
        if run_id is not None and "run_id" in table.c:
            q = q.where(table.c.run_id == run_id)
        with self.engine.connect() as c:
            return int(c.execute(q).scalar_one())

    def answers_frame(self, run_id: int, full: bool = False, detail: bool = False) -> pd.DataFrame:
        """One row per answer (not judge calls) joined with its variant, as stored; views read
        :func:`probe_ui.scoring.scored_answers`, which re-reads the replies, rather than this.

        ``full`` adds what re-parsing and the per-paper metrics need (raw text, options, categories, attributes,
        prompt arguments, provenance, image ids; JSON columns decoded), at some cost on very large runs;
        ``detail`` adds what was sent and received besides (messages, settings, details, finish reason).
        """
        r, v = responses, variants
        cols = [r.c.id.label("response_id"), r.c.model, r.c.prompt, r.c.sample, r.c.variant_id, r.c.parsed,
                r.c.method, r.c.invalid, r.c.refusal, r.c.sure, r.c.correct, r.c.parse_version, r.c.error,
                r.c.latency_s, r.c.input_tokens, r.c.output_tokens, r.c.cost, v.c.item_id, v.c.source, v.c.condition,
                v.c.group_id, v.c.item_group, v.c.kind, v.c.answer_label, v.c.n_labels]
        decode = ["options", "category", "tags", "attributes", "prompt_args", "provenance", "image_ids"]
        if full or detail:
            cols += [r.c.raw_text, v.c.question, v.c.options, v.c.answer, v.c.category, v.c.tags, v.c.attributes,
                     v.c.prompt_args, v.c.provenance, v.c.image_ids]
        if detail:
            cols += [r.c.messages, r.c.settings, r.c.details, r.c.finish_reason, r.c.created_at]
            decode += ["messages", "settings", "details"]
        q = (sa.select(*cols).join(v, v.c.id == r.c.variant_id)
             .where(r.c.run_id == run_id, r.c.role == "answer").order_by(r.c.id))
        import pandas as pd

        with self.engine.connect() as c:
            df = pd.read_sql(q, c)
        for col in decode:
            if col in df.columns:
                df[col] = [decode_json(x) for x in df[col]]
        return df

    def judge_frame(self, run_id: int) -> pd.DataFrame:
        """The latest judge call for each judged answer of a run: parent_id (the answer), judge_model, judge_prompt,
        judge_text (its raw reply), judge_error, and the judge's reading (parsed, method, invalid, correct). The
        fallback judge's calls are not among them (:meth:`fallback_judge_frame`)."""
        return self._judge_calls(run_id, responses.c.prompt.not_like("judge-fallback:%"))

    def fallback_judge_frame(self, run_id: int, judge_model: str) -> pd.DataFrame:
        """The fallback judge's calls (``--judge``, :mod:`probe_ui.scoring.fallback`) of one judge model on a run's
        answers: the same columns as :meth:`judge_frame`, the latest call per answer."""
        return self._judge_calls(run_id, responses.c.model == judge_model, responses.c.prompt.like("judge-fallback:%"))

    def _judge_calls(self, run_id: int, *where: Any) -> pd.DataFrame:
        """The latest judge call per judged answer of a run, among those ``where`` keeps."""
        r = responses
        latest = (sa.select(sa.func.max(r.c.id)).where(r.c.run_id == run_id, r.c.role == "judge",
                                                        r.c.parent_id.is_not(None), *where)
                  .group_by(r.c.parent_id))
        q = sa.select(r.c.parent_id, r.c.model.label("judge_model"), r.c.prompt.label("judge_prompt"),
                      r.c.raw_text.label("judge_text"), r.c.error.label("judge_error"), r.c.parsed, r.c.method,
                      r.c.invalid, r.c.correct).where(r.c.id.in_(latest))
        import pandas as pd

        with self.engine.connect() as c:
            return pd.read_sql(q, c)
