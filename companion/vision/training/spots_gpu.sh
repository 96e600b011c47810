#!/bin/bash
# Rebuild the spot model's fp32 weights on a lent GPU machine (one GPU, 16 cores) in about 8
# minutes: render fresh frames on every core for RENDER_S seconds, then train two models side
# by side on the GPU for TRAIN_MIN minutes each (batch 32 and batch 64), and measure both on
# held-out frames. Quantize the chosen one on the CPU after (build.sh's quantize line).
#   CARDS=cache/cards OUT=cache/spots_gpu bash companion/vision/training/spots_gpu.sh
# The machine needs only numpy, OpenCV, PyTorch, onnx and onnxruntime (the card art travels
# with the repository; it reaches no registry).
set -u
T=companion.vision.training
CARDS=${CARDS:-cache/cards}
OUT=${OUT:-cache/spots_gpu}
DEVICE=${DEVICE:-cuda}
JOBS=${JOBS:-14}         # render processes (one core each)
RENDER_S=${RENDER_S:-170}
CHUNK=${CHUNK:-50}       # scenes a file: a render cut off by the clock loses that file (140
                         # in the first run, which kept one file of each render)
TRAIN_MIN=${TRAIN_MIN:-4}
WORKERS=${WORKERS:-6}    # crop processes of each of the two trainers
D=${FRAMES:-/tmp/spot_frames}
# One thread each: in the first run (2026-12-04) the 15 renders took 0.6-1.2 s a scene against
# 0.3 s on one idle core here, probably OpenCV's threads on every core in each (not measured).
export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1 OPENCV_FOR_THREADS_NUM=1
mkdir -p "$OUT" "$D"
start=$(date +%s)
end=$((start + RENDER_S))

render() {  # job number: files of CHUNK scenes until the clock runs out; every 4th on a board
  local k=$1 j=0 board="" left
  [ $((k % 4)) -eq 3 ] && board="--board 0.6"
  while :; do
    left=$((end - $(date +%s)))
    [ "$left" -gt 15 ] || break
    timeout "$left" python3 -m $T.outline_data --cards "$CARDS" --out "$D/t${k}_$j.npz" \
      --scenes "$CHUNK" --seed $((6100 + 100 * k + j)) $board >/dev/null \
      || { rm -f "$D/t${k}_$j.npz"; break; }
    j=$((j + 1))
  done
}

python3 -m $T.outline_data --cards "$CARDS" --out "$D/val.npz" --scenes 120 --seed 62 \
  --held-out >/dev/null &
for k in $(seq 0 $((JOBS - 1))); do render "$k" & done
wait
echo "rendered $(ls "$D"/t*.npz | wc -l) files of $CHUNK scenes in $(($(date +%s) - start)) s"

train() {  # name batch max_lr seed
  python3 -m $T.spot_train --train "$D"/t*.npz --val "$D/val.npz" --device "$DEVICE" \
    --workers "$WORKERS" --fit --minutes "$TRAIN_MIN" --steps 1000000 --batch "$2" \
    --max-lr "$3" --seed "$4" --threads 2 --out "$OUT/spots_$1.onnx" >"$OUT/train_$1.log" 2>&1
}
train a 32 3e-3 0 &
train b 64 4e-3 1 &
wait
for m in a b; do
  echo "model $m: $(grep -E '^(fitted|step|held-out)' "$OUT/train_$m.log" | sed -n '1p;$p' | tr '\n' ' ')"
  python3 -m $T.spot_train --val "$D/val.npz" --check "$OUT/spots_$m.onnx" --threads 2
done
echo "done in $(($(date +%s) - start)) s"
