#!/usr/bin/env python3
# Async functions of a binary by the size of their frame (not a benchmark): the initial context size recorded in
# each async function pointer (`…Tu` symbols). A connection's task keeps its deepest frames allocated while it is
# open, so these sizes, summed along a request's path, are memory per connection.
# Usage: scripts/bench/async-frames.py .build/release/signin-bridge [COUNT]   (needs readelf, nm, swift demangle)
import struct, subprocess, sys

binary = sys.argv[1]
count = int(sys.argv[2]) if len(sys.argv) > 2 else 40
sections = []
for line in subprocess.run(["readelf", "-SW", binary], capture_output=True, text=True).stdout.splitlines():
    parts = line.replace("[ ", "[").split()
    if len(parts) > 5 and parts[0].startswith("[") and parts[0] != "[Nr]":
        try:
            sections.append((int(parts[3], 16), int(parts[4], 16), int(parts[5], 16)))
        except ValueError:
            pass
data = open(binary, "rb").read()


def file_offset(address):
    for start, offset, size in sections:
        if start and start <= address < start + size:
            return address - start + offset
    return None


rows = []
for line in subprocess.run(["nm", binary], capture_output=True, text=True).stdout.splitlines():
    fields = line.split()
    if len(fields) == 3 and fields[2].endswith("Tu"):
        offset = file_offset(int(fields[0], 16))
        if offset is not None:
            _, size = struct.unpack_from("<iI", data, offset)  # relative function offset, context size
            rows.append((size, fields[2]))
rows.sort(reverse=True)
names = subprocess.run(["swift", "demangle", "--simplified"], input="\n".join(n for _, n in rows[:count]),
                       capture_output=True, text=True).stdout.splitlines()
for (size, _), name in zip(rows, names):
    print(size, name.replace("async function pointer to ", ""))
