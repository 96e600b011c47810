"""The table-side app (``companion app``): screens built from plain state, served by Flet.

The state and its rules import nothing from Flet, so they are used and tested without a client.
"""

from companion.ui.state import AppState, Banner, Problem, Rules, ShowdownState

__all__ = ["AppState", "Banner", "Problem", "Rules", "ShowdownState"]
