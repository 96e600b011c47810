"""Heist replay: street by street, the chance of each final position for every hand.

Once every hole card is revealed, what each hand could still become at an earlier street is a
matter of counting: every completion of the river from the cards nobody held is equally likely.
For each street (pre-flop: no river card known; flop: 3; turn: 4; river: 5) and each hand this
module gives, with ties split evenly between the positions they cover:

- ``everyone``: the distribution of its final position knowing all hole cards (exact whenever the
  completions can be counted within a few seconds, else seeded Monte Carlo);
- ``own``: the distribution knowing only that hand's own cards and the public river cards, the
  other players' cards being dealt at random too (exact when small, else seeded Monte Carlo).

The deck is ``decks`` x 52 natural cards plus every wild card seen at the table. Every variant
runs on a numpy path: under standard rules without wild cards, classic, two-of-four,
four-two-hands, two rivers and circular on ``replay_fast``'s shared boards; every other table
(lowball, wrap, wild cards, two decks, more hole cards, high-low, François, six-three-hands) on
``rule_path``, which values fives through the rules' tables. Those enumerate when their work
estimate fits, else sample just enough for a standard error of 0.3 % knowing every hole card
and 0.5 % from one hand's own cards (``Settings``). ``Settings(numpy=False)`` sends every table
through the variant's own hand former instead (the checks' reference), whose choice between
enumerating and sampling follows an estimate of its cost (fives valued per deal), never a
clock, so the same table always gets the same method.

The result records live in ``replay_types`` and the deals counted in ``replay_deals``.

>>> from companion.engine.cards import parse_cards
>>> from companion.engine.gang.table import Player, Table
>>> table = Table((Player("Ana", parse_cards("As Ad")), Player("Bob", parse_cards("Kc Qc"))),
...               parse_cards("2h 7d 9s Jc 4h"))
>>> odds = everyone_odds(table, Street.TURN)
>>> [(h.hand_id, h.most_likely, round(h.positions[1], 3)) for h in odds]
[('Ana', 2, 0.909), ('Bob', 1, 0.091)]
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from companion.engine.cards import Card
from companion.engine.gang.ranking import TableRules
from companion.engine.gang.replay import board_values
from companion.engine.gang.replay.best_tokens import best_order, opening_weight
from companion.engine.gang.replay.deals import (
    Deal,
    Key,
    deal_at,
    exact_deals,
    joint_combinations,
    known_groups,
    rebuilt,
    sampled_deals,
    sampled_positions,
    table_groups,
)
from companion.engine.gang.replay.hands import token_hands
from companion.engine.gang.replay.limits import check_replayable
from companion.engine.gang.replay.records import (
    BestTokens,
    HandOdds,
    Method,
    Mistake,
    Replay,
    Settings,
    Street,
    StreetOdds,
)
from companion.engine.gang.replay.rule_path import deal_rows, deal_values, samples_for
from companion.engine.gang.replay.stood import stood_streets
from companion.engine.gang.showdown import check_tokens, form_hands
from companion.engine.gang.table import Hand, Table
from companion.engine.gang.variants import NumpyForm, variant_of

__all__ = [
    "Street",
    "Settings",
    "Method",
    "HandOdds",
    "StreetOdds",
    "BestTokens",
    "Mistake",
    "Replay",
    "everyone_odds",
    "own_odds",
    "street_odds",
    "best_tokens",
    "replay_table",
    "street_error",
    "find_mistakes",
    "chart_data",
    "uses_fast_path",
    "own_view_values",
    "token_hands",
]


MISTAKE_GAP = 0.25  # a token is a mistake when the best position is this much likelier


def _weights(hands: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """(H*H, H): the share of each position for each (weaker L, equal E) code, and its square."""
    share = np.zeros((hands * hands, hands))
    for weaker in range(hands):
        for equal in range(1, hands - weaker + 1):
            share[weaker * hands + equal - 1, weaker : weaker + equal] = 1 / equal
    return share, share**2


def _odds(
    hands: tuple[Hand, ...],
    counts: npt.NDArray[np.float64],
    total: int,
    exact: bool,
    seed: int | None,
) -> tuple[HandOdds, ...]:
    """HandOdds from code counts (one row per hand), with the standard error of sampling."""
    n = counts.shape[1]
    share, square = _weights(math.isqrt(n))
    mean = counts @ share / total
    error = 0.0
    if not exact and total > 1:
        variance = np.maximum(counts @ square / total - mean**2, 0.0)
        error = float(np.sqrt(variance / total).max())
    result = []
    for row, hand in zip(mean, hands, strict=True):
        method = Method(exact, total, error, None if exact else seed)
        result.append(HandOdds(hand.id, hand.owner, tuple(float(p) for p in row), method))
    return tuple(result)


def _beaten(hand_ids: tuple[str, ...], table: Table) -> tuple[int, ...]:
    """The final order: for each hand, how many hands it beats (``replay_fast.order_patterns``)."""
    values = {h.id: h.value.strength for h in variant_of(table).form(table)}
    strengths = [values[i] for i in hand_ids]
    return tuple(sum(t < s for t in strengths) for s in strengths)


# Milliseconds per five valued, hand forming and tallying included (measured on this project's
# 2-core machine), to choose between exact enumeration and sampling without timing anything at
# run time. A wild card makes each five it lies in try its values: about twice the work per deal.
_MS_PER_FIVE = 0.0095


def _cost_ms(table: Table) -> float:
    wilds = sum(c.is_wild for cards in table_groups(table).values() for c in cards)
    return _MS_PER_FIVE * variant_of(table).work(table) * (1 + wilds)


def _fast_samples(settings: Settings, std_error: float) -> int:
    """Samples on a numpy path: enough for ``std_error`` whatever the odds, up to the cap."""
    return max(settings.min_samples, min(settings.samples, samples_for(std_error)))


def _numpy_form(table: Table) -> NumpyForm:
    form = variant_of(table).numpy
    if form is None:
        raise ValueError(f"{table.variant} has no numpy path")  # a bug: uses_fast_path said so
    return form


def uses_fast_path(table: Table) -> bool:
    """Whether a numpy path values the table (both views): every variant whose hands they form
    (its ``numpy`` form), under any table rule, when every player holds cards."""
    return variant_of(table).numpy is not None and all(p.cards for p in table.players)


def _standard_path(table: Table) -> bool:
    """Whether the standard numpy path (``replay_fast``'s shared boards) values the table:
    standard rules, no wild card, and at most its form's hole cards per player (e.g. two per
    hand on one river or two); else ``rule_path`` does (six-three-hands and high-low always)."""
    form = variant_of(table).numpy
    return (
        form is not None
        and form not in (NumpyForm.THREE_SPLIT, NumpyForm.HIGH_LOW)  # faster on the rule path
        and form.max_cards > 0
        and table.rules.for_hands == TableRules()
        and all(0 < len(p.cards) <= form.max_cards for p in table.players)
        and not any(c.is_wild for cards in table_groups(table).values() for c in cards)
    )


def _player_values(
    table: Table,
    name: str,
    cards: int,
    rows: int,
    rivers: int,
    value: Callable[[int, tuple[int, ...]], npt.NDArray[np.int64]],
) -> dict[str, npt.NDArray[np.int64]]:
    """A player's hand values on every row as the variant forms them (``variants``), given
    ``value(river, positions)``: the value of the cards at those positions of the player's own
    with that river."""
    every = tuple(range(cards))
    form = _numpy_form(table)
    if form is NumpyForm.BEST_PAIR:
        return {
            name: np.maximum.reduce([value(0, pair) for pair in itertools.combinations(every, 2)])
        }
    splits: list[tuple[tuple[int, ...], tuple[int, ...]]]
    if form is NumpyForm.PAIR_SPLIT:
        splits = [((0, j), tuple(c for c in (1, 2, 3) if c != j)) for j in (1, 2, 3)]
    elif rivers == 2:  # classic: the same cards play on each river
        splits = [(every, every)]
    else:
        return {name: value(0, every)}
    # The split and placement that maximise the stronger hand, then the weaker: values stay
    # below 2**24, so (stronger, weaker) packs into one comparable integer.
    placements = [(0, 1), (1, 0)] if rivers == 2 else [(0, 0)]
    best = np.zeros(rows, dtype=np.int64)
    for first, second in splits:
        for r1, r2 in placements:
            a, b = value(r1, first), value(r2, second)
            np.maximum(best, (np.maximum(a, b) << 24) | np.minimum(a, b), out=best)
    return {f"{name}/1": best >> 24, f"{name}/2": best & ((1 << 24) - 1)}


def _hand_values(
    table: Table, rivers: list[board_values.SharedBoards]
) -> dict[str, npt.NDArray[np.int64]]:
    """Each hand's value on every deal of the river(s), the hole cards being known."""
    values: dict[str, npt.NDArray[np.int64]] = {}
    rows = len(rivers[0].multiset)
    for p in table.players:
        ids = tuple(c.id for c in p.cards)

        def value(
            river: int, positions: tuple[int, ...], ids: tuple[int, ...] = ids
        ) -> npt.NDArray[np.int64]:
            return rivers[river].values_with(tuple(ids[k] for k in positions))

        values.update(_player_values(table, p.name, len(ids), rows, len(rivers), value))
    for s in table.shared:
        values[s.id] = rivers[0].values_with(tuple(c.id for c in s.cards))
    return values


