"""Reading a YAML mapping with one long list in it an element at a time.

``yaml.safe_load`` of a 100k-item preset builds every YAML node and then every Python object (about 0.7 GB for
10 MB of YAML, and 90 s with the pure-Python parser). Here the list's elements are composed and constructed one at a
time, with libyaml's parser when PyYAML has it, so memory holds one element's nodes at a time; everything else in
the document (the "head") is built as usual, merge keys and anchors included.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import yaml
from yaml.composer import Composer, ComposerError
from yaml.constructor import SafeConstructor
from yaml.events import MappingEndEvent, MappingStartEvent, SequenceEndEvent, SequenceStartEvent, StreamEndEvent
from yaml.nodes import MappingNode, Node, ScalarNode
from yaml.resolver import Resolver

from probe_ui.errors import ProbeUIError
from probe_ui.files.yaml_limits import YAMLNestingError, loader_mark

try:
    from yaml._yaml import CParser
except ImportError:  # PyYAML without libyaml: the pure-Python parser reads the same events, more slowly
    CParser = None  # type: ignore[assignment, misc]


if CParser is not None:
    class _FastLoader(Composer, CParser, SafeConstructor, Resolver):  # type: ignore[misc, valid-type]
        """libyaml's parser, PyYAML's composer: the composer's methods take one node at a time, which the C
        loader (``CSafeLoader``) does not offer."""

        def __init__(self, stream: str) -> None:
            CParser.__init__(self, stream)
            Composer.__init__(self)
            SafeConstructor.__init__(self)
            Resolver.__init__(self)


def _loader(text: str, fast: bool) -> Any:
    return _FastLoader(text) if fast and CParser is not None else yaml.SafeLoader(text)


class DuplicateKeyError(ProbeUIError, ValueError):
    """The streamed key appears twice in the mapping."""


def stream_list(text: str, key: str, *, fast: bool = True,
                nodes: dict[str, Node] | None = None) -> Generator[Any, None, tuple[Any, bool]]:
    """Yield the elements of the list under ``key`` of a one-document mapping, as they are read; return the
    document without that key (or the whole document when it is not a mapping, or when ``key``'s value is not a
    list: then nothing is yielded and the value stays in it), and whether the list was there.

    Raises ``yaml.YAMLError`` (with marks) as ``safe_load`` would, a too-deep document as
    :class:`~probe_ui.files.yaml_limits.YAMLNestingError` (never a ``RecursionError``), and :class:`DuplicateKeyError`.
    ``fast=False``
    uses the pure-Python parser even where libyaml is there (as on a machine without it). ``nodes``, when given,
    holds the composed node of the element last yielded (``"element"``) and, at the end, of the head
    (``"head"``): where their values start, for messages (one element's nodes at a time, as before).
    """
    ld = _loader(text, fast)
    try:
        ld.get_event()  # stream start
        if ld.check_event(StreamEndEvent):
            return None, False
        ld.get_event()  # document start
        streamed = False
        if not ld.check_event(MappingStartEvent):
            head = ld.construct_document(ld.compose_node(None, None))
        else:
            start = ld.get_event()
            pairs: list[tuple[Node, Node]] = []
            while not ld.check_event(MappingEndEvent):
                key_node = ld.compose_node(None, None)
                if _is_key(key_node, key) and ld.check_event(SequenceStartEvent):
                    if streamed:
                        raise DuplicateKeyError(f"field '{key}' is given twice")
                    streamed = True
                    ld.get_event()
                    while not ld.check_event(SequenceEndEvent):
                        node = ld.compose_node(None, None)
                        if nodes is not None:
                            nodes["element"] = node
                        yield ld.construct_document(node)
                    ld.get_event()
                    continue
                pairs.append((key_node, ld.compose_node(None, None)))
            end = ld.get_event()
            tag = start.tag if start.tag not in (None, "!") else ld.resolve(MappingNode, None, start.implicit)
            head_node = MappingNode(tag, pairs, start.start_mark, end.end_mark, flow_style=start.flow_style)
            if nodes is not None:
                nodes["head"] = head_node
            head = ld.construct_document(head_node)
            if streamed and isinstance(head, dict) and key in head:  # a merge key (<<) brought a second one
                raise DuplicateKeyError(f"field '{key}' is given twice")
        ld.get_event()  # document end
        if not ld.check_event(StreamEndEvent):
            event = ld.get_event()
            raise ComposerError("expected a single document in the stream", None, "but found another document",
                                event.start_mark)
        return head, streamed
    except RecursionError:  # PyYAML composes nested collections recursively
        raise YAMLNestingError(loader_mark(ld)) from None
    finally:
        ld.dispose()


def _is_key(node: Node, key: str) -> bool:
    return isinstance(node, ScalarNode) and node.tag == "tag:yaml.org,2002:str" and node.value == key
