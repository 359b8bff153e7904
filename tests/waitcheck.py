#!/usr/bin/env python3
"""waitcheck.py TRACE [SKEIN_JSON] — the wait states of an OTF2 archive,
counted from otf2-print's text alone, independently of skein: every MPI
call (ENTER/LEAVE of an MPI_ region) with the records inside it, messages
matched first in, first out per sender, receiver, communicator and tag,
collectives matched by their order on each communicator, and Scalasca's
rules (doc/analysis.md, "Wait states"):

  late-sender    a receiving call (not MPI_Test*) waits from its enter to
                 the latest enter of the calls that sent what it received
                 (at most until its leave)
  late-receiver  a blocking send (MPI_Send, MPI_Ssend) or a blocking
                 completion of an Isend (MPI_Wait*) waits from its enter
                 to the enter of the MPI_Recv that received the message,
                 when that came before its leave
  wait-barrier,  every member waits from its enter to the last member's
  wait-nxn       enter (Allgather(v), Alltoall(v,w), Allreduce, Reduce_scatter)
  late-broadcast a non-root member of Bcast/Scatter(v) waits for the root
  early-reduce   the root of Reduce/Gather(v) waits for the last other
  polling        an MPI_Test* that completed a receive, after calls of
                 MPI_Test* that completed nothing (no record) since the
                 rank's last call with a message or collective record:
                 the time from the first of those to the latest enter of
                 the calls that sent what it received (at most until the
                 completing test's enter)

One wait per call: the longest of its kinds. Prints a JSON object of
totals in seconds: {"ranks": [{"rank": r, "late-sender_s": ...}, ...]}.
With SKEIN_JSON (skein analyze --format json), compares its wait_totals
with these, each within 1% (or 2 us), and exits 1 on a difference."""
import json
import re
import subprocess
import sys
from collections import defaultdict, deque

KINDS = ["late-sender", "late-receiver", "wait-nxn", "wait-barrier", "late-broadcast", "early-reduce",
         "polling"]
# the records that make a call an operation of its own (what ends a polling)
OP_RECORDS = {"MPI_SEND", "MPI_ISEND", "MPI_RECV", "MPI_IRECV", "MPI_ISEND_COMPLETE", "MPI_COLLECTIVE_END"}
NXN = {"ALLGATHER", "ALLGATHERV", "ALLTOALL", "ALLTOALLV", "ALLTOALLW", "ALLREDUCE", "REDUCE_SCATTER",
       "REDUCE_SCATTER_BLOCK"}
BCAST = {"BCAST", "SCATTER", "SCATTERV"}
REDUCE = {"GATHER", "GATHERV", "REDUCE"}
SEND_BLOCKS = {"MPI_Send", "MPI_Ssend", "MPI_Wait", "MPI_Waitany", "MPI_Waitall", "MPI_Waitsome"}


def otf2_print(trace, *args):
    # names from the trace may be any bytes (CP2K's hold a Latin-1 one)
    return subprocess.run(["otf2-print", *args, trace], check=True, capture_output=True,
                          text=True, errors="replace").stdout.splitlines()


def members_of(line):
    """the member list of a GROUP line, "" for none"""
    m = re.search(r"\d+ Members?:(.*)$", line)
    return m.group(1) if m else ""


def definitions(trace):
    """ticks per second, location -> world rank, communicator -> world
    ranks of its members"""
    tps, loc_rank, groups, comms = None, {}, {}, {}
    for line in otf2_print(trace, "-G"):
        f = line.split(None, 2)
        if not f:
            continue
        if f[0] == "CLOCK_PROPERTIES":
            tps = int(re.search(r"Ticks per Seconds: (\d+)", line).group(1))
        elif f[0] == "GROUP":
            # "2 Members: ...", "1 Member: ...", "0 Members"
            ids = [int(x) for x in re.findall(r"<(\d+)>", members_of(line))]
            groups[int(f[1])] = (line, ids)
        elif f[0] == "COMM":
            m = re.search(r'Group: "[^"]*" <(\d+)>', line)
            comms[int(f[1])] = int(m.group(1)) if m else None
    for line, ids in groups.values():
        if "Type: COMM_LOCATIONS" in line and re.search(r"Paradigm: \"?MPI\b", line):
            for r, loc in enumerate(ids):
                loc_rank[loc] = r
    comm_world = {}
    for c, g in comms.items():
        line, ids = groups.get(g, ("", []))
        if "Type: COMM_GROUP" in line:
            # members are "rank (location)": the rank is the number before the parenthesis
            members = [int(x) for x in re.findall(r"(\d+) \(", members_of(line))]
            comm_world[c] = members
        elif "Type: COMM_SELF" in line:
            comm_world[c] = None            # the calling rank itself
    return tps, loc_rank, comm_world


