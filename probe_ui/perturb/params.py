"""Declared perturbation parameters: the types signatures use, the spec a UI builds its controls from, and the one
validation every path (presets, suites, the app, imports, replays) goes through.

Each registered perturbation annotates its keyword parameters precisely, with its help line as the
``Field(description=...)``::

    angle: Annotated[Number, Field(ge=-360, le=360, description="degrees, counter-clockwise")] = 90
    fill: Annotated[Literal["black", "white"], Field(description="...")] = "black"

``Literal[...]`` is an enumeration, ``int`` a whole number, :data:`Number` a finite real number, :data:`Fractional`
a number or a fraction text such as ``"1/70"``, :data:`Point` / :data:`Points` / :data:`Box` coordinates; ``Field``
adds the range. From these annotations :func:`declared` builds, once per perturbation, a strict pydantic model
(extra keys forbidden) and the :class:`ParamSpec` of each parameter.

Validation refuses what a lenient reading would silently change (``"90deg"``, NaN, ``"false"`` as a boolean, a
list where one value belongs, a number where text belongs) and keeps every valid value exactly as given: an int
given for a real number stays an int, because a variant's id hashes its recorded parameters.
"""

from __future__ import annotations

import functools
import inspect
import reprlib
import typing
from dataclasses import dataclass
from fractions import Fraction
from types import NoneType, UnionType
from typing import Annotated, Any, Callable, Literal, Union

import annotated_types as at
from pydantic import (
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    ValidationError,
    WrapValidator,
    create_model,
)
from pydantic.fields import FieldInfo

from probe_ui.errors import ProbeUIError

Kind = Literal["int", "float", "bool", "choice", "text", "points", "point", "box", "list", "mapping", "json"]


@dataclass(frozen=True)
class ParamSpec:
    """One keyword parameter of a perturbation, as a UI shows it.

    ``kind`` comes from the parameter's type; for a union (``Literal["seeded", "last"] | int``) from its first
    member, the control a person wants first (a dropdown): the other members stay valid through :meth:`validate`
    (an "advanced" JSON field). ``minimum``/``maximum`` are the declared bounds of an int/float (an exclusive bound
    is given as its limit); ``choices`` the values of a ``Literal``, in declared order.
    """

    name: str
    kind: Kind
    default: Any  # the default value; None when required
    required: bool
    minimum: float | None
    maximum: float | None
    choices: tuple[Any, ...] | None
    help: str  # what the parameter does, in one plain line


@dataclass(frozen=True)
class Shape:
    """Annotation metadata for a structured value: its spec kind and how a message names what is allowed."""

    kind: Kind
    says: str


# ---- the types signatures use -------------------------------------------------------------------------------------


def _real(value: Any, handler: Callable[[Any], Any]) -> Any:
    """A finite int or float (not a bool, not text); an int stays an int (ids hash the value as given)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError("not a number")
    checked = handler(value)
    return value if isinstance(value, int) else checked


def _real_or_fraction(value: Any, handler: Callable[[Any], Any]) -> Any:
    """As :func:`_real`, or a text holding a fraction or decimal (``"1/70"``), checked as its value and kept as
    text. A range for it goes before this validator in the annotation, so that it is checked on the value."""
    if isinstance(value, str):
        try:
            number = float(Fraction(value))
        except (ValueError, ZeroDivisionError, OverflowError):
            raise ValueError("not a number or fraction") from None
        handler(number)
        return value
    return _real(value, handler)


#: a finite real number; an int stays an int
Number = Annotated[float, Field(allow_inf_nan=False), WrapValidator(_real)]


def fractional(**bounds: float) -> Any:
    """A finite real number, or a text with a fraction such as "1/70" (kept as text), within ``bounds`` (``ge``,
    ``gt``, ``le``, ``lt``; checked on the value, so they sit inside the validator)."""
    return Annotated[float, Field(allow_inf_nan=False, **bounds), WrapValidator(_real_or_fraction),  # type: ignore
                     Shape("float", "a number (or a fraction such as '1/70')")]


Fractional = fractional()
#: text with at least one visible character
NonBlank = Annotated[str, Field(pattern=r"\S"), Shape("text", "text that is not blank")]
Point = Annotated[list[Number], Field(min_length=2, max_length=2), Shape("point", "a point [x, y] of two numbers")]
Points = Annotated[list[Annotated[list[Fractional], Field(min_length=2, max_length=2)]],  # type: ignore[valid-type]
                   Field(min_length=1, max_length=10),
                   Shape("points", "a list of 1 to 10 points [x, y], each two numbers")]
Box = Annotated[list[Number], Field(min_length=4, max_length=4), Shape("box", "a box [x0, y0, x1, y1] of four numbers")]
_Scalar = Union[StrictStr, StrictBool, StrictInt, Annotated[StrictFloat, Field(allow_inf_nan=False)]]
#: ``answer_map``: the ground truth a perturbation moves, e.g. ``{correct: upside down}``; keys and values as written
AnswerMap = Annotated[dict[_Scalar, _Scalar] | None,
                      Shape("mapping", "a mapping of answer to new answer, e.g. {correct: upside down}")]
ANSWER_MAP = "answer_map"

_CONFIG = ConfigDict(strict=True, extra="forbid", defer_build=True)  # built on first validation
_SHORT = reprlib.Repr()
_SHORT.maxstring, _SHORT.maxother, _SHORT.maxlist, _SHORT.maxdict, _SHORT.maxlevel = 60, 60, 6, 4, 3


def shown(value: Any) -> str:
    """A value as messages quote it: short, and safe for huge or deeply nested input."""
    if isinstance(value, str):
        return repr(value if len(value) <= 60 else value[:57] + "...")
    return _SHORT.repr(value)


# ---- reading annotations ----------------------------------------------------------------------------------------


def _split(tp: Any) -> tuple[Any, list[Any]]:
    """An annotation's base type and its metadata (nested ``Annotated`` flattened; FieldInfo opened up)."""
    meta: list[Any] = []
    while typing.get_origin(tp) is Annotated:
        tp, *extra = typing.get_args(tp)
        meta = list(extra) + meta
    out: list[Any] = []
    for m in meta:
        out.append(m)
        if isinstance(m, FieldInfo):
            out.extend(m.metadata)
    return tp, out


