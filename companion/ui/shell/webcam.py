"""The host computer's webcam on the page: a live preview with the cards read, and a capture."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import flet as ft
import numpy as np
from flet.components.hooks.use_ref import MutableRef

from companion.ui.kit.banner import Banner
from companion.ui.kit.photo.read import small_width
from companion.ui.kit.services import Services
from companion.ui.kit.text import t
from companion.ui.kit.widgets import Dispatch
from companion.ui.shell.camera import Camera, FusedDetector, LazyFollower, encode_jpeg
from companion.ui.shell.state import AppState
from companion.ui.shell.uploads import photo_action

__all__ = ["WebcamPanel"]

PREVIEW_PAUSE_S = 0.0  # between preview frames: each frame is read (and fused) as it comes


def _no_preview() -> bytes | None:
    return None


def _no_frame() -> np.ndarray | None:
    return None


def _no_width() -> int | None:
    return None


def _no_live() -> LazyFollower | None:
    return None


@ft.component
def WebcamPanel(services: Services, dispatch: Dispatch[AppState], state: AppState) -> ft.Control:
    """The host computer's webcam: a live preview with the cards read drawn, and a capture."""
    shown: tuple[bytes | None, Callable[[Any], None]] = ft.use_state(_no_preview)
    preview, set_preview = shown
    # The fused cards' width in the frame when too small to read surely: "come closer".
    small_state: tuple[int | None, Callable[[Any], None]] = ft.use_state(_no_width)
    small, set_small = small_state
    live = ft.use_ref(False)
    # The latest full-size frame, for the capture.
    last: MutableRef[np.ndarray | None] = ft.use_ref(_no_frame)
    # The reads of the frames so far, fused: what the capture keeps.
    fusing: MutableRef[LazyFollower | None] = ft.use_ref(_no_live)

    async def start(_e: ft.Event[ft.Button]) -> None:
        if live.current:
            return
        camera = await asyncio.to_thread(Camera.open, services.webcam)
        if camera is None:
            dispatch(lambda s, _: s.with_banner(Banner.of("webcam_none")))
            return
        live.current = True
        fusing.current = LazyFollower(services.detector)
        try:
            while live.current:
                frame = await asyncio.to_thread(camera.frame)
                if frame is None:
                    break
                last.current = frame
                read = await asyncio.to_thread(fusing.current.follow, frame)
                set_small(small_width(read))
                if read is not None:
                    from companion.vision import draw_reads  # loaded with the detector already

                    frame = draw_reads(frame, read)
                set_preview(encode_jpeg(frame))
                await asyncio.sleep(PREVIEW_PAUSE_S)
        finally:
            live.current = False
            camera.close()
            set_preview(None)

    async def capture(_e: ft.Event[ft.Button]) -> None:
        live.current = False
        if last.current is not None:
            photo = encode_jpeg(last.current, width=None, quality=92)
            prepare = photo_action(state.screen, state)
            # The frames' agreed read; none yet (a capture at once): the photo is read alone.
            fused = fusing.current.fused() if fusing.current is not None else None
            reading = services
            if fused is not None and len(fused):
                reading = replace(services, detector=FusedDetector(fused, services.detector))
            dispatch(await asyncio.to_thread(prepare, photo, "webcam.jpg", reading))

    controls: list[ft.Control] = [
        ft.Button(
            key="webcam", content=t("webcam", state.lang), icon=ft.Icons.VIDEOCAM, on_click=start
        )
    ]
    if preview is not None:
        controls += [
            # Gapless: the last frame stays shown while the next one decodes (no blank flicker).
            ft.Image(src=preview, width=320, key="webcam-preview", gapless_playback=True),
            *(
                [ft.Text(t("webcam_small", state.lang, px=small), key="webcam-small")]
                if small is not None
                else []
            ),
            ft.Button(key="capture", content=t("capture", state.lang), on_click=capture),
        ]
    return ft.Column(controls, spacing=6)
