#!/usr/bin/env bash
# Benchmark (not a test): `signin-bridge lint` with every rule on a generated 5,000-line AndroidManifest.xml,
# against libxml2's own `xmllint --noout --relaxng` validating the same file with the same schema, in the same run.
# Goal: our full lint within 1.2x of xmllint's validation alone. Both are timed as whole processes,
# alternately, RUNS times each (default 40); medians are compared. Process start-up of each binary is printed as
# well, since for files this small it is a large part of both figures: `xmllint --version`, and
# `signin-bridge-lint` on an empty folder (its paths-only start-up, without ArgumentParser, then "nothing found").
# Usage: scripts/bench/lint.sh [LINES]      (needs libxml2-utils: `make bench` installs it)
#   PROFILE_DIR=dir  the top functions by instructions (callgrind) in dir/lint.txt
#   RESULTS=file   also write the figures as key=value lines (scripts/bench/all.sh reads them)
set -euo pipefail
cd "$(dirname "$0")/../.."
lines=${1:-5000}
runs=${RUNS:-40}
command -v xmllint >/dev/null || { echo "xmllint missing: bash scripts/install-deps.sh bench" >&2; exit 2; }

# Release build of the standalone lint executable, Swift runtime linked statically (libxml2 stays dynamic), as a
# partner's CI would install it.
# Its own scratch directory: switching .build/release between static and dynamic linking rebuilds every module.
swift build -c release --product signin-bridge-lint --static-swift-stdlib --scratch-path .build-static >/dev/null
bin=.build-static/release/signin-bridge-lint

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/empty"
python3 scripts/bench/generate-manifest.py "$lines" >"$work/AndroidManifest.xml"
echo "manifest: $(wc -l <"$work/AndroidManifest.xml") lines, $(wc -c <"$work/AndroidManifest.xml") bytes; $runs runs each"
"$bin" "$work/AndroidManifest.xml" | tail -1
xmllint --noout --nonet --relaxng schemas/android-manifest.rng "$work/AndroidManifest.xml"

python3 - "$runs" "$bin" "$work/AndroidManifest.xml" "$work/empty" "${RESULTS:-}" <<'PY'
import statistics, subprocess, sys, time
runs, binary, manifest, empty, results = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
commands = {
    "xmllint --relaxng (validation only)": ["xmllint", "--noout", "--nonet", "--relaxng", "schemas/android-manifest.rng", manifest],
    "signin-bridge-lint (all rules)": [binary, manifest],
    "xmllint --version (start-up)": ["xmllint", "--version"],
    "signin-bridge-lint EMPTY-FOLDER (start-up)": [binary, empty],
}
times = {name: [] for name in commands}
for _ in range(runs):
    for name, argv in commands.items():
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times[name].append(time.perf_counter() - start)
median = {name: statistics.median(values) * 1000 for name, values in times.items()}
for name, value in median.items():
    print(f"{name:42s} median {value:7.2f} ms   (min {min(times[name]) * 1000:6.2f} ms)")
xml, lint = median["xmllint --relaxng (validation only)"], median["signin-bridge-lint (all rules)"]
xml_work = xml - median["xmllint --version (start-up)"]
lint_work = lint - median["signin-bridge-lint EMPTY-FOLDER (start-up)"]
print(f"ratio lint / xmllint, whole processes:        {lint / xml:5.2f}x  (goal <= 1.2x)")
print(f"ratio lint / xmllint, start-up subtracted:    {lint_work / xml_work:5.2f}x")
if results:
    with open(results, "w") as out:
        out.write(f"lint_ms={lint:.2f}\nxmllint_ms={xml:.2f}\n")
        out.write(f"lint_startup_ms={median['signin-bridge-lint EMPTY-FOLDER (start-up)']:.2f}\n")
        out.write(f"xmllint_startup_ms={median['xmllint --version (start-up)']:.2f}\n")
PY

# Instruction counts do not depend on what else the machine is doing (valgrind needs the debug info stripped).
if command -v valgrind >/dev/null; then
  cp "$bin" "$work/signin-bridge-lint" && strip --strip-debug "$work/signin-bridge-lint"
  # The exit status is not the figure (an empty folder is "nothing to lint", exit 2): only valgrind's count matters.
  instructions() { { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null || true; } | sed -n 's/.*refs: *//p' | tr -d ,; }
  xml_ir=$(instructions xmllint --noout --nonet --relaxng schemas/android-manifest.rng "$work/AndroidManifest.xml")
  lint_ir=$(instructions "$work/signin-bridge-lint" "$work/AndroidManifest.xml")
  start_ir=$(instructions "$work/signin-bridge-lint" "$work/empty")
  parse_ir=$(instructions xmllint --noout --nonet "$work/AndroidManifest.xml")
  python3 -c "
x, l, s, p = $xml_ir, $lint_ir, $start_ir, $parse_ir
print(f'instructions: xmllint --relaxng {x/1e6:.1f} M (parse alone {p/1e6:.1f} M), signin-bridge-lint {l/1e6:.1f} M (start-up alone {s/1e6:.1f} M)')
print(f'ratio by instructions, whole processes:        {l/x:5.2f}x;  lint work without start-up: {(l-s)/x:5.2f}x')"
  if [ -n "${PROFILE_DIR:-}" ]; then   # the functions with the most instructions (self), Swift names demangled
    valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" "$work/signin-bridge-lint" "$work/AndroidManifest.xml" >/dev/null 2>&1
    callgrind_annotate "$work/callgrind.out" 2>/dev/null |
      awk '/PROGRAM TOTALS/ { print; next } /file:function/ { list = 1; getline; next } list && NF && n++ < 25 { print }' |
      sed -E 's/ +/ /g; s/^ //' | { if command -v swift >/dev/null; then swift demangle --simplified; else cat; fi; } |
      cut -c1-200 > "$PROFILE_DIR/lint.txt"
  fi
  [ -z "${RESULTS:-}" ] || printf 'lint_instr=%s\nxmllint_instr=%s\nlint_startup_instr=%s\n' "$lint_ir" "$xml_ir" "$start_ir" >> "$RESULTS"
fi
