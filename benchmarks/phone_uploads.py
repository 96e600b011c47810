"""Eight phones at once (issue #17): each joins with the code, then uploads a 12 MP photo to
the real app (Flet's upload endpoint behind the join gate, uvicorn on loopback, as
``companion app`` configures it); then the eight photos are decoded as the app decodes them.

Run: ``python3 benchmarks/phone_uploads.py [phones]`` (default 8). Prints the time from the
first request to the last answer, each phone's status, and the time to decode all photos.
"""

from __future__ import annotations

import http.client
import socket
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402
import uvicorn  # noqa: E402
from flet_web.uploads import build_upload_url  # noqa: E402

from companion.bench.cpu import describe_cpu  # noqa: E402
from companion.cli.app import server_config  # noqa: E402
from companion.storage import SqliteGameLog  # noqa: E402
from companion.ui.shell.server import build_asgi, new_join_code  # noqa: E402
from companion.vision.base.image import decode_image  # noqa: E402

SECRET = "benchmark-secret"


def photo_12mp() -> bytes:
    """A 4000x3000 JPEG with texture (a flat picture would compress to nothing)."""
    rng = np.random.default_rng(0)
    small = rng.integers(0, 255, (300, 400, 3), dtype=np.uint8)
    image = cv2.resize(small, (4000, 3000), interpolation=cv2.INTER_LINEAR)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return data.tobytes()


def phone(port: int, code: str, index: int, photo: bytes) -> tuple[int, float]:
    host = f"companion.local:{port}"  # a LAN visitor: the join code is needed
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    conn.request("GET", f"/?join={code}", headers={"Host": host})
    joined = conn.getresponse()
    joined.read()
    cookie = joined.getheader("set-cookie", "").split(";")[0]
    url = build_upload_url("upload", f"phone{index}.jpg", 60, SECRET)
    conn.request("PUT", url, body=photo, headers={"Host": host, "Cookie": cookie})
    answer = conn.getresponse()
    answer.read()
    conn.close()
    return answer.status, time.perf_counter()


def main(phones: int) -> None:
    print(f"CPU: {describe_cpu()}")
    photo = photo_12mp()
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        log = SqliteGameLog.in_folder(data)
        code = new_join_code()
        app = build_asgi(log, data, code, secret_key=SECRET)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = int(probe.getsockname()[1])
        server = uvicorn.Server(server_config(app, "127.0.0.1", port))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.02)
        start = time.perf_counter()
        with ThreadPoolExecutor(phones) as pool:
            answers = list(pool.map(lambda i: phone(port, code, i, photo), range(phones)))
        last = max(t for _, t in answers) - start
        statuses = [s for s, _ in answers]
        uploads = sorted((data / "uploads").iterdir())
        start = time.perf_counter()
        with ThreadPoolExecutor(phones) as pool:
            list(pool.map(lambda p: decode_image(p.read_bytes(), p.name), uploads))
        decoded = time.perf_counter() - start
        server.should_exit = True
        thread.join(10)
        log.close()
    mb = len(photo) / 2**20
    print(
        f"{phones} phones uploading a 12 MP photo ({mb:.1f} MB) at once: last answer after "
        f"{last:.2f} s; statuses {statuses}; {len(uploads)} photos decoded in {decoded:.2f} s"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 8)