Orders = tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]  # final orders and their counts


def _general(
    table: Table,
    deal: Deal,
    hand_ids: tuple[str, ...],
    settings: Settings,
    budget_s: float,
    seed_text: str,
) -> tuple[Orders, int, bool]:
    """Final orders over the deal's completions: exact within the budget, else sampled."""
    cost = _cost_ms(table) / 1000
    count = deal.count
    samples = max(settings.min_samples, min(settings.samples, int(budget_s / cost)))
    # Exact when it fits the budget, or when it is hardly more work than sampling would be.
    exact = count * cost <= budget_s or count <= 2 * samples
    if exact:
        deals = exact_deals(deal.pool, deal.sizes)
        total = count
    else:
        total = samples
        deals = sampled_deals(deal.pool, deal.sizes, random.Random(seed_text), total)
    orders = Counter(_beaten(hand_ids, rebuilt(table, deal.groups(dealt))) for dealt in deals)
    patterns = np.array(list(orders), dtype=np.int64).reshape(len(orders), len(hand_ids))
    return (patterns, np.array(list(orders.values()), dtype=np.float64)), total, exact


def _seed_text(settings: Settings, street: Street, view: str) -> str:
    return f"{settings.seed}:{street.value}:{view}"


@dataclass(frozen=True)
class _Everyone:
    """The final orders a street leads to, knowing every hole card, with their counts."""

    hands: tuple[Hand, ...]
    orders: Orders
    total: int
    exact: bool

    def odds(self, seed: int) -> tuple[HandOdds, ...]:
        counts = board_values.pattern_position_counts(*self.orders)
        return _odds(self.hands, counts, self.total, self.exact, seed)


