"""The join gate in front of the app: loopback passes, LAN visitors need the code."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from companion.ui.shell.server import MAX_TRIES, JoinGate, new_join_code


async def inner(scope: dict[str, Any], receive: Any, send: Any) -> None:
    body = b"app"
    await send(
        {"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"3")]}
    )
    await send({"type": "http.response.body", "body": body})


def client(gate: JoinGate, ip: str) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=gate, client=(ip, 5000))  # type: ignore[arg-type]
    return httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8550")


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_loopback_passes_and_lan_needs_the_code(anyio_backend: str) -> None:
    gate = JoinGate(inner, "12345678")
    async with client(gate, "127.0.0.1") as local:
        assert (await local.get("/")).text == "app"
    async with client(gate, "192.168.1.20") as phone:
        refused = await phone.get("/")
        assert refused.status_code == 401 and "code" in refused.text
        wrong = await phone.get("/?join=00000000")
        assert wrong.status_code == 401 and "incorrect" in wrong.text
        joined = await phone.get("/?join=12345678")
        assert joined.status_code == 303 and "companion_session" in joined.headers["set-cookie"]
        assert (await phone.get("/")).text == "app"  # the cookie now opens the app


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_guessing_is_locked_out(anyio_backend: str) -> None:
    gate = JoinGate(inner, "12345678")
    async with client(gate, "192.168.1.30") as phone:
        for _ in range(MAX_TRIES):
            await phone.get("/?join=99999999")
        locked = await phone.get("/?join=12345678")
        assert locked.status_code == 401 and "too many tries" in locked.text


def test_join_codes_are_eight_digits() -> None:
    codes = {new_join_code() for _ in range(50)}
    assert all(len(c) == 8 and c.isdigit() for c in codes) and len(codes) > 45
