import json
import os
import resource
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.vision import CardDetector
from tests.helpers import FIXTURES, without_indices


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(["detect", *argv])
    return code, capsys.readouterr().out


def test_batch_with_bad_files_reports_each_and_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("not an image")
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    missing = tmp_path / "missing.jpg"
    scene = FIXTURES / "scene_0004.jpg"
    code, out = _run(capsys, str(text), str(scene), str(empty), str(missing), "--json")
    assert code == 1
    entries = json.loads(out)
    assert [e["image"] for e in entries] == [str(text), str(scene), str(empty), str(missing)]
    assert "notes.txt" in entries[0]["error"] and "empty.jpg" in entries[2]["error"]
    assert "missing.jpg" in entries[3]["error"]
    good = entries[1]
    assert "error" not in good and len(good["cards"]) >= 8
    first = good["cards"][0]
    assert set(first) == {
        "card",
        "confidence",
        "check",
        "doubts",
        "box",
        "alternatives",
        "index_quad",
        "face_quad",
    }
    assert len(first["box"]) == 4
    assert all(c["check"] == bool(c["doubts"]) for c in good["cards"])
    assert set(good["groups"]) >= {"river", "hands", "stray"}


def test_only_regular_files_are_read_a_pipe_never_waited_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pipe = tmp_path / "table.jpg"
    os.mkfifo(pipe)  # no writer: reading it would wait forever
    folder = tmp_path / "photos.jpg"
    folder.mkdir()
    scene = FIXTURES / "scene_0004.jpg"
    start = time.monotonic()
    code, out = _run(capsys, str(pipe), str(folder), str(scene), "--json")
    assert time.monotonic() - start < 60 and code == 1
    entries = json.loads(out)
    for entry in entries[:2]:
        assert entry["error"].endswith(
            "not a regular file (a folder, a pipe or a device); give a photo's file)"
        )
    assert len(entries[2]["cards"]) >= 8


def test_a_huge_sparse_file_is_refused_without_being_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sparse = tmp_path / "huge.jpg"
    with sparse.open("wb") as file:
        file.truncate(1_500_000_000)  # no block written: 1.5 GB to read, nothing on disk
    unknown = tmp_path / "zeros.png"
    with unknown.open("wb") as file:
        file.truncate(200_000_000)  # under the size limit, with no image header
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    code, out = _run(capsys, str(sparse), str(unknown), "--json")
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    huge, zeros = json.loads(out)
    assert code == 1 and "larger than 300 MB" in huge["error"]
    assert "not an image format" in zeros["error"]
    assert grown_mb < 100, grown_mb


def test_a_bad_file_is_named_once_in_the_plain_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cut = tmp_path / "table.jpg"
    cut.write_bytes((FIXTURES / "scene_0004.jpg").read_bytes()[:5000])  # an upload broken off
    code, out = _run(capsys, str(cut))
    assert code == 1
    assert out == (
        f"{cut}: cannot be read as an image (a damaged or incomplete photo, perhaps cut short "
        "while it was sent; take it or send it again)\n"
    )


def test_pictures_too_small_to_show_a_card_get_their_own_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dot, strip = tmp_path / "dot.png", tmp_path / "strip.png"
    cv2.imwrite(str(dot), np.zeros((1, 1, 3), np.uint8))
    cv2.imwrite(str(strip), np.zeros((3, 4000, 3), np.uint8))
    scene = FIXTURES / "scene_0004.jpg"
    code, out = _run(capsys, str(dot), str(scene), str(strip), "--json")
    assert code == 1
    entries = json.loads(out)
    assert entries[0]["error"] == (
        f"{dot}: cannot be read as an image (1x1 px, too small to show a card)"
    )
    assert entries[2]["error"].endswith("(4000x3 px, too small to show a card)")
    assert "error" not in entries[1] and len(entries[1]["cards"]) >= 8


