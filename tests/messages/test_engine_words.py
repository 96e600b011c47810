"""The engine's ``words.py`` modules hold grammar only: every word a player reads is in the
message tables, so a string literal there is a message key, a language code or letterless."""

from __future__ import annotations

import ast

from companion.messages import LANGS, en
from tests.helpers import ROOT

_WORDS_MODULES = sorted((ROOT / "companion" / "engine").rglob("words.py"))


def _is_key_or_prefix(value: str) -> bool:
    """A whole key, or the fixed start of a key built from a name (``words.rank.one.``)."""
    if value in en.MESSAGES:
        return True
    return value.endswith(".") and any(key.startswith(value) for key in en.MESSAGES)


def _allowed(value: str) -> bool:
    has_letters = any(ch.isalpha() for ch in value)
    return not has_letters or value in LANGS or _is_key_or_prefix(value)


def _docstrings(tree: ast.Module) -> set[int]:
    """The ids of the docstring nodes: prose for readers of the code, not for players."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _exports(tree: ast.Module) -> set[int]:
    """The ids of the names listed in ``__all__``: the module's own identifiers."""
    found = set()
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
            found |= {id(item) for item in ast.walk(node.value)}
    return found


def player_words(source: str) -> list[str]:
    """The string literals in ``source`` that read as words for players."""
    tree = ast.parse(source)
    skipped = _docstrings(tree) | _exports(tree)
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skipped
        and not _allowed(node.value)
    ]


def test_the_four_engine_words_modules_are_checked() -> None:
    names = {str(path.relative_to(ROOT)) for path in _WORDS_MODULES}
    assert names == {
        "companion/engine/gang/words.py",
        "companion/engine/gang/replay/words.py",
        "companion/engine/cribbage/words.py",
        "companion/engine/spit/words.py",
    }


def test_no_engine_words_module_holds_a_players_word() -> None:
    found = {
        str(path.relative_to(ROOT)): player_words(path.read_text(encoding="utf-8"))
        for path in _WORDS_MODULES
    }
    assert {path: words for path, words in found.items() if words} == {}


def test_the_check_finds_words_and_lets_keys_through() -> None:
    source = '''
"""A module docstring with words."""
__all__ = ["describe"]
NAMES = {"en": ("high card", "pair")}


def describe(part: str, lang: str) -> str:
    """A docstring."""
    if lang == "fr":
        return f"la main partagée {part}"
    return text(f"words.rank.one.{part}", lang) + text("words.why.tie", lang) + " — "
'''
    assert sorted(player_words(source)) == ["high card", "la main partagée ", "pair"]


def test_a_key_prefix_must_start_a_real_key() -> None:
    assert _is_key_or_prefix("words.rank.one.")
    assert _is_key_or_prefix("words.why.tie")
    assert not _is_key_or_prefix("tie.")
    assert not _is_key_or_prefix("tie")
