"""The Spit move box's help shows moves the box itself accepts, each one whole, in both
languages: no example joins several moves with a separator the box would refuse."""

from __future__ import annotations

import re

import pytest

from companion.formats.spit import parse_move
from companion.messages import text
from companion.ui.spit.state import SpitScreen


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_example_of_the_move_box_is_accepted_by_it(lang: str) -> None:
    help_text = text("spit_dispute_help", lang)
    examples = re.findall(r"[“«]\s?([^”»]+?)\s?[”»]", help_text)
    assert len(examples) == 5, help_text
    for example in examples:
        parse_move(example, 5)
        screen = SpitScreen().with_move_text(example)
        assert screen.move == example
    assert ";" not in help_text
