"""The Showdown screen's actions: a photo read into the table, saving the judged heist, presets."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from companion.engine.cards import Card
from companion.engine.gang.showdown import Showdown
from companion.engine.gang.table import FRANCOIS, Hand, Table
from companion.errors import CompanionError
from companion.formats.table import house_rules_from_json, house_rules_to_json, table_to_json
from companion.messages import phrase
from companion.storage import HeistDraft, Preset, Verdict
from companion.storage.hands import whole_hands
from companion.storage.model import group_key
from companion.ui.kit.banner import Banner
from companion.ui.kit.photo.read import (
    MissingPlace,
    Quad,
    ShownPhoto,
    Spot,
    not_a_table,
    small_width,
)
from companion.ui.kit.photo.seats import angle, assign_hands, from_bottom, gap, mean_point
from companion.ui.kit.services import Action, Services, decode_upload
from companion.ui.kit.text import t
from companion.ui.showdown.doubts import doubts, layout
from companion.ui.showdown.host import H
from companion.ui.showdown.outlines import photo_outlines
from companion.ui.showdown.state import MAX_PLAYERS, RIVER, STRAY, ShowdownState

if TYPE_CHECKING:  # types only: the app starts without the vision package
    from companion.ui.showdown.evidence import PhotoEvidence
    from companion.vision.layouts.gang import Grouping
    from companion.vision.layouts.places import SeenCard
    from companion.vision.layouts.read import GroupedCards

__all__ = [
    "prepare_photo",
    "load_photo",
    "table_players",
    "save_seats",
    "name_hand",
    "heist_draft",
    "save_heist",
    "save_in_next_night",
    "save_preset",
    "group_presets",
    "apply_preset",
]


def table_players(state: H) -> tuple[str, ...]:
    """Who a new photo's hands go to: the open night's players, else the table's (with those
    sitting out back in)."""
    if state.night is not None and not state.night.finished:
        return state.night.night.players
    return state.table.everyone()


def prepare_photo(data: bytes, name: str, services: Services, state: H | None = None) -> Action[H]:
    """Decode, keep and read a photo now (the slow part, for a worker thread), told the
    table's layout when ``state`` is given; the returned action shows the result."""
    expect = layout(state.table, len(table_players(state))) if state is not None else None
    try:
        image = decode_upload(data, name)
        # Kept and drawn for the page while the reader reads (a disk write, a resize).
        with ThreadPoolExecutor(2, thread_name_prefix="companion-photo") as beside:
            kept = beside.submit(services.log.store_photo, data)
            shown = beside.submit(_small_photo, image)
            decks = state.table.rules.decks if state else 1
            told = services.detector.read_layout(image, expect, decks)
            ref = kept.result()
    except CompanionError as error:
        banner = Banner.of_error(error)
        return lambda state, _services: state.with_banner(banner)
    if told is None:
        return _show_photo(ref, services.detector.unavailable)
    from companion.vision.base.paper import paper_share  # loaded with the reader already

    refused = not_a_table(told.detections, paper_share(image))
    if refused is not None:
        # Nothing changes: not the table, not the seats; the photo is not kept.
        services.log.discard_photo(ref)
        banner = Banner(phrase(refused, name=name), error=True)
        return lambda state, _services: state.with_banner(banner)
    # Cut now: the full-size photo the crops come from is let go once the table is shown.
    from companion.ui.showdown.evidence import photo_evidence

    return _show_read(ref, shown.result(), told, photo_evidence(image, told))


def load_photo(data: bytes, name: str = "photo") -> Action[H]:
    """Keep the photo, read its cards when the reader can, else say that typing is needed."""

    def action(state: H, services: Services) -> H:
        shown: Action[H] = prepare_photo(data, name, services, state)
        return shown(state, services)

    return action


def _show_photo(ref: str, note: Banner | None) -> Action[H]:
    """A photo kept while the reader cannot read it: typing is needed, said why."""

    def action(state: H, services: Services) -> H:
        return state.with_table(replace(state.table, photo=ref)).with_vision_off(note)

    return action


SHOWN_WIDTH = 1000  # the photo as the screen shows it: enough to read a card's corner on zoom


class PagePhoto(NamedTuple):
    """The photo as shown (JPEG), the scale from the original, its size, and the whole photo
    smaller still (JPEG), for the row of a hand nothing of which was read."""

    image: bytes
    scale: float
    width: int
    height: int
    whole: bytes


def _small_photo(image: np.ndarray) -> PagePhoto:
    """The photo as the page shows it, made while the reader reads."""
    # With the reader: only a photo that was read gets here.
    from companion.ui.showdown.evidence import WHOLE_WIDTH, jpeg, narrowed

    small, scale = narrowed(image, SHOWN_WIDTH)
    whole, _ = narrowed(small, WHOLE_WIDTH)
    return PagePhoto(jpeg(small), scale, small.shape[1], small.shape[0], jpeg(whole))


