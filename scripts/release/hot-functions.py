#!/usr/bin/env python3
"""Lines of a symbol ordering file, as lld's --symbol-ordering-file reads it (one linkage name per line, `ld.lld
--help`), from one of two sources on stdin (scripts/release/order.sh runs both):

  hot-functions.py counts                 `llvm-profdata merge --text` output: every function that ran, most
                                          executed first
  hot-functions.py faults BINARY ORDER    `perf script -F ip,sym,dso --no-demangle` of a page-fault recording: the
                                          functions of BINARY that faults landed in and ORDER does not list yet

The profile's text format (llvm.org/docs/CommandGuide/llvm-profdata.html, "merge --text"): per function its name,
then `# Func Hash:`, `# Num Counters:` and `# Counter Values:` lines, each followed by its value(s). A function with
a local symbol is named `source-file;symbol` (older LLVM: `source-file:symbol`); the linker knows it as `symbol`.
"""
import os
import sys


def profile_functions(lines):
    """(name, counter values) for each function of a text profile."""
    lines = [line.rstrip("\n") for line in lines]
    index = 0
    while index < len(lines):
        line = lines[index]
        if not line or line.startswith((":", "#")) or index + 1 >= len(lines) or lines[index + 1] != "# Func Hash:":
            index += 1
            continue
        # name, "# Func Hash:", hash, "# Num Counters:", n, "# Counter Values:", n values
        count = int(lines[index + 4])
        yield line, [int(value) for value in lines[index + 6 : index + 6 + count]]
        index += 6 + count


def counts(stdin) -> list[str]:
    executed: dict[str, int] = {}
    for name, values in profile_functions(stdin):
        symbol = name.rsplit(";", 1)[-1].rsplit(":", 1)[-1]
        # The busiest block stands for how hot the function is; a function that never ran is left to the linker.
        hottest = max(values, default=0)
        if hottest > 0:
            executed[symbol] = max(executed.get(symbol, 0), hottest)
    return [symbol for symbol, _ in sorted(executed.items(), key=lambda item: (-item[1], item[0]))]


def faults(stdin, binary: str, order: str) -> list[str]:
    binary = os.path.realpath(binary)
    with open(order, encoding="utf-8") as listed_file:
        listed = set(listed_file.read().split())
    added: list[str] = []
    for line in stdin:
        # " 55d0c1f2a3b4 $s4main3FooV3baryyF (/path/to/binary)"
        fields = line.split()
        if len(fields) != 3 or not (fields[2].startswith("(") and fields[2].endswith(")")):
            continue
        name = fields[1]
        if os.path.realpath(fields[2][1:-1]) != binary or name == "[unknown]" or name in listed:
            continue
        listed.add(name)
        added.append(name)
    return added


def main() -> None:
    if sys.argv[1:2] == ["counts"]:
        names = counts(sys.stdin)
    elif sys.argv[1:2] == ["faults"] and len(sys.argv) == 4:
        names = faults(sys.stdin, sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
    sys.stdout.write("".join(name + "\n" for name in names))


if __name__ == "__main__":
    main()
