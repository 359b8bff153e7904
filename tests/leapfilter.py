#!/usr/bin/env python3
"""leapfilter.py — analyze's output (stdin) without what the explanations
beyond lateness add (doc/analysis.md, "Beyond lateness"), for
tests/leap.sh, whose sums guard the leap merge's structure: JSON loses
the keys problems, waits, wait_totals, delays, outliers,
critical_path and lane_waits and each timeline's waited_s and made_wait_s, and
the reading's warnings (warnings: analyze gives them since 2026-12-01); text loses
the problems, wait states, threads and streams and critical path sections, the rank
table's waited and made-wait columns and the warning lines;
CSV passes unchanged."""
import json
import re
import sys

data = sys.stdin.read()
if data.lstrip().startswith("{"):
    try:
        d = json.loads(data)
    except ValueError:
        sys.stdout.write(data)
        sys.exit(0)
    for k in ("problems", "waits", "wait_totals", "delays", "outliers", "critical_path",
              "lane_waits", "warnings"):
        d.pop(k, None)
    for t in d.get("timelines", []):
        t.pop("waited_s", None)
        t.pop("made_wait_s", None)
    sys.stdout.write(json.dumps(d, indent=1, sort_keys=True) + "\n")
    sys.exit(0)
out, skip, ranks = [], False, False
for line in data.split("\n"):
    if line.startswith("warning       "):
        continue
    if line.startswith("problems (largest first") or line.startswith("wait states (Scalasca") \
            or line.startswith("threads and streams  "):
        skip = True
        continue
    if line.startswith("critical path  "):
        ranks, skip = False, True
    if line.startswith("rank ") and "made wait" in line:
        skip, ranks = False, True
    if skip:
        continue
    if ranks and line.strip():
        f = line.split()
        if f[0] == "rank" or re.match(r"^\d+$", f[0]):
            line = line[:-30].rstrip() if len(line) > 30 else line
    out.append(line)
sys.stdout.write("\n".join(out))
