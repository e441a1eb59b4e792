#!/usr/bin/env bash
# The release build as shipped (`make release`, `make run` and every benchmark use it): `swift build -c release`
# with each function in a section of its own, in our modules and in every dependency's (Swift and C). That lets the
# linker place the functions the server runs next to each other, in the order of scripts/release/signin-bridge.order
# (Package.swift passes it to lld); see docs/memory.md. Arguments go on to `swift build`.
# Every release build of this tree must use the same flags: a build with other flags recompiles every module.
set -euo pipefail
cd "$(dirname "$0")/../.."
flags=(-c release -Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections)
# SwiftPM does not track the order file as an input of the link: a newer order file needs the binary linked again.
bin="$(${SWIFT:-swift} build "${flags[@]}" "$@" --show-bin-path)/signin-bridge"
if [ -e "$bin" ] && [ scripts/release/signin-bridge.order -nt "$bin" ]; then rm -f "$bin"; fi
exec ${SWIFT:-swift} build "${flags[@]}" "$@"