def hand_angles(groups: Grouping) -> list[float]:
    """Each hand's angle around the river's centre (the cards' middle without a river)."""
    points = [(s.x, s.y) for s in groups.river] or [
        (s.x, s.y) for hand in groups.hands for s in hand
    ]
    if not points:
        return []
    middle = mean_point(points)
    return [angle(middle, mean_point([(s.x, s.y) for s in hand])) for hand in groups.hands]


def _missing_places(
    evidence: PhotoEvidence, given: Sequence[int | None], scale: float
) -> tuple[MissingPlace, ...]:
    """Each gap's evidence at its place on the table: the river's, or the hand's player's
    (a hand given to no player, or not found, has none)."""
    places = []
    for short in evidence.gaps:
        if short.hand is not None and short.hand not in given:
            continue
        place = RIVER if short.hand is None else given.index(short.hand)
        marks = tuple((x * scale, y * scale, r * scale) for x, y, r in short.marks)
        places.append(MissingPlace(place, short.count, short.crop, marks))
    return tuple(places)


def _show_read(
    ref: str, small: PagePhoto, told: GroupedCards, evidence: PhotoEvidence
) -> Action[H]:
    shown, scale, width, height, whole = small
    read, groups = told.detections, told.grouping
    quads = np.asarray(read.quads, dtype=np.float64) * scale

    def action(state: H, services: Services) -> H:
        # No players typed yet: one per hand found, by the default names (renamed by typing).
        players = table_players(state) or tuple(
            t("player_default", state.lang, n=i + 1)
            for i in range(min(len(groups.hands), MAX_PLAYERS))
        )
        night = state.night.night if state.night is not None and not state.night.finished else None
        seats = group_seats(state, players)
        angles = hand_angles(groups)
        given = assign_hands(angles, players, seats) if seats else first_guess(angles, players)
        misfit = bool(seats) and not fits_seats(angles, given, players, seats)
        hands: list[Sequence[SeenCard]] = [groups.hands[i] if i is not None else () for i in given]
        left = [s for i, h in enumerate(groups.hands) if i not in given for s in h]
        stray = (*groups.stray, *left)
        places = [(RIVER, groups.river), *enumerate(hands), (STRAY, stray)]
        spots = tuple(
            Spot(
                _quad(quads[seen.index]),
                seen.card,
                seen.check,
                (place, k),
                evidence.reads.get(seen.index),
            )
            for place, cards in places
            for k, seen in enumerate(cards)
        )
        table = state.table.with_read(
            tuple(s.card for s in groups.river),
            tuple(tuple(s.card for s in hand) for hand in hands),
            ref,
            state.lang,
            players=players,
            stray=tuple(s.card for s in stray),
            read=ShownPhoto(
                shown,
                width,
                height,
                spots,
                tuple(_quad(q) for q in np.asarray(read.unread) * scale),
                small_width(read),
                _missing_places(evidence, given, scale),
                whole=whole,
            ),
            # Asked once a night, on its first photo, and whenever the hands do not fit.
            seating=(night is not None and not seats and any(hands)) or misfit,
        )
        banner = (
            Banner.of("read_faces", n=len(read.unread))
            if not len(read)
            else Banner.of("seat.misfit")
            if misfit
            else Banner.of("seat.followed", n=len(read))
            if seats
            else Banner.of("read_done", n=len(read), conf=round(100 * groups.confidence))
        )
        return state.with_table(table).with_banner(banner)

    return action


def first_guess(angles: Sequence[float], players: Sequence[str]) -> tuple[int | None, ...]:
    """With no seats to go by, the hands clockwise from the photo's bottom edge to the players
    in their order (typed as they sit): shown and asked, never kept unasked."""
    order = from_bottom(angles)
    return tuple(order[i] if i < len(order) else None for i in range(len(players)))


def seat_order(state: H) -> tuple[str, ...]:
    """The table's players clockwise: by the seats kept where every one of them has one, else
    in the order the night (or the table) has them."""
    players = state.table.players
    seats = group_seats(state, table_players(state))
    if all(name in seats for name in players):
        return tuple(sorted(players, key=lambda name: seats[name]))
    return tuple(name for name in table_players(state) if name in players)


def name_hand(place: int, name: str) -> Action[H]:
    """``name`` says the hand at ``place`` is theirs (``ShowdownState.name_hand``)."""

    def action(state: H, services: Services) -> H:
        return state.with_table(state.table.name_hand(place, name, seat_order(state)))

    return action


def group_seats(state: H, players: Sequence[str]) -> dict[str, float]:
    """The seats a photo's hands go by: the night's, open or just ended, while the table's
    players are that night's group (a night's end does not drop them)."""
    if state.night is None or group_key(players) != state.night.night.group:
        return {}
    return dict(state.night.night.seats)


