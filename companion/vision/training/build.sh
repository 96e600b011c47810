#!/bin/sh
# Rebuild models/card_corners.onnx from scratch on a CPU (about 45-60 minutes on 2 cores).
# Needs: pip install -e .[train]; apt-get install gnome-cards-data librsvg2-bin;
#        npm install @heruka_urgyen/react-playing-cards cardsJS in cache/npm.
set -e
python -m companion.vision.training.art --cache cache
python -m companion.vision.training.patches --out cache/patches_train.npz --scenes 1000 --seed 1
python -m companion.vision.training.patches --out cache/patches_prop_train.npz --scenes 700 --seed 3 --source proposals
python -m companion.vision.training.patches --out cache/patches_prop_val.npz --scenes 60 --seed 4 --held-out --source proposals
python -m companion.vision.training.train --epochs 3 --minutes 60 --out models/card_corners.onnx
# Held-out synthetic evaluation set (deck tigullio, stone tables):
python -m companion.vision.training.scenes --out cache/heldout --count 150 --seed 777 --held-out
