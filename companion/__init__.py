"""Companion: a table-side tool for real card-game nights."""

__all__ = ["__version__"]

__version__ = "0.1.0"
