#!/usr/bin/env python3
"""savedcmp.py A B — are two saved analyses (doc/format.md) the same bytes
but for what a run cannot reproduce: the five stage timings of struct
analysis_stats (meta bytes 744..783) and the sums that cover them (the
meta section's, the table's and the header's)? The records' padding is
written as zeros (doc/format.md), so it is compared too. Exit 0 when
so; else 1, naming the first section that differs."""
import struct
import sys

META_ID, TIMINGS = 1, (656 + 88, 656 + 128)     # stats at 656, its timings last


def masked(path):
    b = bytearray(open(path, "rb").read())
    if b[:8] != b"SKEINSAV":
        sys.exit(f"savedcmp: {path}: not a saved analysis")
    b[32:48] = bytes(16)                       # table and header sums
    n = struct.unpack_from("=I", b, 16)[0]
    for i in range(n):
        e = 64 + 48 * i
        sid, = struct.unpack_from("=I", b, e)
        off, size = struct.unpack_from("=QQ", b, e + 16)
        if sid == META_ID:
            b[e + 32:e + 40] = bytes(8)            # the meta section's sum
            b[off + TIMINGS[0]:off + TIMINGS[1]] = bytes(TIMINGS[1] - TIMINGS[0])
    return b


a, b = masked(sys.argv[1]), masked(sys.argv[2])
if a == b:
    sys.exit(0)
if len(a) != len(b):
    print(f"savedcmp: sizes differ: {len(a)} and {len(b)} bytes")
else:
    i = next(k for k in range(len(a)) if a[k] != b[k])
    table_end = 64 + 48 * 86                   # the header, then 86 table entries
    print(f"savedcmp: byte {i} differs ({'header or table' if i < table_end else 'a section'})")
sys.exit(1)
