#!/usr/bin/env python3
"""otf2check.py - check an MPI trace's consistency from `otf2-print` output.

usage: otf2check.py [--expect FILE] [--polls FILE] [--max-events N] TRACE.otf2

Checks, each printed as one "ok - ..." or "not ok - ..." line:
  * otf2-print reads the archive without errors or warnings;
  * per location: timestamps never decrease, Enter/Leave nest and balance,
    every MPI record sits inside an MPI region, collective Begin/End pair up;
  * messages: every MpiSend/MpiIsend matched by exactly one MpiRecv/MpiIrecv,
    FIFO per (sender, receiver, communicator, tag) after translating
    communicator ranks to locations through the Group definitions (and the
    translation agrees with otf2-print's), equal lengths, receive completed
    no earlier than the send started;
  * requests: each MpiIrecvRequest completed by one MpiIrecv, each MpiIsend
    completed at most once (never-completed ones are counted);
  * collectives, blocking, non-blocking and persistent (in the order called,
    each non-blocking one with its completion): every member of a
    communicator performs the same sequence of operations with the same
    root, and bytes sent equal bytes received over each instance;
  * with --expect: exact record counts per location (see allcalls.expected);
    --polls adds the polling calls a program reported ("POLL rank R NAME N ...").
Exit status 0 when every check passed. Standard library only.
"""
import collections
import re
import subprocess
import sys

results = []


def report(ok, name, detail=""):
    results.append(ok)
    print(("ok - " if ok else "not ok - ") + name + ("" if ok or not detail else ": " + detail))


def run_print(args):
    p = subprocess.run(["otf2-print"] + args, capture_output=True, text=True, errors="replace")
    return p.returncode, p.stdout, p.stderr


# ---- global definitions ----------------------------------------------------

RE_DEF = re.compile(r'^([A-Z_]+)\s+(\d+)\s+(.*)$')


def parse_defs(text):
    groups, comms, locations, regions = {}, {}, {}, {}
    for line in text.splitlines():
        m = RE_DEF.match(line)
        if not m:
            continue
        kind, ident, rest = m.group(1), int(m.group(2)), m.group(3)
        if kind == "GROUP":
            gtype = re.search(r'Type: (\w+)', rest).group(1)
            par = re.search(r'Paradigm: (?:"[^"]*" <(\d+)>|(\w+))', rest)
            paradigm = par.group(1) or par.group(2)
            # "2 Members: ..." or "1 Member: ..."
            mem = re.split(r" Members?(?=:)", rest, 1)[1] if re.search(r" Members?:", rest) else ""
            if gtype == "COMM_LOCATIONS":
                members = [int(x) for x in re.findall(r'<(\d+)>', mem)]
            else:
                members = [int(x) for x in re.findall(r'(?:: |, )(\d+) \(', mem)]
            groups[ident] = (gtype, paradigm, members)
        elif kind == "COMM":
            g = re.search(r'Group: "[^"]*" <(\d+)>', rest)
            comms[ident] = int(g.group(1)) if g else None
        elif kind == "INTER_COMM":
            a = re.search(r'Group A: "[^"]*" <(\d+)>', rest)
            b = re.search(r'Group B: "[^"]*" <(\d+)>', rest)
            comms[ident] = ("inter", int(a.group(1)), int(b.group(1))) if a and b else None
        elif kind == "LOCATION":
            locations[ident] = rest
        elif kind == "REGION":
            regions[ident] = re.match(r'Name: "(.*?)" <\d+>', rest).group(1)
    return groups, comms, locations, regions