def _everyone(
    table: Table, street: Street, settings: Settings, hands: tuple[Hand, ...] | None = None
) -> _Everyone:
    """The final orders of ``hands`` (default: every hand) a street leads to."""
    hands = form_hands(table) if hands is None else hands
    ids = tuple(h.id for h in hands)
    deal = deal_at(table, street, None)
    if settings.numpy and uses_fast_path(table):
        if _standard_path(table):
            orders, total, exact = _fast_everyone(table, deal, settings, street, ids)
        else:
            rows = deal_rows(
                table, deal, settings, street, _fast_samples(settings, settings.everyone_error)
            )
            orders = board_values.order_patterns(deal_values(table, rows, ids))
            total, exact = rows.count, rows.exact
    else:
        orders, total, exact = _general(
            table, deal, ids, settings, settings.budget_s, _seed_text(settings, street, "everyone")
        )
    return _Everyone(hands, orders, total, exact)


def everyone_odds(
    table: Table, street: Street, settings: Settings = Settings()
) -> tuple[HandOdds, ...]:
    """Each hand's final-position distribution at ``street``, knowing every hole card."""
    return _everyone(table, street, settings).odds(settings.seed)


def _best_tokens(everyone: _Everyone, seed: int, tokens: Mapping[str, int] | None) -> BestTokens:
    patterns, weights = everyone.orders
    found = best_order(patterns, weights)
    ids = [h.id for h in everyone.hands]
    p_open = found.weight / everyone.total
    error = 0.0 if everyone.exact else math.sqrt(p_open * (1 - p_open) / everyone.total)
    method = Method(everyone.exact, everyone.total, error, None if everyone.exact else seed)
    recorded = None
    if tokens is not None:
        order = tuple(sorted(range(len(ids)), key=lambda i: tokens[ids[i]]))
        recorded = opening_weight(patterns, weights, order) / everyone.total
    return BestTokens(
        {ids[i]: k + 1 for k, i in enumerate(found.order)}, p_open, method, found.complete, recorded
    )


