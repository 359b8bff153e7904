#!/usr/bin/env python3
"""waitsuite.py SKEIN DIR — tests/waits.sh's checks: for each trace in
DIR, skein's wait states against tests/waitcheck.py's count from
otf2-print, then the ground truth of DIR/expected.txt for the trace's
name (its -openmpi twin shares it). Prints each failure and a closing
line "wait states: N passed, M failed"; exits 1 on a failure."""
import csv
import io
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import waitcheck  # noqa: E402

skein, top = sys.argv[1], sys.argv[2]
expect = {}
for line in open(os.path.join(top, "expected.txt")):
    f = line.split("#", 1)[0].split()
    if f:
        expect.setdefault(f[0], []).append(f[1:])
passed = failed = 0


def check(ok, why):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL: " + why)


for name in sorted(os.listdir(top)):
    d = os.path.join(top, name)
    if not os.path.isdir(d):
        continue
    run = subprocess.run([skein, "analyze", "--format", "json", d], capture_output=True, text=True)
    if run.returncode:
        check(False, f"{name}: analyze failed: {run.stderr.strip()}")
        continue
    an = json.loads(run.stdout)
    probs = list(csv.DictReader(io.StringIO(subprocess.run(
        [skein, "analyze", "--format", "csv", "--table", "problems", d],
        capture_output=True, text=True).stdout)))
    got = waitcheck.waits(os.path.join(d, "traces.otf2"))
    theirs = {x["rank"]: x for x in an["wait_totals"]["ranks"]}
    for x in got["ranks"]:
        for k in waitcheck.KINDS:
            a, b = x[k + "_s"], theirs.get(x["rank"], {}).get(k + "_s", 0.0)
            check(abs(a - b) <= max(0.01 * max(a, b), 2e-6),
                  f"{name}: rank {x['rank']} {k}: otf2-print {a:.9f} s, skein {b:.9f} s")
    # the text report's longest waits: the JSON's waits (in lop order)
    # longest first, the earlier of equal ones first, as many as asked
    order = sorted(range(len(an["waits"])), key=lambda i: (-an["waits"][i]["wait_s"], i))
    for opts, limit in (([], 10), (["--all", "--hotspots", "3"], 3), (["--all", "--hotspots", "0"], 0)):
        text = subprocess.run([skein, "analyze"] + opts + [d], capture_output=True, text=True).stdout
        lines = text.split("\n  longest:\n", 1)
        shown = [m.groups() for m in (re.match(r"  rank (\d+)'s .* \(step (\d+)\) waited ", x)
                                      for x in lines[1].split("\n")) if m] if len(lines) == 2 else []
        want = [(str(w["rank"]), str(w["step"])) for w in (an["waits"][i] for i in order[:limit])]
        check(shown == want and (len(lines) == 2) == bool(order),
              f"{name}: longest waits {' '.join(opts)}: {shown}, want {want}")
    for what, *args in expect.get(name[:-len("-openmpi")] if name.endswith("-openmpi") else name, []):
        if what == "iterations":
            n = an["iterations"]["count"]
            check(n == int(args[0]), f"{name}: {n} iterations, want {args[0]}")
        elif what == "problem":
            p = probs[0] if probs else {}
            check(p.get("rank") == args[0] and p.get("operation") == args[1] and
                  (args[2] == "*" or p.get("iteration") == args[2]),
                  f"{name}: top problem {p or 'none'}, want rank {args[0]} {args[1]} iteration {args[2]}")
        elif what == "wait":
            r = theirs.get(int(args[0]), {}).get(args[1] + "_s", 0.0)
            check(r >= float(args[2]), f"{name}: rank {args[0]} waited {r:.6f} s ({args[1]}), want >= {args[2]}")
        elif what == "alone":
            big = [p for p in probs[1:] if float(p["amount_s"]) >= float(args[0])]
            check(not big, f"{name}: problems after the first of {args[0]} s or more: {big}")
        elif what == "made-wait":
            best = max(an["timelines"], key=lambda x: x["made_wait_s"])
            check(best["rank"] == int(args[0]),
                  f"{name}: rank {best['rank']} made the others wait most, want {args[0]}")
        else:
            check(False, f"{name}: unknown check {what}")
print(f"wait states: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
