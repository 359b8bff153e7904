#!/usr/bin/env python3
"""onesided.py SKEIN ROOT [SHARED] — one-sided communication and
non-blocking collectives, end to end (tests/onesided.sh): on every
archive of ROOT/traces/onesided (the project's tracer under MPICH and
Open MPI: tests/rma.c, nbc.c and a Global Arrays program) and on the
shared Score-P traces with RMA records:

  * skein info counts every RMA and non-blocking collective record as
    otf2-print does (tests/rmacheck.py), its calls are ops of kind rma;
  * skein comm's messages by pair (sender, receiver, messages, bytes)
    are rmacheck's, those on an intercommunicator too, and the tracer's
    archives are read without a warning;
  * skein comm's one-sided pairs (origin, target, operations, bytes put
    and got) and device copies are rmacheck's, apart from the messages;
    the profile gives them to the regions that issued them, all of them;
  * skein analyze's verifier passes, with libotf2's event reader too
    (SKEIN_OTF2_EVENTS=library), which gives the same model;
  * each fence is a collective of the window's group in the structure:
    the k-th fence of every rank at one global step, in one partition;
  * a non-blocking collective's members are the calls that completed it,
    whole (none incomplete);
  * the saved analysis gives the trace's info and comm;
  * in the Global Arrays run under MPICH, where the flushes wait for the
    target's progress, the problems and hotspots name the RMA calls, and
    none of the first ten is a computation (the model without RMA blamed
    71.99 ms on rank 1's computation).
Prints one line per failure and a count; exit 1 on any failure."""
import csv
import io
import json
import os
import subprocess
import sys
import tempfile

skein, root = sys.argv[1], sys.argv[2]
shared = sys.argv[3] if len(sys.argv) > 3 else os.path.join(root, "..", "shared")
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL: {what}")


def sk(*args, env=None):
    e = dict(os.environ, SKEIN_THREADS="2")
    if env:
        e.update(env)
    p = subprocess.run((skein,) + args, capture_output=True, text=True, env=e)
    if p.returncode != 0:
        raise RuntimeError(f"skein {' '.join(args)}: exit {p.returncode}: {p.stderr[:300]}")
    return p.stdout


def counted(trace):
    p = subprocess.run((sys.executable, os.path.join(root, "tests", "rmacheck.py"), trace),
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"rmacheck {trace}: {p.stderr[:300]}")
    return json.loads(p.stdout)


