"""Small pieces every tab uses: turning library errors into messages on the page, and the model choices."""

from __future__ import annotations

import functools
import inspect
import logging
import math
from html import escape
from typing import Any, Callable

import gradio as gr

from probe_ui.app.context import AppContext
from probe_ui.errors import ProbeUIError, first_line
from probe_ui.providers import all_ready_models
from probe_ui.security import redact

#: errors whose message is written for the user (probe_ui.errors): shown on the page as they are, keys masked;
#: anything else is a bug (a ValueError or KeyError from deep inside is not a message for a person)
USER_ERRORS: tuple[type[BaseException], ...] = (ProbeUIError,)


#: seconds a toast stays on the page: long enough to read, never covering a field for good
TOAST_S = 8
log = logging.getLogger("probe_ui.app")


def _message(exc: BaseException) -> str:
    """A user error's message as the page shows it: keys and URL credentials masked, paths on the server reduced
    to their file names (the page is read by other people than the server's owner)."""
    return redact.public_paths(redact.public_text(str(exc) or type(exc).__name__))


def _bug(exc: BaseException) -> gr.Error:
    """An unexpected error is a bug: its traceback goes to the app log once, the page gets a short message."""
    log.error("unexpected error in the app", exc_info=exc)
    return gr.Error(f"Something went wrong ({type(exc).__name__}); the app log has the details.", duration=TOAST_S,
                    print_exception=False)


def _guarded(fn: Callable[..., Any], on_user_error: Callable[[BaseException], Any]) -> Callable[..., Any]:
    """``fn`` (a plain callback or a generator) with its errors sorted: ``gr.Error`` passes through; a user error
    goes to ``on_user_error``, whose result is returned (or yielded), unless it raises; anything else is a bug
    (:func:`_bug`)."""
    if inspect.isgeneratorfunction(fn):
        @functools.wraps(fn)
        def gen(*args: Any, **kwargs: Any) -> Any:
            try:
                yield from fn(*args, **kwargs)
            except gr.Error:
                raise
            except USER_ERRORS as exc:
                yield on_user_error(exc)
            except Exception as exc:  # noqa: BLE001 - see _bug
                raise _bug(exc) from None
        return gen

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except gr.Error:
            raise
        except USER_ERRORS as exc:
            return on_user_error(exc)
        except Exception as exc:  # noqa: BLE001 - see _bug
            raise _bug(exc) from None
    return wrapper


def _logged(exc: BaseException) -> str:
    """A user error's message, logged as one line (no traceback: it is not a bug)."""
    log.info("user error: %s", first_line(exc))
    return _message(exc)