def test_annotate_writes_one_picture_per_image(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = _run(
        capsys,
        str(FIXTURES / "scene_0002.jpg"),
        str(FIXTURES / "empty_00.jpg"),
        "--annotate",
        str(tmp_path / "out"),
    )
    assert code == 0
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "empty_00_cards.jpg",
        "scene_0002_cards.jpg",
    ]


def test_plain_output_in_french(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(capsys, str(FIXTURES / "empty_00.jpg"), "--lang", "fr")
    assert code == 0 and "aucune carte" in out


def test_missing_model_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["detect", str(FIXTURES / "empty_00.jpg"), "--model", str(tmp_path / "x.onnx")])
    assert code == 2
    assert "x.onnx" in capsys.readouterr().err


def test_expect_counts_what_the_table_lacks(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(capsys, str(FIXTURES / "scene_0004.jpg"), "--json", "--expect", "5+6x2")
    assert code == 0
    groups = json.loads(out)[0]["groups"]
    assert set(groups["missing"]) == {"river", "hands"} and len(groups["missing"]["hands"]) == 6
    assert sum(groups["missing"]["hands"]) >= 2  # at least one hand of six is not on the photo
    assert set(groups["extra"]) == {"river", "hands"}


def test_a_bad_expect_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["detect", str(FIXTURES / "scene_0004.jpg"), "--expect", "5+4"])
    assert code == 2
    assert "“5+4” is not a table layout" in capsys.readouterr().err


def _bomb(width: int, height: int) -> bytes:
    """A real small JPEG whose frame header claims ``width`` x ``height`` pixels."""
    ok, encoded = cv2.imencode(".jpg", np.full((20, 20, 3), 128, np.uint8))
    assert ok
    data = bytearray(encoded.tobytes())
    at = next(i for i in range(2, len(data) - 1) if data[i] == 0xFF and data[i + 1] == 0xC0)
    data[at + 5 : at + 9] = height.to_bytes(2, "big") + width.to_bytes(2, "big")
    return bytes(data)


def test_a_bomb_in_a_batch_is_named_and_the_good_images_are_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bomb = tmp_path / "bomb.jpg"
    bomb.write_bytes(_bomb(60000, 60000))
    scene = FIXTURES / "scene_0004.jpg"
    code, out = _run(capsys, str(scene), str(bomb), "--json")
    assert code == 1  # the good image printed, the status says one was not read
    good, bad = json.loads(out)
    assert len(good["cards"]) >= 8
    assert "bomb.jpg" in bad["error"] and "megapixels" in bad["error"]


@pytest.mark.parametrize("kind", ["file", "impossible"])
def test_annotate_to_a_file_or_an_impossible_folder_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    target = tmp_path / "out"
    if kind == "file":
        target.write_text("taken")
    else:
        (tmp_path / "ro").write_text("a file where a folder should be")
        target = tmp_path / "ro" / "out"
    code = main(["detect", str(FIXTURES / "scene_0004.jpg"), "--annotate", str(target)])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("companion: --annotate") and err.count("\n") == 1


