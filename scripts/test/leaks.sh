#!/usr/bin/env bash
# Runs the ManifestLint tests under LeakSanitizer (not part of `make test`): the standalone LSan runtime is preloaded
# into the ordinary debug test binary, so every malloc, libxml2's included, is tracked without an ASan rebuild of all
# dependencies. (valgrind 3.19 cannot read Swift 6.3's debug info, and crashes on a stripped copy.)
# Exit status is LSan's: 0 means no leak. Needs Debian's liblsan0 (installed here if missing).
set -euo pipefail
cd "$(dirname "$0")/../.."
runtime=/usr/lib/x86_64-linux-gnu/liblsan.so.0
[ -e "$runtime" ] || { apt-get update -qq && apt-get install -y -qq liblsan0 >/dev/null; }
swift build --build-tests >/dev/null
LSAN_OPTIONS=report_objects=1:max_leaks=30 LD_PRELOAD="$runtime" \
  .build/debug/SignInBridgePackageTests.xctest --testing-library swift-testing --filter "${1:-ManifestLintTests}"
