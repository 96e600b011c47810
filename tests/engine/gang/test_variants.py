from __future__ import annotations

import pytest

from companion.engine.gang.ranking import Category, Ranking, TableRules
from companion.engine.gang.showdown import form_hands
from companion.engine.gang.table import Player, SharedHand, Table
from companion.errors import DuplicateCardError, TableError
from tests.helpers import cards


def table(board: str, *players: tuple[str, str], **kw: object) -> Table:
    return Table(
        players=tuple(Player(name, cards(hole)) for name, hole in players),
        board=cards(board),
        **kw,  # type: ignore[arg-type]
    )


def by_id(t: Table) -> dict[str, object]:
    return {h.id: h for h in form_hands(t)}


def test_classic_accepts_more_hole_cards() -> None:
    hands = by_id(table("2c 3d 6h Ts Jc", ("Ana", "Qh Kh Ah"), ("Bob", "4s 5s")))
    assert hands["Ana"].value.category is Category.STRAIGHT  # type: ignore[attr-defined]
    assert hands["Bob"].value.category is Category.STRAIGHT  # type: ignore[attr-defined]


def test_two_of_four_uses_at_most_two_hole_cards() -> None:
    t = table(
        "Ah Kh 2c 3d 7s", ("Ana", "Qh Jh Th 9h"), ("Bob", "Ac Ad 5s 6s"), variant="two-of-four"
    )
    hands = by_id(t)
    assert hands["Ana"].value.category is Category.HIGH_CARD  # type: ignore[attr-defined]
    assert hands["Bob"].value.category is Category.THREE_OF_A_KIND  # type: ignore[attr-defined]


def test_four_two_hands_split_choice() -> None:
    # K-K / 7-2 gives trip kings and two pair (sevens and deuces); K-7 / K-2 gives two pair
    # twice: the split maximises the stronger hand first.
    t = table(
        "Kh 7d 2s 9c 4h", ("Ana", "Ks Kc 7c 2c"), ("Bob", "3s 5s 8d Td"), variant="four-two-hands"
    )
    ana1 = by_id(t)["Ana/1"].value  # type: ignore[attr-defined]
    ana2 = by_id(t)["Ana/2"].value  # type: ignore[attr-defined]
    assert (ana1.category, ana2.category) == (Category.THREE_OF_A_KIND, Category.TWO_PAIR)
    assert [r.symbol for r in ana2.deciding] == ["7", "2", "K"]
    assert {h for h in by_id(t)} == {"Ana/1", "Ana/2", "Bob/1", "Bob/2"}


def test_high_low_hands() -> None:
    t = table("Ah Kh Qh 3c 2d", ("Ana", "Jh Th 4s 5s"), ("Bob", "Ac Ad 7s 8s"), variant="high-low")
    hands = by_id(t)
    assert hands["Ana/high"].value.category is Category.STRAIGHT_FLUSH  # type: ignore[attr-defined]
    low = hands["Ana/low"].value  # type: ignore[attr-defined]
    assert low.category is Category.HIGH_CARD
    assert [r.symbol for r in low.deciding] == ["Q", "5", "4", "3", "2"]
    assert hands["Bob/high"].value.category is Category.THREE_OF_A_KIND  # type: ignore[attr-defined]


@pytest.mark.parametrize("variant", ["classic", "four-two-hands"])
def test_two_rivers(variant: str) -> None:
    hole = "As Ad" if variant == "classic" else "As Ad Kc Qc"
    t = table(
        "Ah 2c 7d 9s Jh",
        ("Ana", hole),
        ("Bob", "3h 4h" if variant == "classic" else "3h 4h 5c 6c"),
        variant=variant,
        two_rivers=True,
        board2=cards("Kd Kh 2d 3s 8c"),
    )
    hands = by_id(t)
    assert {h for h in hands if h.startswith("Ana")} == {"Ana/1", "Ana/2"}
    assert hands["Ana/1"].value >= hands["Ana/2"].value  # type: ignore[attr-defined,operator]
    rivers = {hands["Ana/1"].river, hands["Ana/2"].river}  # type: ignore[attr-defined]
    assert rivers == {1, 2}


