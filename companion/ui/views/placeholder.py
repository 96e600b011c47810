"""Cribbage and Spit: navigation entries only, until their own issues build the screens."""

from __future__ import annotations

import flet as ft

from companion.ui.state import AppState
from companion.ui.text import t

__all__ = ["coming_view"]


def coming_view(state: AppState) -> ft.Control:
    key = "coming" if state.screen == "cribbage" else "coming_spit"
    return ft.Column([
        ft.Text(t(f"nav_{state.screen}", state.lang), size=22, weight=ft.FontWeight.BOLD),
        ft.Text(t(key, state.lang), key="coming"),
    ])
