"""The CPU named beside every latency figure (``companion.bench.cpu``)."""

from __future__ import annotations

import platform
from pathlib import Path

import pytest

from companion.bench.cpu import describe_cpu, describe_cpuinfo

# Two processors of a /proc/cpuinfo as Linux writes it, flags cut to those that matter here.
EPYC = """processor\t: 0
vendor_id\t: AuthenticAMD
model name\t: AMD EPYC 7B13
flags\t\t: fpu sse2 avx avx2 fma

processor\t: 1
vendor_id\t: AuthenticAMD
model name\t: AMD EPYC 7B13
flags\t\t: fpu sse2 avx avx2 fma
"""
XEON = EPYC.replace("AMD EPYC 7B13", "Intel(R) Xeon(R) Platinum 8481C").replace(
    "avx2 fma", "avx2 fma avx512f avx512_vnni avx_vnni"
)


def test_a_cpu_without_vnni_says_so() -> None:
    assert describe_cpuinfo(EPYC) == "AMD EPYC 7B13, 2 cores, no avx512_vnni or avx_vnni"


def test_a_cpu_with_vnni_names_its_flags() -> None:
    assert describe_cpuinfo(XEON) == (
        "Intel(R) Xeon(R) Platinum 8481C, 2 cores, lists avx512_vnni and avx_vnni"
    )


def test_unreadable_text_gives_words_not_an_error() -> None:
    assert describe_cpuinfo("") == "unknown CPU, cores unknown, no avx512_vnni or avx_vnni"


@pytest.mark.skipif(not Path("/proc/cpuinfo").is_file(), reason="Linux only")
def test_this_machine_is_named_with_its_vnni() -> None:
    words = describe_cpu()
    flags = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").split()
    assert ("avx512_vnni" in flags or "avx_vnni" in flags) == ("lists" in words)
    assert platform.machine() != "x86_64" or "unknown CPU" not in words
