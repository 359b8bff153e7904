#!/usr/bin/env python3
"""profcheck.py SKEIN TRACE [--from S] [--to S] [--rank-set RANKS] —
skein's profile, communication matrix and collectives against a count
from otf2-print's text alone (the definitions as waitcheck.py reads
them: ranks from the MPI COMM_LOCATIONS group, communicators' members as
world ranks).

Profile: on every rank and on its threads and GPU streams (the CPU_THREAD
and ACCELERATOR_STREAM locations in its location group, whose time counts
for the rank; on a stream an RMA_GET or RMA_PUT is a copy to the device
or host, "[copy to device]" / "[copy to host]", until its completion or
the next copy, inside the region open when it began), regions nest as
ENTER and LEAVE nest; a LEAVE of
a region below the top closes the ones above it at that time, a LEAVE of
a region not open is ignored, regions open at the end close at the
rank's last event; time with measurement switched off (MEASUREMENT_ON_OFF)
counts in no region. The LEAVEs of regions not open, the regions closed
by a LEAVE of one below them and those open at the end, on ranks and
lanes alike, must be the profile's three counts of them. A region's inclusive time is its LEAVE less its
ENTER less that; its exclusive time, the inclusive time less that of the
regions entered inside it. For every region: the calls must equal
skein's, the inclusive time agree within 0.5%, and the rank with the
most exclusive time be skein's max_rank (or one whose time is within
0.5% of it).

Communication: every MPI_SEND and MPI_ISEND counts for its (sender,
receiver) pair with its length; a receive left over after matching each
(sender, receiver, communicator, tag) first in, first out counts for its
pair too. Every pair must have skein's messages and bytes, and skein no
other pair.

Collectives: each MPI_COLLECTIVE_END belongs to the MPI call open on its
rank (the member's call, from its ENTER to its LEAVE) and to the k-th
instance of its communicator, k counted per rank (per rank and call on a
self communicator). In a window [from, to) and a set of ranks, a kept
member's call counts when it overlaps the window (or takes no time and
lies in it): its time clipped to the window and the bytes it sent (Sent)
whole; an instance counts once when any of its members does. Every type
must have skein's count and bytes, and its time within 0.5%. With --from,
--to or --rank-set (numbers and ranges), only the collectives are
compared.

Prints one line per difference and a summary; exits 1 on a difference."""
import csv
import io
import json
import os
import re
import subprocess
import sys
from collections import defaultdict, deque

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from waitcheck import comm_of, definitions, field, otf2_print, world  # noqa: E402

SEEN = ("ENTER", "LEAVE", "MEASUREMENT_ON_OFF")


def lanes_of(trace, loc_rank):
    """A rank's threads and streams (skein's lanes): CPU_THREAD and
    ACCELERATOR_STREAM locations that are not ranks, in the location group
    of one or in a group it created (a GPU context's) -> (rank, is a
    stream). Without MPI ranks, each process's first CPU thread is its
    rank, numbered as the groups first come (loc_rank is filled)."""
    group_rank, kinds, creator = {}, {}, {}
    for line in otf2_print(trace, "-G"):
        f = line.split(None, 2)
        if f and f[0] == "LOCATION_GROUP":
            m = re.search(r'Creator: "[^"]*" <(\d+)>', line)
            if m:
                creator[int(f[1])] = int(m.group(1))
            continue
        if not f or f[0] != "LOCATION":
            continue
        loc = int(f[1])
        m = re.search(r'Type: (\w+).*Group: "[^"]*" <(\d+)>', line)
        if not m:
            continue
        kinds[loc] = (m.group(1), int(m.group(2)))
    no_mpi = not loc_rank
    for loc, (t, g) in kinds.items():
        if no_mpi and t == "CPU_THREAD" and g not in group_rank:
            loc_rank[loc] = len(group_rank)
        if loc in loc_rank:
            group_rank.setdefault(g, loc_rank[loc])
    for _ in range(4):
        for g, c in creator.items():
            if g not in group_rank and c in group_rank:
                group_rank[g] = group_rank[c]
    return {loc: (group_rank[g], t == "ACCELERATOR_STREAM") for loc, (t, g) in kinds.items()
            if loc not in loc_rank and g in group_rank and t in ("CPU_THREAD", "ACCELERATOR_STREAM")}


