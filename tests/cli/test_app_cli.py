"""``companion app`` as started from a terminal: addresses, join code, no CDN, upload checks."""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from companion.cli import build_parser
from companion.ui.shell.server import lan_address
from tests.e2e.browser import free_port, running_app


def get(url: str, cookie: str | None = None) -> tuple[int, str, dict[str, str]]:
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: object, **kwargs: object) -> None:
            return None

    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(request, timeout=10) as response:
            return response.status, response.read().decode(), dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(), dict(error.headers)


def test_options_and_defaults() -> None:
    args = build_parser().parse_args(["app"])
    assert (args.port, args.host, args.data, args.lang) == (8550, "0.0.0.0", None, "fr")
    assert args.webcam == 0


def test_the_webcam_is_a_camera_number_a_stream_or_a_video_that_exists(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    parse = build_parser().parse_args
    video = tmp_path / "table.avi"
    video.write_bytes(b"")
    assert parse(["app", "--webcam", "1"]).webcam == 1
    stream = "http://192.168.1.20:8080/video"
    assert parse(["app", "--webcam", stream]).webcam == stream
    assert parse(["app", "--webcam", str(video)]).webcam == str(video)
    with pytest.raises(SystemExit) as stopped:
        parse(["app", "--webcam", str(tmp_path / "nowhere.avi")])
    assert stopped.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert error.endswith("nowhere.avi' is no camera number, stream URL or video file")


@pytest.mark.slow
def test_lan_visitors_need_the_printed_join_code(tmp_path: Path) -> None:
    lan = lan_address()
    if lan is None:
        pytest.skip("this machine has no LAN address to come from")
    port, lines = free_port(), []
    with running_app(tmp_path / "data", port, host="0.0.0.0", output=lines) as url:
        assert lines[0] == f"Companion: {url}"
        (code,) = re.findall(r"\?join=([\w-]{20,})$", lines[1])
        assert lines[1].startswith(f"LAN / réseau local: http://{lan}:{port}/")
        status, page, _ = get(url)
        assert status == 200 and "flet.noCdn=true" in page  # the web client is served locally
        status, page, _ = get(f"http://{lan}:{port}/")
        assert status == 401 and "code" in page
        status, _, headers = get(f"http://{lan}:{port}/?join={code}")
        assert status == 303
        cookie = headers["set-cookie"].split(";")[0]
        assert get(f"http://{lan}:{port}/", cookie)[0] == 200


@pytest.mark.slow
def test_unsigned_uploads_are_refused(tmp_path: Path) -> None:
    with running_app(tmp_path / "data", free_port()) as url:
        request = urllib.request.Request(f"{url}upload?f=x.jpg", data=b"x", method="PUT")
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 400
    assert not any((tmp_path / "data" / "uploads").iterdir())
