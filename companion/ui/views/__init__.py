"""Screens built from ``AppState``: plain functions returning Flet controls, no state of their
own."""

from companion.ui.views.root import Dispatch, bug_view, root_view

__all__ = ["Dispatch", "bug_view", "root_view"]