COPIES = {"RMA_GET": "[copy to device]", "RMA_PUT": "[copy to host]"}


def count(trace):
    tps, loc_rank, comm_world = definitions(trace)
    lanes = lanes_of(trace, loc_rank)
    copy = {}                      # stream -> [name, enter, parent index] of its open copy
    stack = defaultdict(list)      # loc -> [name, enter, gap at enter, child, collectives]
    members = []                   # (type, instance, rank, enter, leave, bytes sent)
    seq = defaultdict(int)         # (rank, communicator) -> collectives so far
    warned = defaultdict(int)      # leaves of regions not open, closed out of order, left open
    gap = defaultdict(int)         # loc -> time with measurement off so far
    off_at = {}
    last = {}
    calls = defaultdict(int)       # name -> calls
    incl = defaultdict(int)        # name -> ticks
    excl = defaultdict(lambda: defaultdict(int))   # name -> rank -> ticks
    sends = defaultdict(deque)     # (from, to, comm, tag) -> lengths
    recvs = defaultdict(deque)
    pairs = defaultdict(lambda: [0, 0])
    ev = re.compile(r"^(\S+)\s+(\d+)\s+(\d+)\s*(.*)$")

    def rank_of(loc):
        return loc_rank[loc] if loc in loc_rank else lanes[loc][0]

    def close(loc, t):
        name, enter, g0, child, colls = stack[loc].pop()
        for typ, key, sent in colls:
            members.append((typ, key, rank_of(loc), enter, t, sent))
        inc = t - enter - (gap[loc] - g0)
        calls[name] += 1
        incl[name] += inc
        excl[name][rank_of(loc)] += inc - child
        if stack[loc]:
            stack[loc][-1][3] += inc

    def leave(loc, rest, t):
        # closes the innermost open instance of the region and those above
        # it; a LEAVE of a region not open is ignored
        name = re.search(r'Region: "([^"]*)"', rest).group(1)
        names = [x[0] for x in stack[loc]]
        if name in names:
            at = len(names) - 1 - names[::-1].index(name)
            warned["misnested"] += len(names) - at - 1
            while len(stack[loc]) > at:
                close(loc, t)
        else:
            warned["stray"] += 1

    def close_copy(loc, t):
        if loc not in copy:
            return
        name, enter, depth = copy.pop(loc)
        inc = max(t, enter) - enter
        calls[name] += 1
        incl[name] += inc
        excl[name][rank_of(loc)] += inc
        # its parent: the region open when it began, if still open
        if depth and len(stack[loc]) >= depth:
            stack[loc][depth - 1][3] += inc

    for line in otf2_print(trace):
        m = ev.match(line)
        if not m:
            continue
        kind, loc, t, rest = m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)
        if loc in lanes:
            # a lane: its regions as a rank's, a stream's copies from the
            # get or put to their completion (or the next copy), under the
            # region open when they began; no measurement gaps
            t = max(t, last.get(loc, t))          # skein clamps a lane's times too
            last[loc] = t
            if lanes[loc][1] and (kind in COPIES or kind.startswith("RMA_OP_COMPLETE")):
                close_copy(loc, t)
                if kind in COPIES:
                    copy[loc] = [COPIES[kind], t, len(stack[loc])]
            elif kind == "ENTER":
                stack[loc].append([re.search(r'Region: "([^"]*)"', rest).group(1), t, 0, 0, []])
            elif kind == "LEAVE":
                leave(loc, rest, t)
            continue
        if loc not in loc_rank:
            continue
        r = loc_rank[loc]
        if kind in SEEN or kind.startswith("MPI_"):
            t = max(t, last.get(loc, t))          # skein clamps times going back
            last[loc] = t
        if kind == "ENTER":
            name = re.search(r'Region: "([^"]*)"', rest).group(1)
            stack[loc].append([name, t, gap[loc], 0, []])
        elif kind == "LEAVE":
            leave(loc, rest, t)
        elif kind == "MEASUREMENT_ON_OFF":
            if "OFF" in rest:
                off_at.setdefault(loc, t)
            elif loc in off_at:
                gap[loc] += t - off_at.pop(loc)
        elif kind in ("MPI_SEND", "MPI_ISEND"):
            comm = comm_of(rest)
            to = world(comm_world, comm, field(rest, "Receiver"), r)
            key = (r, to, comm, field(rest, "Tag"))
            sends[key].append(field(rest, "Length"))
            pairs[(r, to)][0] += 1
            pairs[(r, to)][1] += field(rest, "Length")
        elif kind in ("MPI_RECV", "MPI_IRECV"):
            comm = comm_of(rest)
            frm = world(comm_world, comm, field(rest, "Sender"), r)
            recvs[(frm, r, comm, field(rest, "Tag"))].append(field(rest, "Length"))
        elif kind == "MPI_COLLECTIVE_END" and stack[loc]:
            comm = comm_of(rest)
            k = seq[(r, comm)]
            seq[(r, comm)] += 1
            key = (comm, r, k) if comm in comm_world and comm_world[comm] is None else (comm, k)
            typ = re.search(r"Operation: (\w+)", rest).group(1).lower()
            stack[loc][-1][4].append((typ, key, field(rest, "Sent")))
    for loc in list(copy):
        close_copy(loc, last[loc])
    for loc in list(stack):
        if loc in off_at:
            gap[loc] += last[loc] - off_at.pop(loc)
        warned["unclosed"] += len(stack[loc])
        while stack[loc]:
            close(loc, last[loc])
    for key, rr in recvs.items():
        for length in list(rr)[len(sends.get(key, ())):]:
            pairs[(key[0], key[1])][0] += 1
            pairs[(key[0], key[1])][1] += length
    return tps, calls, incl, excl, pairs, members, warned