class Translator:
    """communicator rank -> location id, from the Group definitions"""

    def __init__(self, groups, comms):
        self.groups, self.comms = groups, comms
        self.loc_groups = {p: mem for (t, p, mem) in groups.values() if t == "COMM_LOCATIONS"}

    def group_locations(self, g, comm):
        if g not in self.groups:
            raise KeyError(f"communicator {comm} has no group")
        gtype, paradigm, mem = self.groups[g]
        if gtype == "COMM_SELF":
            return None
        locs = self.loc_groups.get(paradigm)
        if locs is None:
            raise KeyError(f"no COMM_LOCATIONS group for paradigm {paradigm}")
        return [locs[i] for i in mem]

    def members(self, comm):
        """locations of the communicator's members, or None for a COMM_SELF one"""
        g = self.comms.get(comm)
        if isinstance(g, tuple):
            raise KeyError(f"collective on intercommunicator {comm}")
        return self.group_locations(g, comm)

    def location(self, comm, rank, here):
        """the location of rank in comm, seen from location here (a
        process's first location); an intercommunicator's ranks are in the
        group that here is not in"""
        g = self.comms.get(comm)
        if isinstance(g, tuple):
            a, b = self.group_locations(g[1], comm), self.group_locations(g[2], comm)
            if here in a:
                return b[rank]
            if here in b:
                return a[rank]
            raise KeyError(f"location {here} in neither group of intercommunicator {comm}")
        mem = self.group_locations(g, comm)
        if mem is None:
            if rank != 0:
                raise KeyError(f"rank {rank} in one-member communicator {comm}")
            return here
        return mem[rank]


# ---- events -------------------------------------------------------------------

RE_EVT = re.compile(r'^([A-Z_]+)\s+(\d+)\s+(\d+)\s*(.*)$')
RE_P2P = re.compile(r'(?:Receiver|Sender): (\d+) \(([^)]*)\), Communicator: (?:"[^"]*"|UNDEFINED)(?: <(\d+)>)?, '
                    r'Tag: (\d+), Length: (\d+)(?:, Request: (\d+))?')
RE_REQ = re.compile(r'Request: (\d+)')
RE_COLL = re.compile(r'Operation: (\w+), Communicator: (?:"[^"]*"|UNDEFINED)(?: <(\d+)>)?, Root: (NONE|\d+)[^,]*, '
                     r'Sent: (\d+), Received: (\d+)')
RE_REGION = re.compile(r'Region: "(.*)" <(\d+)>')

SEND_KINDS = ("MPI_SEND", "MPI_ISEND")
RECV_KINDS = ("MPI_RECV", "MPI_IRECV")