def world(comm_world, comm, rank, me):
    members = comm_world.get(comm, [])
    if members is None:
        return me
    return members[rank] if rank < len(members) else rank


def calls_of(trace, loc_rank, comm_world):
    """per rank, its MPI calls in order: [name, enter, leave, records]"""
    calls = defaultdict(list)
    stack = defaultdict(list)       # per location: open regions (name, call or None)
    ev = re.compile(r"^(\S+)\s+(\d+)\s+(\d+)\s*(.*)$")
    for line in otf2_print(trace):
        m = ev.match(line)
        if not m or m.group(1) in ("Event",):
            continue
        kind, loc, t, rest = m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)
        if loc not in loc_rank:
            continue
        r = loc_rank[loc]
        st = stack[loc]
        if kind == "ENTER":
            name = re.search(r'Region: "([^"]*)"', rest).group(1)
            call = None
            if name.startswith("MPI_"):
                call = [name, t, None, []]
                calls[r].append(call)
            st.append((name, call))
        elif kind == "LEAVE":
            if st:
                name, call = st.pop()
                if call is not None:
                    call[2] = t
        elif kind.startswith("MPI_"):
            open_calls = [c for _, c in st if c is not None]
            if open_calls:
                open_calls[-1][3].append((kind, t, rest))
    return calls


def field(rest, name):
    m = re.search(name + r': (\d+)', rest)
    return int(m.group(1)) if m else None


def comm_of(rest):
    m = re.search(r'Communicator: "[^"]*" <(\d+)>', rest)
    return int(m.group(1)) if m else None


