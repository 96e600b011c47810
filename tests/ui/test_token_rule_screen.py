"""The token rule in the app (issue #43): picked in the table's setup with its explanation,
saved with the night and each heist, shown in the night's log and History's hardest."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from companion.ui.kit.services import Services
from companion.ui.shell.state import AppState
from companion.ui.showdown.state import ShowdownState
from tests.ui.screens import Session, find, texts


@pytest.fixture
def session(services: Services) -> Session:
    return Session(AppState(table=ShowdownState(("Ana", "Bob", "Cy"))), services)


def pick(session: Session, key: str, value: str) -> None:
    find(session.view(), key).on_select(SimpleNamespace(control=SimpleNamespace(value=value)))


def test_the_setup_explains_the_rule_picked(session: Session) -> None:
    with pytest.raises(LookupError):  # the base rule is the game's own: no sentence
        find(session.view(), "token-rule-explained")
    options = [o.text for o in find(session.view(), "token-rule").options]
    assert options == ["de base", "LSD", "Kcarc", "Crack"]
    pick(session, "token-rule", "kcarc")
    assert find(session.view(), "token-rule-explained").value.startswith("Kcarc : on remet son")
    session.tap("lang")
    explained = find(session.view(), "token-rule-explained").value
    assert explained.startswith("Kcarc: put your own token back")
    pick(session, "token-rule", "crack")  # issue #54
    assert find(session.view(), "token-rule-explained").value == (
        "Crack: put anyone's token (yours too) in the centre, or take one from the centre for "
        "yourself if you hold none."
    )


@pytest.mark.parametrize(("rule", "name"), [("lsd", "LSD"), ("crack", "Crack")])
def test_a_heist_is_saved_and_shown_with_its_rule(session: Session, rule: str, name: str) -> None:
    """LSD (issue #43), and Crack's own rule beside it (issue #54)."""
    pick(session, "token-rule", rule)
    session.state = session.state.go("night")
    session.tap("start-night")
    assert f"(jetons {name})" in find(session.view(), "night-title").value
    session.state = session.state.go("showdown")
    session.type_table("As Kd Qh 7c 2s", ("Ah Ad", "Th 9h", "3c 2c"), "3 1 2")
    session.tap("save-heist")
    (saved,) = session.services.log.heists(session.state.night.night.id)
    assert saved.deal is not None and saved.deal["rules"]["tokens"] == rule
    session.state = session.state.go("night")
    assert find(session.view(), "h1-tokens").value == f"Règle des jetons : {name}"
    session.state = session.state.go("history")
    assert any(f"classique (jetons {name})" in line for line in texts(session.view()))


def test_changing_the_token_rule_keeps_the_tokens_given(session: Session) -> None:
    session.type_table("As Kd Qh 7c 2s", ("Ah Ad", "Th 9h", "3c 2c"), "3 1 2")
    pick(session, "token-rule", "kcarc")
    assert session.state.table.tokens == ("Bob", "Cy", "Ana")
    pick(session, "decks", "2")  # a rule that values hands: the tokens go
    assert session.state.table.tokens == ()
