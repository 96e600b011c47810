"""The CPU a measured figure comes from: its model name and whether it has VNNI.

onnxruntime's int8 kernels run several times faster on CPUs whose flags list ``avx512_vnni``
or ``avx_vnni``, so every latency figure names its CPU (``describe_cpu``).
"""

from __future__ import annotations

import platform
from pathlib import Path

__all__ = ["VNNI_FLAGS", "describe_cpu", "describe_cpuinfo"]

VNNI_FLAGS = ("avx512_vnni", "avx_vnni")
CPUINFO = Path("/proc/cpuinfo")


def describe_cpuinfo(cpuinfo: str) -> str:
    """``model name, N cores, VNNI flags`` from the text of ``/proc/cpuinfo``."""
    model, flags, cores = "", set[str](), 0
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        key = key.strip()
        if key == "processor":
            cores += 1
        elif key == "model name" and not model:
            model = value.strip()
        elif key in ("flags", "Features") and not flags:
            flags = set(value.split())
    listed = [flag for flag in VNNI_FLAGS if flag in flags]
    vnni = f"lists {' and '.join(listed)}" if listed else "no avx512_vnni or avx_vnni"
    count = f"{cores} cores" if cores else "cores unknown"
    return f"{model or 'unknown CPU'}, {count}, {vnni}"


def describe_cpu() -> str:
    """This machine's CPU as ``describe_cpuinfo`` words it (elsewhere than Linux: the
    platform's processor name, VNNI unknown)."""
    try:
        return describe_cpuinfo(CPUINFO.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return f"{platform.processor() or 'unknown CPU'}, VNNI unknown"
