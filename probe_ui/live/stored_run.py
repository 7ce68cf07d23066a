"""What the Probe tab reads back from a stored live run: its ratings (cached until one is written), the
models ticked that it did not ask, and the run as the comparison table."""

from __future__ import annotations

from probe_ui.kept import Kept
from probe_ui.store import Store, StoreError


def ratings_of(store: Store, run: str) -> dict[int, tuple[str, str]]:
    """A run's latest rating and note per answer id (for the comparison table's cells). Read once, then from
    memory until a rating is written through this store: a table redrawn ~20 times while a probe streams reads
    its ratings once, not 20 times."""
    if not run:
        return {}
    key = (id(store), run)
    seen = _RATINGS.get(key, fresh=lambda kept: kept[0] is store and kept[1] == store.ratings_written)
    if seen is not None:
        return dict(seen[2])
    written = store.ratings_written
    df = store.ratings_frame(store.get_run(run).id)
    out = {int(r["response_id"]): (str(r["rating"]), str(r["note"] or "")) for r in df.to_dict("records")}
    _RATINGS.put(key, (store, written, out))
    return dict(out)


#: the ratings of the runs redrawn last, by (store, run): (the store, its ratings_written when read, ratings)
_RATINGS: Kept[tuple[int, str], tuple[Store, int, dict[int, tuple[str, str]]]] = Kept(256)


def rating_of(store: Store, response_id: int) -> tuple[str | None, str]:
    """One answer's latest rating and note (None, "" when unrated)."""
    return store.latest_rating(response_id)


def asked_about(store: Store, run: str, image_ids: list[str] | tuple[str, ...]) -> bool:
    """Whether ``run`` asked about these images (its unperturbed variants sent exactly them): the page's note
    "asked before this image was chosen" is then not true (a draft brought back sets the image it was asked on)."""
    if not run or not image_ids:
        return False
    try:
        df = store.answers_frame(store.get_run(run).id, full=True)
    except StoreError:
        return False
    return any(list(ids) == list(image_ids) for ids in df["image_ids"])


def not_yet_run(store: Store, run: str, chosen: list[str]) -> list[str]:
    """The models ticked now that ``run`` did not ask (ticked while it ran, or since): the page marks them "not
    yet run" until Run asks them."""
    if not run:
        return []
    try:
        s = store.get_run(run).config
    except StoreError:
        return []
    asked = set(s.asked) | {m.get("name") for m in s.model_records}
    return [m for m in dict.fromkeys(chosen) if m not in asked]




def carry_ratings(store: Store, from_run: str, to_run: str, rater: str, verified: bool | None) -> tuple[int, int]:
    """``rater``'s own latest ratings of ``from_run``'s answers, given again to the same answers in ``to_run``
    (the same variant, model, sample and prompt template, and the same reply, word for word): a probe asked again
    with one more model keeps the ratings its person gave a minute earlier (issue 51, U34). Only the rater's own
    ratings move (the name a login vouches for, or the name typed without one), never someone else's, and each
    is a new rating row of that rater's, so ``from_run`` keeps its own. Returns (carried, left): the ratings
    given again, and those of variants ``to_run`` asks too that stay with ``from_run`` alone (the answer changed,
    or its model was not asked again); a rating of a variant ``to_run`` does not ask (another question) is
    neither."""
    from probe_ui.store.schema import rater_name

    if not from_run or not to_run or from_run == to_run:
        return 0, 0
    try:
        old_id, new_id = store.get_run(from_run).id, store.get_run(to_run).id
    except StoreError:
        return 0, 0
    mine = store.ratings_frame(old_id, per_rater=True)
    mine = mine[mine["rater"] == rater_name(rater)]
    if verified is not None:
        mine = mine[mine["verified"].fillna(False).astype(bool) == bool(verified)]
    if mine.empty:
        return 0, 0
    key = ["variant_id", "model", "sample", "prompt", "raw_text"]
    old = store.answers_frame(old_id, full=True).set_index("response_id")
    new = store.answers_frame(new_id, full=True)
    new = new[new["error"].isna()]
    same = {tuple(r[k] for k in key): int(r["response_id"]) for r in new.to_dict("records")}
    asked_again = set(store.answers_frame(new_id)["variant_id"])
    rows, left = [], 0
    for r in mine.to_dict("records"):
        rid = int(r["response_id"])
        if rid not in old.index or old.loc[rid, "variant_id"] not in asked_again:
            continue
        target = same.get(tuple(old.loc[rid, k] for k in key))
        if target is None:
            left += 1
            continue
        rows.append({"response_id": target, "rating": r["rating"], "note": r["note"] or "", "rater": rater,
                     "verified": verified})
    return (store.add_ratings(rows) if rows else 0), left
