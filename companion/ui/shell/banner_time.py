"""How long the banner stays over the page's foot: long enough to be read, then it goes by
itself (a tap closes it sooner), so that it never keeps covering what lies under it.

>>> from companion.ui.kit.banner import Banner
>>> shown_for(Banner.of("heist_saved", n=3), "en")
5.0
>>> shown_for(Banner.of("seat.misfit"), "en") > shown_for(Banner.of("heist_saved", n=3), "en")
True
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import flet as ft

from companion.ui.kit.banner import Banner
from companion.ui.shell.state import AppState

__all__ = ["LEAST_S", "MOST_S", "shown_for", "use_banner_time"]

LEAST_S = 5.0  # a short message, read at a glance
MOST_S = 15.0  # the longest message, read slowly
PER_CHARACTER_S = 0.06  # a slow reader reads about 15 characters a second
ERROR_TIMES = 2.0  # an error says what to do: it stays longer (still never a minute)


def shown_for(banner: Banner, lang: str) -> float:
    """Seconds ``banner`` stays: its reading time, within ``LEAST_S``..``MOST_S``; an error's
    twice that."""
    seconds = min(MOST_S, max(LEAST_S, PER_CHARACTER_S * len(banner.text(lang))))
    return seconds * (ERROR_TIMES if banner.error else 1.0)


def use_banner_time(state: AppState, set_state: Callable[[Any], None]) -> None:
    """Take the banner away once it was shown its time, unless another replaced it."""
    banner = state.banner

    async def expire() -> None:
        if banner is None:
            return
        await asyncio.sleep(shown_for(banner, state.lang))
        set_state(
            lambda current: current.with_banner(None) if current.banner is banner else current
        )

    # By identity: the same words shown again are another banner, with their own time.
    ft.use_effect(expire, [id(banner)])