def test_plain_text_names_the_cards_to_check_and_what_the_table_lacks(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out = _run(capsys, str(FIXTURES / "scene_0004.jpg"), "--expect", "5+6x2")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith(str(FIXTURES / "scene_0004.jpg"))
    assert any(line.startswith("  missing: 0 in the river, ") for line in lines)
    _, data = _run(capsys, str(FIXTURES / "scene_0004.jpg"), "--expect", "5+6x2", "--json")
    doubtful = [c["card"] for c in json.loads(data)[0]["cards"] if c["check"]]
    if doubtful:
        assert f"  check: {' '.join(doubtful)}" in lines


def test_plain_text_in_french_names_the_missing_cards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(capsys, str(FIXTURES / "scene_0004.jpg"), "--expect", "5+6x2", "--lang", "fr")
    assert code == 0 and "  manquantes : 0 dans la rivière, " in out


def test_a_card_face_not_read_is_listed_and_said(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    scene = FIXTURES / "scene_0001.jpg"
    _, data = _run(capsys, str(scene), "--json")
    entry = json.loads(data)[0]
    assert entry["unread"] == []
    queen = next(c for c in entry["cards"] if c["card"] == "Qc")
    image = cv2.imread(str(scene))
    read = CardDetector().detect(image)
    blank = tmp_path / "blank.jpg"
    cv2.imwrite(
        str(blank), without_indices(image, read.quads[[str(c) for c in read.cards].index("Qc")])
    )
    _, data = _run(capsys, str(blank), "--json")
    (face,) = json.loads(data)[0]["unread"]
    assert len(face["quad"]) == 4 and len(face["box"]) == 4
    x0, y0, x1, y1 = queen["box"]
    assert x0 - 10 < (face["box"][0] + face["box"][2]) / 2 < x1 + 10
    assert y0 - 10 < (face["box"][1] + face["box"][3]) / 2 < y1 + 10
    _, out = _run(capsys, str(blank))
    assert "  not read: 1 card face seen where no card was read" in out
    _, out = _run(capsys, str(blank), "--lang", "fr")
    assert "  non lues : 1 face de carte vue là où aucune carte n'a été lue" in out


def test_cards_too_small_in_the_photo_are_said_with_their_width(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    scene = FIXTURES / "scene_0004.jpg"  # cards about 73 px wide
    image = cv2.imread(str(scene))
    far = tmp_path / "far.jpg"
    cv2.imwrite(str(far), cv2.resize(image, None, fx=0.55, fy=0.55, interpolation=cv2.INTER_AREA))
    _, data = _run(capsys, str(scene), str(far), str(tmp_path / "none.jpg"), "--json")
    near, small, error = json.loads(data)
    assert not near["small_cards"] and near["card_width"] > 60
    assert small["small_cards"] and 30 < small["card_width"] < 50
    assert error["card_width"] is None and not error["small_cards"]
    _, out = _run(capsys, str(far))
    px = round(small["card_width"])
    assert f"  small: the cards are about {px} px wide in this photo, under the 50 px" in out
    _, out = _run(capsys, str(scene))
    assert "small:" not in out


def test_json_carries_each_reads_alternatives_crops_and_the_tables_gaps(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out = _run(capsys, str(FIXTURES / "scene_0004.jpg"), "--json", "--expect", "5+4x2")
    assert code == 0
    entry = json.loads(out)[0]
    for card in entry["cards"]:
        offered = card["alternatives"]
        assert offered and all(a["card"] != card["card"] for a in offered)
        assert card["confidence"] + sum(a["p"] for a in offered) <= 1.001
        assert len(card["index_quad"]) == len(card["face_quad"]) == 4
    gaps, missing = entry["groups"]["gaps"], entry["groups"]["missing"]
    assert sum(g["count"] for g in gaps) == missing["river"] + sum(missing["hands"]) > 0
    # The fourth hand is not on the photo: it could lie anywhere.
    assert {"hand": 3, "count": 2, "places": []} in gaps


def test_plain_text_offers_the_likeliest_alternatives_of_each_card_to_check(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, data = _run(capsys, str(FIXTURES / "scene_0001.jpg"), "--json")
    doubtful = [c for c in json.loads(data)[0]["cards"] if c["check"]]
    assert doubtful  # the fixture's Kd, a court read near an 8d
    _, out = _run(capsys, str(FIXTURES / "scene_0001.jpg"))
    (line,) = [line for line in out.splitlines() if line.startswith("  or else: ")]
    for card in doubtful:
        first = card["alternatives"][0]["card"]
        assert f"{card['card']} → {first} " in line
    _, french = _run(capsys, str(FIXTURES / "scene_0001.jpg"), "--lang", "fr")
    assert "  ou bien : " in french and " ; " in french
