"""Training options of the corner-crop models (``training.train``).

Needs the training extra (torch); skipped without it."""

from pathlib import Path

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


def test_fit_sizes_the_cycle_to_the_time_left_after_its_timed_steps() -> None:
    import time

    net = torch.nn.Linear(2, 1)
    opt = torch.optim.AdamW(net.parameters(), lr=1.0)
    ran: list[float] = []

    def step() -> None:
        ran.append(opt.param_groups[0]["lr"])
        time.sleep(0.01)

    steps = train._fitted_steps(step, opt, max_lr=2.5e-3, seconds=2.0)
    assert len(ran) == train.PROBE and set(ran) == {1e-4}  # the cycle's starting rate
    # 2 s less the probe's 0.6 s, at 10 ms a step and 5 % kept back: about 133 (the sleeps
    # are at least 10 ms; a loaded machine can only make them longer).
    assert 40 <= steps <= 135


@pytest.mark.parametrize(
    ("extra", "message"),
    [(["--fit"], "--fit times a fresh run"), (["--device", "cuda:7"], "no CUDA GPU here")],
)
def test_a_fit_on_an_old_checkpoint_or_a_missing_gpu_is_a_usage_error(
    extra: list[str], message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    if "cuda:7" in extra and torch.cuda.is_available():
        pytest.skip("a GPU is here: --device cuda is no error")
    checkpoint = tmp_path / "corner.pt"
    checkpoint.write_bytes(b"an earlier run")
    with pytest.raises(SystemExit):
        train.main(["--train", "nothing.npz", "--checkpoint", str(checkpoint), *extra])
    assert message in capsys.readouterr().err