def best_tokens(
    table: Table,
    street: Street,
    settings: Settings = Settings(),
    tokens: Mapping[str, int] | None = None,
) -> BestTokens:
    """The token assignment likeliest to open the vault at ``street``, knowing every hole card,
    and the chance ``tokens`` (the recorded ones) had."""
    hands = token_hands(table, street, tokens)
    if tokens is not None:
        check_tokens(hands, tokens)
    return _best_tokens(_everyone(table, street, settings, hands), settings.seed, tokens)


def own_odds(
    table: Table,
    street: Street,
    settings: Settings = Settings(),
    hands: tuple[Hand, ...] | None = None,
) -> tuple[HandOdds, ...]:
    """Each hand's final-position distribution at ``street`` among ``hands`` (default: every
    hand), knowing only its own cards."""
    hands = form_hands(table) if hands is None else hands
    ids = tuple(h.id for h in hands)
    views: dict[frozenset[Key], list[int]] = {}
    for index, hand in enumerate(hands):
        views.setdefault(known_groups(table, hand), []).append(index)
    result: list[HandOdds | None] = [None] * len(hands)
    draws: dict[tuple[int, int], npt.NDArray[np.int64]] = {}
    rule_draws: dict[tuple[int, int], npt.NDArray[np.integer]] = {}
    for known, members in views.items():
        deal = deal_at(table, street, known)
        view = "own:" + ",".join(f"{k}{i}" for k, i in sorted(known))
        if settings.numpy and uses_fast_path(table) and not _standard_path(table):
            samples = _fast_samples(settings, settings.own_error)
            rows = deal_rows(table, deal, settings, street, samples, rule_draws)
            counts = board_values.position_counts(deal_values(table, rows, ids))
            total, exact = rows.count, rows.exact
        elif settings.numpy and uses_fast_path(table):
            counts, total, exact = _fast_own(table, deal, settings, street, draws, ids)
        else:
            orders, total, exact = _general(
                table,
                deal,
                ids,
                settings,
                settings.budget_s / len(views),
                _seed_text(settings, street, view),
            )
            counts = board_values.pattern_position_counts(*orders)
        odds = _odds(hands, counts, total, exact, settings.seed)
        for index in members:
            result[index] = odds[index]
    return tuple(h for h in result if h is not None)


def _ids(cards: tuple[Card, ...]) -> npt.NDArray[np.int64]:
    return np.array([c.id for c in cards], dtype=np.int64)


