"""Who is asking, and whether they may: every callback of the app checks its caller's role on the server.

The caller is the signed-in user of the request (``gr.Request.username``, set by the server from the login cookie,
never by anything the page sends), or, in an app without a login, the one local user (:data:`probe_ui.security.users.
LOCAL_USER`). What a person adds in memory (endpoints, keys) and the runs they start are theirs: :attr:`Who.owner`
is the user's name, or, without a login, the browser session's, so that two tabs of a loopback app are kept apart
too.

:func:`enforce` wraps every event of a tab so that it runs only for a role with the tab's right (a hidden tab is
no protection: any event can be called through the API). Callbacks that need to know who is asking (whose
endpoints, whose run) call :func:`who` themselves.
"""

from __future__ import annotations

import functools
import inspect
from dataclasses import dataclass
from typing import Any, Callable, Iterable

import gradio as gr

from probe_ui.app.sessions import REFUSED
from probe_ui.security.users import LOCAL_ROLE, LOCAL_USER, User

#: what each right lets a person do, for the refusal message
DOING = {"read": "read results", "probe": "ask models (probe, stress, batch) or add endpoints",
         "rate": "rate answers", "add_endpoint": "add endpoints", "share_endpoint": "add endpoints for everyone",
         "any_host": "add endpoints at any host", "cancel_any": "cancel other people's runs",
         "send_gate": "set the send gate or read the send ledger"}
_REQUEST = "_probe_ui_request"


class AccessDenied(gr.Error):
    """A request the caller's role does not allow (shown as a message; nothing was done)."""


@dataclass(frozen=True)
class Who:
    """The person behind a request: their user, whose in-memory things are theirs (``owner``), and whether a login
    vouches for the name (``signed_in``)."""

    user: User
    owner: str
    signed_in: bool

    @property
    def name(self) -> str:
        return self.user.name

    def can(self, right: str) -> bool:
        return self.user.can(right)


def who(ctx: Any, request: gr.Request | None) -> Who:
    """The caller of ``request`` in the app ``ctx`` (module doc)."""
    if ctx.accounts is None:
        session = getattr(request, "session_hash", None) or "no-session"
        return Who(User(LOCAL_USER, LOCAL_ROLE), owner=f"session:{session}", signed_in=False)
    name = getattr(request, "username", None) if request is not None else None
    user = ctx.accounts.user(name)
    if user is None:  # no login cookie, or the user was removed from the users file since
        raise AccessDenied("Sign in first (reload the page).", duration=8, print_exception=False)
    if not ctx.sessions.claim(getattr(request, "session_hash", None), user.name):  # another user's page (F48)
        raise AccessDenied(REFUSED, duration=8, print_exception=False)
    return Who(user, owner=user.name, signed_in=True)


def require(ctx: Any, request: gr.Request | None, right: str) -> Who:
    """The caller, when their role has ``right``; else AccessDenied (a message on the page, nothing done)."""
    caller = who(ctx, request)
    if not caller.can(right):
        raise AccessDenied(f"Your role ({caller.user.role}) cannot {DOING.get(right, right)}; ask an admin of this "
                           "server.", duration=8, print_exception=False)
    return caller


def requiring(ctx: Any, fn: Callable[..., Any], right: str) -> Callable[..., Any]:
    """``fn`` (plain, coroutine, generator or async generator) that first checks the caller has ``right``. Gradio
    hands it the request: the wrapper's signature is ``fn``'s with a request parameter in front."""
    if getattr(fn, "_probe_ui_right", None) is not None:
        return fn
    sig = inspect.signature(fn)
    request_param = inspect.Parameter(_REQUEST, inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=gr.Request)

    if inspect.isasyncgenfunction(fn):
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            require(ctx, args[0], right)
            async for out in fn(*args[1:], **kwargs):
                yield out
    elif inspect.isgeneratorfunction(fn):
        def wrapper(*args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]
            require(ctx, args[0], right)
            yield from fn(*args[1:], **kwargs)
    elif inspect.iscoroutinefunction(fn):
        async def wrapper(*args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]
            require(ctx, args[0], right)
            return await fn(*args[1:], **kwargs)
    else:
        def wrapper(*args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]
            require(ctx, args[0], right)
            return fn(*args[1:], **kwargs)

    functools.update_wrapper(wrapper, fn)
    wrapper.__signature__ = sig.replace(parameters=[request_param, *sig.parameters.values()])  # type: ignore
    wrapper.__annotations__ = {_REQUEST: gr.Request, **getattr(fn, "__annotations__", {})}
    wrapper._probe_ui_right = right  # type: ignore[attr-defined]
    return wrapper


def enforce(ctx: Any, app: gr.Blocks, fn_ids: Iterable[int], right: str) -> None:
    """Make the events ``fn_ids`` of ``app`` run only for a caller with ``right`` (events without a server-side
    function, which only run in the browser, are left as they are; so are ``gr.render`` functions, which only lay
    out controls: Gradio calls them in its own way)."""
    for i in fn_ids:
        block_fn = app.fns[i]
        if block_fn.fn is not None and block_fn.renderable is None:
            block_fn.fn = requiring(ctx, block_fn.fn, right)


def right_of(fn: Callable[..., Any] | None) -> str | None:
    """The right an event's function was wrapped to require (None: not checked)."""
    return getattr(fn, "_probe_ui_right", None)
