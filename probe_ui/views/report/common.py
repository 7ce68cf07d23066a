"""What every section of the report shares: its constants, the run and its scored answers, embedded figures
and thumbnails."""

from __future__ import annotations

import base64
import io
from typing import TYPE_CHECKING, Any

import pandas as pd

from probe_ui.errors import ProbeUIError
from probe_ui.security import redact
from probe_ui.views.markup import el, esc, grid_table, para, wrap

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

    from probe_ui.store import Run, Store



THUMB_PX = 160


THUMBS_PER_CASE = 3


PLOT_DPI = 100


MATRIX_ROW_LIMIT = 400  # the full stress matrix is embedded up to this many variants


RAW_CHARS = 240  # the start of a model's raw reply shown among the worst cases


CI_METHOD = ("Newcombe's hybrid score interval (method 10 of Newcombe 1998) from the two 95 % Wilson intervals; it "
             "treats the two samples as independent, so for paired data (the same items perturbed, or the same "
             "items in two runs), which are usually positively correlated, it tends to be conservative: wider than "
             "a paired interval would be")


class ReportError(ProbeUIError, ValueError):
    """The report cannot be made as asked: an unknown run or baseline, or an output that cannot be written."""


def get_run(store: Store, name: str | None, what: str = "run") -> Run:
    from probe_ui.store import StoreError

    try:
        return store.get_run(name or None)
    except StoreError:
        known = [r.name for r in store.list_runs()]
        if not known:
            raise ReportError("no runs in this store yet: run 'probe-ui batch' first") from None
        listed = ", ".join(known[:20]) + (f" and {len(known) - 20} more" if len(known) > 20 else "")
        raise ReportError(f"no {what} named '{name}' in this store (runs: {listed})") from None


def frames(store: Store, run: Run, parser: str, judge: str | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(the run's scored answers under ``parser`` and the fallback ``judge``'s decisions,
    :func:`probe_ui.scoring.scored_answers`; the same reduced to one row per cell by majority vote)."""
    from probe_ui.metrics.samples import majority_vote
    from probe_ui.scoring import scored_answers

    df = scored_answers(store, run.name, parser, judge=judge)
    return df, majority_vote(df)


def figure_html(make: Any, alt: str) -> str:
    """A figure built by ``make()`` as an embedded PNG; a line saying why when there is nothing to plot (a picture
    of that sentence would cost a reader a download and a screen reader its text) or it cannot be drawn."""
    from probe_ui.views.results.figures import EMPTY_LABEL

    try:
        fig = make()
        if fig.get_label().startswith(EMPTY_LABEL):
            return para(f"({alt}: {fig.get_label().removeprefix(EMPTY_LABEL)})", "muted")
        png = _png(fig)
    except Exception as exc:  # noqa: BLE001 - a plot that cannot be drawn must not lose the report
        return para(f"({alt}: the figure could not be drawn: {exc.__class__.__name__}: {exc})", "muted")
    uri = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
    return f'<figure><img class="plot" src="{uri}" alt="{esc(alt)}"></figure>'


def _png(fig: Figure) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=PLOT_DPI)
    return buf.getvalue()


def thumbnail(store: Store, image_id: str) -> str:
    """One stored image as an inline JPEG no larger than THUMB_PX on its longer side."""
    from probe_ui.store import StoreError

    try:
        im = store.get_image(image_id).pil()
    except (StoreError, OSError, ValueError) as exc:
        return el("span", f"image {image_id[:12]} missing ({exc.__class__.__name__})", class_="thumb missing")
    im.thumbnail((THUMB_PX, THUMB_PX))
    if im.mode not in ("L", "RGB"):
        im = im.convert("RGB")
    buf = io.BytesIO()
    im.save(buf, format="JPEG", quality=82)
    uri = "data:image/jpeg;base64," + base64.b64encode(buf.getvalue()).decode("ascii")
    return f'<img class="thumb" src="{uri}" width="{im.width}" height="{im.height}" alt="{esc(image_id[:12])}">'


def short(s: str, n: int) -> str:
    """One line of at most ``n`` characters, keys masked on the full text first."""
    return redact.clip(s, n)


def frame_table(df: pd.DataFrame, cls: str = "grid", numeric_from: int = 1) -> str:
    """A small table of display strings (:mod:`probe_ui.views.compare_format`'s frames) as escaped HTML."""
    rows = [wrap("tr", "".join(el("th" if i == 0 else "td", v, scope="row" if i == 0 else None,
                                    class_="num" if i >= numeric_from else None)
                                for i, v in enumerate(map(str, r)))) for r in df.itertuples(index=False)]
    return grid_table(list(map(str, df.columns)), rows, cls, numeric_from)
