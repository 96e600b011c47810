"""The Showdown screen's actions: a photo read into the table, saving the judged heist, presets."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from companion.engine.cards import Card
from companion.engine.gang.showdown import Showdown
from companion.engine.gang.table import FRANCOIS, Hand, Table
from companion.errors import CompanionError
from companion.formats.table import house_rules_from_json, house_rules_to_json, table_to_json
from companion.storage import HeistDraft, Preset, Verdict
from companion.storage.model import group_key
from companion.ui.banner import Banner
from companion.ui.history.actions import refresh_history
from companion.ui.night.actions import with_night
from companion.ui.services import Action, Services, decode_upload, vision_off
from companion.ui.state import AppState

if TYPE_CHECKING:  # types only: the app starts without the vision package
    from companion.vision.detections import Detections

__all__ = [
    "prepare_photo",
    "load_photo",
    "heist_draft",
    "save_heist",
    "save_preset",
    "group_presets",
    "apply_preset",
]


def prepare_photo(data: bytes, name: str, services: Services) -> Action:
    """Decode, keep and read a photo now (the slow part, for a worker thread); the returned
    action shows the result."""
    try:
        image = decode_upload(data, name)
        ref = services.log.store_photo(data)
        read = services.reader.read(image)
    except CompanionError as error:
        banner = Banner.of_error(error)
        return lambda state, _services: state.with_banner(banner)
    return _show_photo(ref, read, services.reader.unavailable)


def load_photo(data: bytes, name: str = "photo") -> Action:
    """Keep the photo, read its cards when the reader can, else say that typing is needed."""
    return lambda state, services: prepare_photo(data, name, services)(state, services)


def _show_photo(ref: str, read: Detections | None, note: Banner | None) -> Action:
    def action(state: AppState, services: Services) -> AppState:
        if read is None or note is not None:
            banner = vision_off(note)
            table = replace(state.table, photo=ref)
            return replace(state, table=table, vision_note=note, banner=banner)
        if not len(read):
            return replace(
                state, table=replace(state.table, photo=ref), banner=Banner.of("read_none")
            )
        from companion.vision.layouts.gang import read_table  # loaded with the reader already

        groups = read_table(read)
        river = tuple(seen.card for seen in groups.river)
        hands = tuple(tuple(seen.card for seen in hand) for hand in groups.hands)
        table = state.table.with_read(river, hands, ref, state.lang)
        return replace(
            state,
            table=table,
            banner=Banner.of("read_done", n=len(read), conf=round(100 * groups.confidence)),
        )

    return action


def _hole_cards(hand: Hand, table: Table) -> tuple[Card, ...]:
    """The cards a hand holds: François's and a shared hand's own; a player's hand, the hole
    cards its best five uses (all of them when the player has one hand)."""
    if hand.owner == FRANCOIS:
        return tuple(p.francois_card for p in table.players if p.francois_card is not None)
    shared = {s.id: s.cards for s in table.shared}
    if hand.owner in shared:
        return shared[hand.owner]
    held = next(p.cards for p in table.players if p.name == hand.owner)
    used = tuple(card for card in held if card in hand.value.best)
    return used or held


def heist_draft(
    table: Table, tokens: Mapping[str, int], result: Showdown, photo: str | None
) -> HeistDraft:
    """The heist to save from a judged table: its whole deal, each hand's cards, the tokens,
    and the failures with their reasons in both languages."""
    if result.verdict is None:
        raise ValueError("heist_draft needs a judged showdown")
    players = {p.name for p in table.players}
    failures = [
        {
            "hand": f.hand.id,
            "token": f.token,
            "beaten_by": f.beaten_by.id,
            "reason": f.reason("en"),
            "reason_fr": f.reason("fr"),
        }
        for f in result.verdict.failures
    ]
    return HeistDraft(
        river=tuple(str(card) for card in table.board),
        hands={h.id: tuple(str(c) for c in _hole_cards(h, table)) for h in result.hands},
        owners={h.id: h.owner for h in result.hands if h.owner in players},
        tokens=dict(tokens),
        verdict=Verdict(result.verdict.opens, tuple(failures)),
        board2=tuple(str(card) for card in table.board2) if table.two_rivers else None,
        photo=photo,
        deal=table_to_json(table),
    )


def save_heist(state: AppState, services: Services) -> AppState:
    """Save the judged table in the open night (one transaction), then clear the table."""
    result = state.table.showdown()
    if state.night is None or result is None or result.verdict is None:
        return state.with_banner(Banner.of("no_night" if state.night is None else "problems"))
    if state.table.variant != state.night.night.variant:
        return state.with_banner(Banner.of("night_variant", variant=state.night.night.variant))
    table = state.table
    draft = heist_draft(table.check.table, table.token_map(), result, table.photo)
    heist = services.log.save_heist(state.night.night.id, draft)
    state = with_night(state, services, services.log.night_status(heist.night_id))
    state = replace(
        state, table=state.table.cleared(), banner=Banner.of("heist_saved", n=heist.number)
    )
    return refresh_history(state, services)


def save_preset(name: str) -> Action:
    def action(state: AppState, services: Services) -> AppState:
        # The group is kept with the rules: each group of players sees its own presets.
        table = state.table
        rules = {
            **house_rules_to_json(table.rules, table.two_rivers),
            "group": list(group_key(table.players)),
        }
        preset = services.log.save_preset(name, rules)
        return replace(
            state,
            presets=services.log.presets(),
            banner=Banner.of("preset_saved", name=preset.name),
        )

    return action


def group_presets(presets: tuple[Preset, ...], players: tuple[str, ...]) -> tuple[Preset, ...]:
    """The presets this group saved, and those saved for no group in particular."""
    group = list(group_key(players))
    return tuple(p for p in presets if list(p.rules.get("group", group)) == group)


def apply_preset(name: str) -> Action:
    def action(state: AppState, services: Services) -> AppState:
        preset = services.log.preset(name)
        rules, two_rivers = house_rules_from_json(preset.rules)
        table = state.table.with_rules(rules).with_two_rivers(two_rivers)
        return replace(state, table=table, banner=Banner.of("preset_applied", name=preset.name))

    return action