def waits(trace):
    tps, loc_rank, comm_world = definitions(trace)
    calls = calls_of(trace, loc_rank, comm_world)
    sends = defaultdict(deque)      # (from, to, comm, tag) -> send calls
    recvs = defaultdict(deque)      # (from, to, comm, tag) -> receive calls
    isend = {}                      # (rank, request) -> send call
    pairs = []                      # (send call, receive call)
    completed = {}                  # id(send call) -> the call completing it
    colls = defaultdict(list)       # (comm, own, n-th) -> [(rank, call, op, root)]
    seq = defaultdict(int)
    poll_from = {}                  # id(call with records) -> first failed test before it
    for r, cs in calls.items():
        start = None
        for c in cs:
            if any(k in OP_RECORDS for k, _, _ in c[3]):
                poll_from[id(c)] = start
                start = None
            elif c[0].startswith("MPI_Test") and start is None:
                start = c[1]
        for c in cs:
            for kind, t, rest in c[3]:
                if kind in ("MPI_SEND", "MPI_ISEND"):
                    comm = comm_of(rest)
                    to = world(comm_world, comm, field(rest, "Receiver"), r)
                    sends[(r, to, comm, field(rest, "Tag"))].append(c)
                    if kind == "MPI_ISEND":
                        isend[(r, field(rest, "Request"))] = c
                    else:
                        completed[id(c)] = c
                elif kind == "MPI_ISEND_COMPLETE":
                    s = isend.pop((r, field(rest, "Request")), None)
                    if s is not None:
                        completed[id(s)] = c
                elif kind in ("MPI_RECV", "MPI_IRECV"):
                    comm = comm_of(rest)
                    frm = world(comm_world, comm, field(rest, "Sender"), r)
                    recvs[(frm, r, comm, field(rest, "Tag"))].append(c)
                elif kind == "MPI_COLLECTIVE_END":
                    comm = comm_of(rest)
                    op = re.search(r"Operation: (\w+)", rest).group(1)
                    m = re.search(r"Root: (\d+)", rest)
                    root = world(comm_world, comm, int(m.group(1)), r) if m else None
                    # a communicator whose group is MPI_COMM_SELF's is each
                    # rank's own (sstmacro-mpi-coverage-10 defines two
                    # communicators so that several ranks call)
                    own = r if comm_world.get(comm, []) is None else -1
                    colls[(comm, own, seq[(comm, r)])].append((r, c, op, root))
                    seq[(comm, r)] += 1
    for key, ss in sends.items():
        rr = recvs.get(key, deque())
        for s, rc in zip(ss, rr):
            if key[0] != key[1]:
                pairs.append((key[0], s, key[1], rc))
    best = {}                        # id(call) -> (time, kind, rank)

    def offer(rank, call, t, kind):
        key = call if isinstance(call, tuple) else id(call)   # a polling: ("poll", its test)
        if t > 0 and (key not in best or t > best[key][0]):
            best[key] = (t, kind, rank)

    latest = {}
    for sr, s, rr, rc in pairs:
        k = id(rc)
        if k not in latest or s[1] > latest[k][1]:
            latest[k] = (rr, s[1], rc)
    for rr, se, rc in latest.values():
        if rc[0].startswith("MPI_Test"):
            start = poll_from.get(id(rc))
            if start is not None and se > start:
                offer(rr, ("poll", id(rc)), min(se, rc[1]) - start, "polling")
        elif se > rc[1]:
            offer(rr, rc, min(se, rc[2]) - rc[1], "late-sender")
    for sr, s, rr, rc in pairs:
        cmp_call = completed.get(id(s))
        if cmp_call is None or cmp_call[0] not in SEND_BLOCKS or rc[0] != "MPI_Recv":
            continue
        if cmp_call is s and s[0] not in ("MPI_Send", "MPI_Ssend"):
            continue
        if cmp_call[1] < rc[1] < cmp_call[2]:
            offer(sr, cmp_call, rc[1] - cmp_call[1], "late-receiver")
    for members in colls.values():
        if len(members) < 2:
            continue
        op = members[0][2]
        last = max(c[1] for _, c, _, _ in members)
        if op == "BARRIER" or op in NXN:
            for r, c, _, _ in members:
                offer(r, c, min(last, c[2]) - c[1], "wait-barrier" if op == "BARRIER" else "wait-nxn")
        elif op in BCAST or op in REDUCE:
            root = [m for m in members if m[0] == members[0][3]]
            if not root:
                continue
            rt = root[0][1]
            if op in BCAST:
                for r, c, _, _ in members:
                    if c is not rt:
                        offer(r, c, min(rt[1], c[2]) - c[1], "late-broadcast")
            else:
                others = [c[1] for _, c, _, _ in members if c is not rt]
                offer(root[0][0], rt, min(max(others), rt[2]) - rt[1], "early-reduce")
    ranks = sorted(set(loc_rank.values()))
    tot = {r: dict.fromkeys(KINDS, 0) for r in ranks}
    for t, kind, r in best.values():
        tot[r][kind] += t
    return {"ranks": [dict({"rank": r}, **{k + "_s": tot[r][k] / tps for k in KINDS}) for r in ranks]}


def main():
    trace = sys.argv[1]
    if not trace.endswith(".otf2"):
        trace = trace.rstrip("/") + "/traces.otf2"
    got = waits(trace)
    if len(sys.argv) < 3:
        json.dump(got, sys.stdout, indent=1)
        print()
        return 0
    skein = json.load(open(sys.argv[2]))["wait_totals"]["ranks"]
    theirs = {x["rank"]: x for x in skein}
    bad = 0
    for x in got["ranks"]:
        y = theirs.get(x["rank"], {})
        for k in KINDS:
            a, b = x[k + "_s"], y.get(k + "_s", 0.0)
            if abs(a - b) > max(0.01 * max(a, b), 2e-6):
                print(f"waitcheck: rank {x['rank']} {k}: otf2-print {a:.9f} s, skein {b:.9f} s")
                bad += 1
    total = sum(x[k + "_s"] for x in got["ranks"] for k in KINDS)
    print(f"waitcheck: {len(got['ranks'])} ranks, {total:.6f} s of waiting, {bad} differences")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
