"""The patch-stem student of the corner model (``training.distil``).

Needs the training extra (torch); skipped without it."""

import pytest

torch = pytest.importorskip("torch")

from companion.vision.base.geometry import CROP_H, CROP_W  # noqa: E402
from companion.vision.training import distil  # noqa: E402
from companion.vision.training.net import CornerNet  # noqa: E402
from companion.vision.training.patches import NO_INDEX  # noqa: E402


def _crops(n: int) -> torch.Tensor:
    return torch.randint(0, 256, (n, CROP_H, CROP_W, 3), generator=torch.Generator().manual_seed(1))


def test_both_fronts_bring_a_crop_to_the_same_features_shape() -> None:
    crops = _crops(2).float()
    shapes = [CornerNet(patch=patch).eval().front_features(crops).shape for patch in (False, True)]
    assert shapes[0] == shapes[1] == (2, 48, 14, 10)


def test_the_student_holds_the_teachers_later_layers_and_heads() -> None:
    torch.manual_seed(0)
    teacher = CornerNet().eval()
    student = distil.student_of(teacher).eval()
    features = torch.randn(3, 48, 14, 10)
    with torch.no_grad():
        theirs = teacher.features[teacher.front :](features)
        mine = student.features[student.front :](features)
        assert torch.equal(mine, theirs)
        assert torch.equal(student.rank(mine), teacher.rank(theirs))
        assert torch.equal(student.suit(mine), teacher.suit(theirs))
    # The front is the student's own: a patch stem, not a copy.
    assert student.features[0][0].weight.shape == (32, 3, 4, 4)


def test_a_student_reading_as_its_teacher_is_left_with_the_labels_loss() -> None:
    gen = torch.Generator().manual_seed(2)
    rank, suit = torch.randn(6, 14, generator=gen), torch.randn(6, 4, generator=gen)
    ranks = torch.tensor([0, 3, NO_INDEX, 12, NO_INDEX, 5])
    suits = torch.tensor([1, 0, -1, 3, -1, 2])
    same = distil.distil_loss((rank, suit), (rank, suit), ranks, suits)
    labels = torch.nn.functional.cross_entropy(rank, ranks, label_smoothing=0.05)
    labels = labels + torch.nn.functional.cross_entropy(suit, suits, ignore_index=-1)
    assert float(same) == pytest.approx(distil.LABEL_SHARE * float(labels), rel=1e-5)
    # Reading otherwise than the teacher costs more, on the ranks and on the suits alike.
    assert float(distil.distil_loss((-rank, suit), (rank, suit), ranks, suits)) > float(same)
    assert float(distil.distil_loss((rank, -suit), (rank, suit), ranks, suits)) > float(same)


def test_front_steps_outside_the_steps_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        distil.main(
            [
                "--teacher",
                "t.onnx",
                "--train",
                "x.npz",
                "--out",
                "o.onnx",
                "--front-steps",
                "9",
                "--steps",
                "9",
            ]
        )
    assert "--front-steps must lie" in capsys.readouterr().err