def test_two_rivers_classic_same_cards_on_each_river() -> None:
    t = table(
        "Ah 2c 7d 9s Jh",
        ("Ana", "As Ad"),
        ("Bob", "3h 4h"),
        two_rivers=True,
        board2=cards("Kd Kh 2d 3s 8c"),
    )
    hands = by_id(t)
    assert hands["Ana/1"].value.category is Category.THREE_OF_A_KIND  # type: ignore[attr-defined]
    assert hands["Ana/1"].river == 1  # type: ignore[attr-defined]
    assert hands["Ana/2"].value.category is Category.TWO_PAIR  # type: ignore[attr-defined]


def test_francois_hand() -> None:
    t = Table(
        players=(
            Player("Ana", cards("Ah Kd"), cards("Qs")[0]),
            Player("Bob", cards("2c 3c"), cards("Qd")[0]),
        ),
        board=cards("Qh 9c 8d 4s 2h"),
        variant="francois",
    )
    hands = by_id(t)
    assert hands["francois"].value.category is Category.THREE_OF_A_KIND  # type: ignore[attr-defined]
    assert hands["francois"].owner == "francois"  # type: ignore[attr-defined]


def test_circular_shared_hands() -> None:
    players = (
        Player("Ana", cards("Ah Kd")),
        Player("Bob", cards("2c 3c")),
        Player("Cy", cards("7s 7d")),
    )
    t = Table(
        players=players,
        board=cards("Qh 9c 8d 4s 2h"),
        variant="circular",
        shared=(
            SharedHand(("Ana", "Bob"), cards("Ts Js")),
            SharedHand(("Bob", "Cy"), cards("5h 6h")),
            SharedHand(("Cy", "Ana"), cards("9s 9h")),
        ),
    )
    hands = by_id(t)
    assert set(hands) == {"Ana", "Bob", "Cy", "Ana+Bob", "Bob+Cy", "Cy+Ana"}
    assert hands["Ana+Bob"].value.category is Category.STRAIGHT  # type: ignore[attr-defined]


@pytest.mark.parametrize("missing", [0, 1, 2])
def test_a_circle_needs_every_neighbour_pairs_hand(missing: int) -> None:
    """Issue #54: "à n joueurs il y a donc 2n mains"; the missing pair is named."""
    names = ("Ana", "Bob", "Cy")
    players = tuple(
        Player(n, cards(c)) for n, c in zip(names, ("Ah Kd", "2c 3c", "7s 7d"), strict=True)
    )
    pairs = [(names[i], names[(i + 1) % 3]) for i in range(3)]
    shared = tuple(
        SharedHand(pair, cards(c))
        for i, (pair, c) in enumerate(zip(pairs, ("Ts Js", "5h 6h", "9s 9h"), strict=True))
        if i != missing
    )
    t = Table(players=players, board=cards("Qh 9c 8d 4s 2h"), variant="circular", shared=shared)
    with pytest.raises(TableError) as caught:
        form_hands(t)
    a, b = pairs[missing]
    assert caught.value.message("en") == (
        f"the shared hand {a}+{b} is missing: at the circular variant each two neighbours "
        "share a hand, so 3 players make 6 hands"
    )
    assert f"{a}+{b}" in caught.value.message("fr")


def test_six_three_hands_partition() -> None:
    # Two pairs of aces and kings... the best partition keeps the strongest sub-hand first.
    t = table(
        "Ah Kh Qh 3c 2d",
        ("Ana", "Jh Th As Ad Kc Ks"),
        ("Bob", "4c 5c 6c 7c 8c 9d"),
        variant="six-three-hands",
    )
    hands = by_id(t)
    values = [hands[f"Ana/{i}"].value for i in (1, 2, 3)]  # type: ignore[attr-defined]
    assert values[0].category is Category.STRAIGHT_FLUSH
    assert values[1].category in (Category.FULL_HOUSE, Category.FOUR_OF_A_KIND)
    assert values[0] >= values[1] >= values[2]
    bob = [hands[f"Bob/{i}"].value for i in (1, 2, 3)]  # type: ignore[attr-defined]
    assert bob[0] >= bob[1] >= bob[2]


