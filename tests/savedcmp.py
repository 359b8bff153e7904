#!/usr/bin/env python3
"""savedcmp.py A B — are two saved analyses (doc/format.md) the same bytes
but for what a run cannot reproduce: the five stage timings of struct
analysis_stats (meta bytes 520..559), the records' padding bytes (the
model's structs are written as C lays them out, padding as it was in
memory: two serial saves of one trace differ there) and the sums that
cover them (every section's, the table's and the header's)? Exit 0 when
so; else 1, naming the first section that differs."""
import struct
import sys

META_ID, TIMINGS = 1, (432 + 88, 432 + 128)     # stats at 432, its timings last
# section id: (record size, padding byte ranges within a record)
PADDING = {17: (40, [(21, 24)]), 18: (8, [(6, 8)]), 19: (20, [(17, 20)]),
           22: (40, [(34, 40)]), 24: (56, [(52, 56)]), 25: (40, [(21, 24)]),
           30: (44, [(43, 44)]), 31: (16, [(14, 16)]), 54: (40, [(37, 40)])}


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
        b[e + 32:e + 40] = bytes(8)                # the section's sum
        if sid == META_ID:
            b[off + TIMINGS[0]:off + TIMINGS[1]] = bytes(TIMINGS[1] - TIMINGS[0])
        if sid in PADDING:
            rec, pads = PADDING[sid]
            for r in range(off, off + size, rec):
                for lo, hi in pads:
                    b[r + lo:r + hi] = bytes(hi - lo)
    return b


a, b = masked(sys.argv[1]), masked(sys.argv[2])
if a == b:
    sys.exit(0)
if len(a) != len(b):
    print(f"savedcmp: sizes differ: {len(a)} and {len(b)} bytes")
else:
    i = next(k for k in range(len(a)) if a[k] != b[k])
    print(f"savedcmp: byte {i} differs ({'header or table' if i < 3904 else 'a section'})")
sys.exit(1)
