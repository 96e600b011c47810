"""The app's page asks nothing of the internet: the web client's one try at a CDN is stopped in
the page itself, before any request.

Flet's web client loads an animation runtime (Rive's ``rive_native.js``, which the app never
uses) when it starts, by adding a ``<script>`` whose address is a CDN's to the page. The page
the server sends starts with a small script that keeps any script from another site out of
the page: no request leaves the LAN, and the browser logs no refusal (the page's policy,
``script-src-elem``, would refuse it, with an error in the console).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

__all__ = ["GUARD", "NoCdnPage", "with_guard"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# A script element from another site is never added to the page (so never fetched); every
# other node is added as it was asked.
GUARD = b"""<script>
(() => {
  const away = (node) => node instanceof HTMLScriptElement && node.src !== ""
    && new URL(node.src, document.baseURI).origin !== location.origin;
  const append = Element.prototype.append;
  Element.prototype.append = function (...nodes) {
    return append.apply(this, nodes.filter((node) => !away(node)));
  };
  const appendChild = Node.prototype.appendChild;
  Node.prototype.appendChild = function (node) {
    return away(node) ? node : appendChild.call(this, node);
  };
})();
</script>"""
_HEAD = b"<head>"


def with_guard(page: bytes) -> bytes:
    """``page`` (HTML) with ``GUARD`` first in its head, before any script of the page; a
    page with no head is left as it is."""
    at = page.lower().find(_HEAD)
    if at < 0:
        return page
    end = at + len(_HEAD)
    return page[:end] + b"\n" + GUARD + page[end:]


@dataclass
class NoCdnPage:
    """ASGI middleware: each HTML page the app sends whole (status 200) gets ``GUARD``."""

    app: ASGIApp

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        held: list[Message] = []  # an HTML page's start, until its whole body is in
        body: list[bytes] = []

        async def guarded(message: Message) -> None:
            if message["type"] == "http.response.start":
                if message["status"] == 200 and _is_html(message):
                    held.append(message)
                    return
            elif held and message["type"] == "http.response.body":
                body.append(message.get("body", b""))
                if message.get("more_body", False):
                    return
                page = with_guard(b"".join(body))
                start = held.pop()
                start["headers"] = [
                    (name, value)
                    for name, value in start.get("headers", [])
                    if name.lower() != b"content-length"
                ] + [(b"content-length", str(len(page)).encode())]
                await send(start)
                message = {"type": "http.response.body", "body": page}
            await send(message)

        await self.app(scope, receive, guarded)


def _is_html(start: Message) -> bool:
    return any(
        name.lower() == b"content-type" and value.lower().startswith(b"text/html")
        for name, value in start.get("headers", [])
    )