def one(trace, name):
    want = counted(trace)
    info = json.loads(sk("info", "--format", "json", trace))
    recs = info["records"]
    for k, n in want["records"].items():
        check(recs.get(k, 0) == n, f"{name}: {k}: skein {recs.get(k, 0)}, otf2-print {n}")
    has_ops = any(want["pairs"].values()) or want["device"][0]
    if has_ops and os.path.basename(os.path.dirname(trace)).startswith(("rma", "ga")):
        check(info["operations"].get("rma", 0) > 0, f"{name}: no operation of kind rma")

    comm = json.loads(sk("comm", "--format", "json", trace))
    # the messages, those on an intercommunicator too (nbc.c's: skein
    # read no InterComm and dropped them with a warning, 16 of 20)
    got = {f"{p['sender']},{p['receiver']}": [p["messages"], p["bytes"]] for p in comm["pairs"]}
    check(got == want["messages"], f"{name}: messages by pair {got}, otf2-print {want['messages']}")
    if os.path.basename(os.path.dirname(os.path.dirname(trace))) == "onesided":
        check(not info["warnings"], f"{name}: the tracer's archive read with warnings {info['warnings']}")
    rma = comm.get("rma")
    if not any(want["records"].values()):
        check(rma is None, f"{name}: comm reports one-sided communication the trace has none of")
        return
    if any(want["records"][k] for k in want["records"] if k.startswith("RMA_")):
        check(rma is not None, f"{name}: comm says nothing of one-sided communication")
    if rma is not None:
        got = {f"{p['origin']},{p['target']}": [p["puts"] + p["gets"] + p["atomics"], p["bytes_put"],
                                                p["bytes_got"]] for p in rma["pairs"]}
        check(got == want["pairs"], f"{name}: one-sided pairs {got}, otf2-print {want['pairs']}")
        check([rma["device_operations"], rma["device_bytes"]] == want["device"],
              f"{name}: device copies {rma['device_operations']}, {rma['device_bytes']} B; "
              f"otf2-print {want['device']}")
        by_rank = {str(d["rank"]): [d["copies"], d["bytes_to_device"], d["bytes_to_host"]]
                   for d in rma.get("device_by_rank", [])}
        check(by_rank == want["device_by_rank"],
              f"{name}: device copies by rank {by_rank}, otf2-print {want['device_by_rank']}")
        # messages apart: the matrix of messages knows nothing of them
        check(comm["messages"] == info["messages"]["total"], f"{name}: RMA counted among messages")
        # the profile: each operation at the region of the call that issued it
        prof = json.loads(sk("profile", "--format", "json", trace))
        ops = sum(r["rma_operations"] for r in prof["regions"])
        moved = sum(r["rma_bytes"] for r in prof["regions"])
        check(ops == rma["puts"] + rma["gets"] + rma["atomics"] + rma["device_operations"] and
              moved == rma["bytes_put"] + rma["bytes_got"] + rma["device_bytes"],
              f"{name}: the profile's one-sided operations ({ops}, {moved} B) are not comm's")

    an = json.loads(sk("analyze", "--format", "json", trace))
    check(an["verifier"]["passed"], f"{name}: the verifier fails")
    lib = {"SKEIN_OTF2_EVENTS": "library"}
    check(sk("info", "--format", "json", trace, env=lib) == sk("info", "--format", "json", trace),
          f"{name}: libotf2's reader gives another info")
    check(sk("analyze", "--format", "json", trace, env=lib) == sk("analyze", "--format", "json", trace),
          f"{name}: libotf2's reader gives another analysis")

    ops = list(csv.DictReader(io.StringIO(sk("analyze", "--format", "csv", "--table", "ops", trace))))
    ranks_of = {}
    for r in ops:
        ranks_of.setdefault(r["partition"], set()).add(r["rank"])
    n_ranks = len({r["rank"] for r in ops})
    fences = {}
    for r in ops:
        if r["region"] == "MPI_Win_fence":
            fences.setdefault(r["rank"], []).append(r)
    if fences:
        counts = {len(v) for v in fences.values()}
        check(len(counts) == 1 and len(fences) == n_ranks, f"{name}: ranks fence unequally")
        for k in range(min(counts)):
            at = {(v[k]["step"], v[k]["partition"]) for v in fences.values()}
            check(len(at) == 1, f"{name}: fence {k} not at one step and partition: {sorted(at)}")
            part = fences["0"][k]["partition"]
            check(len(ranks_of[part]) == n_ranks, f"{name}: fence {k}'s partition lacks ranks")
    if want["records"]["NON_BLOCKING_COLLECTIVE_COMPLETE"]:
        check(info.get("nonblocking_collectives", 0) > 0, f"{name}: no non-blocking collective")
        check(info["collectives"]["incomplete"] == 0, f"{name}: incomplete collectives")

    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "a.skein")
        sk("analyze", "--save", f, trace)
        for cmd in (("comm", "--format", "json"), ("info", "--format", "json"), ("profile",)):
            a, b = sk(*cmd, trace), sk(*cmd, f)
            if cmd[0] == "info":       # the saved file names the trace it came from
                a, b = json.loads(a), json.loads(b)
            check(a == b, f"{name}: {cmd[0]} of the saved analysis differs from the trace's")

    if name.split("-")[0] in ("lock", "lockall", "lockwait"):
        lock_competition(trace, name, an)

    if name == "ga-2":
        probs = an["problems"][:10]
        check(probs and probs[0]["operation"].startswith("MPI_Win_"),
              f"{name}: the first problem is not an RMA call: {probs[:1]}")
        check(all(p["operation"] != "(computation)" for p in probs),
              f"{name}: a computation among the first problems: {probs}")
        hot = an["hotspots"][:10]
        check(all(h["kind"] != "compute" or h["cause"] != "created-compute" for h in hot),
              f"{name}: a computation created-compute among the first hotspots")
        check(hot and hot[0]["kind"] == "rma" and hot[0]["cause"] == "created-rma",
              f"{name}: the top hotspot is not an RMA call created-rma: {hot[:1]}")


