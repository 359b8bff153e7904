#!/usr/bin/env python3
"""compare.py - an archive's records against the counting layer's counts.

usage: compare.py COUNT_DIR TRACE.otf2

COUNT_DIR holds count.RANK files written by mpicount.so (calls the program
made, per MPI function, C and Fortran names folded to the C one). Checks,
one "ok"/"not ok" line each:
  * every function's calls equal the Enter records of its region, summed
    over the rank's locations (its threads);
  * one-sided: RmaPut, RmaGet and RmaAtomic records equal the calls of the
    functions that issue them, and every operation has one completion;
  * non-blocking collectives: one NonBlockingCollectiveRequest per I-call
    or start of a persistent collective, each completed once;
  * OTF2::MPI_COMMUNICATION_COMPLETE is true.
Standard library only; reads the archive through otf2-print.
"""
import collections
import glob
import os
import re
import subprocess
import sys

results = []


def report(ok, name, detail=""):
    results.append(ok)
    print(("ok - " if ok else "not ok - ") + name + ("" if ok or not detail else ": " + detail))


def main(count_dir, trace):
    calls = collections.defaultdict(collections.Counter)  # rank -> function -> calls
    for path in glob.glob(os.path.join(count_dir, "count.*")):
        rank = path.rsplit(".", 1)[1]
        if not rank.isdigit():
            continue
        for line in open(path):
            f = line.split()
            if f[0] in ("outside", "symbol"):   # outside MPI_Init..MPI_Finalize, and per symbol
                continue
            calls[int(rank)][f[0]] += int(f[1])
    defs = subprocess.run(["otf2-print", "-G", trace], capture_output=True, text=True).stdout
    group_of = {}
    for m in re.finditer(r'^LOCATION\s+(\d+)\s.*Group: "[^"]*" <(\d+)>', defs, re.M):
        group_of[int(m.group(1))] = int(m.group(2))
    info = subprocess.run(["otf2-print", "-I", trace], capture_output=True, text=True).stdout
    complete = re.search(r'OTF2::MPI_COMMUNICATION_COMPLETE\s*\nProperty value\s+(\w+)', info)
    p = subprocess.run(["otf2-print", trace], capture_output=True, text=True)
    report(p.returncode == 0 and not p.stderr.strip(), "otf2-print reads the archive", p.stderr.strip()[:200])
    enters = collections.defaultdict(collections.Counter)
    kinds = collections.defaultdict(collections.Counter)
    rma_ids, rma_done = set(), collections.Counter()
    nbc_ids, nbc_done = set(), collections.Counter()
    for line in p.stdout.splitlines():
        f = line.split(None, 3)
        if len(f) < 3 or not f[1].isdigit():
            continue
        kind, loc, rest = f[0], int(f[1]), f[3] if len(f) > 3 else ""
        rank = group_of.get(loc, loc)
        kinds[rank][kind] += 1
        if kind == "ENTER":
            enters[rank][re.search(r'Region: "([^"]*)"', rest).group(1)] += 1
        elif kind in ("RMA_PUT", "RMA_GET", "RMA_ATOMIC"):
            rma_ids.add((rank, int(re.search(r'Matching: (\d+)', rest).group(1))))
        elif kind.startswith("RMA_OP_COMPLETE"):
            rma_done[(rank, int(re.search(r'Matching: (\d+)', rest).group(1)))] += 1
        elif kind == "NON_BLOCKING_COLLECTIVE_REQUEST":
            nbc_ids.add((rank, int(re.search(r'Request: (\d+)', rest).group(1))))
        elif kind == "NON_BLOCKING_COLLECTIVE_COMPLETE":
            nbc_done[(rank, int(re.search(r'Request: (\d+)', rest).group(1)))] += 1
    report(len(calls) > 0 and set(calls) == set(enters), "counted and traced ranks agree",
           f"counted {sorted(calls)}, traced {sorted(enters)}")
    bad = []
    for rank in sorted(calls):
        for fn in sorted(set(calls[rank]) | set(enters[rank])):
            if calls[rank][fn] != enters[rank][fn]:
                bad.append(f"rank {rank} {fn}: {calls[rank][fn]} calls, {enters[rank][fn]} regions")
    report(not bad, "every MPI call the program made has its region", "; ".join(bad[:6]))
    want = {"RMA_PUT": ("MPI_Put", "MPI_Rput"), "RMA_GET": ("MPI_Get", "MPI_Rget"),
            "RMA_ATOMIC": ("MPI_Accumulate", "MPI_Raccumulate", "MPI_Get_accumulate", "MPI_Rget_accumulate",
                           "MPI_Fetch_and_op", "MPI_Compare_and_swap"),
            "RMA_WIN_CREATE": ("MPI_Win_create", "MPI_Win_allocate", "MPI_Win_allocate_shared",
                               "MPI_Win_create_dynamic"),
            "RMA_WIN_DESTROY": ("MPI_Win_free",)}
    bad = []
    for rank in sorted(calls):
        for kind, fns in want.items():
            n = sum(calls[rank][f] + calls[rank][f + "_c"] for f in fns)
            if kinds[rank][kind] != n:
                bad.append(f"rank {rank} {kind}: {kinds[rank][kind]} records, {n} calls")
    report(not bad, "one-sided calls have their RMA records", "; ".join(bad[:6]))
    report(all(rma_done[i] == 1 for i in rma_ids) and set(rma_done) <= rma_ids,
           "every RMA operation completed once",
           f"{sum(1 for i in rma_ids if rma_done[i] != 1)} of {len(rma_ids)} not")
    report(all(nbc_done[i] == 1 for i in nbc_ids) and set(nbc_done) <= nbc_ids,
           "every non-blocking collective completed once",
           f"{sum(1 for i in nbc_ids if nbc_done[i] != 1)} of {len(nbc_ids)} not")
    report(complete is not None and complete.group(1).lower() == "true", "OTF2::MPI_COMMUNICATION_COMPLETE is true",
           complete.group(1) if complete else "property missing")
    print(f"# {sum(sum(c.values()) for c in calls.values())} calls counted, {len(rma_ids)} RMA operations, "
          f"{len(nbc_ids)} non-blocking collectives")
    return 0 if all(results) else 1


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
