"""A guard for decoded YAML: aliases can make a small file expand into a structure too big to walk."""

from __future__ import annotations

from typing import Any


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
