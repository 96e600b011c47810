"""The template tables: the same keys and placeholders in both languages, and a template for
every message the code can raise or show."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest

from companion.engine.cribbage.game import Phase
from companion.engine.gang.ranking import Ranking, Straights
from companion.engine.gang.variants import VARIANTS
from companion.engine.spit import VARIANTS as SPIT_VARIANTS
from companion.errors import IllegalMoveError, TableCode, TableError
from companion.messages import en, fr, phrase, text
from companion.storage import Outcome
from tests.helpers import ROOT

# Calls whose first string argument is a message key.
_KEYED = {
    "TableError",
    "InputError",
    "PhotoLayoutError",
    "InvalidRecordError",
    "CompanionError",
    "phrase",
    "text",
    "t",
    "of",  # Banner.of
}


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_both_languages_have_the_same_keys() -> None:
    assert set(en.MESSAGES) == set(fr.MESSAGES)


@pytest.mark.parametrize("key", sorted(en.MESSAGES))
def test_both_languages_fill_the_same_placeholders(key: str) -> None:
    assert _fields(en.MESSAGES[key]) == _fields(fr.MESSAGES[key])


def _keys_in_code() -> set[str]:
    """Every literal message key the package passes to an error, a phrase or a text."""
    found: set[str] = set()
    for path in (ROOT / "companion").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            first = node.args[0]
            literal = isinstance(first, ast.Constant) and isinstance(first.value, str)
            if name in _KEYED and literal:
                found.add(str(first.value))
            if name == "IllegalMoveError" and literal and len(node.args) > 1:
                rule = node.args[1]
                if isinstance(rule, ast.Constant):
                    words = [k.value for k in node.keywords if k.arg == "words"]
                    found.add(str(words[0].value) if words else f"{first.value}.{rule.value}")
    return found


def test_every_key_the_code_uses_has_a_template() -> None:
    missing = sorted(key for key in _keys_in_code() if key not in en.MESSAGES)
    assert missing == []


@pytest.mark.parametrize(
    "key",
    [
        *(f"variant.{name}" for name in VARIANTS),
        *(f"ranking.{r.value}" for r in Ranking),
        *(f"straights.{s.value}" for s in Straights),
        *(f"log.outcome_{o.value}" for o in Outcome),
        *(f"cribbage.phase_{p.value}" for p in Phase),
        *(f"spit_v_{name}" for name in SPIT_VARIANTS),
        *(code for name, code in vars(TableCode).items() if name.isupper()),
    ],
)
def test_every_name_players_see_has_words(key: str) -> None:
    assert key in en.MESSAGES and key in fr.MESSAGES


def test_places_are_said_in_the_readers_language() -> None:
    error = TableError("cribbage.card_count", where=phrase("place.crib"), size=4, n=3, cards=())
    assert error.message("en") == "the crib needs 4 cards, not 3: —"
    assert error.message("fr") == "le crib demande 4 cartes, pas 3 : —"


@pytest.mark.parametrize(
    ("n", "english", "french"),
    [(0, "0 cards", "0 carte"), (1, "1 card", "1 carte"), (2, "2 cards", "2 cartes")],
)
def test_plurals_follow_each_language(n: int, english: str, french: str) -> None:
    args = {"where": "x.jpg", "n": n, "cards": ()}
    assert f"read {english}" in text("photo.show_count", "en", **args)
    assert french in text("photo.show_count", "fr", **args)


def test_a_refused_move_names_no_internal_rule() -> None:
    error = IllegalMoveError("spit", "rank_not_adjacent", card="5♣", on="7♥")
    assert error.rule == "rank_not_adjacent"
    for lang in ("en", "fr"):
        assert "rank_not_adjacent" not in error.message(lang)


def test_errors_carry_no_prose() -> None:
    # Every error is raised with a code (a key of the tables), never with a sentence.
    coded = {"TableError", "InputError", "PhotoLayoutError", "InvalidRecordError", "CompanionError"}
    for path in (Path(ROOT) / "companion").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name in coded and node.args:
                first = node.args[0]
                is_code = isinstance(first, ast.Constant) and " " not in str(first.value)
                assert is_code or not isinstance(first, ast.Constant | ast.JoinedStr), (
                    f"{path}:{node.lineno}"
                )
            if name == "IllegalMoveError":
                assert all(" " not in _literal_text(arg) for arg in node.args), (
                    f"{path}:{node.lineno}"
                )


def _literal_text(node: ast.expr) -> str:
    """The literal text of an argument (a string, or an f-string's fixed parts)."""
    if isinstance(node, ast.Constant):
        return str(node.value)
    if isinstance(node, ast.JoinedStr):
        return "".join(_literal_text(part) for part in node.values)
    return ""