def lock_competition(trace, name, an):
    """lock.c, lockall.c, lockwait.c: ranks 1 and 3 wait in their
    longest MPI_Win_lock (or MPI_Win_unlock, where a lock is granted
    lazily; MPI_Win_lock_all in lockwait.c) for the conflicting locks
    asked before theirs to be released, rank 2's 0.3-s hold above all (an
    exclusive lock in lock.c and lockwait.c, MPI_Win_lock_all, a shared
    lock on every target, in lockall.c), counted from otf2-print alone
    (the location ids are the ranks; every lock is on rank 0's part of
    the window, or a lock_all on every part, and two conflict unless both
    are shared): from the call's enter (or the last released of those
    epochs' request, if later) to that release (or the call's leave, if
    earlier). skein's longest lock-competition wait of each rank is that,
    within 1%, for rank 2's MPI_Win_unlock (or MPI_Win_unlock_all: the one
    held longest in it), rooted in rank 2's computation, and the first
    problem is that computation, the only one of more than 0.2 s (the
    lateness the waiting ranks then create where all ranks meet is the
    same stall). In lockwait.c, where only rank 2's locks are exclusive,
    every MPI_Win_lock_all of ranks 1 and 3 that waited so is one of
    skein's lock-competition waits, of the same time within 1% (or 1 us),
    and there are no others (an unlock's wait is not counted: skein
    cannot tell it, doc/analysis.md)."""
    out = subprocess.run(("otf2-print", trace), capture_output=True, text=True).stdout
    tps = 1e9
    hold, calls, open_ = [], {1: [], 3: []}, {}     # hold: (request, release, rank, shared)
    req, asked = {}, {1: [], 3: []}
    lock_all = name.startswith("lockwait")
    names = ('"MPI_Win_lock_all"', '"MPI_Win_unlock_all"') if lock_all else ('"MPI_Win_lock"', '"MPI_Win_unlock"')
    for line in out.splitlines():
        f = line.split()
        if len(f) < 3 or not f[1].isdigit() or not f[2].isdigit():
            continue
        loc, t = int(f[1]), int(f[2])
        if f[0] == "RMA_REQUEST_LOCK":
            req[loc] = (t, "Type: SHARED" in line)
            if loc in asked:
                asked[loc].append(t)
        elif f[0] == "RMA_RELEASE_LOCK" and loc in req:
            t0, sh = req.pop(loc)
            hold.append((t0, t, loc, sh))
        elif loc in calls and f[0] in ("ENTER", "LEAVE") and any(n in line for n in names):
            if f[0] == "ENTER":
                open_[loc] = t
            elif loc in open_:
                calls[loc].append((open_.pop(loc), t, names[0] in line))
    res = subprocess.run(("otf2-print", "-G", trace), capture_output=True, text=True).stdout
    for line in res.splitlines():
        if line.startswith("CLOCK_PROPERTIES") and "Ticks per Seconds:" in line:
            tps = float(line.split("Ticks per Seconds:")[1].split(",")[0])
    n_waits = 0
    for r in (1, 3):
        want, each = 0.0, []
        for en, lv, lock in calls[r]:
            mine = max([a for a in asked[r] if a <= lv] or [en])    # the epoch's request
            shared = [h[3] for h in hold if h[2] == r and h[0] == mine] == [True]
            before = [h for h in hold if h[2] != r and h[0] < mine and not (shared and h[3])]
            if before:
                h0, h1, _, _ = max(before, key=lambda h: h[1])
                t = (min(lv, h1) - max(en, h0)) / tps
                want = max(want, t)
                if t > 0 and lock:
                    each.append(t)
        got = [w for w in an["waits"] if w["kind"] == "lock-competition" and w["rank"] == r]
        top = max(got, key=lambda w: w["wait_s"]) if got else {}
        check(want > 0.2 and abs(top.get("wait_s", 0) - want) <= 0.01 * want,
              f"{name}: rank {r} waited {top.get('wait_s')} s for the lock, otf2-print {want:.9f} s")
        release = "MPI_Win_unlock_all" if name.startswith("lockall") else "MPI_Win_unlock"
        check(top.get("cause_rank") == 2 and top.get("cause_region") == release and
              top.get("root_rank") == 2 and top.get("root_region") == "(computation)",
              f"{name}: rank {r}'s lock wait is not rank 2's: {top}")
        if lock_all:
            mine = sorted(w["wait_s"] for w in got)
            each.sort()
            check(len(mine) == len(each) and len(each) >= 1 and
                  all(abs(x - y) <= max(0.01 * y, 1e-6) for x, y in zip(mine, each)) and
                  all(w["region"] == "MPI_Win_lock_all" for w in got),
                  f"{name}: rank {r}'s lock_all waits {mine}, otf2-print {each}")
            n_waits += len(got)
    if lock_all:
        got = [w for w in an["waits"] if w["kind"] == "lock-competition"]
        check(len(got) == n_waits, f"{name}: {len(got)} lock-competition waits, {n_waits} of ranks 1 and 3")
    p = an["problems"][0] if an["problems"] else {}
    check(p.get("rank") == 2 and p.get("operation") == "(computation)",
          f"{name}: the first problem is not rank 2's computation: {p}")
    # the waiting ranks' lateness where all next meet is that stall too
    big = [p for p in an["problems"] if p["amount_s"] > 0.2]
    check(all(p["rank"] == 2 and p["operation"] == "(computation)" for p in big),
          f"{name}: the 0.3-s hold is more than one problem: {big}")


def main():
    traces = []
    d = os.path.join(root, "traces", "onesided")
    for n in sorted(os.listdir(d)):
        if os.path.exists(os.path.join(d, n, "traces.otf2")):
            traces.append((os.path.join(d, n, "traces.otf2"), n))
    check(len(traces) >= 12, f"{d}: {len(traces)} archives, 12 expected")
    s = os.path.join(shared, "traces", "otf2")
    if os.path.isdir(s):
        for n in ("casita-1_xeonphi_jacobi_01", "casita-2_cuda_simple", "pipit-pingpong-otf2"):
            if os.path.exists(os.path.join(s, n, "traces.otf2")):
                traces.append((os.path.join(s, n, "traces.otf2"), n))
    else:
        print(f"onesided: {s} absent: the Score-P traces are not checked")
    for t, n in traces:
        try:
            one(t, n)
        except RuntimeError as e:
            check(False, f"{n}: {e}")
    print(f"onesided tests: {passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


main()
