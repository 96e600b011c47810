"""What every measured figure is stamped with, for the benchmarks (``benchmarks/``) and the
models' latency lines (``vision/training/evaluate.py``): ``cpu`` names the CPU a figure comes
from. It imports nothing else from the package, and the app never loads it."""
