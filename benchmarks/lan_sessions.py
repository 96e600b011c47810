"""The app's sessions against a curious guest (issue #53), on a real ``companion app`` process.

1. Memory: the app's resident memory (``VmRSS``) as one client opens the app's page session
   (the websocket and Flet's registration, as a browser's first load does) and leaves it, 4,000
   times: at start, after the first 20 (what the app loads once is loaded), every 1,000, and
   after a quiet minute; and how many tracebacks the app wrote meanwhile.
2. Log-out: a phone joins with the code (its own loopback address, a LAN name in ``Host``, so
   the join gate applies as on the LAN); a guest with the code then joins again and again, from
   one address and from 250 addresses; the phone asks for the page after every 50 joins. Prints
   the joins and seconds until the phone is sent back to the join form (401), or that it never
   is within the joins tried.

Run: ``python3 benchmarks/lan_sessions.py [--sessions 4000] [--joins 3000] [--checkout DIR]``;
``--checkout`` runs the app from another tree (e.g. an older commit's ``git archive``), for a
before/after in the same conditions.
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import msgpack
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.bench.cpu import describe_cpu  # noqa: E402

REGISTER = b"\x00" + msgpack.packb(
    [1, {"session_id": None, "page_name": "", "page": {"route": "/", "width": 390, "height": 844}}]
)
PHONE, GUEST = "127.0.0.2", "127.0.0.3"
WARM = 20  # sessions before the app has loaded all it loads once


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


@contextmanager
def running_app(checkout: Path | None) -> Iterator[tuple[int, int, str]]:
    """``companion app`` on every interface; (pid, port, join code)."""
    port = free_port()
    with tempfile.TemporaryDirectory() as data, tempfile.TemporaryFile("w+") as errors:
        env = {**os.environ, "PYTHONPATH": str(checkout or ROOT)}
        # Its standard error to a file: a pipe nobody reads would stop the app once full.
        app = subprocess.Popen(
            [sys.executable, "-m", "companion", "app", "--host", "0.0.0.0", "--port", str(port)]
            + ["--data", data],
            stdout=subprocess.PIPE,
            stderr=errors,
            text=True,
            env=env,
            cwd=data,
        )
        code = ""
        assert app.stdout is not None
        for line in app.stdout:
            found = re.search(r"code d'accès: (\d+)", line)
            if found:
                code = found.group(1)
            if line.startswith("Data"):
                break
        deadline = time.monotonic() + 60
        while True:
            try:
                status, _ = get("127.0.0.1", port, "/", host=f"127.0.0.1:{port}")
                if status == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the app did not start")
            time.sleep(0.2)
        try:
            yield app.pid, port, code
        finally:
            app.terminate()
            try:
                app.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                app.kill()
                app.communicate()
            errors.seek(0)
            written = errors.read()
            tracebacks = written.count("Traceback")
            print(f"  app's stderr: {len(written.splitlines())} lines, {tracebacks} tracebacks")


def get(source: str, port: int, path: str, host: str, cookie: str = "") -> tuple[int, str]:
    """(status, the session cookie set) of a GET from ``source``."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    headers = {"Host": host, **({"Cookie": cookie} if cookie else {})}
    conn.request("GET", path, headers=headers)
    answer = conn.getresponse()
    answer.read()
    conn.close()
    return answer.status, (answer.getheader("set-cookie") or "").split(";")[0]


def open_and_leave(port: int) -> None:
    """One page session: the websocket, Flet's registration answered, then gone."""
    with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=30, max_size=2**24) as ws:
        ws.send(REGISTER)
        ws.recv(timeout=30)


def memory(checkout: Path | None, sessions: int) -> None:
    with running_app(checkout) as (pid, port, _):
        print(f"  at start: {rss_mb(pid):.0f} MB")
        start = time.perf_counter()
        for n in range(1, sessions + 1):
            open_and_leave(port)
            if n == WARM:
                print(
                    f"  after {WARM} sessions (the app's first screens built): {rss_mb(pid):.0f} MB"
                )
            if n % 1000 == 0 or n == sessions:
                took = time.perf_counter() - start
                print(f"  {n} sessions opened and left ({took:.0f} s): {rss_mb(pid):.0f} MB")
        time.sleep(60)
        print(f"  a minute later: {rss_mb(pid):.0f} MB")


def log_out(checkout: Path | None, joins: int, guests: list[str]) -> None:
    with running_app(checkout) as (_, port, code):
        lan = f"companion.lan:{port}"
        status, cookie = get(PHONE, port, f"/?join={code}", lan)
        assert status == 303 and cookie, (status, cookie)
        start = time.perf_counter()
        refused = 0
        for n in range(1, joins + 1):
            status, _ = get(guests[n % len(guests)], port, f"/?join={code}", lan)
            refused += status != 303
            if n % 50 == 0 and get(PHONE, port, "/", lan, cookie)[0] == 401:
                took = time.perf_counter() - start
                print(f"  the phone was logged out after {n} joins, {took:.1f} s")
                break
        else:
            took = time.perf_counter() - start
            print(f"  the phone is still in after {joins} joins ({took:.1f} s)", end="")
            print(f"; {refused} of the guest's joins refused")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=4000)
    parser.add_argument("--joins", type=int, default=3000)
    parser.add_argument("--checkout", type=Path, default=None)
    args = parser.parse_args()
    print(describe_cpu())
    print(f"app from {args.checkout or ROOT}")
    print("memory, one client opening and leaving page sessions:")
    memory(args.checkout, args.sessions)
    print("log-out, a guest joining again and again from one address:")
    log_out(args.checkout, args.joins, [GUEST])
    many = [f"127.0.1.{k}" for k in range(1, 251)]
    print("log-out, a guest joining from 250 addresses in turn:")
    log_out(args.checkout, args.joins, many)


if __name__ == "__main__":
    main()
