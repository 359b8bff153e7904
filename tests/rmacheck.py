#!/usr/bin/env python3
"""rmacheck.py TRACE.otf2 — one-sided communication counted from
otf2-print's text alone, independently of skein (tests/onesided.sh
compares skein's info and comm with it):

  * every one-sided and non-blocking collective record, by kind, as
    otf2-print names them;
  * the RMA operations (RMA_PUT, RMA_GET, RMA_ATOMIC) issued on MPI rank
    locations, by origin and target world rank: operations, bytes put
    (a put's bytes, an atomic's sent) and got (a get's bytes, an
    atomic's received); those whose target location is no rank (a
    device's) apart, and with them the RMA_PUT and RMA_GET on a rank's GPU
    streams (Score-P's copies between host and device), also by rank:
    copies, bytes to the device (a rank's put, a stream's get: Score-P
    writes cuMemcpyHtoD's copy as an RMA_GET on the stream) and to the
    host;
  * the messages (MPI_SEND and MPI_ISEND records on rank locations), by
    sender and receiver world rank: messages and bytes. otf2-print
    resolves the receiver, a rank of the message's communicator, to a
    location itself, through an InterComm's remote group too
    ("Receiver: 0 ("Master thread" <3>)").

Ranks come from the MPI COMM_LOCATIONS group (otf2-print -G): member i
is world rank i. otf2-print resolves an operation's remote rank through
its window's communicator to a location ("Remote: 1 ("Master thread"
<1>)"), which is all this needs. Prints one JSON object."""
import json
import re
import subprocess
import sys

KINDS = ("RMA_WIN_CREATE", "RMA_WIN_DESTROY", "RMA_COLLECTIVE_BEGIN", "RMA_COLLECTIVE_END",
         "RMA_GROUP_SYNC", "RMA_REQUEST_LOCK", "RMA_ACQUIRE_LOCK", "RMA_TRY_LOCK",
         "RMA_RELEASE_LOCK", "RMA_SYNC", "RMA_WAIT_CHANGE", "RMA_PUT", "RMA_GET", "RMA_ATOMIC",
         "RMA_OP_COMPLETE_BLOCKING", "RMA_OP_COMPLETE_NON_BLOCKING", "RMA_OP_TEST",
         "RMA_OP_COMPLETE_REMOTE", "NON_BLOCKING_COLLECTIVE_REQUEST",
         "NON_BLOCKING_COLLECTIVE_COMPLETE")


def run(*args):
    p = subprocess.run(("otf2-print",) + args, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"rmacheck: otf2-print {' '.join(args)} failed: {p.stderr[:300]}")
    return p.stdout


def ranks_of(trace):
    """location id -> world rank, from the MPI COMM_LOCATIONS group with
    the lowest id"""
    best = None
    for line in run("-G", trace).splitlines():
        if not line.startswith("GROUP ") or "Type: COMM_LOCATIONS" not in line:
            continue
        if not re.search(r'Paradigm: ("MPI"|MPI\b)', line):
            continue
        gid = int(line.split()[1])
        if best is None or gid < best[0]:
            tail = re.split(r"Members?:", line, maxsplit=1)
            members = re.findall(r"<(\d+)>", tail[1]) if len(tail) > 1 else []
            best = (gid, members)
    return {int(loc): i for i, loc in enumerate(best[1])} if best else {}


def streams_of(trace, rank):
    """ACCELERATOR_STREAM locations in the location group of a rank (or
    in a group such a group created), each with its rank: a GPU stream,
    whose RMA_GET and RMA_PUT are its copies (device copies)"""
    group_of, kind, creator, rank_groups = {}, {}, {}, set()
    for line in run("-G", trace).splitlines():
        f = line.split()
        if f and f[0] == "LOCATION_GROUP":
            m = re.search(r'Creator: "[^"]*" <(\d+)>', line)
            if m:
                creator[int(f[1])] = int(m.group(1))
        elif f and f[0] == "LOCATION":
            m = re.search(r'Type: (\w+).*Group: "[^"]*" <(\d+)>', line)
            if m:
                kind[int(f[1])], group_of[int(f[1])] = m.group(1), int(m.group(2))
    rank_of_group = {}
    for loc in sorted(rank):
        if loc in group_of:
            rank_of_group.setdefault(group_of[loc], rank[loc])
    for _ in range(4):
        for g, c in creator.items():
            if c in rank_of_group and g not in rank_of_group:
                rank_of_group[g] = rank_of_group[c]
    return {loc: rank_of_group[group_of[loc]] for loc, k in kind.items()
            if k == "ACCELERATOR_STREAM" and group_of[loc] in rank_of_group and loc not in rank}


def field(line, name):
    m = re.search(name + r": (\d+)", line)
    return int(m.group(1)) if m else 0


def main():
    trace = sys.argv[1]
    rank = ranks_of(trace)
    streams = streams_of(trace, rank)
    records = {k: 0 for k in KINDS}
    pairs = {}
    device = [0, 0]
    by_rank = {}
    messages = {}

    def copy(r, to_device, to_host):
        device[0] += 1
        device[1] += to_device + to_host
        v = by_rank.setdefault(str(r), [0, 0, 0])
        v[0] += 1
        v[1] += to_device
        v[2] += to_host
    for line in run(trace).splitlines():
        parts = line.split()
        if parts and parts[0] in ("MPI_SEND", "MPI_ISEND") and int(parts[1]) in rank:
            m = re.search(r"Receiver: \d+ \([^)]*<(\d+)>\)", line)
            to = rank.get(int(m.group(1))) if m else None
            v = messages.setdefault(f"{rank[int(parts[1])]},{'?' if to is None else to}", [0, 0])
            v[0] += 1
            v[1] += field(line, "Length")
            continue
        if not parts or parts[0] not in records:
            continue
        records[parts[0]] += 1
        if parts[0] not in ("RMA_PUT", "RMA_GET", "RMA_ATOMIC"):
            continue
        origin = rank.get(int(parts[1]))
        if origin is None:
            if int(parts[1]) in streams and parts[0] in ("RMA_PUT", "RMA_GET"):
                n = field(line, "Bytes")      # a copy on a rank's GPU stream
                copy(streams[int(parts[1])], n if parts[0] == "RMA_GET" else 0,
                     n if parts[0] == "RMA_PUT" else 0)
            continue                  # on a location that is no rank
        m = re.search(r"Remote: \d+ \([^)]*<(\d+)>\)", line)
        target = rank.get(int(m.group(1))) if m else None
        if parts[0] == "RMA_PUT":
            put, got = field(line, "Bytes"), 0
        elif parts[0] == "RMA_GET":
            put, got = 0, field(line, "Bytes")
        else:
            put, got = field(line, "Sent"), field(line, "Received")
        if target is None:
            copy(origin, put, got)
            continue
        key = f"{origin},{target}"
        v = pairs.setdefault(key, [0, 0, 0])
        v[0] += 1
        v[1] += put
        v[2] += got
    print(json.dumps({"records": records, "pairs": pairs, "device": device, "device_by_rank": by_rank,
                      "messages": messages}, sort_keys=True))


main()