def fits_seats(
    angles: Sequence[float],
    given: Sequence[int | None],
    players: Sequence[str],
    seats: Mapping[str, float],
) -> bool:
    """Whether every hand went to a seat, each within half the room between two seats."""
    if any(i not in given for i in range(len(angles))):
        return False
    room = 180.0 / max(1, len(seats))
    return all(
        gap(angles[i], seats[name]) <= room
        for name, i in zip(players, given, strict=True)
        if i is not None and name in seats
    )


def _quad(corners: np.ndarray) -> Quad:
    a, b, c, d = ((round(float(x), 1), round(float(y), 1)) for x, y in corners)
    return (a, b, c, d)


def seats_of(table: ShowdownState) -> dict[str, float]:
    """Where each player's hand lies on the table's photo, around the river's centre."""
    return {table.players[place]: at for place, at in table.hand_angles().items()}


def save_seats(state: H, services: Services) -> H:
    """Keep where each player sits, as this photo shows the hands, for the night's next ones."""
    if state.night is None:
        return state.with_banner(Banner.of("no_night"))
    seats = {**dict(state.night.night.seats), **seats_of(state.table)}
    status = services.log.save_seats(state.night.night.id, seats)
    table = state.table.with_seating(False)
    return state.with_night_status(status).with_table(table).with_banner(Banner.of("seat.saved"))


def _hole_cards(hand: Hand, table: Table) -> tuple[Card, ...]:
    """The cards a hand holds: François's and a shared hand's own; a player's hand, the hole
    cards its best five uses (the part it plays where a variant splits a player's cards)."""
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
    """The heist to save from a judged table: its whole deal, each hand's hole cards (all of
    them, ``whole_hands``), the tokens, and the failures with their reasons in both languages."""
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
    deal = table_to_json(table)
    owners = {h.id: h.owner for h in result.hands if h.owner in players}
    used = {h.id: tuple(str(c) for c in _hole_cards(h, table)) for h in result.hands}
    return HeistDraft(
        river=tuple(str(card) for card in table.board),
        hands=whole_hands(deal, used, owners),
        owners=owners,
        tokens=dict(tokens),
        verdict=Verdict(result.verdict.opens, tuple(failures)),
        board2=tuple(str(card) for card in table.board2) if table.two_rivers else None,
        photo=photo,
        deal=deal,
    )


def save_heist(state: H, services: Services) -> H:
    """Save the judged table in the open night (one transaction), then clear the table."""
    result = state.table.showdown()
    if state.night is None or result is None or result.verdict is None or doubts(state.table):
        return state.with_banner(Banner.of("no_night" if state.night is None else "problems"))
    if state.table.variant != state.night.night.variant:
        return state.with_banner(Banner.of("night_variant", variant=state.night.night.variant))
    table = state.table
    draft = heist_draft(table.check.table, table.token_map(), result, table.photo)
    # Where each card lay on the photo, for the picture History shares later.
    draft = replace(draft, outlines=photo_outlines(table))
    heist = services.log.save_heist(state.night.night.id, draft)
    state = state.with_night_read(services, services.log.night_status(heist.night_id))
    state = state.with_table(state.table.cleared()).with_banner(
        Banner.of("heist_saved", n=heist.number)
    )
    return state.with_history_of(services.log)


def save_in_next_night(state: H, services: Services) -> H:
    """The night is over (won, lost or closed): the group's next night started, with the
    heist just judged saved as its first."""
    if state.night is None or not state.night.finished:
        return save_heist(state, services)
    started = state.with_next_night(services)
    saved = save_heist(started, services)
    if saved.night is None or saved.banner is None or saved.banner.key != "heist_saved":
        return saved  # not saved: its banner says why
    night = saved.night.night
    said = Banner.of(
        "night.next_saved", id=night.id, names=", ".join(night.players), n=saved.night.heists
    )
    return saved.with_banner(said)


def save_preset(name: str) -> Action[H]:
    def action(state: H, services: Services) -> H:
        # The group is kept with the rules: each group of players sees its own presets.
        table = state.table
        rules = {
            **house_rules_to_json(table.rules, table.two_rivers),
            "group": list(group_key(table.players)),
        }
        preset = services.log.save_preset(name, rules)
        return state.with_presets(services.log.presets()).with_banner(
            Banner.of("preset_saved", name=preset.name)
        )

    return action


def group_presets(presets: tuple[Preset, ...], players: tuple[str, ...]) -> tuple[Preset, ...]:
    """The presets this group saved, and those saved for no group in particular."""
    group = list(group_key(players))
    return tuple(p for p in presets if list(p.rules.get("group", group)) == group)


def apply_preset(name: str) -> Action[H]:
    def action(state: H, services: Services) -> H:
        preset = services.log.preset(name)
        rules, two_rivers = house_rules_from_json(preset.rules)
        table = state.table.with_rules(rules).with_two_rivers(two_rivers)
        return state.with_table(table).with_banner(Banner.of("preset_applied", name=preset.name))

    return action
