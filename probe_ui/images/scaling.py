"""Mapping any range of pixel values onto 8 bits (shared by the format loaders)."""

from __future__ import annotations

import numpy as np


def linear_to_8bit(arr: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """Map [lo, hi] linearly onto 0..255 (clipping outside, NaN to 0)."""
    arr = np.asarray(arr, dtype=np.float64)
    if hi <= lo:
        out = np.where(arr > lo, 255.0, 0.0)
    else:
        out = (arr - lo) * (255.0 / (hi - lo))
    out = np.nan_to_num(out, nan=0.0, posinf=255.0, neginf=0.0)
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)


def window_bounds(center: float, width: float) -> tuple[float, float]:
    """A (center, width) window as the (lo, hi) range it spans."""
    return center - width / 2.0, center + width / 2.0


def finite_minmax(arr: np.ndarray) -> tuple[float, float]:
    """Min and max over the finite values ((0, 0) when there are none)."""
    finite = arr[np.isfinite(arr)] if np.issubdtype(arr.dtype, np.floating) else arr
    if finite.size == 0:
        return 0.0, 0.0
    return float(finite.min()), float(finite.max())