def collectives(members, a, b, keep):
    """per type: [instances, bytes sent, time] of the members kept in [a, b)"""
    out = defaultdict(lambda: [set(), 0, 0])
    for typ, key, rank, enter, leave, sent in members:
        if keep is not None and rank not in keep:
            continue
        if enter >= b or not (leave > a or (leave == enter and enter >= a)):
            continue
        x = out[typ]
        x[0].add(key)
        x[1] += sent
        x[2] += min(leave, b) - max(enter, a)
    return {typ: [len(x[0]), x[1], x[2]] for typ, x in out.items()}


def rank_set(spec):
    keep = set()
    for part in spec.split(","):
        lo, _, hi = part.partition("-")
        keep.update(range(int(lo), int(hi or lo) + 1))
    return keep


def offset_of(trace):
    for line in otf2_print(trace, "-G"):
        m = re.search(r"Global Offset: (\d+)", line)
        if line.startswith("CLOCK_PROPERTIES") and m:
            return int(m.group(1))
    return 0


def check_collectives(skein, trace, tps, members, scope):
    """skein comm's collectives against the count over scope (--from,
    --to, --rank-set as given); the differences"""
    args = dict(zip(scope[::2], scope[1::2]))
    off = offset_of(trace)
    a = off + round(float(args["--from"]) * tps) if "--from" in args else 0
    b = off + round(float(args["--to"]) * tps) if "--to" in args else float("inf")
    keep = rank_set(args["--rank-set"]) if "--rank-set" in args else None
    want = collectives(members, a, b, keep)
    out = subprocess.run([skein, "comm", "--format", "json", *scope, trace], check=True,
                         capture_output=True, text=True).stdout
    got = {x["type"]: [x["count"], x["bytes"], round(x["time_s"] * tps)]
           for x in json.loads(out)["collectives"]}
    bad = []
    for typ in sorted(set(want) | set(got)):
        w, g = want.get(typ, [0, 0, 0]), got.get(typ, [0, 0, 0])
        if w[:2] != g[:2] or abs(w[2] - g[2]) > max(0.005 * w[2], 2):
            bad.append(f"profcheck: {' '.join(scope) or 'whole trace'}: {typ}: otf2-print "
                       f"{w[0]} instances, {w[1]} bytes, {w[2] / tps:.9f} s; skein {g[0]}, {g[1]}, "
                       f"{g[2] / tps:.9f} s")
    return bad, sum(w[0] for w in want.values())


