"""The last N values by key, shared by threads: the one small cache that the app's memos are built on.

The app keeps several things in memory so that many people asking for the same thing do not make it again (the
page and its configuration per user, a picked image drawn for display, a run's ratings while its table streams,
the scored tables behind the Results tab). Each is bounded (the oldest unused value goes first) and read and
written from Gradio's worker threads and the server's loop at once; this class is that mechanism, once.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Callable, Generic, Hashable, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Kept(Generic[K, V]):
    """A bounded, thread-safe mapping that forgets its least recently used value first. Values are never None
    (:meth:`get` says "not kept" with None): keep a value that may be None wrapped, e.g. in a 1-tuple."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"a cache keeps at least one value, not {size}")
        self.size = size
        self._values: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()
        #: lookups that found a (fresh) value, and those that did not: counted under the lock, so that threads
        #: looking up at once lose no count (the Results tab's benchmark and the tests read them)
        self.hits = 0
        self.misses = 0

    def get(self, key: K, fresh: Callable[[V], bool] | None = None) -> V | None:
        """The value kept for ``key`` (now the most recently used), else None. A value for which ``fresh`` says
        False is dropped and None returned, in the same step (nobody else's newer value is dropped by it)."""
        with self._lock:
            value = self._values.get(key)
            if value is not None and fresh is not None and not fresh(value):
                del self._values[key]
                value = None
            if value is None:
                self.misses += 1
                return None
            self._values.move_to_end(key)
            self.hits += 1
            return value

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` for ``key``; the least recently used values go while more than ``size`` are kept."""
        with self._lock:
            self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self.size:
                self._values.popitem(last=False)

    def drop(self, which: Callable[[K], bool]) -> None:
        """Forget every value whose key ``which`` picks."""
        with self._lock:
            for key in [k for k in self._values if which(k)]:
                del self._values[key]

    def keys(self) -> list[K]:
        """The keys kept now, least recently used first (a copy: the cache may change meanwhile)."""
        with self._lock:
            return list(self._values)

    def __len__(self) -> int:
        with self._lock:  # a put between adding its value and forgetting the oldest must not be seen over the bound
            return len(self._values)

    def __contains__(self, key: object) -> bool:
        with self._lock:
            return key in self._values
