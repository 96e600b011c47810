"""The Spit screen's photo: read the layout off the event loop, then show it to be checked.

The same card reader as the showdown screen (loaded on first use, its absence said in a banner
while typing keeps working); ``companion.vision.layouts.spit.read_spit`` decides which card is
which pile.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.errors import CompanionError
from companion.messages import phrase
from companion.ui.kit.banner import Banner
from companion.ui.kit.services import Action, Services, decode_upload
from companion.ui.spit.host import H

if TYPE_CHECKING:  # vision (through the photo reader) loads only when a photo is read
    from companion.vision.layouts.spit import SpitPhoto

__all__ = ["prepare_spit_photo", "load_spit_photo"]


def prepare_spit_photo(data: bytes, name: str, services: Services) -> Action[H]:
    """Decode and read a Spit photo now (the slow part, for a worker thread); the returned
    action shows the result."""
    from companion.vision.layouts.spit import read_spit  # loads vision: only when a photo is read

    try:
        image = decode_upload(data, name)
        read = services.detector.detect(image)
        photo = None if read is None else read_spit(read, name)
    except CompanionError as error:
        banner = Banner.of_error(error)
        return lambda state, _services: state.with_banner(banner)
    return _show(photo, services.detector.unavailable)


def load_spit_photo(data: bytes, name: str = "photo") -> Action[H]:
    def action(state: H, services: Services) -> H:
        shown: Action[H] = prepare_spit_photo(data, name, services)
        return shown(state, services)

    return action


def _show(photo: SpitPhoto | None, note: Banner | None) -> Action[H]:
    def action(state: H, _services: Services) -> H:
        if photo is None:
            return state.with_vision_off(note)
        from companion.vision.layouts.places import unsure  # loaded with the photo already

        doubtful = tuple(
            phrase("spit_unsure_read", card=seen.card, confidence=round(100 * seen.confidence))
            for seen in unsure(photo.seen)
        )
        key = "spit_read_unsure" if doubtful else "spit_read"
        shown = state.with_spit(state.spit.with_photo(photo))
        return shown.with_banner(Banner.of(key, n=len(photo.seen), check=doubtful))

    return action