def shows_errors(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a callback so that a library error appears on the page (a toast that closes by itself) with its
    message, logged as one line; generators are wrapped too; ``gr.Error`` passes through unchanged."""
    def toast(exc: BaseException) -> Any:
        raise gr.Error(_logged(exc), duration=TOAST_S, print_exception=False) from None

    return _guarded(fn, toast)


class Inline:
    """A message shown next to the field it concerns (plain words, escaped), instead of a toast."""

    @staticmethod
    def error(text: str) -> str:
        return f"<div class='pu-msg pu-msg-error' role='alert'>⚠ {escape(text)}</div>"

    @staticmethod
    def note(text: str) -> str:
        """``text`` is already escaped HTML (callers escape what users and models wrote)."""
        return f"<div class='pu-msg pu-msg-note'>{text}</div>"


def inline_errors(msg: Any, fields: dict[str, Any] | None = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Wrap a callback so that a user error (a ProbeError naming its field, an unreadable image, a bad preset, ...)
    appears in ``msg`` beside the section it concerns, and the field it names (one of ``fields``) is marked until
    the next success; other outputs stay as they are. ``msg`` and those fields must be among the event's outputs.
    Unexpected errors are bugs: logged with their traceback once, a short toast on the page."""
    fields = fields or {}

    def failed(exc: BaseException) -> dict[Any, Any]:
        out: dict[Any, Any] = {msg: Inline.error(_logged(exc))}
        comp = fields.get(getattr(exc, "field", None) or "")
        if comp is not None:
            out[comp] = gr.update(elem_classes=["pu-bad"])
        return out

    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        guarded = _guarded(fn, failed)
        # where a user error is written: every event this callback is wired to must list these among its outputs
        guarded.error_targets = (msg, *fields.values())  # type: ignore[attr-defined]
        return guarded

    return wrap


def to_int(x: Any) -> int | None:
    """A number field's value as an int (None when empty, not a number or not finite)."""
    if x is None or x == "":
        return None
    try:
        return int(float(x))
    except (TypeError, ValueError, OverflowError):
        return None


def whole_number(value: Any, what: str, lo: int, hi: int, field: str | None = None,
                 default: int | None = None) -> int | None:
    """A number field's value (or an API caller's) checked where it enters: a whole number from ``lo`` to ``hi``
    (``default`` when empty), else a ProbeError naming ``what`` and the value (a seed of 1e30 or an answer id of
    1e30 reached the store and came back as "Something went wrong (OverflowError)")."""
    from probe_ui.live import ProbeError

    if value is None or value == "":
        return default
    try:
        if isinstance(value, bool):
            raise TypeError
        number = value if isinstance(value, int) else float(str(value).strip())
        if isinstance(number, float) and not (math.isfinite(number) and number.is_integer()):
            raise ValueError
        n = int(number)
    except (TypeError, ValueError, OverflowError):
        n = None
    if n is None or not lo <= n <= hi:
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        raise ProbeError(f"{what} must be a whole number from {lo:,} to {hi:,}, not {shown}", field=field)
    return n


def seed_of(value: Any) -> int:
    """The seed field (empty: 0), range-checked (:data:`probe_ui.perturb.registry.MAX_SEED`)."""
    from probe_ui.perturb.registry import MAX_SEED

    return whole_number(value, "the seed", 0, MAX_SEED, field="seed", default=0) or 0


def answer_id(value: Any, field: str | None = "rating") -> int | None:
    """An answer number (None when empty), range-checked against the ids a store can hold."""
    from probe_ui.store import MAX_ID

    return whole_number(value, "the answer number", 1, MAX_ID, field=field)


def chosen_runs(chosen: Any) -> list[str]:
    """The runs picked in a dropdown (one name or a list of names), checked: an API caller may send anything (a
    dict reached ``chosen[0]`` as "Something went wrong (KeyError)")."""
    from probe_ui.live import ProbeError

    if chosen is None or chosen == "":
        return []
    items = [chosen] if isinstance(chosen, str) else chosen
    if not isinstance(items, (list, tuple)) or not all(isinstance(x, str) for x in items):
        raise ProbeError("choose runs by name from the list (a name, or a list of names)", field="runs")
    return [x for x in items if x]


def model_menu(ctx: AppContext, owner: str | None = None) -> list[dict[str, Any]]:
    """Every model ``owner`` can pick (:func:`probe_ui.catalogue.endpoints.model_menu`: the catalogue, the endpoints
    shared with everyone and ``owner``'s own; None: no one's own, for the page as first served), local servers looked
    for unless ``PROBE_UI_DISCOVER=0``. A shared endpoint's reason names it, never its URL (for admins too: the Models
    tab shows them the URL)."""
    import os

    from probe_ui.catalogue.endpoints import model_menu as menu

    try:
        rows = menu(ctx.endpoints.configs(owner or ""), discover=os.environ.get("PROBE_UI_DISCOVER", "1") != "0")
        return [{**r, "reason": ctx.endpoints.veil(r["reason"], owner or "")} if r["reason"] else r for r in rows]
    except ProbeUIError as exc:  # a broken catalogue still leaves the baselines
        log.info("catalogue: %s", exc)
        return [{"name": b, "usable": True, "reason": ""} for b in all_ready_models()]


def ready_models(menu: list[dict[str, Any]]) -> list[str]:
    return [r["name"] for r in menu if r["usable"]]


def plain_reason(reason: str) -> str:
    """A reason a model cannot run, in fewer words (the exception details stay in the Models tab)."""
    import re

    text = re.sub(r"\s*\([A-Za-z]+Error:[^)]*\)", "", reason or "")
    return text.removeprefix("not usable here: ")


def unusable_html(menu: list[dict[str, Any]]) -> str:
    """The models that cannot run here, each greyed out with its reason (a key variable, a server, an extra)."""
    bad = [r for r in menu if not r["usable"]]
    if not bad:
        return ""
    items = "".join(f"<li><label><input type='checkbox' disabled> <b>{escape(r['name'])}</b></label> "
                    f"<span class='pu-why'>{escape(plain_reason(r['reason']))}</span></li>" for r in bad)
    return (f"<details class='pu-unusable'><summary>{len(bad)} more model{'s' if len(bad) != 1 else ''} cannot "
            f"run here yet (a key or a server is missing): show why</summary><ul>{items}</ul></details>")


def model_choices(ctx: AppContext, owner: str | None = None) -> list[str]:
    """Baselines, catalogue entries (backends/*.yaml) and the endpoints ``owner`` may use (shared ones and their
    own; None: the shared ones only)."""
    from probe_ui.catalogue import load_catalogue

    try:
        names = sorted(load_catalogue())
    except ProbeUIError as exc:  # a broken catalogue entry: the Models tab says which
        log.info("catalogue: %s", first_line(exc))
        names = []
    return all_ready_models() + names + sorted(ctx.endpoints.configs(owner or ""))


NO_JUDGE = "none (rules only)"


def judge_choices(ctx: AppContext, owner: str | None = None) -> list[str]:
    """The judge menu of the Results tab: no judge (the default), then every model ``owner`` may pick but the
    baselines."""
    return [NO_JUDGE] + [m for m in model_choices(ctx, owner) if m not in all_ready_models()]


def chosen_judge(value: str | None) -> str | None:
    """The judge model picked in the menu, or None for no judge."""
    value = (value or "").strip()
    return None if not value or value == NO_JUDGE else value


def chosen_models(picked: list[str] | None, adhoc: str | None) -> list[str]:
    """Ticked models plus ad-hoc specs typed as ``provider/model`` (comma or newline separated)."""
    extra = [s.strip() for s in (adhoc or "").replace("\n", ",").split(",") if s.strip()]
    return list(dict.fromkeys([*(picked or []), *extra]))


def scroll_to_js(elem_id: str, block: str = "start") -> str:
    """A browser-only script for a main action's click: the page scrolls to ``elem_id`` (where its result shows), so
    an action pressed at the window's foot (CSS ``.pu-actions``) brings its outcome into view."""
    return (f"() => {{ const e = document.getElementById('{elem_id}'); "
            f"if (e) e.scrollIntoView({{block: '{block}', behavior: 'smooth'}}); }}")


#: the tick that asks for structured answers (``--answer-format json``), worded once for every tab that shows it
STRUCTURED_LABEL = "Ask for a structured answer (JSON)"
STRUCTURED_INFO = ("the model must reply with one of the question's options, in a fixed form; recorded with the run, "
                   "so Results can compare it with free replies")


def structured_tick(elem_id: str) -> gr.Checkbox:
    """The structured-answer tick (off: free text, today's way of asking)."""
    return gr.Checkbox(label=STRUCTURED_LABEL, value=False, info=STRUCTURED_INFO, elem_id=elem_id)


#: the tick that asks for the model's confidence (``--confidence``, the answer format "confidence")
CONFIDENCE_LABEL = "Ask for its confidence (0-100 %)"
CONFIDENCE_INFO = ("each question with options also asks how sure the model is; Results then shows whether its "
                   "confidence matches how often it is right (calibration); recorded with the run")


def confidence_tick(elem_id: str) -> gr.Checkbox:
    """The confidence tick (off: the answer alone)."""
    return gr.Checkbox(label=CONFIDENCE_LABEL, value=False, info=CONFIDENCE_INFO, elem_id=elem_id)


def answer_format_of(ticked: Any, confidence: Any = False) -> str:
    """The answer format the ticks ask for: "json" (structured), "confidence", or "free" (neither); both ticked is
    refused: a structured answer has no place for the confidence line."""
    if bool(ticked) and bool(confidence):
        from probe_ui.live import ProbeError

        raise ProbeError("tick either a structured answer or its confidence, not both: a JSON answer has no place for "
                         "the confidence line", field="confidence")
    return "json" if bool(ticked) else "confidence" if bool(confidence) else "free"
