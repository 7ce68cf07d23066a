"""Ratings: people's judgements of answers, append-only, each rater's latest counting; written all or none, and
read back to check that the database kept them as written (a trigger cannot change them unseen)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

import sqlalchemy as sa

from probe_ui.store.appended import append_checked, check_responses, latest_frame
from probe_ui.store.errors import StoreError
from probe_ui.store.opening import StoreBase
from probe_ui.store.schema import RATINGS, now, rater_name, ratings

if TYPE_CHECKING:  # pandas costs 0.7 s to import: only the reading side (scores, exports, the app) needs it
    import pandas as pd


class RatingsMixin(StoreBase):
    """The ratings of a store (see :class:`probe_ui.store.Store`)."""

    def rate_response(self, response_id: int, rating: str, note: str = "", rater: str = "",
                      verified: bool | None = None) -> None:
        """Record ``rater``'s rating of one answer (kept with the response; that rater's later rating supersedes
        it, other raters' ratings stand beside it). ``rater`` "" is a rating nobody put a name to. ``verified``:
        True for the app's signed-in user, False for a name typed without a login (see the ``ratings`` table)."""
        self.add_ratings([{"response_id": response_id, "rating": rating, "note": note, "rater": rater,
                           "verified": verified}])

    def add_ratings(self, rows: Iterable[dict[str, Any]]) -> int:
        """Record several ratings (``response_id``, ``rating``, optional ``note`` and ``rater``) in ONE transaction:
        all of them, or none when a rating is not one of :data:`RATINGS`, a rater's name is too long or a response
        does not exist (the error names the first). Returns how many were recorded."""
        values = []
        for r in rows:
            rating = r.get("rating")
            if rating not in RATINGS:
                raise StoreError(f"rating must be one of {', '.join(RATINGS)}, not {rating!r}")
            verified = r.get("verified")
            values.append({"response_id": int(r["response_id"]), "rating": rating, "note": r.get("note") or "",
                           "rater": rater_name(r.get("rater")), "created_at": now(),
                           "verified": None if verified is None else bool(verified)})
        if not values:
            return 0
        for i in (min(v["response_id"] for v in values), max(v["response_id"] for v in values)):
            self._known_id(i)
        with self.engine.begin() as c:
            check_responses(c, values, self.where)
            append_checked(c, ratings, values, ("response_id", "rating", "note", "rater"), self.where, "ratings")
        self.ratings_written += 1
        return len(values)

    def ratings_frame(self, run_id: int | None = None, *, per_rater: bool = False) -> pd.DataFrame:
        """The ratings that count, of one run or all: by default the latest rating of each rated response,
        whoever gave it (response_id, rating, note); with ``per_rater`` the latest of each rater per
        response (response_id, rater, rating, note, created_at, verified), ordered by response and rater. A name
        typed without a login (``verified`` false) is another rater than the signed-in user of that name."""
        cols = ["response_id", "rater", "rating", "note", "created_at", "verified"] if per_rater \
            else ["response_id", "rating", "note"]
        return latest_frame(self.engine, ratings, "rater", cols, run_id, per_rater)

    def latest_rating(self, response_id: int, rater: str | None = None, verified: bool | None = None
                      ) -> tuple[str | None, str]:
        """One answer's latest rating and note, by anyone (``rater`` None) or by one rater (None, "" when
        unrated); ``verified`` True / False: only that rater's ratings made signed in / typed without a login."""
        q = sa.select(ratings.c.rating, ratings.c.note).where(ratings.c.response_id == self._known_id(response_id))
        if rater is not None:
            q = q.where(ratings.c.rater == rater_name(rater))
        if verified is not None:
            q = q.where(ratings.c.verified.is_(bool(verified)))
        with self.engine.connect() as c:
            row = c.execute(q.order_by(ratings.c.id.desc()).limit(1)).first()
        return (str(row[0]), str(row[1] or "")) if row else (None, "")

