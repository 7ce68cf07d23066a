"""Small pieces every tab uses: turning library errors into messages on the page, and the model choices."""

from __future__ import annotations

import functools
import inspect
from typing import Any, Callable

import gradio as gr

from probe_ui.app.context import BASELINES, AppContext

#: errors whose message is written for the user: shown on the page as they are
USER_ERRORS: tuple[type[BaseException], ...] = (ValueError, RuntimeError, KeyError, OSError)


def shows_errors(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Wrap a callback so that a library error appears on the page (a red toast) with its message.

    Generators are wrapped too; ``gr.Error`` passes through unchanged.
    """
    def message(exc: BaseException) -> str:
        text = str(exc) or type(exc).__name__
        return text.strip("'\"") if isinstance(exc, KeyError) else text

    if inspect.isgeneratorfunction(fn):
        @functools.wraps(fn)
        def gen(*args: Any, **kwargs: Any) -> Any:
            try:
                yield from fn(*args, **kwargs)
            except gr.Error:
                raise
            except USER_ERRORS as exc:
                raise gr.Error(message(exc), duration=None) from None
        return gen

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except gr.Error:
            raise
        except USER_ERRORS as exc:
            raise gr.Error(message(exc), duration=None) from None
    return wrapper


def model_choices(ctx: AppContext) -> list[str]:
    """Baselines, catalogue entries (backends/*.yaml) and endpoints added in the Models tab."""
    from probe_ui.catalogue import load_catalogue

    try:
        names = sorted(load_catalogue())
    except ValueError:
        names = []
    return BASELINES + names + sorted(ctx.endpoints.configs())


def chosen_models(picked: list[str] | None, adhoc: str | None) -> list[str]:
    """Ticked models plus ad-hoc specs typed as ``provider/model`` (comma or newline separated)."""
    extra = [s.strip() for s in (adhoc or "").replace("\n", ",").split(",") if s.strip()]
    return list(dict.fromkeys([*(picked or []), *extra]))
