#!/usr/bin/env python3
"""leapfilter.py — analyze's output (stdin) without what the explanations
beyond lateness add (doc/analysis.md, "Beyond lateness"), for
tests/leap.sh, whose sums guard the leap merge's structure: JSON loses
the keys problems, waits, wait_totals, delays, outliers,
critical_path and lane_waits and each timeline's waited_s and made_wait_s, and
the reading's warnings (warnings: analyze gives them since 2026-12-01); text loses
the problems, wait states, threads and streams and critical path sections, the rank
table's waited and made-wait columns and the warning lines;
CSV passes unchanged.

With --sums FILE...: each file filtered so, and the SHA-256 of what
would be written, a line "SUM  FILE" each (as sha256sum prints): one
start of Python for all of leap.sh's 160 outputs."""
import hashlib
import json
import re
import sys


def filtered(data):
    """analyze's output data without the explanations beyond lateness"""
    if data.lstrip().startswith("{"):
        return filtered_json(data)
    return filtered_text(data)


def filtered_json(data):
    try:
        d = json.loads(data)
    except ValueError:
        return data
    for k in ("problems", "waits", "wait_totals", "delays", "outliers", "critical_path",
              "lane_waits", "warnings"):
        d.pop(k, None)
    for t in d.get("timelines", []):
        t.pop("waited_s", None)
        t.pop("made_wait_s", None)
    return json.dumps(d, indent=1, sort_keys=True) + "\n"


def filtered_text(data):
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
    return "\n".join(out)


if len(sys.argv) > 1 and sys.argv[1] == "--sums":
    for name in sys.argv[2:]:
        with open(name, "rb") as f:
            text = f.read().decode("utf-8", "surrogateescape")
        digest = hashlib.sha256(filtered(text).encode("utf-8", "surrogateescape")).hexdigest()
        print(digest + "  " + name)
else:
    sys.stdout.write(filtered(sys.stdin.read()))