def _fast_everyone(
    table: Table, deal: Deal, settings: Settings, street: Street, hand_ids: tuple[str, ...]
) -> tuple[Orders, int, bool]:
    """Every completion of the river(s), evaluated for all hands at once."""
    pool = _ids(deal.pool)
    sizes = deal.sizes  # knowing every hole card, only the rivers' ends are unknown
    raw = math.prod(math.comb(len(pool), s) for s in sizes)
    if raw * _numpy_form(table).work <= settings.fast_exact_limit:
        chosen = (
            board_values.combinations_array(len(pool), sizes[0])
            if len(sizes) == 1
            else joint_combinations(len(pool), sizes)
        )  # one empty row at the river
        count, exact = len(chosen), True
    else:  # two rivers before the turn, or a lowered limit
        samples = _fast_samples(settings, settings.everyone_error)
        rng = np.random.default_rng([settings.seed, list(Street).index(street)])
        chosen = sampled_positions(rng, samples, len(pool), sum(sizes))
        count, exact = samples, False
    cards = pool[chosen]
    columns = dict(zip(deal.unknown, itertools.accumulate(deal.sizes, initial=0), strict=False))
    rivers = []
    for key in sorted(k for k in deal.fixed if k[0] == "board"):
        start = next((at for (k, _), at in columns.items() if k == key), 0)
        size = 5 - len(deal.fixed[key])
        fixed = np.broadcast_to(_ids(deal.fixed[key]), (len(cards), 5 - size))
        rivers.append(np.column_stack([fixed, cards[:, start : start + size]]))
    values = _hand_values(
        table, [board_values.SharedBoards(board_values.card_masks(r)) for r in rivers]
    )
    return (
        board_values.order_patterns(np.stack([values[h] for h in hand_ids], axis=1)),
        count,
        exact,
    )


def _fast_own(
    table: Table,
    deal: Deal,
    settings: Settings,
    street: Street,
    draws: dict[tuple[int, int], npt.NDArray[np.int64]],
    ids: tuple[str, ...],
) -> tuple[npt.NDArray[np.float64], int, bool]:
    """Deals of the other players' cards and the river's end, from one player's point of view.

    Sampled deals are positions in the pool, drawn once per pool size and street: each player's
    pool maps them to its own cards, so every player's sample is uniform (and the draw is paid
    once, not once per player).
    """
    pool = _ids(deal.pool)
    sizes = deal.sizes
    raw = math.prod(math.comb(len(pool), s) for s in sizes)
    if raw * _numpy_form(table).work <= settings.own_exact_limit:
        chosen, exact = joint_combinations(len(pool), sizes), True
    else:
        shape = (len(pool), sum(sizes))
        if shape not in draws:
            rng = np.random.default_rng([settings.seed, list(Street).index(street), *shape])
            samples = _fast_samples(settings, settings.own_error)
            draws[shape] = sampled_positions(rng, samples, *shape)
        chosen, exact = draws[shape], False
    cards = pool[chosen]
    dealt: dict[Key, npt.NDArray[np.int64]] = {}
    for (key, size), start in zip(
        deal.unknown, itertools.accumulate(deal.sizes, initial=0), strict=False
    ):
        dealt[key] = cards[:, start : start + size]
    boards = []
    for river in (0, 1) if table.two_rivers else (0,):
        board = board_values.card_masks(_ids(deal.fixed[("board", river)]))
        if ("board", river) in dealt:
            board = board_values.card_masks(dealt[("board", river)]) | board
        boards.append(np.broadcast_to(board, (len(cards),)))

    def per_row(key: Key, known: tuple[Card, ...]) -> npt.NDArray[np.int64]:
        return dealt.get(key, np.broadcast_to(_ids(known), (len(cards), len(known))))

    holes = {i: per_row(("cards", i), p.cards) for i, p in enumerate(table.players)}
    shared = {j: per_row(("shared", j), h.cards) for j, h in enumerate(table.shared)}
    values = own_view_values(table, boards, holes, shared)
    return (
        board_values.position_counts(np.stack([values[h] for h in ids], axis=1)),
        len(cards),
        exact,
    )