def _members(tp: Any) -> list[Any]:
    """The members of a union (``X | None`` → [X]); a single type as a list of one."""
    if typing.get_origin(tp) in (Union, UnionType):
        return [m for m in typing.get_args(tp) if m is not NoneType]
    return [tp]


def _bounds(meta: list[Any]) -> tuple[tuple[float, bool] | None, tuple[float, bool] | None]:
    """(lower, inclusive) and (upper, inclusive) from Ge/Gt/Le/Lt metadata."""
    lo: tuple[Any, bool] | None = None
    hi: tuple[Any, bool] | None = None
    for m in meta:
        if isinstance(m, at.Ge):
            lo = (m.ge, True)
        elif isinstance(m, at.Gt):
            lo = (m.gt, False)
        elif isinstance(m, at.Le):
            hi = (m.le, True)
        elif isinstance(m, at.Lt):
            hi = (m.lt, False)
    return lo, hi


def _primary(tp: Any) -> tuple[Any, list[Any]]:
    """The first member of an annotation (without None) with its own metadata and the annotation's: what the
    spec describes (``Annotated[Number | None, Field(gt=0)]`` → float, [..., Gt(0)])."""
    base, meta = _split(tp)
    members = _members(base)
    if members[0] is base:
        return base, meta
    inner, inner_meta = _split(members[0])
    return inner, inner_meta + meta


def _kind(tp: Any) -> Kind:
    base, meta = _primary(tp)
    shape = next((m for m in meta if isinstance(m, Shape)), None)
    if shape is not None:
        return shape.kind
    if typing.get_origin(base) is Literal:
        return "choice"
    simple: dict[Any, Kind] = {bool: "bool", int: "int", float: "float", str: "text"}
    if base in simple:
        return simple[base]
    containers: dict[Any, Kind] = {list: "list", tuple: "list", dict: "mapping"}
    return containers.get(typing.get_origin(base), "json")


def _range_words(lo: tuple[float, bool] | None, hi: tuple[float, bool] | None) -> str:
    def n(x: float) -> str:
        return f"{x:g}" if isinstance(x, float) else str(x)

    if lo and hi and lo[1] and hi[1]:
        return f" between {n(lo[0])} and {n(hi[0])}"
    parts = []
    if lo:
        parts.append(f"at least {n(lo[0])}" if lo[1] else f"above {n(lo[0])}")
    if hi:
        parts.append(f"at most {n(hi[0])}" if hi[1] else f"below {n(hi[0])}")
    return " " + " and ".join(parts) if parts else ""


def allowed(tp: Any) -> str:
    """What an annotation allows, in words: 'a number between -360 and 360', "one of 'h', 'v'"."""
    members = _members(_split(tp)[0])
    if len(members) > 1:
        return " or ".join(allowed(m) for m in members)
    base, meta = _primary(tp)
    shape = next((m for m in meta if isinstance(m, Shape)), None)
    lo, hi = _bounds(meta)
    if typing.get_origin(base) is Literal:
        values = typing.get_args(base)
        return f"one of {', '.join(map(shown, values))}" if len(values) > 1 else shown(values[0])
    if shape is not None:
        return shape.says + _range_words(lo, hi)
    words = {bool: "true or false", int: "a whole number", float: "a number", str: "text"}
    return words.get(base, "a value of the declared form") + (_range_words(lo, hi) if base in (int, float) else "")