def main(argv):
    expect = polls = None
    args = argv[1:]
    while args and args[0].startswith("--"):
        opt = args.pop(0)
        if opt == "--expect":
            expect = args.pop(0)
        elif opt == "--polls":
            polls = args.pop(0)
        else:
            sys.exit(f"otf2check: unknown option {opt}")
    if len(args) != 1:
        sys.exit(__doc__)
    trace = args[0]

    rc, defs_text, err = run_print(["-G", trace])
    report(rc == 0 and "error" not in err.lower(), "otf2-print reads the global definitions",
           err.strip().splitlines()[0] if err.strip() else f"exit {rc}")
    rc, evt_text, err = run_print([trace])
    report(rc == 0 and not err.strip(), "otf2-print reads the events without errors or warnings",
           err.strip().splitlines()[0] if err.strip() else f"exit {rc}")
    groups, comms, locations, regions = parse_defs(defs_text)
    tr = Translator(groups, comms)
    # A thread's location stands for its process (its location group's
    # master location): messages and collectives match per process.
    proc_of = {}
    for ident, rest in locations.items():
        g = re.search(r'Group: "[^"]*" <(\d+)>', rest)
        proc_of[ident] = int(g.group(1)) if g else ident
    master = {}
    for ident in sorted(locations):
        master.setdefault(proc_of[ident], ident)
    proc = lambda loc: master.get(proc_of.get(loc, loc), loc)

    counts = collections.defaultdict(collections.Counter)
    last_time = {}
    stacks = collections.defaultdict(list)
    problems = collections.defaultdict(list)   # check name -> details
    sends, recvs = collections.defaultdict(list), collections.defaultdict(list)
    isend_ids, isend_done = collections.defaultdict(dict), collections.defaultdict(collections.Counter)
    irecv_open = collections.defaultdict(set)
    coll_open = {}
    colls = collections.defaultdict(list)       # (comm, loc or None) -> per-location sequences
    coll_seq = collections.defaultdict(list)    # (comm, loc) -> [(issue, op, root, sent, received)]
    # Collectives are matched in the order they were called on each
    # process: blocking ones at their Begin, non-blocking and persistent
    # ones at their NonBlockingCollectiveRequest (completed later).
    issued = collections.Counter()              # process -> collectives called so far
    begin_at = {}                               # location -> issue number of its open collective
    nbc_at = {}                                 # (process, request) -> issue number

    def problem(check, msg):
        if len(problems[check]) < 5:
            problems[check].append(msg)
        else:
            problems[check].append(None)

    for line in evt_text.splitlines():
        m = RE_EVT.match(line)
        if not m:
            continue
        kind, loc, t, rest = m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)
        counts[loc][kind] += 1
        if t < last_time.get(loc, 0):
            problem("timestamps never decrease", f"location {loc} at {t}")
        last_time[loc] = t
        stack = stacks[loc]
        if kind in ("ENTER", "LEAVE"):
            r = RE_REGION.search(rest)
            name = r.group(1) if r else "?"
            if kind == "ENTER":
                counts[loc]["REGION:" + name] += 1
                stack.append(name)
            else:
                if not stack or stack[-1] != name:
                    problem("Enter/Leave nest", f"location {loc}: leave {name}, open {stack[-1:] or 'nothing'}")
                    if name in stack:
                        del stack[len(stack) - 1 - stack[::-1].index(name)]
                else:
                    stack.pop()
                if coll_open.get(loc) is not None and coll_open[loc] == len(stack) + 1:
                    problem("collective Begin/End pair up", f"location {loc}: region left between Begin and End")
                    coll_open[loc] = None
            continue
        if kind.startswith(("MPI_", "RMA_", "NON_BLOCKING_")) and (not stack or not stack[-1].startswith("MPI_")):
            problem("MPI records inside MPI regions", f"location {loc}: {kind} at {t} inside {stack[-1:] or 'nothing'}")
        if kind in SEND_KINDS or kind in RECV_KINDS:
            p = RE_P2P.search(rest)
            if not p or p.group(3) is None:
                problem("message records parse", f"location {loc}: {line.strip()}")
                continue
            rank, shown, comm, tag, length = int(p.group(1)), p.group(2), int(p.group(3)), int(p.group(4)), int(p.group(5))
            try:
                peer = tr.location(comm, rank, proc(loc))
            except (KeyError, IndexError) as e:
                problem("ranks translate to locations", f"location {loc}: {e}")
                continue
            s = re.search(r'<(\d+)>', shown)
            if not s or int(s.group(1)) != peer:
                problem("rank translation agrees with otf2-print", f"location {loc}: rank {rank} of comm {comm} -> {peer}, otf2-print says {shown}")
            # channels and request ids are per process (threads share them)
            ploc = proc(loc)
            if kind in SEND_KINDS:
                sends[(ploc, peer, comm, tag)].append((length, t, loc))
                if kind == "MPI_ISEND":
                    req = int(p.group(6))
                    if req in isend_ids[ploc]:
                        problem("request ids unique", f"location {loc}: isend request {req} reused")
                    isend_ids[ploc][req] = t
            else:
                recvs[(peer, ploc, comm, tag)].append((length, t, loc))
                if kind == "MPI_IRECV":
                    req = int(p.group(6))
                    if req not in irecv_open[ploc]:
                        problem("every MpiIrecv has one MpiIrecvRequest", f"location {loc}: request {req}")
                    irecv_open[ploc].discard(req)
        elif kind == "MPI_IRECV_REQUEST":
            irecv_open[proc(loc)].add(int(RE_REQ.search(rest).group(1)))
        elif kind in ("MPI_ISEND_COMPLETE", "MPI_REQUEST_CANCELLED"):
            req, ploc = int(RE_REQ.search(rest).group(1)), proc(loc)
            if req in isend_ids[ploc]:
                isend_done[ploc][req] += 1
                if isend_done[ploc][req] > 1:
                    problem("each MpiIsend completed at most once", f"location {loc}: request {req}")
            elif kind == "MPI_REQUEST_CANCELLED":
                irecv_open[ploc].discard(req)
            else:
                problem("each MpiIsendComplete follows its MpiIsend", f"location {loc}: request {req}")
        elif kind == "MPI_COLLECTIVE_BEGIN":
            if coll_open.get(loc) is not None:
                problem("collective Begin/End pair up", f"location {loc}: nested Begin at {t}")
            coll_open[loc] = len(stack)
            begin_at[loc] = issued[proc(loc)]
            issued[proc(loc)] += 1
        elif kind == "NON_BLOCKING_COLLECTIVE_REQUEST":
            req = int(RE_REQ.search(rest).group(1))
            if (proc(loc), req) in nbc_at:
                problem("request ids unique", f"location {loc}: collective request {req} reused")
            nbc_at[(proc(loc), req)] = issued[proc(loc)]
            issued[proc(loc)] += 1
        elif kind in ("MPI_COLLECTIVE_END", "NON_BLOCKING_COLLECTIVE_COMPLETE"):
            if kind == "MPI_COLLECTIVE_END":
                if coll_open.get(loc) != len(stack):
                    problem("collective Begin/End pair up", f"location {loc}: End without Begin at {t}")
                coll_open[loc] = None
                issue = begin_at.pop(loc, None)
            else:
                req = int(RE_REQ.search(rest).group(1))
                issue = nbc_at.pop((proc(loc), req), None)
                if issue is None:
                    problem("each NonBlockingCollectiveComplete follows its request", f"location {loc}: request {req}")
                    continue
            c = RE_COLL.search(rest)
            if not c or c.group(2) is None:
                problem("collective records parse", f"location {loc}: {line.strip()}")
                continue
            comm = int(c.group(2))
            try:
                members = tr.members(comm)
            except KeyError as e:
                problem("collectives on defined communicators", f"location {loc}: {e}")
                continue
            ploc = proc(loc)
            if members is not None and ploc not in members:
                problem("collectives only on members", f"location {loc} is not in communicator {comm}")
            key = (comm, ploc if members is None else None)
            coll_seq[(key, ploc)].append((issue, c.group(1), c.group(3), int(c.group(4)), int(c.group(5))))
            colls[key] = members if members is not None else [ploc]

    for loc, stack in stacks.items():
        if stack:
            problem("Enter/Leave nest", f"location {loc} ends inside {stack}")
    for loc, c in coll_open.items():
        if c is not None:
            problem("collective Begin/End pair up", f"location {loc} ends inside a collective")

    # messages, FIFO per channel
    nmsg = 0
    for key in set(sends) | set(recvs):
        s, r = sends.get(key, []), recvs.get(key, [])
        if len(s) != len(r):
            problem("every send matched by exactly one receive",
                    f"sender {key[0]} -> receiver {key[1]}, comm {key[2]}, tag {key[3]}: {len(s)} sends, {len(r)} receives")
        for (slen, st, _), (rlen, rt, _) in zip(s, r):
            nmsg += 1
            if slen != rlen:
                problem("matched messages have equal lengths", f"{key}: sent {slen}, received {rlen}")
            if rt < st:
                problem("receives complete after their sends start", f"{key}: send at {st}, receive at {rt}")
    for loc, open_reqs in irecv_open.items():
        if open_reqs:
            problem("every MpiIrecvRequest completed", f"location {loc}: {len(open_reqs)} open, e.g. {sorted(open_reqs)[:3]}")
    uncompleted = {loc: sum(1 for q in ids if not isend_done[loc][q]) for loc, ids in isend_ids.items()}

    if nbc_at:
        problem("every NonBlockingCollectiveRequest completed", f"{len(nbc_at)} open, e.g. {sorted(nbc_at)[:3]}")

    # collectives: same sequence on every member, in the order called
    ninst = 0
    for key, members in colls.items():
        seqs = {loc: [x[1:] for x in sorted(coll_seq.get((key, loc), []), key=lambda x: (x[0] is None, x[0]))]
                for loc in members}
        lengths = {len(v) for v in seqs.values()}
        if len(lengths) != 1:
            problem("every collective on every member", f"comm {key[0]}: counts per location {({l: len(v) for l, v in seqs.items()})}")
            continue
        for i in range(lengths.pop()):
            ninst += 1
            ops = {(seqs[l][i][0], seqs[l][i][1]) for l in members}
            if len(ops) != 1:
                problem("members agree on operation and root", f"comm {key[0]} instance {i}: {ops}")
            sent = sum(seqs[l][i][2] for l in members)
            got = sum(seqs[l][i][3] for l in members)
            if sent != got:
                problem("collective bytes sent equal bytes received", f"comm {key[0]} instance {i} ({seqs[members[0]][i][0]}): {sent} vs {got}")

    checks = ["timestamps never decrease", "Enter/Leave nest", "MPI records inside MPI regions",
              "collective Begin/End pair up", "ranks translate to locations", "rank translation agrees with otf2-print",
              "every send matched by exactly one receive", "matched messages have equal lengths",
              "receives complete after their sends start", "request ids unique",
              "every MpiIrecv has one MpiIrecvRequest", "every MpiIrecvRequest completed",
              "each MpiIsend completed at most once", "each MpiIsendComplete follows its MpiIsend",
              "collectives on defined communicators", "collectives only on members", "every collective on every member",
              "each NonBlockingCollectiveComplete follows its request", "every NonBlockingCollectiveRequest completed",
              "members agree on operation and root", "collective bytes sent equal bytes received"]
    for name in checks + sorted(set(problems) - set(checks)):
        details = [d for d in problems.get(name, []) if d]
        more = len(problems.get(name, [])) - len(details)
        report(not problems.get(name), name, "; ".join(details) + (f" (+{more} more)" if more else ""))
    # the records; counts also hold a "REGION:name" entry per ENTER
    nevents = sum(n for c in counts.values() for k, n in c.items() if not k.startswith("REGION:"))
    print(f"# {len(counts)} locations, {nevents} events, "
          f"{nmsg} messages, {ninst} collective instances, "
          f"{sum(uncompleted.values())} Isends never completed")

    if expect:
        check_expected(expect, polls, counts, uncompleted)
    return 0 if all(results) else 1


def check_expected(path, polls_path, counts, uncompleted):
    want = {}
    for line in open(path):
        line = line.split("#", 1)[0].split()
        if line:
            want[line[0]] = [int(x) for x in line[1:]]
    if polls_path:
        for line in open(polls_path):
            f = line.split()
            if len(f) >= 3 and f[0] == "POLL" and f[1] == "rank":
                loc = int(f[2])
                for name, n in zip(f[3::2], f[4::2]):
                    for key in ("ENTER", "LEAVE", "REGION:" + name):
                        want.setdefault(key, [0] * 4)
                        while len(want[key]) <= loc:
                            want[key].append(0)
                        want[key][loc] += int(n)
    nloc = max(len(v) for v in want.values())
    report(len(counts) == nloc, f"{nloc} locations", f"found {len(counts)}")
    kinds = set(want) | {k for c in counts.values() for k in c}
    for kind in sorted(kinds):
        if kind == "ISEND_UNCOMPLETED":
            got = [uncompleted.get(loc, 0) for loc in range(nloc)]
        else:
            got = [counts[loc][kind] for loc in range(nloc)]
        exp = want.get(kind, [0] * nloc)
        report(got == exp, f"count {kind} per location", f"expected {exp}, found {got}")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
