"""Checks the instruction-count gate's verdicts (scripts/bench/thresholds.py) without valgrind or a build:
a case more than the tolerance above its threshold fails with both counts and the change, one within it passes, an
unrecorded case fails until --update records it, and --update keeps the cases it did not measure.
Usage: python3 scripts/test/bench_thresholds.py   (prints "bench_thresholds: N passed", exit 1 on a failure)"""
import importlib.util
import sys
from pathlib import Path

spec = importlib.util.spec_from_file_location("thresholds", Path(__file__).resolve().parents[1] / "bench" / "thresholds.py")
thresholds = importlib.util.module_from_spec(spec)
spec.loader.exec_module(thresholds)

checks = []


def check(name):
    def register(function):
        checks.append((name, function))
        return function
    return register


@check("11% above the threshold regresses, and the message names case, both counts and the change")
def _():
    verdict = thresholds.compare(1000, 1110, 10, "codec.to-decode-encode")
    assert verdict.status == "regressed", verdict
    [line] = thresholds.failure_lines([verdict], 10)
    assert "codec.to-decode-encode" in line and "1,000" in line and "1,110" in line and "+11.0%" in line, line


@check("9% above the threshold passes")
def _():
    assert thresholds.compare(1000, 1090, 10).status == "ok"
    assert thresholds.failure_lines([thresholds.compare(1000, 1090, 10)], 10) == []


@check("exactly the tolerance passes; the tolerance comes from the caller")
def _():
    assert thresholds.compare(1000, 1100, 10).status == "ok"
    assert thresholds.compare(1000, 1100, 5).status == "regressed"


@check("far below the threshold is an improvement, not a failure")
def _():
    verdict = thresholds.compare(1000, 700, 10)
    assert verdict.status == "improved" and thresholds.failure_lines([verdict], 10) == []


@check("a case without a threshold fails until recorded")
def _():
    verdict = thresholds.compare(None, 500, 10, "lint.start-up")
    assert verdict.status == "new"
    assert "lint.start-up" in thresholds.failure_lines([verdict], 10)[0]


@check("--update rewrites the measured cases and keeps the others and the tolerance")
def _():
    document = {"tolerance_percent": 10, "cases": {"a": {"instructions": 1, "what": "x"}, "b": {"instructions": 2}}}
    result = thresholds.updated(document, {"b": 20}, "toolchain X")
    assert result["cases"]["a"] == {"instructions": 1, "what": "x"}
    assert result["cases"]["b"]["instructions"] == 20
    assert result["tolerance_percent"] == 10 and result["toolchain"] == "toolchain X"
    assert document["cases"]["b"]["instructions"] == 2, "the original is left alone"


failed = 0
for name, function in checks:
    try:
        function()
    except AssertionError as error:
        failed += 1
        print(f"FAIL {name}: {error}")
print(f"bench_thresholds: {len(checks) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
