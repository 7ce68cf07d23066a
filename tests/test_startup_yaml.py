"""The preset reader streams a preset's items (probe_ui/files/yaml_stream.py): it must read what ``yaml.safe_load``
reads, with libyaml's parser and with the pure-Python one (a machine without libyaml), and refuse what it refuses."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from probe_ui.files.resources import PRESETS_DIR
from probe_ui.files.yaml_stream import DuplicateKeyError, stream_list

DOCUMENTS = {
    "items last": "name: x\ndescription: d\nitems:\n  - {id: a, question: q}\n  - id: b\n    question: r\n",
    "items first": "items: [{id: a, question: q}]\nname: x\n",
    "anchors across items": "items:\n  - &one {id: a, question: q, tags: &t [x, y]}\n"
                            "  - {id: b, question: q, tags: *t}\n"
                            "  - *one\n",
    "merge key in an item": "base: &b {question: q, kind: yesno}\nitems:\n  - {<<: *b, id: a}\n",
    "merge key brings the items": "defaults: &d {items: [{id: a, question: q}]}\n<<: *d\nname: x\n",
    "items not a list": "items: {id: a}\n",
    "empty items": "items: []\n",
    "no items": "name: x\n",
    "a list, not a mapping": "- 1\n- 2\n",
    "a scalar": "just text\n",
    "empty": "",
    "quoted question mark": "items:\n  - {id: a, question: 'Is it there?', answer: 'yes'}\n",
    "unicode and booleans": "items:\n  - {id: é, question: 'ça va?', answer: yes}\n",
}


def read(text: str, fast: bool) -> tuple[Any, list[Any]]:
    gen = stream_list(text, "items", fast=fast)
    items = []
    while True:
        try:
            items.append(next(gen))
        except StopIteration as done:
            head, listed = done.value
            return (head, items) if not listed else ({**head, "items": items}, items)


@pytest.mark.parametrize("fast", [True, False], ids=["libyaml", "pure-python"])
@pytest.mark.parametrize("name", list(DOCUMENTS))
def test_the_stream_reads_what_safe_load_reads(name: str, fast: bool) -> None:
    text = DOCUMENTS[name]
    expected = yaml.safe_load(text)
    head, _ = read(text, fast)
    assert head == expected


@pytest.mark.parametrize("fast", [True, False], ids=["libyaml", "pure-python"])
def test_every_shipped_preset_reads_the_same(fast: bool) -> None:
    for path in sorted(PRESETS_DIR.glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        assert read(text, fast)[0] == yaml.safe_load(text), path.name


@pytest.mark.parametrize("fast", [True, False], ids=["libyaml", "pure-python"])
@pytest.mark.parametrize("text", ["items: [\n  - id: x\n", "items: [1]\n---\nitems: [2]\n", "items: *nowhere\n",
                                  "a: 1\na: [\n"])
def test_what_safe_load_refuses_is_refused(text: str, fast: bool) -> None:
    with pytest.raises(yaml.YAMLError):
        yaml.safe_load(text)
    with pytest.raises(yaml.YAMLError):
        read(text, fast)


def test_items_given_twice_are_refused() -> None:
    with pytest.raises(DuplicateKeyError, match="given twice"):
        read("items: [{id: a}]\nitems: [{id: b}]\n", True)


def test_the_one_known_difference_between_the_parsers() -> None:
    """libyaml reads a plain '?' before ',' inside a flow mapping (``{question: Is it?, answer: A}``); PyYAML's
    pure-Python parser refuses it, as ``safe_load`` did before presets were streamed. Quoting works in both."""
    text = "items:\n  - {id: a, question: Is it?, answer: A}\n"
    assert read(text, True)[1] == [{"id": "a", "question": "Is it?", "answer": "A"}]
    with pytest.raises(yaml.YAMLError):
        read(text, False)
