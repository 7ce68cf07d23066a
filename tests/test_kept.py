"""The app's one bounded cache (probe_ui.kept): what the page memos rely on."""

from __future__ import annotations

import threading

import pytest

from probe_ui.kept import Kept


def test_the_least_recently_used_value_goes_first() -> None:
    kept: Kept[str, int] = Kept(2)
    kept.put("a", 1)
    kept.put("b", 2)
    assert kept.get("a") == 1  # "a" is now the most recently used
    kept.put("c", 3)
    assert "b" not in kept and kept.get("a") == 1 and kept.get("c") == 3 and len(kept) == 2
    kept.put("a", 4)  # a new value for a kept key replaces it, without growing
    assert kept.get("a") == 4 and len(kept) == 2 and kept.keys() == ["c", "a"]


def test_a_stale_value_is_dropped_when_read_and_drop_picks_by_key() -> None:
    kept: Kept[tuple[str, int], str] = Kept(8)
    for owner in ("ann", "bob"):
        for i in range(3):
            kept.put((owner, i), f"{owner}{i}")
    assert kept.get(("ann", 0), fresh=lambda v: v != "ann0") is None and ("ann", 0) not in kept
    assert kept.get(("ann", 1), fresh=lambda v: True) == "ann1"
    kept.drop(lambda k: k[0] == "bob")
    assert sorted(kept.keys()) == [("ann", 1), ("ann", 2)]


def test_threads_writing_at_once_never_pass_the_bound() -> None:
    kept: Kept[int, int] = Kept(50)
    seen_over: list[int] = []

    def write(start: int) -> None:
        for i in range(start, start + 2000):
            kept.put(i, i)
            if len(kept) > 50:
                seen_over.append(len(kept))
            assert kept.get(i - 1) in (None, i - 1)

    threads = [threading.Thread(target=write, args=(n * 10_000,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not seen_over and len(kept) == 50
    assert kept.hits + kept.misses == 4 * 2000  # every lookup counted once, by threads at once


def test_lookups_are_counted_as_found_or_not() -> None:
    kept: Kept[str, int] = Kept(4)
    kept.put("a", 1)
    kept.get("a")
    kept.get("b")
    kept.get("a", fresh=lambda v: False)  # stale: dropped, and not found
    assert (kept.hits, kept.misses) == (1, 2)


def test_a_cache_keeps_at_least_one_value() -> None:
    with pytest.raises(ValueError, match="at least one"):
        Kept(0)
