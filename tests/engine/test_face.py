"""The engine's public face: a few names, each said in the package's docstring."""

from __future__ import annotations

import companion.engine as engine


def test_every_name_of_the_face_is_documented_in_the_package_docstring() -> None:
    doc = engine.__doc__ or ""
    assert [name for name in engine.__all__ if f"``{name}" not in doc] == []


def test_the_face_stays_small() -> None:
    # Treys' face is 3 names; ranking hands and judging a showdown need about ten.
    assert len(engine.__all__) <= 12
    assert all(getattr(engine, name) is not None for name in engine.__all__)
