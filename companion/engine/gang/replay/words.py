"""Words for the heist replay, in English and French: streets, methods and token mistakes.

>>> from companion.engine.gang.replay.odds import Mistake, Street
>>> m = Mistake(Street.FLOP, "Ana", 1, 3, 0.62, 0.05, 0.2)
>>> mistake_text(m)
'at the flop Ana was most likely the 3, not the 1 (62% against 5%)'
>>> mistake_text(m, "fr")
'au flop, Ana était le plus probablement le 3, pas le 1 (62 % contre 5 %)'
>>> best = BestTokens({"Ana": 2, "Bob": 1}, 0.62, Method(True, 820, 0.0), True, 0.3)
>>> best_tokens_text(best)
'best tokens: 1 Bob; 2 Ana — the vault opens 62% of the time (with the tokens taken: 30%)'
>>> print(best_tokens_text(best, "fr"))
meilleurs jetons : 1 Bob ; 2 Ana — le coffre s'ouvre 62 % du temps (avec les jetons pris : 30 %)
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.engine.gang.replay.records import (
    BestTokens,
    Method,
    Mistake,
    StoodHand,
    StoodStreet,
    Street,
)
from companion.engine.gang.words import describe, hand_label
from companion.messages import text
from companion.messages.numbers import numbers

__all__ = [
    "street_name",
    "street_phrase",
    "percent",
    "method_text",
    "mistake_text",
    "BestTokensWords",
    "best_tokens_words",
    "best_tokens_text",
    "view_title",
    "stood_position",
    "stood_hand_text",
    "stood_order_text",
    "misplaced_text",
    "stood_token_lines",
]


def _lang(lang: str) -> str:
    return "fr" if lang == "fr" else "en"


def street_name(street: Street, lang: str = "en") -> str:
    return text(f"words.street.{street.value}", lang)


def street_phrase(street: Street, lang: str = "en") -> str:
    """``at the flop`` / ``au flop``."""
    return text(f"words.street_at.{street.value}", lang)


def percent(p: float, lang: str = "en", digits: int = 0) -> str:
    """``62%`` / ``62 %`` (French puts a space before the sign and a comma for decimals)."""
    return numbers(lang).percent(p, digits)


def _number(n: int, lang: str) -> str:
    return numbers(lang).whole(n)


def method_text(method: Method, lang: str = "en") -> str:
    """How the numbers were obtained, with the sample count and error bar when sampled."""
    count = _number(method.count, lang)
    if method.exact and method.count == 1:
        return text("words.method.known", lang)
    if method.exact:
        return text("words.method.exact", lang, count=count)
    error = percent(method.std_error, lang, digits=1)
    return text("words.method.sampled", lang, count=count, seed=method.seed, error=error)


def mistake_text(mistake: Mistake, lang: str = "en") -> str:
    """One plain sentence: where the hand most likely ended, against the token it took."""
    who = hand_label(mistake.hand_id, _lang(lang))
    best, token = mistake.most_likely, mistake.token
    p_best, p_token = percent(mistake.p_most_likely, lang), percent(mistake.p_token, lang)
    at = street_phrase(mistake.street, lang)
    if mistake.p_most_likely > 1 - 1e-9:  # nothing left to chance: say it plainly
        return text("words.mistake.sure", lang, at=at, who=who, best=best, token=token)
    return text(
        "words.mistake.likely",
        lang,
        at=at,
        who=who,
        best=best,
        token=token,
        p_best=p_best,
        p_token=p_token,
    )


@dataclass(frozen=True)
class BestTokensWords:
    """``best_tokens_text``'s pieces, for a screen that lays them out on several lines."""

    title: str  # ``best tokens``
    tokens: tuple[str, ...]  # ``1 Bob``, ``2 Ana``: one per hand, token order
    opens: str  # ``the vault opens 62% of the time``
    unproven: str | None  # ``the best found, not proven best``, when the search was cut short
    taken: str | None  # ``with the tokens taken: 30%``, when tokens were recorded


def best_tokens_words(best: BestTokens, lang: str = "en") -> BestTokensWords:
    """The words of ``best_tokens_text``, one piece each."""
    lang = _lang(lang)
    order = sorted(best.tokens, key=lambda hand_id: best.tokens[hand_id])
    chance = percent(best.p_open, lang)
    taken = None
    if best.recorded_p_open is not None:
        recorded = percent(best.recorded_p_open, lang)
        taken = text("words.best.taken", lang, recorded=recorded)
    unproven = None if best.complete else text("words.best.unproven", lang)
    return BestTokensWords(
        text("words.best.title", lang),
        tuple(f"{best.tokens[h]} {hand_label(h, lang)}" for h in order),
        text("words.best.opens", lang, chance=chance),
        unproven,
        taken,
    )


def best_tokens_text(best: BestTokens, lang: str = "en") -> str:
    """The likeliest assignment to open the vault, its chance, and the recorded tokens' chance."""
    words = best_tokens_words(best, lang)
    tokens = text("words.best.between_tokens", lang).join(words.tokens)
    line = text("words.best.line", lang, title=words.title, tokens=tokens, opens=words.opens)
    for note in (words.unproven, words.taken):
        if note is not None:
            line += f" ({note})"
    return line


def view_title(view: str, lang: str = "en") -> str:
    """``by the hands as they stood`` (``stood``) or ``by the odds`` (``odds``)."""
    return text(f"words.view.{view}", lang)


def stood_position(hand: StoodHand) -> str:
    """``2``, or ``1–2`` for a hand tied over two positions."""
    if hand.lowest == hand.highest:
        return str(hand.lowest)
    return f"{hand.lowest}–{hand.highest}"


def stood_hand_text(hand: StoodHand, lang: str = "en") -> str:
    """``2 Ana (pair of sevens)``: where a hand stood, whose it is and what it was."""
    return text(
        "words.stood.hand",
        lang,
        position=stood_position(hand),
        who=hand_label(hand.hand.id, _lang(lang)),
        desc=describe(hand.hand.value, _lang(lang)),
    )


def stood_order_text(street: StoodStreet, lang: str = "en") -> str:
    """The hands as they stood at a street, weakest first."""
    between = text("words.stood.between", lang)
    return between.join(stood_hand_text(h, lang) for h in street.hands)


def misplaced_text(street: StoodStreet, hand: StoodHand, lang: str = "en") -> str:
    """``Ana took the 1, not the 2: the 1 was Bob's``, for a token that does not fit."""
    taker = street.taker(hand.token) if hand.token is not None else None
    return text(
        "words.stood.misplaced",
        lang,
        who=hand_label(hand.hand.id, _lang(lang)),
        token=hand.token,
        should=hand.should,
        taker=hand_label(taker.hand.id, _lang(lang)) if taker is not None else "",
    )


def stood_token_lines(street: StoodStreet, lang: str = "en") -> tuple[str, ...]:
    """The street's tokens judged by the hands as they stood: one line per token that does
    not fit, or one saying they all do; none without tokens."""
    if street.tokens is None:
        return ()
    wrong = street.disagreements
    if not wrong:
        return (text("words.stood.follow", lang),)
    return tuple(misplaced_text(street, h, lang) for h in wrong)
