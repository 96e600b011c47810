"""Damaged rows in a game log an older release wrote: Hypothesis strategies for a heist's
``deal``, ``hands`` and ``owners`` columns, and the rule every command meets on them (#53):
the rest of the log shown and the row named in one line (exit 1), or, where the upgrade cannot
read the row, one line saying so and the file left as it was (exit 2); never a traceback
(shared with ``benchmarks/fuzz_tables.py``)."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import sqlite3
import tempfile
from pathlib import Path

from hypothesis import strategies as st

from companion.cli import main
from tests.formats.fuzzing import NAMES, TOKENS, json_values
from tests.storage.old_logs import V5_LOG, copy_of

deep = st.integers(30, 50_000).map(lambda n: "[" * n + "]" * n)
cards = st.one_of(
    st.lists(st.sampled_from(TOKENS), max_size=6).map(" ".join),
    st.lists(st.sampled_from(TOKENS), max_size=6),
    json_values,
)
deal = st.fixed_dictionaries(
    {},
    optional={
        "variant": st.one_of(st.sampled_from(["classic", "four-two-hands", "x"]), json_values),
        "players": st.one_of(
            st.lists(
                st.fixed_dictionaries(
                    {"name": st.one_of(st.sampled_from(NAMES), json_values), "cards": cards}
                ),
                max_size=4,
            ),
            json_values,
        ),
    },
).map(json.dumps)
column = st.one_of(json_values.map(json.dumps), st.text(max_size=20), deep)
# The heist's own hands and owners, as the old release saved them, or damaged.
HANDS = json.dumps({"Ana": ["Th"], "Bob": ["Jc"], "Chloé": ["8c", "8d"]}, ensure_ascii=False)
OWNERS = json.dumps({"Ana": "Ana", "Bob": "Bob", "Chloé": "Chloé"}, ensure_ascii=False)
row = st.tuples(
    st.one_of(deal, column, st.none()),
    st.one_of(st.just(HANDS), column),
    st.one_of(st.just(OWNERS), column),
)


def _command(folder: Path, *argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["log", "--data", str(folder), *argv])
    return code, out.getvalue(), err.getvalue()


def check_log(deal: str | None, hands: str, owners: str) -> str:
    """Assert the rule on the version-5 log with heist 2 of night 1 holding these columns;
    ``clean``, ``named`` (left out and named) or ``refused`` (the upgrade stopped)."""
    folder = Path(tempfile.mkdtemp())
    try:
        path = copy_of(V5_LOG, folder)
        with sqlite3.connect(path) as conn:
            conn.execute(
                "UPDATE heists SET deal = ?, hands = ?, owners = ?"
                " WHERE night_id = 1 AND number = 2",
                (deal, hands, owners),
            )
        conn.close()
        before = path.read_bytes()
        outcomes = set()
        for action in (["export", "json"], ["stats"]):
            code, out, err = _command(folder, *action)
            assert "Traceback" not in err and "unexpected error" not in err, err
            lines = err.splitlines()
            if code == 2:
                assert out == "" and len(lines) == 1, err
                assert "was not brought up to date" in err and "heist 2 of game night 1" in err
                assert path.read_bytes() == before
                outcomes.add("refused")
                continue
            assert code in (0, 1), (code, err)
            assert (code == 1) == bool(lines), (code, err)
            assert all(
                line.startswith("companion: ") and "heist 2 of game night 1" in line
                for line in lines
            ), err
            if action == ["export", "json"]:
                json.loads(out)
            outcomes.add("named" if code else "clean")
        assert len(outcomes) == 1, outcomes  # every command sees the row alike
        return outcomes.pop()
    finally:
        shutil.rmtree(folder)
