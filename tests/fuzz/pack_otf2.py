#!/usr/bin/env python3
"""pack_otf2.py ARCHIVE_DIR OUT — a seed for fuzz_otf2: the archive's
anchor, global definitions and location 0's local definitions, each but
the last after a little-endian 16-bit length (tests/fuzz/fuzz_otf2.c)."""
import os
import struct
import sys

src, out = sys.argv[1], sys.argv[2]


def read(name):
    path = os.path.join(src, name)
    return open(path, "rb").read() if os.path.exists(path) else b""


anchor, glob, local = read("traces.otf2"), read("traces.def"), read("traces/0.def")
with open(out, "wb") as f:
    f.write(struct.pack("<H", len(anchor)) + anchor)
    f.write(struct.pack("<H", len(glob)) + glob)
    f.write(local)
