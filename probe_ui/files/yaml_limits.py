"""Guards for reading YAML a user hands us: one wording for every refusal, and a size count for alias bombs.

Two layers can refuse a deeply nested file: libyaml's scanner (PyYAML >= 6.0.4 stops at its own nesting depth, with
its own words) and PyYAML's recursive composer (a ``RecursionError`` on the pure-Python path). The user sees one
message either way: :func:`yaml_problem`.
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.error import Mark, MarkedYAMLError

from probe_ui.errors import ProbeUIError

NESTED_TOO_DEEPLY = "the YAML is nested too deeply"


class YAMLNestingError(ProbeUIError, MarkedYAMLError):
    """Collections nested deeper than the parser (or Python's stack) allows, with where it happened when known (a
    ``yaml.YAMLError`` too, so a reader's ``except yaml.YAMLError`` catches it with the others)."""

    def __init__(self, mark: Mark | None = None) -> None:
        super().__init__(problem=NESTED_TOO_DEEPLY, problem_mark=mark)


def _too_deep(exc: BaseException) -> bool:
    if isinstance(exc, (RecursionError, YAMLNestingError)):
        return True
    # libyaml (PyYAML >= 6.0.4) refuses in the scanner: "exceeded maximum nesting depth"
    problem = getattr(exc, "problem", None) or ""
    return isinstance(exc, yaml.YAMLError) and "nesting depth" in problem


def yaml_problem(exc: BaseException) -> str:
    """One line for a YAML document the reader refused (a ``yaml.YAMLError`` or a ``RecursionError``), without the
    file name: "the YAML is nested too deeply (line 1, column 1007)" or "invalid YAML (line 3, column 5): ..."."""
    mark = getattr(exc, "problem_mark", None)
    where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
    if _too_deep(exc):
        return NESTED_TOO_DEEPLY + where
    problem = getattr(exc, "problem", None) or (str(exc).splitlines() or [type(exc).__name__])[0]
    return f"invalid YAML{where}: {problem}"


def node_at(node: Any, loc: Any) -> Any:
    """The deepest node of a composed YAML document along a validation error's ``loc`` (mapping keys, list
    indexes): the offending value where it is there, else the mapping that lacks it (a missing field)."""
    for key in loc:
        if isinstance(node, yaml.MappingNode):
            found = [v for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == str(key)]
            if not found:
                break
            node = found[-1]
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and 0 <= key < len(node.value):
            node = node.value[key]
        else:
            break
    return node


def place(node: Any, loc: Any = ()) -> str:
    """" (line L, column C)" of the node along ``loc`` (:func:`node_at`), for a validation message; "" without a
    node."""
    if node is None:
        return ""
    mark = node_at(node, loc).start_mark
    return f" (line {mark.line + 1}, column {mark.column + 1})"


def place_in(text: str, loc: Any = ()) -> str:
    """:func:`place` in a YAML text composed again (a small file whose values failed validation: the catalogue
    entry, the set file), "" when it cannot be composed."""
    try:
        return place(yaml.compose(text, Loader=yaml.SafeLoader), loc)
    except (yaml.YAMLError, RecursionError):
        return ""


def loader_mark(loader: Any) -> Mark | None:
    """Where a loader stopped: the pure-Python reader's position, or (libyaml's parser has none) where its next
    event starts."""
    try:
        if hasattr(loader, "get_mark"):
            return loader.get_mark()
        return loader.peek_event().start_mark
    except Exception:  # a parser in an odd state after the refusal: the message goes without a line
        return None


def safe_load(text: str) -> Any:
    """``yaml.safe_load`` whose too-deep refusal is a ``YAMLNestingError`` with a line, never a ``RecursionError``."""
    loader = yaml.SafeLoader(text)
    try:
        return loader.get_single_data()
    except RecursionError:
        raise YAMLNestingError(loader_mark(loader)) from None
    finally:
        loader.dispose()


def yaml_size(data: Any, limit: int) -> int:
    """How many values the decoded YAML holds, counting each use of an alias (so a "billion laughs" document or a
    self-referencing one stops the count instead of the process); stops at ``limit + 1``."""
    count, stack = 0, [data]
    while stack:
        value = stack.pop()
        count += 1
        if count > limit:
            return count
        if isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return count


def yaml_within(data: Any, limit: int) -> bool:
    """Whether the decoded YAML holds at most ``limit`` values (see :func:`yaml_size`)."""
    return yaml_size(data, limit) <= limit
