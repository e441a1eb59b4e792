#!/usr/bin/env python3
"""The instruction-count regression gate (`make bench` runs it first).

Re-measures the Office To/Back URL codec (Benchmarks/ProtocolBench) and the manifest linter (signin-bridge-lint)
under `valgrind --tool=callgrind` and compares each case's instruction count (callgrind's Ir) with the one kept in
Benchmarks/thresholds.json. Instruction counts repeat from run to run whatever else the machine is doing, unlike
time; a case more than the file's tolerance (10%) above its threshold fails the check (exit 1), naming the case,
both counts and the change. Counts depend on the compiler too: the file records the toolchain that measured it.

Usage: scripts/bench/thresholds.py               check every case
       scripts/bench/thresholds.py --update      measure and rewrite the file (after an intended change)
         --only PREFIX   only the cases whose name starts with PREFIX (repeatable; --update then rewrites only those)
         --skip-build    use the release binaries already built (scripts/release/build.sh)
         --file PATH     another thresholds file
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_FILE = ROOT / "Benchmarks" / "thresholds.json"
# Small and fixed: enough operations that start-up is a small part of each count, few enough that the whole check
# takes about a minute under valgrind.
CODEC_OPERATIONS = 2000


@dataclass(frozen=True)
class Verdict:
    name: str
    old: int | None
    new: int
    change_percent: float | None
    status: str   # "ok", "regressed", "improved" (beyond the tolerance: worth an --update), "new" (no threshold)


def compare(old: int | None, new: int, tolerance_percent: float, name: str = "") -> Verdict:
    """One case's verdict: regressed when `new` exceeds `old` by more than the tolerance."""
    if old is None:
        return Verdict(name, None, new, None, "new")
    change = (new - old) / old * 100
    if change > tolerance_percent:
        status = "regressed"
    elif change < -tolerance_percent:
        status = "improved"
    else:
        status = "ok"
    return Verdict(name, old, new, change, status)


def updated(document: dict, measured: dict[str, int], toolchain: str) -> dict:
    """`document` with the measured cases' counts replaced (the others kept) and the toolchain that measured them."""
    result = json.loads(json.dumps(document))
    cases = result.setdefault("cases", {})
    for name, count in measured.items():
        cases.setdefault(name, {})["instructions"] = count
        cases[name]["what"] = CASE_DESCRIPTIONS.get(name, cases[name].get("what", ""))
    result["cases"] = dict(sorted(cases.items()))
    result["toolchain"] = toolchain
    return result


def failure_lines(verdicts: list[Verdict], tolerance_percent: float) -> list[str]:
    lines = []
    for v in verdicts:
        if v.status == "regressed":
            lines.append(f"REGRESSED {v.name}: {v.old:,} -> {v.new:,} instructions ({v.change_percent:+.1f}%, "
                         f"limit +{tolerance_percent:g}%)")
        elif v.status == "new":
            lines.append(f"NO THRESHOLD for {v.name} ({v.new:,} instructions): run with --update to record it")
    return lines


# MARK: Measuring

def run(argv: list[str], **kwargs) -> str:
    return subprocess.run(argv, cwd=ROOT, check=True, text=True, stdout=subprocess.PIPE, **kwargs).stdout.strip()


def release_binary(product: str, skip_build: bool, scratch: Path) -> Path:
    """The product's release binary, copied without debug info: valgrind 3.19 cannot read the DWARF 5 Swift emits."""
    build = ["bash", "scripts/release/build.sh"]
    if not skip_build:
        print(f"building {product} (release)…", file=sys.stderr, flush=True)
        # Its output only when it fails: dependencies' package warnings would bury the verdicts.
        result = subprocess.run(build + ["--product", product], cwd=ROOT, text=True, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT)
        if result.returncode != 0:
            sys.exit(f"building {product} failed:\n{result.stdout[-4000:]}")
    binary = Path(run(build + ["--show-bin-path"])) / product
    copy = scratch / product
    shutil.copy2(binary, copy)
    subprocess.run(["strip", "--strip-debug", str(copy)], check=True)
    return copy


def instructions(argv: list[str], environment: dict[str, str] | None = None) -> int:
    """Ir of one whole process under callgrind. Its exit status is not the figure (a lint with findings exits 1)."""
    env = dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1", **(environment or {}))
    result = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv], cwd=ROOT,
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    match = re.search(r"refs:\s+([\d,]+)", result.stderr)
    if not match:
        raise RuntimeError(f"no instruction count from callgrind for {' '.join(argv)}:\n{result.stderr[-2000:]}")
    return int(match.group(1).replace(",", ""))


def codec_per_operation(bench: Path, profile: str) -> int:
    """ProtocolBench's workload, per operation: CODEC_OPERATIONS of them minus the same process doing none."""
    def count(iterations: int) -> int:
        return instructions([str(bench)], {"BENCH_PROFILE": profile, "BENCH_ITERATIONS": str(iterations)})
    return (count(CODEC_OPERATIONS) - count(0)) // CODEC_OPERATIONS