def main():
    skein, trace, scope = sys.argv[1], sys.argv[2], sys.argv[3:]
    if not trace.endswith(".otf2"):
        trace = trace.rstrip("/") + "/traces.otf2"
    if scope:
        tps, _, _, _, _, members, _ = count(trace)
        bad, n = check_collectives(skein, trace, tps, members, scope)
        for line in bad:
            print(line)
        print(f"profcheck: {' '.join(scope)}: {n} collectives, {len(bad)} differences")
        return 1 if bad else 0
    run = subprocess.run([skein, "profile", "--format", "json", trace], capture_output=True,
                         text=True)
    if run.returncode != 0:
        _, loc_rank, _ = definitions(trace)
        if not loc_rank:        # skein reads no MPI ranks there: nothing to compare
            print(f"profcheck: no MPI ranks, skipped ({run.stderr.strip()})")
            return 0
        print(f"profcheck: skein profile failed: {run.stderr.strip()}")
        return 1
    prof = json.loads(run.stdout)
    tps, calls, incl, excl, pairs, members, warned = count(trace)
    # regions of one name (a kernel's host stub and the kernel on its
    # stream may be two definitions) count together, by name
    theirs = {}
    for x in prof["regions"]:
        y = theirs.get(x["region"])
        if y is None:
            theirs[x["region"]] = dict(x)
            continue
        y["calls"] += x["calls"]
        y["inclusive_s"] += x["inclusive_s"]
        if x.get("exclusive_s", 0) > y.get("exclusive_s", 0):
            y["max_rank"], y["exclusive_s"] = x["max_rank"], x.get("exclusive_s", 0)
    bad = 0
    for key, field_ in (("stray", "leaves_of_regions_not_open"), ("misnested", "regions_closed_out_of_order"),
                        ("unclosed", "regions_left_open")):
        if warned[key] != prof.get(field_):
            print(f"profcheck: {field_}: otf2-print {warned[key]}, skein {prof.get(field_)}")
            bad += 1
    worst = 0.0
    for name in sorted(calls):
        y = theirs.get(name)
        if y is None:
            print(f"profcheck: {name}: not in skein's profile")
            bad += 1
            continue
        a, b = incl[name] / tps, y["inclusive_s"]
        rel = abs(a - b) / max(a, b) if max(a, b) > 0 else 0.0
        worst = max(worst, rel)
        top = max(excl[name].values())
        mine = excl[name].get(y["max_rank"], 0)
        if calls[name] != y["calls"] or rel > 0.005 or mine < top - max(0.005 * top, 1):
            print(f"profcheck: {name}: otf2-print {calls[name]} calls, {a:.9f} s, most on rank "
                  f"{max(excl[name], key=lambda k: (excl[name][k], -k))}; skein {y['calls']} "
                  f"calls, {b:.9f} s, rank {y['max_rank']}")
            bad += 1
    extra = set(theirs) - set(calls)
    for name in sorted(extra):
        print(f"profcheck: {name}: in skein's profile, not in otf2-print's")
        bad += 1
    out = subprocess.run([skein, "comm", "--format", "csv", trace], check=True,
                         capture_output=True, text=True).stdout
    got = {(int(x["sender"]), int(x["receiver"])): (int(x["messages"]), int(x["bytes"]))
           for x in csv.DictReader(io.StringIO(out))}
    for key in sorted(set(got) | set(pairs)):
        want = tuple(pairs.get(key, (0, 0)))
        if got.get(key, (0, 0)) != want:
            print(f"profcheck: {key[0]} -> {key[1]}: otf2-print {want[0]} messages, {want[1]} "
                  f"bytes; skein {got.get(key, (0, 0))}")
            bad += 1
    lines, n_coll = check_collectives(skein, trace, tps, members, [])
    for line in lines:
        print(line)
    bad += len(lines)
    msgs = sum(p[0] for p in pairs.values())
    print(f"profcheck: {len(calls)} regions ({sum(calls.values())} calls, largest difference in "
          f"time {100 * worst:.4f}%), {len(pairs)} pairs ({msgs} messages), {n_coll} collectives, "
          f"{bad} differences")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
