"""The Showdown screen's actions: a photo read into the table, saving the judged heist, presets.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from companion.engine.gang.showdown import Showdown
from companion.errors import CompanionError
from companion.formats.table import showdown_to_json
from companion.storage import HeistDraft, Preset, Verdict
from companion.storage.model import group_key
from companion.ui.banner import Banner
from companion.ui.history.actions import refresh_history
from companion.ui.night.actions import with_night
from companion.ui.services import Action, Services, decode_upload, vision_off
from companion.ui.showdown.state import Rules, ShowdownState
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
        river = tuple(str(seen.card) for seen in groups.river)
        hands = tuple(tuple(str(seen.card) for seen in hand) for hand in groups.hands)
        table = state.table.with_read(river, hands, ref, state.lang)
        return replace(
            state,
            table=table,
            banner=Banner.of("read_done", n=len(read), conf=round(100 * groups.confidence)),
        )

    return action

def _hole_cards(
    player_cards: tuple[str, ...], best: tuple[str, ...], split: bool
) -> tuple[str, ...]:
    """The cards a hand holds: all the player's for one hand each, else those its best five use."""
    if not split:
        return player_cards
    used = tuple(card for card in player_cards if card in best)
    return used or player_cards

def heist_draft(table: ShowdownState, result: Showdown) -> HeistDraft:
    """The heist to save from a judged table; failures keep their reasons in both languages."""
    if result.verdict is None:
        raise ValueError("heist_draft needs a judged showdown")
    cards_of = dict(zip(table.players, table.hands, strict=True))
    # Hands no single player owns: François's, and the circular variant's shared ones.
    extra: dict[str, tuple[str, ...]] = {}
    if table.variant == "francois":
        extra["francois"] = tuple(card for card in table.francois if card)
    if table.variant == "circular":
        extra.update(
            {
                f"{a}+{b}": cards
                for (a, b), cards in zip(table.neighbours(), table.shared, strict=False)
                if cards
            }
        )
    split = len(result.hands) - len(extra) != len(table.players)
    hands = {
        h.id: extra[h.id]
        if h.id in extra
        else _hole_cards(cards_of[h.owner], tuple(str(c) for c in h.value.best), split)
        for h in result.hands
    }
    if split:
        # A hole card that no sub-hand used is kept with the player's first hand, so that the
        # saved heist still holds the whole deal (the replay rebuilds it from the hands).
        for player, cards in cards_of.items():
            own = [h.id for h in result.hands if h.owner == player and h.id not in extra]
            kept = {card for hand_id in own for card in hands[hand_id]}
            unused = tuple(card for card in cards if card not in kept)
            if own and unused:
                hands[own[0]] = hands[own[0]] + unused
    en, fr = showdown_to_json(result, "en"), showdown_to_json(result, "fr")
    failures = [
        {**item, "reason_fr": item_fr["reason"]}
        for item, item_fr in zip(en["vault"]["failures"], fr["vault"]["failures"], strict=True)
    ]
    return HeistDraft(
        river=table.river,
        hands=hands,
        owners={h.id: h.owner for h in result.hands if h.owner in cards_of},
        tokens=table.token_map(),
        verdict=Verdict(result.verdict.opens, tuple(failures)),
        board2=table.river2 if table.two_rivers else None,
        photo=table.photo,
    )

def save_heist(state: AppState, services: Services) -> AppState:
    """Save the judged table in the open night (one transaction), then clear the table."""
    result = state.table.showdown()
    if state.night is None or result is None or result.verdict is None:
        return state.with_banner(Banner.of("no_night" if state.night is None else "problems"))
    if state.table.variant != state.night.night.variant:
        return state.with_banner(Banner.of("night_variant", variant=state.night.night.variant))
    heist = services.log.save_heist(state.night.night.id, heist_draft(state.table, result))
    state = with_night(state, services, services.log.night_status(heist.night_id))
    state = replace(
        state, table=state.table.cleared(), banner=Banner.of("heist_saved", n=heist.number)
    )
    return refresh_history(state, services)

def save_preset(name: str) -> Action:
    def action(state: AppState, services: Services) -> AppState:
        # The group is kept with the rules: each group of players sees its own presets.
        rules = {
            **state.table.rules.to_json(),
            "two_rivers": state.table.two_rivers,
            "group": list(group_key(state.table.players)),
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
        table = state.table.with_rules(Rules.from_json(preset.rules)).with_two_rivers(
            bool(preset.rules.get("two_rivers", False))
        )
        return replace(state, table=table, banner=Banner.of("preset_applied", name=preset.name))

    return action
