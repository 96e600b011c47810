"""Training options of the corner-crop models (``training.train``).

Needs the training extra (torch); skipped without it."""

import pytest

torch = pytest.importorskip("torch")

from companion.vision.training import train  # noqa: E402


def test_a_blend_keeps_its_share_of_what_training_moved() -> None:
    start = {"w": torch.zeros(3), "count": torch.tensor(5)}
    trained = {"w": torch.tensor([2.0, 4.0, -2.0]), "count": torch.tensor(9)}
    mixed = train._blended(start, trained, 0.25)
    assert mixed["w"].tolist() == [0.5, 1.0, -0.5]
    assert int(mixed["count"]) == 9  # a counter is not a weight: it stays as trained


@pytest.mark.parametrize(
    ("extra", "message"),
    [(["--blend", "0"], "--blend takes a share"), (["--blend", "0.5"], "give --init")],
)
def test_a_bad_blend_is_a_usage_error(
    extra: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        train.main(["--train", "nothing.npz", *extra])
    assert message in capsys.readouterr().err