def own_view_values(
    table: Table,
    boards: Sequence[npt.NDArray[np.int64]],
    holes: Mapping[int, npt.NDArray[np.int64]],
    shared: Mapping[int, npt.NDArray[np.int64]] | None = None,
) -> dict[str, npt.NDArray[np.int64]]:
    """Each hand's value on every row, the hole cards varying by row: ``boards`` holds each
    river's card mask per row, ``holes`` each player's card ids per row (rows x cards), and
    ``shared`` those of the circular variant's shared hands (by index)."""
    values: dict[str, npt.NDArray[np.int64]] = {
        table.shared[j].id: board_values.values_from_masks(
            boards[0] | board_values.card_masks(cards)
        )
        for j, cards in (shared or {}).items()
    }
    for i, p in enumerate(table.players):
        hole = holes[i]

        def value(
            river: int, positions: tuple[int, ...], hole: npt.NDArray[np.int64] = hole
        ) -> npt.NDArray[np.int64]:
            return board_values.values_from_masks(
                boards[river] | board_values.card_masks(hole[:, list(positions)])
            )

        values.update(
            _player_values(table, p.name, hole.shape[1], len(boards[0]), len(boards), value)
        )
    return values


def street_odds(
    table: Table,
    street: Street,
    settings: Settings = Settings(),
    tokens: Mapping[str, int] | None = None,
) -> StreetOdds:
    """Both views of every hand at one street (and the tokens recorded then, checked); a
    table past the replay's bound is refused first (``limits``)."""
    check_replayable(table)
    hands = token_hands(table, street, tokens)
    if tokens is not None:
        check_tokens(hands, tokens)
    board = table.board[: street.known]
    board2 = table.board2[: street.known] if table.two_rivers else ()
    everyone = _everyone(table, street, settings, hands)
    return StreetOdds(
        street,
        board,
        board2,
        everyone.odds(settings.seed),
        own_odds(table, street, settings, hands),
        tokens,
        _best_tokens(everyone, settings.seed, tokens),
    )


def find_mistakes(streets: tuple[StreetOdds, ...], gap: float = MISTAKE_GAP) -> tuple[Mistake, ...]:
    """Tokens whose position was at least ``gap`` less likely than the best one, biggest first."""
    found = []
    for odds in streets:
        if odds.tokens is None:
            continue
        own = {h.hand_id: h for h in odds.own}
        for hand in odds.everyone:
            token = odds.tokens[hand.hand_id]
            best = hand.most_likely
            mistake = Mistake(
                odds.street,
                hand.hand_id,
                token,
                best,
                hand.positions[best - 1],
                hand.positions[token - 1],
                own[hand.hand_id].positions[token - 1],
            )
            if token != best and mistake.gap >= gap - 1e-12:
                found.append(mistake)
    return tuple(sorted(found, key=lambda m: m.gap, reverse=True))


def street_error(odds: StreetOdds) -> float:
    """The largest standard error of any probability the street reports (0 when all exact)."""
    methods = [h.method for h in (*odds.everyone, *odds.own)]
    if odds.best is not None:
        methods.append(odds.best.method)
    return max(m.std_error for m in methods)


def replay_table(
    table: Table,
    tokens_by_street: Mapping[str, Mapping[str, int]] | None = None,
    settings: Settings = Settings(),
    progress: Callable[[StreetOdds], None] | None = None,
) -> Replay:
    """The whole replay: every street, both views, the biggest token mistakes and the hands as
    they stood (``stood``); ``progress`` hears of each street as soon as it is done."""
    hands = form_hands(table)
    recorded = dict(tokens_by_street or {})
    streets = []
    for street in Street:
        streets.append(street_odds(table, street, settings, recorded.get(street.value)))
        if progress is not None:
            progress(streets[-1])
    found = tuple(streets)
    return Replay(hands, found, find_mistakes(found), stood_streets(table, recorded))


def chart_data(replay: Replay) -> dict[str, dict[str, dict[str, list[float]]]]:
    """Plain data for a chart per hand: ``{hand id: {view: {street: [P(1), ..., P(N)]}}}``."""
    chart: dict[str, dict[str, dict[str, list[float]]]] = {}
    for odds in replay.streets:
        for view, hands in (("everyone", odds.everyone), ("own", odds.own)):
            for hand in hands:
                per_view = chart.setdefault(hand.hand_id, {}).setdefault(view, {})
                per_view[odds.street.value] = list(hand.positions)
    return chart
