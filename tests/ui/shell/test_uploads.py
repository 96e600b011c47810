"""A photo is read as soon as the server has written it whole: the gate tells the upload's
name once Flet's upload handler answers it, and a page waiting for that name is woken at
once, from whichever thread tells it; a refused upload is never told."""

from __future__ import annotations

import asyncio
import http.client
import threading
from pathlib import Path

from companion.storage import SqliteGameLog
from companion.ui.kit.services import MAX_UPLOAD_BYTES, LazyDetector
from companion.ui.shell.server import JoinGate, build_asgi
from companion.ui.shell.uploads import UploadFolder
from tests.ui.conftest import no_model
from tests.ui.shell.test_server_security import CODE, SECRET, _put, serving


def test_a_waiting_page_is_told_its_upload_from_another_thread(tmp_path: Path) -> None:
    folder = UploadFolder(tmp_path)

    async def wait() -> tuple[bool, bool, bool]:
        arrival, refused = folder.expect("a.upload"), folder.expect("b.upload")
        assert "a.upload" in folder and "c.upload" not in folder
        teller = threading.Thread(target=folder.written, args=("a.upload",))
        teller.start()
        folder.settle("b.upload", False)
        folder.written("c.upload")  # no page waits for it: nothing happens
        written = await asyncio.wait_for(arrival, 5)
        teller.join()
        return written, await asyncio.wait_for(refused, 5), "a.upload" in folder

    assert asyncio.run(wait()) == (True, False, False)


def test_the_gate_tells_each_upload_written_whole_and_no_refused_one(tmp_path: Path) -> None:
    log = SqliteGameLog.in_folder(tmp_path)
    gate = build_asgi(log, tmp_path, CODE, detector=LazyDetector(no_model), secret_key=SECRET)
    assert isinstance(gate, JoinGate) and gate.written is not None
    told: list[str] = []
    gate.written = told.append
    megabyte = b"\xff" * 2**20
    with serving(gate) as port:
        assert _put(port, "fine.upload", iter([megabyte]), length=2**20) == 200
        assert told == ["fine.upload"]
        assert (tmp_path / "uploads" / "fine.upload").stat().st_size == 2**20
        size = MAX_UPLOAD_BYTES // 2**20 + 2
        assert _put(port, "big.upload", iter([megabyte] * size)) == 413
        assert _put(port, "declared.upload", iter([megabyte]), length=size * 2**20) == 413
        forged = "/upload?f=forged.upload&e=2099-01-01T00:00:00%2B00:00&s=forged"
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("PUT", forged, body=b"x", headers={"Content-Length": "1"})
        assert conn.getresponse().status == 403
        conn.close()
    log.close()
    assert told == ["fine.upload"]
