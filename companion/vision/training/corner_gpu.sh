#!/bin/bash
# Train corner readers on a lent GPU machine (one GPU, 16 cores) in about 10 minutes: cut fresh
# crops on every core for RENDER_S seconds (re-framed, truth and proposal crops of ordinary
# and hard scenes, some smeared), then train three models side by side on the GPU for
# TRAIN_MIN minutes each, their one-cycle schedules fitted to that time (train --fit):
#   w1:  the shipped network (width 1) from scratch, on many times the crops the CPU build
#        could cut and train on;
#   w15: the same 1.5 times wider (about twice the corner model's time on a CPU);
#   ft:  the shipped int8 model's weights fine-tuned on all of them at a low rate.
# Each is exported as fp32 ONNX under OUT, with its held-out crop accuracy (hard re-framed
# crops) in OUT/train_NAME.log. Quantize, narrow and measure on the CPU after, against a rule
# written before (models/MODEL_CARD.md says what the earlier fine-tunes had to meet):
#   python -m companion.vision.training.quantize OUT/corners_w1.onnx cache/corners_w1.onnx \
#       --calibration CROPS/c0_0.npz
#   python -m companion.vision.training.evaluate SET/labels.json --model cache/corners_w1.onnx
#
#   CARDS=cache/cards OUT=cache/corner_gpu bash companion/vision/training/corner_gpu.sh
# The machine needs only numpy, OpenCV, PyTorch, onnx and onnxruntime (the card art travels
# with the repository as CARDS; it reaches no registry). On a CPU, for a smoke run:
#   DEVICE=cpu JOBS=2 RENDER_S=60 CHUNK=4 VAL_SCENES=6 TRAIN_MIN=0.3 bash .../corner_gpu.sh
set -u
T=companion.vision.training
CARDS=${CARDS:-cache/cards}
OUT=${OUT:-cache/corner_gpu}
DEVICE=${DEVICE:-cuda}
JOBS=${JOBS:-14}         # crop processes (one core each)
RENDER_S=${RENDER_S:-200}
CHUNK=${CHUNK:-40}       # scenes a file: a cut cut off by the clock loses that file
VAL_SCENES=${VAL_SCENES:-60}
TRAIN_MIN=${TRAIN_MIN:-4}
D=${CROPS:-/tmp/corner_crops}
# One thread each, as spots_gpu.sh: OpenCV's and onnxruntime's threads on every core in each
# of 14 processes would only fight.
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1 OPENCV_FOR_THREADS_NUM=1
mkdir -p "$OUT" "$D"
start=$(date +%s)
end=$((start + RENDER_S))

# What each crop process cuts, by its number modulo 8: the CPU build's kinds of crops, with
# hard tables in half of them (the real tables' misses are there) and one smeared.
KINDS=(
  "--source reframed"
  "--source reframed --hard"
  "--source reframed --hard"
  "--source truth"
  "--source truth --hard"
  "--source proposals"
  "--source reframed --motion 0.012"
  "--source proposals --hard"
)

cut() {  # process number: files of CHUNK scenes until the clock runs out
  local k=$1 j=0 left
  while :; do
    left=$((end - $(date +%s)))
    [ "$left" -gt 15 ] || break
    # shellcheck disable=SC2086  # the kind's options are words
    timeout "$left" python3 -m $T.patches --cards "$CARDS" --out "$D/c${k}_$j.npz" \
      --scenes "$CHUNK" --seed $((9100 + 100 * k + j)) --workers 1 ${KINDS[$((k % 8))]} \
      >/dev/null || { rm -f "$D/c${k}_$j.npz"; break; }
    j=$((j + 1))
  done
}

# Validation: re-framed crops of hard scenes (the seed of the stage-8 fine-tune's, 86).
python3 -m $T.patches --cards "$CARDS" --out "$D/val_hard.npz" --scenes "$VAL_SCENES" \
  --seed 86 --hard --source reframed --workers 1 >/dev/null &
for k in $(seq 0 $((JOBS - 1))); do cut "$k" & done
wait
files=$(ls "$D"/c*.npz 2>/dev/null | wc -l)
echo "cut $files files of $CHUNK scenes in $(($(date +%s) - start)) s"
[ "$files" -gt 0 ] || { echo "no crops were cut" >&2; exit 1; }

train() {  # name max_lr then train's own options
  local name=$1 lr=$2
  shift 2
  python3 -m $T.train --train "$D"/c*.npz --val "$D/val_hard.npz" --device "$DEVICE" --fit \
    --minutes "$TRAIN_MIN" --epochs 1000 --batch 256 --max-lr "$lr" --seed 0 --threads 1 \
    --checkpoint "$OUT/ckpt_$name.pt" --out "$OUT/corners_$name.onnx" "$@" \
    >"$OUT/train_$name.log" 2>&1
}
rm -f "$OUT"/ckpt_*.pt  # --fit times a fresh run
train w1 3e-3 &
train w15 3e-3 --width 1.5 &
train ft 3e-4 --init-onnx models/card_corners.onnx &
wait
for m in w1 w15 ft; do
  echo "model $m: $(grep -E '^(fitted|epoch [0-9]+ done)' "$OUT/train_$m.log" | sed -n '1p;$p' \
    | tr '\n' ' ')"
done
echo "done in $(($(date +%s) - start)) s"
