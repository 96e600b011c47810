"""Hostile tables for ``companion showdown``: Hypothesis strategies and the one rule they must
meet, a clean result or a one-line error, never a traceback (shared with the benchmark)."""

from __future__ import annotations

import contextlib
import io
import json
import sys

from hypothesis import strategies as st

from companion.cli import main

TOKENS = [
    "As", "Kd", "10h", "Q♥", "*", "*h", "*s", "7c", "2s", "Jd", "x", "", " ", "1s", "Aa",
    "**", "*x", "Ks Kd", "🂡", "A" * 300, "9\ufe0fh", "ace", "-1",
]  # fmt: skip
# One name in its two Unicode spellings (#53): NFC "Chloé" and NFD "Chloe" + a combining accent.
NAMES = ["Ana", "Bob", "P0", "P1", "Chlo\u00e9", "Chloe\u0301"]
VARIANTS = ["classic", "two-of-four", "four-two-hands", "high-low", "francois", "circular",
            "six-three-hands", "", "nope"]  # fmt: skip

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(TOKENS),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=20,
)
card_field = st.one_of(
    st.lists(st.sampled_from(TOKENS), max_size=12).map(" ".join),
    st.lists(st.sampled_from(TOKENS), max_size=12),
    json_values,
)
player = st.fixed_dictionaries(
    {"name": st.one_of(st.sampled_from([*NAMES, "Cy", "Dé", "", "a/b"]), json_values),
     "cards": card_field},
    optional={"francois_card": st.one_of(st.sampled_from(TOKENS), json_values),
              "extra": json_values},
)  # fmt: skip
rules = st.fixed_dictionaries(
    {},
    optional={
        "ranking": st.one_of(st.sampled_from(["high", "low-a5", "low-27", "x"]), json_values),
        "straights": st.one_of(st.sampled_from(["normal", "wrap"]), json_values),
        "decks": st.one_of(st.sampled_from([1, 2, 3, 0, True]), json_values),
        "tokens": st.one_of(
            st.sampled_from(["base", "lsd", "kcarc", "crack", "LSD", ""]), json_values
        ),
    },
)
# A token move: mostly the shapes the format names, with wrong keys and values mixed in.
token_move = st.one_of(
    st.fixed_dictionaries(
        {"by": st.one_of(st.sampled_from([*NAMES, "Zed", ""]), json_values)},
        optional={
            "take": st.one_of(st.integers(-1, 7), json_values),
            "put_back": st.integers(-1, 7),
            "give": st.integers(-1, 7),
            "from": st.one_of(st.sampled_from(NAMES), json_values),
            "to": st.one_of(st.sampled_from(NAMES), json_values),
        },
    ),
    json_values,
)
# A street's moves: a few, or a move copied past the bound of a street (#53).
street_moves = st.one_of(
    st.lists(token_move, max_size=8),
    st.builds(lambda move, n: [move] * n, token_move, st.integers(150, 260)),
    json_values,
)
token_moves = st.one_of(
    st.dictionaries(
        st.sampled_from(["preflop", "flop", "turn", "river", "nope"]), street_moves, max_size=4
    ),
    json_values,
)
table = st.fixed_dictionaries(
    {
        "board": card_field,
        "players": st.one_of(st.lists(player, max_size=11), json_values),
    },
    optional={
        "variant": st.one_of(st.sampled_from(VARIANTS), json_values),
        "two_rivers": st.one_of(st.booleans(), json_values),
        "board2": card_field,
        "rules": st.one_of(rules, json_values),
        "tokens": st.one_of(
            st.dictionaries(st.sampled_from([*NAMES, "Cy"]), st.integers(-2, 12)),
            json_values,
        ),
        "shared": st.one_of(
            st.lists(st.fixed_dictionaries({"between": json_values, "cards": card_field})),
            json_values,
        ),
        "token_moves": token_moves,
        "name": json_values,
        "surprise": json_values,
    },
)
CODES = [r + s for r in "23456789TJQKA" for s in "shdc"]


@st.composite
def near_valid(draw: st.DrawFn) -> dict[str, object]:
    """A table that mostly holds: distinct cards, a river of five, two cards each (some wild)."""
    n = draw(st.integers(2, 6))
    cards = draw(st.permutations(CODES))[: 5 + 2 * n]
    cards = [draw(st.sampled_from(["*", "*h", c])) if draw(st.integers(0, 9)) == 0 else c
             for c in cards]  # fmt: skip
    names = [f"P{i}" for i in range(n)]
    if draw(st.booleans()):  # Chloé at the table, her tokens keyed in either spelling
        names[0] = draw(st.sampled_from(NAMES[-2:]))
    raw: dict[str, object] = {
        "board": " ".join(cards[:5]),
        "players": [{"name": names[i], "cards": cards[5 + 2 * i : 7 + 2 * i]} for i in range(n)],
    }
    keys = [
        draw(st.sampled_from(NAMES[-2:])) if i == 0 and name in NAMES[-2:] else name
        for i, name in enumerate(names)
    ]
    if draw(st.booleans()):
        raw["tokens"] = dict(zip(keys, draw(st.permutations(range(1, n + 1))), strict=True))
    if draw(st.booleans()):
        raw["rules"] = draw(rules)
    if draw(st.booleans()):
        raw["token_moves"] = draw(token_moves)
    return raw


documents = st.one_of(
    near_valid().map(json.dumps),
    st.lists(near_valid(), max_size=3).map(json.dumps),
    table.map(json.dumps),
    st.lists(table, max_size=3).map(json.dumps),
    json_values.map(json.dumps),
    st.text(max_size=40),  # not JSON at all, or cut short
    table.map(lambda t: json.dumps(t)[: len(json.dumps(t)) // 2]),
)


def run_showdown_text(text: str) -> tuple[int, str, str]:
    """``companion showdown - --json`` on ``text``: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    stdin = sys.stdin
    sys.stdin = io.StringIO(text)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["showdown", "-", "--json"])
    finally:
        sys.stdin = stdin
    return code, out.getvalue(), err.getvalue()


def check_clean(text: str) -> bool:
    """Assert the rule on one document; True when it was a result, False for an error."""
    code, out, err = run_showdown_text(text)
    if code == 0:
        json.loads(out)
        assert err == "", err
        return True
    assert code == 2 and out == "", (code, out, err)
    assert err.startswith("companion: ") and err.count("\n") == 1, err
    assert len(err) < 600, err  # named, not echoed whole
    return False