CASE_DESCRIPTIONS = {
    "codec.to-decode-encode": f"OfficeToURL(url:) with every check, then .url; per operation ({CODEC_OPERATIONS} minus 0)",
    "codec.back-decode-encode": f"OfficeBackURL(url:) with every check, then .url; per operation ({CODEC_OPERATIONS} minus 0)",
    "codec.to-back-decode-only": f"OfficeToURL and OfficeBackURL decoded, not encoded; per operation ({CODEC_OPERATIONS} minus 0)",
    "lint.manifest-5000-lines": "signin-bridge-lint, every rule, on scripts/bench/generate-manifest.py 5000; whole process",
    "lint.manifest-200-lines": "signin-bridge-lint, every rule, on scripts/bench/generate-manifest.py 200; whole process",
    "lint.start-up": "signin-bridge-lint on an empty folder (start-up, then nothing to lint); whole process",
}


def cases(skip_build: bool, scratch: Path) -> dict[str, Callable[[], int]]:
    """Each case's measurement, built lazily so that --only builds and runs only what it needs."""
    binaries: dict[str, Path] = {}

    def binary(product: str) -> Path:
        if product not in binaries:
            binaries[product] = release_binary(product, skip_build, scratch)
        return binaries[product]

    def manifest(lines: int) -> str:
        path = scratch / f"AndroidManifest-{lines}.xml"
        if not path.exists():
            path.write_text(run([sys.executable, "scripts/bench/generate-manifest.py", str(lines)]) + "\n")
        return str(path)

    def empty_folder() -> str:
        (scratch / "empty").mkdir(exist_ok=True)
        return str(scratch / "empty")

    lint = "signin-bridge-lint"
    return {
        "codec.to-decode-encode": lambda: codec_per_operation(binary("ProtocolBench"), "to"),
        "codec.back-decode-encode": lambda: codec_per_operation(binary("ProtocolBench"), "back"),
        "codec.to-back-decode-only": lambda: codec_per_operation(binary("ProtocolBench"), "decode"),
        "lint.manifest-5000-lines": lambda: instructions([str(binary(lint)), manifest(5000)]),
        "lint.manifest-200-lines": lambda: instructions([str(binary(lint)), manifest(200)]),
        "lint.start-up": lambda: instructions([str(binary(lint)), empty_folder()]),
    }


def toolchain() -> str:
    swift = run([os.environ.get("SWIFT", "swift"), "--version"], stderr=subprocess.STDOUT).splitlines()[0]
    return f"{swift}; {run(['valgrind', '--version'])}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--update", action="store_true", help="rewrite the file with the counts measured now")
    parser.add_argument("--only", action="append", default=[], metavar="PREFIX")
    parser.add_argument("--skip-build", action="store_true")
    parser.add_argument("--file", type=Path, default=DEFAULT_FILE)
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind is missing: bash scripts/install-deps.sh bench", file=sys.stderr)
        return 2

    document = json.loads(args.file.read_text()) if args.file.exists() else {"tolerance_percent": 10, "cases": {}}
    tolerance = float(document.get("tolerance_percent", 10))
    current_toolchain = toolchain()
    with tempfile.TemporaryDirectory(prefix="signin-bridge-thresholds.") as scratch:
        measurements = cases(args.skip_build, Path(scratch))
        selected = [n for n in measurements if not args.only or any(n.startswith(p) for p in args.only)]
        if not selected:
            print(f"no case starts with {' or '.join(args.only)}; cases: {', '.join(measurements)}", file=sys.stderr)
            return 2
        measured = {name: measurements[name]() for name in selected}

    if args.update:
        args.file.write_text(json.dumps(updated(document, measured, current_toolchain), indent=2) + "\n")
        print(f"wrote {len(measured)} case(s) to {args.file.relative_to(ROOT) if args.file.is_relative_to(ROOT) else args.file}")
        return 0

    recorded = document.get("cases", {})
    verdicts = [compare(recorded.get(n, {}).get("instructions"), count, tolerance, n) for n, count in measured.items()]
    print(f"instruction counts (callgrind Ir) against {args.file.name}, tolerance +{tolerance:g}%")
    print(f"{'case':28s} {'threshold':>14s} {'now':>14s} {'change':>8s}  verdict")
    for v in verdicts:
        old = f"{v.old:,}" if v.old is not None else "-"
        change = f"{v.change_percent:+.1f}%" if v.change_percent is not None else "-"
        print(f"{v.name:28s} {old:>14s} {v.new:>14,} {change:>8s}  {v.status}")
    if document.get("toolchain") and document["toolchain"] != current_toolchain:
        print(f"note: thresholds were measured with {document['toolchain']}; this is {current_toolchain}")
    for v in verdicts:
        if v.status == "improved":
            print(f"note: {v.name} is {-v.change_percent:.1f}% below its threshold: --update locks the gain in")
    failures = failure_lines(verdicts, tolerance)
    for line in failures:
        print(line, file=sys.stderr)
    if failures:
        print("instruction-count check FAILED (an intended change: scripts/bench/thresholds.py --update)", file=sys.stderr)
        return 1
    print(f"instruction-count check passed ({len(verdicts)} cases)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