def _brief_one(tp: Any) -> str:
    base, meta = _split(tp)
    shape = next((m for m in meta if isinstance(m, Shape)), None)
    lo, hi = _bounds(meta)
    if typing.get_origin(base) is Literal:
        return "/".join(map(str, typing.get_args(base)))
    if base in (int, float) and (lo or hi):
        if lo and hi and lo[1] and hi[1]:
            return f"{lo[0]} to {hi[0]}"
        return ", ".join(([f"{'≥' if lo[1] else '>'} {lo[0]}"] if lo else []) +
                         ([f"{'≤' if hi[1] else '<'} {hi[0]}"] if hi else []))
    if shape is not None:
        return shape.kind if shape.kind != "float" else "number"
    return {bool: "true/false", int: "whole number", float: "number", str: "text"}.get(base, _kind(tp))


def brief(tp: Any) -> str:
    """What an annotation allows, for a table cell: '-360 to 360', 'h/v', 'seeded/last/whole number'; '' for a
    plain value whose name and default say enough (a bool, text, an unbounded number)."""
    members = _members(_split(tp)[0])
    if len(members) == 1:
        inner, inner_meta = _primary(tp)
        if typing.get_origin(inner) is not Literal and not any(_bounds(inner_meta)):
            return ""
        return _brief_one(Annotated[(inner, *inner_meta)] if inner_meta else inner)
    return "/".join(_brief_one(m) for m in members)


# ---- one perturbation's declaration -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Declared:
    """A perturbation's parameters: their specs (signature order), annotations and the strict model over them."""

    op: str
    specs: tuple[ParamSpec, ...]
    hints: dict[str, Any]
    model: Any  # a pydantic model class

    def summary(self) -> str:
        """The parameters as a table lists them: ``angle=90 (-360 to 360), fill='black' (black/white)``."""
        parts = []
        for spec in self.specs:
            head = spec.name if spec.required else f"{spec.name}={spec.default!r}"
            allows = brief(self.hints[spec.name])
            parts.append(f"{head} ({allows})" if allows else head)
        return ", ".join(parts)

    def validate(self, params: Any) -> dict[str, Any]:
        """The params, checked and coerced, in the order given; raises ``ParamError`` naming one parameter."""
        if not isinstance(params, dict):
            raise ParamError(None, f"parameters must be a mapping of name to value, not {shown(params)}")
        for key in params:
            if not isinstance(key, str) or key not in self.model.model_fields:
                takes = ", ".join([s.name for s in self.specs] + [ANSWER_MAP])
                raise ParamError(key if isinstance(key, str) else None,
                                 f"no parameter {shown(key)}; {self.op} takes {takes}")
        try:
            model = self.model.model_validate(params)
        except ValidationError as exc:
            err = exc.errors(include_url=False)[0]
            name = str(err["loc"][0]) if err["loc"] else ""
            if err["type"] == "missing":
                raise ParamError(name, f"needs parameter '{name}': {allowed(self.hints[name])}") from None
            raise ParamError(name, f"parameter '{name}': must be {allowed(self.hints[name])}, "
                                   f"not {shown(params.get(name))}") from None
        except RecursionError:
            raise ParamError(None, "parameters are nested too deeply") from None
        return {k: getattr(model, k) for k in params}


class ParamError(ProbeUIError, ValueError):
    """A parameter a perturbation does not take, or a value it does not allow (``param``: its name, if known)."""

    def __init__(self, param: str | None, message: str) -> None:
        super().__init__(message)
        self.param = param


@functools.lru_cache(maxsize=None)
def declared(op: str, fn: Callable[..., Any]) -> Declared:
    """Read a perturbation's signature (after the variant and the rng; ``ctx`` is not a parameter) once.

    Every parameter must have an annotation with a ``Field(description=...)``: a perturbation without one is a
    programming error, raised here rather than shown to a user as a blank control.
    """
    hints = typing.get_type_hints(fn, include_extras=True)
    fields: dict[str, Any] = {}
    specs = []
    for name, p in list(inspect.signature(fn).parameters.items())[2:]:
        if name == "ctx":
            continue
        tp = hints.get(name)
        help_text = next((m.description for m in _split(tp)[1] if isinstance(m, FieldInfo) and m.description),
                         None) if tp is not None else None
        if not help_text:
            raise TypeError(f"perturbation '{op}': parameter '{name}' needs an annotation with "
                            "Field(description=...)")
        required = p.default is inspect.Parameter.empty
        base, meta = _primary(tp)
        lo, hi = _bounds(meta)
        kind = _kind(tp)
        choices = typing.get_args(base) if typing.get_origin(base) is Literal else None
        specs.append(ParamSpec(name=name, kind=kind, default=None if required else p.default, required=required,
                               minimum=lo[0] if lo and kind in ("int", "float") else None,
                               maximum=hi[0] if hi and kind in ("int", "float") else None,
                               choices=tuple(choices) if choices else None, help=" ".join(help_text.split())))
        fields[name] = (tp, ... if required else p.default)
    hints = {n: hints[n] for n in fields} | {ANSWER_MAP: AnswerMap}
    fields[ANSWER_MAP] = (AnswerMap, None)
    model = create_model(f"{op}_parameters", __config__=_CONFIG, **fields)
    return Declared(op, tuple(specs), hints, model)

