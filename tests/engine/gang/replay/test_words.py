"""The best tokens' words: the one-line text and the pieces a screen lays out agree."""

from __future__ import annotations

import pytest

from companion.engine.gang.replay.odds import BestTokens, Method
from companion.engine.gang.replay.words import best_tokens_text, best_tokens_words

EXACT = Method(True, 990, 0.0)


@pytest.mark.parametrize(
    ("best", "lang", "expected"),
    [
        (
            BestTokens({"Ana/high": 2, "Bob": 1}, 0.5, EXACT, False, None),
            "en",
            "best tokens: 1 Bob; 2 Ana, high hand — the vault opens 50% of the time "
            "(the best found, not proven best)",
        ),
        (
            BestTokens({"Ana/high": 2, "Bob": 1}, 0.5, EXACT, False, 0.25),
            "fr",
            "meilleurs jetons : 1 Bob ; 2 Ana, main haute — le coffre s'ouvre 50 % du temps "
            "(le meilleur trouvé, sans preuve qu'il n'y a pas mieux) "
            "(avec les jetons pris : 25 %)",
        ),
        (
            BestTokens({"Cy": 1, "Ana": 3, "Bob": 2}, 1.0, EXACT, True, 0.0),
            "en",
            "best tokens: 1 Cy; 2 Bob; 3 Ana — the vault opens 100% of the time "
            "(with the tokens taken: 0%)",
        ),
    ],
)
def test_best_tokens_text_is_its_words_joined(best: BestTokens, lang: str, expected: str) -> None:
    assert best_tokens_text(best, lang) == expected
    words = best_tokens_words(best, lang)
    assert len(words.tokens) == len(best.tokens)
    pieces = [words.title, *words.tokens, words.opens, words.unproven, words.taken]
    assert all(piece in expected for piece in pieces if piece is not None)
    assert (words.unproven is None) == best.complete
    assert (words.taken is None) == (best.recorded_p_open is None)