def test_low_ranking_applies_to_every_hand() -> None:
    t = table(
        "Kh Qd 9s 3c 2d",
        ("Ana", "Ah 4s"),
        ("Bob", "7h 6h"),
        rules=TableRules(ranking=Ranking.LOW_A5),
    )
    hands = by_id(t)
    assert [r.symbol for r in hands["Ana"].value.deciding] == ["9", "4", "3", "2", "A"]  # type: ignore[attr-defined]
    assert hands["Ana"].value > hands["Bob"].value  # type: ignore[attr-defined,operator]


@pytest.mark.parametrize(
    ("t", "error", "words"),
    [
        (table("2c 3d 9h Ts", ("Ana", "Qh Kh")), TableError, "river has 4 cards"),
        (table("2c 3d 9h Ts Jc", ("Ana", "Qh Kh"), variant="poker"), TableError, "unknown variant"),
        (
            table(
                "2c 3d 9h Ts Jc", ("Ana", "Qh Kh"), ("Bob", "4c 5c 6c 7c"), variant="two-of-four"
            ),
            TableError,
            "Ana has 2 cards",
        ),
        (
            table("2c 3d 9h Ts Jc", ("Ana", "Qh Kh"), ("Bob", "Qh 2s")),
            DuplicateCardError,
            "Ana and Bob",
        ),
        (
            table("2c 3d 9h Ts Jc", ("Ana", "2c Kh"), ("Bob", "4c 5c")),
            DuplicateCardError,
            "the river and Ana",
        ),
        (table("2c 3d 9h Ts Jc", ("Ana", "Qh Kh")), TableError, "2 to 10 players, not 1"),
        (table("2c 3d 9h Ts Jc", ("Ana", "Qh Kh"), ("Ana", "4c 5c")), TableError, "repeated"),
        (
            table(
                "2c 3d 9h Ts Jc",
                ("Ana", "Qh Kh 2s 3s"),
                ("Bob", "4c 5c 6c 7c"),
                variant="high-low",
                two_rivers=True,
                board2=cards("4s 5s 6s 7s 8s"),
            ),
            TableError,
            "two rivers",
        ),
        (
            table("2c 3d 9h Ts Jc", ("Ana", "Qh Kh"), ("Bob", "4c 5c"), two_rivers=True),
            TableError,
            "second river has 0",
        ),
        (
            table("2c 3d 9h Ts Jc", ("Ana", "Qh Kh"), ("Bob", "4c 5c"), variant="six-three-hands"),
            TableError,
            "Ana has 2 cards",
        ),
        (
            table("2c 3d 9h Ts Jc", ("Ana", "Qh Kh"), ("Bob", "4c 5c"), variant="francois"),
            TableError,
            "gave no card to François",
        ),
        (
            table("2c 3d 9h Ts Jc", ("Ana", "Qh Kh"), ("Bob", "4c 5c"), rules=TableRules(decks=4)),
            TableError,
            "decks",
        ),
    ],
)
def test_bad_tables_name_the_problem(t: Table, error: type[Exception], words: str) -> None:
    with pytest.raises(error, match=words):
        form_hands(t)


def test_two_decks_allow_a_repeated_card() -> None:
    t = table("2c 3d 9h Ts Jc", ("Ana", "Qh Kh"), ("Bob", "Qh 2s"), rules=TableRules(decks=2))
    assert len(form_hands(t)) == 2


def test_circular_shared_hand_must_lie_between_neighbours() -> None:
    players = tuple(
        Player(n, cards(c))
        for n, c in (("Ana", "Ah Kd"), ("Bob", "2c 3c"), ("Cy", "7s 7d"), ("Dee", "4h 5h"))
    )
    t = Table(
        players=players,
        board=cards("Qh 9c 8d 4s 2h"),
        variant="circular",
        shared=(SharedHand(("Ana", "Cy"), cards("Ts Js")),),
    )
    with pytest.raises(TableError, match="not neighbours"):
        form_hands(t)
