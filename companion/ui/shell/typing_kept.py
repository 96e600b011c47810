"""Text a user is typing survives a re-render of the page.

As the user types, the web client patches the field's ``value`` onto the control the server
rendered last (``Session.apply_patch``); nothing reaches the state before submit or blur. A
re-render caused by anything else (another field's late blur, a photo read, a tap) diffs that
typed value against the new render's value, still the state's old text, and sends the old text
back: the line being typed is wiped. So before each render goes out, a field whose state text
has not changed since the last render takes the text the client has now. Its diff is then
empty and nothing is sent, so the client's newer keystrokes cannot be overwritten by an older
copy either (a per-keystroke ``on_change`` draft in the state would be, when a keystroke lands
between the event and the re-render). When the state's text did change (submit parsed it, a
photo or a fix set the cards), or the screen was reset (a new table: the field's ``data``, the
screen's reset count, changed; an empty field stays empty then, so its text alone cannot tell),
the state's text is shown, as before.

Only fields that commit their text on blur are kept: their text is the state's (cards, players).
A field acting only on submit (a preset's name, a token order, points) is a command line that the
re-render after its use clears, as before.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterator
from typing import Any

import flet as ft

__all__ = ["Rendered", "keep_typing", "text_fields"]


@dataclasses.dataclass(frozen=True)
class Rendered:
    """A field as last sent: the control the client's typing patches, the state's text, and the
    field's ``data`` (a screen's reset count, where it has one)."""

    field: ft.TextField
    text: str
    mark: Any


def _children(control: Any) -> Iterator[ft.BaseControl]:
    # Any field of a control may hold controls (content, controls, actions, title...).
    for spec in dataclasses.fields(control):
        if spec.name.startswith("_"):
            continue
        value = getattr(control, spec.name, None)
        if isinstance(value, ft.BaseControl):
            yield value
        elif isinstance(value, list):
            yield from (v for v in value if isinstance(v, ft.BaseControl))


def text_fields(root: ft.BaseControl) -> Iterator[ft.TextField]:
    """Every keyed text field under ``root`` that commits its text on blur, depth first.

    A component (e.g. the webcam panel) is skipped: its body is built later, by Flet.
    """
    stack = [root]
    while stack:
        control = stack.pop()
        if isinstance(control, ft.Component):
            continue
        if isinstance(control, ft.TextField):
            if control.key is not None and control.on_blur is not None:
                yield control
            continue
        stack.extend(reversed(list(_children(control))))


def keep_typing(root: ft.BaseControl, last: dict[Any, Rendered]) -> dict[Any, Rendered]:
    """Give ``root``'s fields the client's typed text where the state's text is unchanged.

    ``last`` is what the previous render returned; the result is kept for the next one. A key
    found twice is left alone: the fields cannot be told apart.
    """
    fields = list(text_fields(root))
    seen = Counter(f.key for f in fields)
    now: dict[Any, Rendered] = {}
    for field in fields:
        if seen[field.key] > 1:
            continue
        text = str(field.value)
        before = last.get(field.key)
        if (
            before is not None
            and before.text == text
            and before.mark == field.data
            and before.field.value is not None
        ):
            field.value = before.field.value
        now[field.key] = Rendered(field, text, field.data)
    return now
