"""Words for hands and verdicts, in English and French, spoken to players.

>>> from companion.engine.cards import parse_cards
>>> from companion.engine.gang.ranking import rank_five
>>> describe(rank_five(parse_cards("Kh Kd 9c 9s 2h")), "fr")
'deux paires, rois et neuf'
"""

from __future__ import annotations

from companion.engine.cards import Rank
from companion.engine.gang.ranking import Category, HandValue, Ranking
from companion.engine.gang.table import FRANCOIS
from companion.messages import has_text, text

__all__ = ["describe", "category_name", "explain_win", "hand_label", "rank_word"]

# Categories that name their deciding ranks as another category does.
_SAME_PARTS = {
    Category.FLUSH: Category.HIGH_CARD,
    Category.STRAIGHT_FLUSH: Category.STRAIGHT,
    Category.FLUSH_HOUSE: Category.FULL_HOUSE,
    Category.FLUSH_FIVE: Category.FIVE_OF_A_KIND,
}


def _rank(start: str, rank: Rank, lang: str) -> str:
    """One form of a rank's word, by its keys' start: ``words.rank.one.`` (roi),
    ``words.rank.many.`` (rois), ``words.rank.of.`` (de rois), ``words.rank.high.`` (au roi)."""
    return text(start + rank.name.lower(), lang)


def rank_word(rank: Rank, lang: str, plural: bool = False) -> str:
    """``king``/``kings`` or ``roi``/``rois``."""
    return _rank("words.rank.many." if plural else "words.rank.one.", rank, lang)


def _symbol(rank: Rank) -> str:
    return "10" if rank == Rank.TEN else rank.symbol


def category_name(category: Category, lang: str) -> str:
    return text(f"words.category.{category.name.lower()}", lang)


def describe(value: HandValue, lang: str = "en") -> str:
    """A hand in words: ``two pair, kings and nines`` / ``deux paires, rois et neuf``."""
    d = value.deciding
    cat = value.category
    if not d:  # six-three-hands' empty sub-hand, as it stood at pre-flop
        return text("words.describe.empty", lang)
    if cat is Category.HIGH_CARD and value.ranking is not Ranking.HIGH:
        return "-".join(_symbol(r) for r in d)
    if cat is Category.STRAIGHT_FLUSH and d[0] == Rank.ACE:
        return text("words.describe.royal_flush", lang)
    return text(
        f"words.describe.{cat.name.lower()}",
        lang,
        one=_rank("words.rank.one.", d[0], lang),
        top=_rank("words.rank.many.", d[0], lang),
        second=_rank("words.rank.many.", d[1], lang) if len(d) > 1 else "",
        of=_rank("words.rank.of.", d[0], lang),
        high=_rank("words.rank.high.", d[0], lang),
    )


def hand_label(hand_id: str, lang: str = "en") -> str:
    """Who a hand belongs to, as a sentence subject: ``Bob``, ``Bob, hand 1``, ``François``."""
    if hand_id == FRANCOIS:
        return text("words.hand.francois", lang)
    if "+" in hand_id:
        return text("words.hand.shared", lang, hand=hand_id)
    owner, _, part = hand_id.partition("/")
    if not part:
        return owner
    half = f"words.hand.half.{part}"
    word = text(half, lang) if has_text(half) else text("words.hand.numbered", lang, part=part)
    return text("words.hand.owned", lang, owner=owner, word=word)


def _subject(hand_id: str, value: HandValue, lang: str) -> str:
    whole = "/" not in hand_id and "+" not in hand_id
    key = "words.hand.subject" if whole else "words.hand.subject_part"
    return text(key, lang, label=hand_label(hand_id, lang), desc=describe(value, lang))


def _part(category: Category, index: int, lang: str) -> str:
    """What the ``index``-th deciding rank is; ranks past the named ones take the last name."""
    named = _SAME_PARTS.get(category, category).name.lower()
    while index > 0 and not has_text(f"words.part.{named}.{index}"):
        index -= 1
    return text(f"words.part.{named}.{index}", lang)


def _why(winner: HandValue, loser: HandValue, lang: str) -> str:
    low = winner.ranking is not Ranking.HIGH
    if winner.category != loser.category:
        key = "words.why.category_low" if low else "words.why.category"
        return text(
            key,
            lang,
            winner=category_name(winner.category, lang),
            loser=category_name(loser.category, lang),
        )
    # Hands of one category decide on as many ranks; any pair of hands is still explained.
    for index, (w_rank, l_rank) in enumerate(zip(winner.deciding, loser.deciding, strict=False)):
        if w_rank != l_rank:
            return text(
                "words.why.rank_low" if low else "words.why.rank",
                lang,
                part=_part(winner.category, index, lang),
                winner=_symbol(w_rank),
                loser=_symbol(l_rank),
            )
    return text("words.why.tie", lang)


def explain_win(
    winner_id: str, winner: HandValue, loser_id: str, loser: HandValue, lang: str = "en"
) -> str:
    """One sentence: who beats whom and what decides it.

    >>> from companion.engine.cards import parse_cards
    >>> from companion.engine.gang.ranking import rank_five
    >>> bob = rank_five(parse_cards("Kh Kd 9c 9s 2h"))
    >>> ana = rank_five(parse_cards("Ks Kc 7c 7s 3h"))
    >>> explain_win("Bob", bob, "Ana", ana)
    "Bob's two pair, kings and nines, beats Ana's two pair, kings and sevens: second pair 9 over 7"
    """
    win = _subject(winner_id, winner, lang)
    desc = describe(winner, lang)
    # A subject ending in a hand with a comma of its own takes one before the verb.
    comma = "," in desc and win.endswith(desc)
    return text(
        "words.beats_after_comma" if comma else "words.beats",
        lang,
        winner=win,
        loser=_subject(loser_id, loser, lang),
        why=_why(winner, loser, lang),
    )
