#!/usr/bin/env python3
"""refcheck.py — a small, independent reference of the logical-structure
analysis that the corpus' expected.txt files describe (paper 000 §3-4,
DESIGN.md §3, the conventions written down in traces/apps/README.md),
reading traces through `otf2-print`.

    refcheck.py show  TRACE [--no-coalesce] [--no-waitall-merge]
                            [--leap-merge] [--global-merge] [--paper] [--delay US]
    refcheck.py emit  TRACE --trace NAME --command CMD [--delay D:R:I]
                            [--section NAME]... [--note TEXT]... [--notes FILE]
                            [--force]
    refcheck.py check TRACE EXPECTED

`emit` writes an expected.txt for a trace; `check` recomputes everything an
expected.txt states (except comments and the command line) and reports
each difference (exit status 1). `make corpus` uses `check` to reject a
fresh run whose timing noise would contradict the committed expectations.

It is a cross-check for skein's C analysis, not a second implementation
to maintain: simple, quadratic in places, meant for traces of a few
thousand events. Python 3 standard library only.
"""
import re
import subprocess
import sys
from collections import defaultdict, deque

# ----------------------------------------------------------------- reading

REC = re.compile(r'^(\S+)\s+(\d+)\s+(\d+)\s*(.*)$')


def otf2(args):
    return subprocess.run(['otf2-print'] + args, capture_output=True,
                          text=True, check=True).stdout


def read_defs(anchor):
    """world rank -> location id; comm id -> list of location ids (by rank);
    clock resolution."""
    text = otf2(['-G', anchor])
    comm_locs = None
    groups = {}
    comms = {}
    resolution = 1
    for line in text.splitlines():
        if line.startswith('CLOCK_PROPERTIES'):
            m = re.search(r'Ticks per Seconds: (\d+)', line)
            if m:
                resolution = int(m.group(1))
        m = re.match(r'^GROUP\s+(\d+)\s+Name: .*?, Type: (\w+),.*?Members: ?(.*)$', line)
        if m:
            gid, typ, members = int(m.group(1)), m.group(2), m.group(3)
            if typ == 'COMM_LOCATIONS':
                comm_locs = [int(x) for x in re.findall(r'<(\d+)>', members)]
            elif typ == 'COMM_GROUP':
                groups[gid] = [int(x) for x in re.findall(r'(?:^|, )(\d+) \(', members)]
            elif typ == 'COMM_SELF':
                groups[gid] = None
        m = re.match(r'^COMM\s+(\d+)\s+Name: "([^"]*)".*?Group: "[^"]*" <(\d+)>', line)
        if m:
            comms[int(m.group(1))] = (m.group(2), int(m.group(3)))
    comm_ranks = {}
    for cid, (name, gid) in comms.items():
        members = groups.get(gid)
        if members is None:
            comm_ranks[cid] = None
        else:
            comm_ranks[cid] = members  # comm rank -> world rank (index in comm_locs)
    return comm_locs, comm_ranks, resolution


class Op:
    __slots__ = ('rank', 'idx', 'name', 'enter', 'exit', 'sends', 'recvs',
                 'coll', 'iter', 'isend_reqs', 'done_reqs', 'msgs_out',
                 'msgs_in', 'part', 'step', 'gstep', 'stride', 'agg_enter',
                 'lat', 'agg_lat', 'dl', 'agg_dl', 'iter_idx', '_cgroup',
                 'ctx', 'agg_delay', 'prog_in')

    def __init__(self, rank, name, enter):
        self.rank = rank
        self.name = name
        self.enter = enter
        self.exit = None
        self.sends = []    # [comm, dst comm rank, tag, time, request or None, completing op]
        self.recvs = []    # (comm, src comm rank, tag, time)
        self.coll = None   # (comm, operation)
        self.iter = -1
        self.isend_reqs = []
        self.done_reqs = []
        self.msgs_out = []
        self.msgs_in = []
        self.part = None
        self.step = None
        self.gstep = None
        self.ctx = None        # innermost user region at the enter
        self.agg_delay = False  # a "delay" region ran in the aggregate before it
        self.prog_in = []

    @property
    def kind(self):
        if self.coll:
            return 'c'
        if self.sends and self.recvs:
            return 'x'
        if self.sends:
            return 's'
        return 'r'


def read_ops(anchor, coalesce=True):
    comm_locs, comm_ranks, res = read_defs(anchor)
    rank_of_loc = {loc: r for r, loc in enumerate(comm_locs)}
    text = otf2([anchor])
    per_loc = defaultdict(list)
    for line in text.splitlines():
        m = REC.match(line)
        if not m:
            continue
        per_loc[int(m.group(2))].append((m.group(1), int(m.group(3)), m.group(4)))
    nranks = len(comm_locs)
    timelines = [[] for _ in range(nranks)]
    first_time = [None] * nranks
    iterations = [0] * nranks
    for loc, evs in per_loc.items():
        if loc not in rank_of_loc:
            continue
        rank = rank_of_loc[loc]
        ops = timelines[rank]
        cur = None
        depth = 0
        it = -1
        since_last = 1   # events since the last comm op's leave
        stack = []       # user regions open
        delayed = False  # a "delay" region entered since the last comm op
        for rec, t, rest in evs:
            if first_time[rank] is None:
                first_time[rank] = t
            iterations[rank] = it + 1
            if rec == 'ENTER':
                name = re.search(r'Region: "([^"]*)"', rest).group(1)
                if cur is None and name.startswith('MPI_'):
                    cur = Op(rank, name, t)
                    cur.iter = it
                    cur.ctx = stack[-1] if stack else None
                    depth = 1
                    continue
                if cur is not None:
                    depth += 1
                    continue
                if name == 'iteration':
                    it += 1
                if name == 'delay':
                    delayed = True
                stack.append(name)
                since_last += 1
            elif rec == 'LEAVE':
                if cur is not None:
                    depth -= 1
                    if depth == 0:
                        cur.exit = t
                        is_comm = cur.sends or cur.recvs or cur.coll
                        if is_comm:
                            prev = ops[-1] if ops else None
                            if (coalesce and since_last == 0 and prev is not None
                                    and prev.name == 'MPI_Isend' and cur.name == 'MPI_Isend'
                                    and not prev.recvs and not prev.coll):
                                prev.exit = cur.exit
                                prev.sends += cur.sends
                                prev.isend_reqs += cur.isend_reqs
                            else:
                                cur.agg_delay = delayed
                                delayed = False
                                ops.append(cur)
                            since_last = 0
                        else:
                            # non-comm MPI call: its isend completions are
                            # ignored for the waitall merge
                            since_last += 1
                        cur = None
                    continue
                if stack:
                    stack.pop()
                since_last += 1
            else:
                if cur is None:
                    since_last += 1
                    continue
                if rec in ('MPI_SEND', 'MPI_ISEND'):
                    m = re.search(r'Receiver: (\d+).*?Communicator: "[^"]*" <(\d+)>, Tag: (-?\d+)', rest)
                    req = None
                    if rec == 'MPI_ISEND':
                        req = int(re.search(r'Request: (\d+)', rest).group(1))
                        cur.isend_reqs.append(req)
                    cur.sends.append([int(m.group(2)), int(m.group(1)), int(m.group(3)), t, req, None])
                elif rec in ('MPI_RECV', 'MPI_IRECV'):
                    m = re.search(r'Sender: (\d+).*?Communicator: "[^"]*" <(\d+)>, Tag: (-?\d+)', rest)
                    cur.recvs.append((int(m.group(2)), int(m.group(1)), int(m.group(3)), t))
                elif rec == 'MPI_ISEND_COMPLETE':
                    r = re.search(r'Request: (\d+)', rest)
                    cur.done_reqs.append(int(r.group(1)))
                elif rec == 'MPI_COLLECTIVE_END':
                    m = re.search(r'Operation: (\w+), Communicator: "[^"]*" <(\d+)>', rest)
                    cur.coll = (int(m.group(2)), m.group(1))
    for r, ops in enumerate(timelines):
        pending = {}
        for i, op in enumerate(ops):
            op.idx = i
            for q in op.done_reqs:
                if q in pending:
                    pending.pop(q)[5] = op
            for snd in op.sends:
                if snd[4] is not None:
                    pending[snd[4]] = snd
    return timelines, comm_ranks, res, first_time, iterations


# ----------------------------------------------------------- relationships

def world(comm_ranks, comm, r):
    m = comm_ranks.get(comm)
    return r if m is None else m[r]


def match(timelines, comm_ranks):
    sends = defaultdict(deque)
    recvs = defaultdict(deque)
    for ops in timelines:
        for op in ops:
            for snd in op.sends:
                comm, dst, tag, t = snd[:4]
                sends[(op.rank, world(comm_ranks, comm, dst), comm, tag)].append((op, t, snd))
            for (comm, src, tag, t) in op.recvs:
                recvs[(world(comm_ranks, comm, src), op.rank, comm, tag)].append((op, t))
    msgs = []
    unmatched = 0
    for key in set(sends) | set(recvs):
        s, r = sends[key], recvs[key]
        while s and r:
            (so, st, snd), (ro, rt) = s.popleft(), r.popleft()
            msgs.append((so, ro, st, rt, snd[5]))
            so.msgs_out.append(ro)
            ro.msgs_in.append(so)
        unmatched += len(s) + len(r)
    colls = defaultdict(list)   # (comm, k) -> ops
    count = defaultdict(int)
    for ops in timelines:
        for op in ops:
            if op.coll:
                key = (op.rank, op.coll[0])
                colls[(op.coll[0], count[key])].append(op)
                count[key] += 1
    return msgs, unmatched, colls


class UF:
    def __init__(self):
        self.p = {}

    def find(self, x):
        p = self.p
        p.setdefault(x, x)
        while p[x] != x:
            p[x] = p[p[x]]
            x = p[x]
        return x

    def union(self, a, b):
        a, b = self.find(a), self.find(b)
        if a != b:
            self.p[b] = a


def all_ops(timelines):
    for ops in timelines:
        yield from ops


def part_graph(timelines, part_of):
    edges = defaultdict(set)
    for ops in timelines:
        for a, b in zip(ops, ops[1:]):
            pa, pb = part_of(a), part_of(b)
            if pa != pb:
                edges[pa].add(pb)
    return edges


def scc_merge(timelines, uf):
    """Merge strongly connected components until the partition graph is a DAG."""
    while True:
        nodes = {uf.find(id(op)) for op in all_ops(timelines)}
        edges = part_graph(timelines, lambda op: uf.find(id(op)))
        index, low, onstack, stack, comps = {}, {}, set(), [], []
        counter = [0]
        for root in nodes:
            if root in index:
                continue
            work = [(root, iter(edges.get(root, ())))]
            index[root] = low[root] = counter[0]; counter[0] += 1
            stack.append(root); onstack.add(root)
            while work:
                v, itr = work[-1]
                advanced = False
                for w in itr:
                    if w not in index:
                        index[w] = low[w] = counter[0]; counter[0] += 1
                        stack.append(w); onstack.add(w)
                        work.append((w, iter(edges.get(w, ()))))
                        advanced = True
                        break
                    elif w in onstack:
                        low[v] = min(low[v], index[w])
                if advanced:
                    continue
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop(); onstack.discard(w); comp.append(w)
                        if w == v:
                            break
                    comps.append(comp)
        merged = False
        for comp in comps:
            for w in comp[1:]:
                uf.union(comp[0], w)
                merged = True
        if not merged:
            return


def partitions(timelines, colls, uf):
    parts = defaultdict(list)
    for op in all_ops(timelines):
        parts[uf.find(id(op))].append(op)
    return parts


def dag_info(timelines, uf):
    edges = part_graph(timelines, lambda op: uf.find(id(op)))
    nodes = {uf.find(id(op)) for op in all_ops(timelines)}
    parents = defaultdict(set)
    for a, bs in edges.items():
        for b in bs:
            parents[b].add(a)
    order, indeg = [], {n: len(parents[n]) for n in nodes}
    q = deque(sorted(n for n in nodes if indeg[n] == 0))
    while q:
        n = q.popleft(); order.append(n)
        for c in edges.get(n, ()):
            indeg[c] -= 1
            if indeg[c] == 0:
                q.append(c)
    assert len(order) == len(nodes), 'partition graph has a cycle'
    return nodes, edges, parents, order


def leap_merge(timelines, uf, nranks, factor=10.0, force=False, log=None):
    k = 0
    while True:
        nodes, edges, parents, order = dag_info(timelines, uf)
        leap = {}
        for n in order:
            leap[n] = max((leap[p] + 1 for p in parents[n]), default=0)
        nleaps = max(leap.values()) + 1
        if k >= nleaps:
            return
        parts = partitions(timelines, None, uf)
        members = [n for n in order if leap[n] == k]
        ranks = set()
        for n in members:
            ranks |= {op.rank for op in parts[n]}
        if len(ranks) == nranks:
            k += 1
            continue
        changed = False
        for p in members:
            byrank = defaultdict(list)
            for op in parts[p]:
                byrank[op.rank].append(op)
            inc = out = float('inf')
            for r, ops in byrank.items():
                ops.sort(key=lambda o: o.idx)
                tl = timelines[r]
                first, last = ops[0], ops[-1]
                if first.idx > 0:
                    prev = tl[first.idx - 1]
                    if leap.get(uf.find(id(prev))) == k - 1:
                        inc = min(inc, first.enter - prev.exit)
                if last.idx + 1 < len(tl):
                    nxt = tl[last.idx + 1]
                    if leap.get(uf.find(id(nxt))) == k + 1:
                        out = min(out, nxt.enter - last.exit)
            if inc != float('inf') and inc * factor < out:
                for q in parents[p]:
                    if leap[q] == k - 1:
                        uf.union(q, p)
                if log is not None:
                    log.append(('backward', k, sorted(byrank)))
                changed = True
                break
            for c in sorted(edges.get(p, ())):
                crank = {op.rank for op in parts[c]}
                if crank - ranks:
                    uf.union(p, c)
                    if log is not None:
                        log.append(('absorb', k, sorted(byrank), sorted(crank)))
                    changed = True
                    break
            if changed:
                break
        if changed:
            scc_merge(timelines, uf)
            continue
        if force:
            raise NotImplementedError('force')
        k += 1


def step_partition(pops):
    """Local steps of one partition (README conventions). Returns max step + 1."""
    byrank = defaultdict(list)
    for op in pops:
        byrank[op.rank].append(op)
    for ops in byrank.values():
        ops.sort(key=lambda o: o.idx)
    inpart = {id(o) for o in pops}
    # stride-graph nodes: non-receive ops; a collective is one node
    node_of = {}
    for op in pops:
        if op.kind != 'r':
            node_of[id(op)] = id(op)
    collgroups = defaultdict(list)
    for op in pops:
        if op.kind == 'c':
            collgroups[op._cgroup].append(op)
    for grp in collgroups.values():
        for op in grp:
            node_of[id(op)] = id(grp[0])
    pos = {}
    for r, ops in byrank.items():
        for i, op in enumerate(ops):
            pos[id(op)] = (r, i)

    def next_nonrecv(op):
        r, i = pos[id(op)]
        for o in byrank[r][i + 1:]:
            if o.kind != 'r':
                return o
        return None

    succ = defaultdict(set)
    nodes = set(node_of.values())
    for op in pops:
        if op.kind == 'r':
            continue
        n = next_nonrecv(op)
        if n is not None:
            succ[node_of[id(op)]].add(node_of[id(n)])
        for rcv in op.msgs_out:
            if id(rcv) not in inpart:
                continue
            if rcv.kind == 'x':
                # a Sendrecv: after a plain send it receives; two Sendrecvs
                # that exchange messages meet at one stride (README)
                if op.kind != 'x':
                    succ[node_of[id(op)]].add(node_of[id(rcv)])
                continue
            n = next_nonrecv(rcv)
            if n is not None:
                succ[node_of[id(op)]].add(node_of[id(n)])
    indeg = {n: 0 for n in nodes}
    for a, bs in succ.items():
        for b in bs:
            indeg[b] += 1
    stride = {n: 1 for n in nodes}
    q = deque(n for n in nodes if indeg[n] == 0)
    seen = 0
    while q:
        n = q.popleft(); seen += 1
        for b in succ.get(n, ()):
            stride[b] = max(stride[b], stride[n] + 1)
            indeg[b] -= 1
            if indeg[b] == 0:
                q.append(b)
    assert seen == len(nodes), 'stride graph has a cycle'
    for op in pops:
        op.step = None
        if op.kind != 'r':
            op.stride = stride[node_of[id(op)]]
    maxs = max(stride.values(), default=0)
    bystride = defaultdict(list)
    for op in pops:
        if op.kind != 'r':
            bystride[op.stride].append(op)

    def place_recvs_before(op):
        r, i = pos[id(op)]
        j = i - 1
        while j >= 0 and byrank[r][j].kind == 'r':
            j -= 1
        for o in byrank[r][j + 1:i]:
            place_recv(o)

    def prev_step(op):
        r, i = pos[id(op)]
        return byrank[r][i - 1].step if i > 0 else -1

    def place_recv(o):
        s = prev_step(o) + 1
        for snd in o.msgs_in:
            if id(snd) in inpart:
                assert snd.step is not None, 'sender not placed yet'
                s = max(s, snd.step + 1)
        o.step = s

    last = -1
    for s in range(1, maxs + 1):
        need = last + 1
        for op in bystride[s]:
            place_recvs_before(op)
            need = max(need, prev_step(op) + 1)
        for op in bystride[s]:
            op.step = need
        last = need
    for r, ops in byrank.items():
        for o in ops:
            if o.step is None:
                place_recv(o)
    return max(o.step for o in pops) + 1


def signature(ops):
    """What a partition does: its (MPI call, innermost user region) pairs."""
    return frozenset((op.name, op.ctx) for op in ops)


def analyse(anchor, coalesce=True, waitall=True, leap=False,
            global_merge=False, factor=10.0, auto=True, progress=True):
    timelines, comm_ranks, res, first_time, iterations = read_ops(anchor, coalesce)
    nranks = len(timelines)
    msgs, unmatched, colls = match(timelines, comm_ranks)
    uf = UF()
    for op in all_ops(timelines):
        uf.find(id(op))
    for (so, ro, st, rt, wo) in msgs:
        uf.union(id(so), id(ro))
    for key, ops in colls.items():
        for op in ops:
            op._cgroup = key
            uf.union(id(ops[0]), id(op))
    if waitall:
        for ops in timelines:
            pending = {}
            for op in ops:
                for q in op.isend_reqs:
                    pending[q] = op
                for q in op.done_reqs:
                    if q in pending:
                        uf.union(id(pending.pop(q)), id(op))
    scc_merge(timelines, uf)
    leaplog = []
    if leap:
        leap_merge(timelines, uf, nranks, factor, log=leaplog)
    while True:
        nodes, edges, parents, order = dag_info(timelines, uf)
        parts = partitions(timelines, colls, uf)
        nsteps = {n: step_partition(parts[n]) for n in nodes}
        offset = {}
        for n in order:
            offset[n] = max((offset[p] + nsteps[p] for p in parents[n]), default=0)
        if not global_merge and not auto:
            break
        # global merge: every overlap; automatic: overlaps of partitions
        # that make the same calls (one run per signature)
        spans = sorted((offset[n], offset[n] + nsteps[n], n) for n in nodes)
        merged = False
        runs = {}
        for a, b, n in spans:
            key = None if global_merge else signature(parts[n])
            cur, cur_end = runs.get(key, (None, -1))
            if cur is not None and a < cur_end:
                uf.union(cur, n)
                merged = True
                runs[key] = (cur, max(cur_end, b))
            else:
                runs[key] = (n, b)
        if not merged:
            break
    for n in nodes:
        for op in parts[n]:
            op.part = n
            op.gstep = offset[n] + op.step
    total = max(offset[n] + nsteps[n] for n in nodes)
    return dict(timelines=timelines, msgs=msgs, unmatched=unmatched,
                colls=colls, nodes=nodes, parents=parents, order=order,
                parts=parts, nsteps=nsteps, offset=offset, total=total,
                res=res, first_time=first_time, nranks=nranks,
                iterations=iterations, progress=progress,
                leaplog=leaplog)


def lateness(A):
    """Lateness and differential lateness (seconds), doubled steps."""
    res = A['res']
    groups = defaultdict(list)   # (part, doubled step) -> [(value, setter)]
    for ops in A['timelines']:
        prev_exit = None
        for op in ops:
            # aggregated ops only between two communication ops
            op.agg_enter = prev_exit
            op.agg_lat = 0.0
            if prev_exit is not None:
                groups[(op.part, 2 * op.gstep)].append(('agg', op))
            prev_exit = op.exit
            groups[(op.part, 2 * op.gstep + 1)].append(('op', op))
    for key, items in groups.items():
        ends = [(op.enter if w == 'agg' else op.exit) for w, op in items]
        lo = min(ends)
        for (w, op), e in zip(items, ends):
            if w == 'agg':
                op.agg_lat = (e - lo) / res
            else:
                op.lat = (e - lo) / res
    # sender progress: a receive that completed only once the sender was
    # inside the call completing its Isend also follows the aggregate
    # before that call (doc/analysis.md)
    for op in all_ops(A['timelines']):
        op.prog_in = []
    if A['progress']:
        for (so, ro, st, rt, wo) in A['msgs']:
            if (wo is not None and wo is not so and wo is not ro and rt >= wo.enter
                    and wo.agg_enter is not None):
                ro.prog_in.append(wo)
    for ops in A['timelines']:
        prev = None
        for op in ops:
            pl = prev.lat if prev is not None else 0.0
            op.agg_dl = max(0.0, op.agg_lat - pl)
            m = op.agg_lat
            for s in op.msgs_in:
                m = max(m, s.lat)
            for w in op.prog_in:
                m = max(m, w.agg_lat)
            op.dl = max(0.0, op.lat - m)
            prev = op


def late_list(A, thr):
    out = []
    for r, ops in enumerate(A['timelines']):
        prev = None
        for op in ops:
            if op.agg_enter is not None and op.agg_lat >= thr:
                pl = prev.lat if prev is not None else 0.0
                case = 'a' if op.agg_dl >= thr else ('b' if pl >= thr else '?')
                out.append((r, op, 'agg', op.agg_lat, op.agg_dl, case))
            if op.lat >= thr:
                if op.dl >= thr:
                    case = 'c' if op.kind in ('r', 'x') else 'a'
                else:
                    tl = op.agg_lat >= thr
                    ms = (any(s.lat >= thr for s in op.msgs_in) or
                          any(w.agg_lat >= thr for w in op.prog_in))
                    case = {(True, False): 'b', (False, True): 'd',
                            (True, True): 'bd'}.get((tl, ms), '?')
                out.append((r, op, op.name, op.lat, op.dl, case))
            prev = op
    return out


# ----------------------------------------------------------------- output

SECTIONS = {
    # name: (coalesce, waitall merge, leap merge, global-step merge,
    #        automatic merge, sender progress)
    'default': (True, True, False, False, True, True),
    'paper': (True, True, False, False, False, False),
    'no-coalesce': (False, True, False, False, True, True),
    'no-waitall-merge': (True, False, False, False, True, True),
    'leap-merge': (True, True, True, False, True, True),
    'global-merge': (True, True, False, True, True, True),
}


def options_line(name):
    c, w, l, g, a, p = SECTIONS[name]
    onoff = lambda b: 'on' if b else 'off'
    return (f"options coalesce={onoff(c)} waitall-merge={onoff(w)} "
            f"leap-merge={onoff(l)} leap-factor=10 force=off "
            f"global-merge={onoff(g)} auto-merge={onoff(a)} "
            f"sender-progress={onoff(p)} caller-merge=off")


def analyse_section(anchor, name):
    c, w, l, g, a, p = SECTIONS[name]
    return analyse(anchor, coalesce=c, waitall=w, leap=l, global_merge=g, auto=a, progress=p)


def iter_index(A):
    """op.iter_idx: ordinal of the comm op within its iteration on its rank."""
    for ops in A['timelines']:
        cnt = defaultdict(int)
        for op in ops:
            op.iter_idx = cnt[op.iter]
            cnt[op.iter] += 1


def ranks_str(rs):
    rs = sorted(rs)
    out, i = [], 0
    while i < len(rs):
        j = i
        while j + 1 < len(rs) and rs[j + 1] == rs[j] + 1:
            j += 1
        out.append(str(rs[i]) if i == j else f'{rs[i]}-{rs[j]}')
        i = j + 1
    return ','.join(out)


def trace_lines(A, delay):
    """Header facts: (key line, comment) pairs."""
    out = []
    out.append((f"ranks {A['nranks']}", None))
    its = sorted(set(A['iterations']))
    out.append((f"iterations {its[0] if len(its) == 1 else 'mixed'}", None))
    if delay:
        d, r, i = delay
        out.append((f"delay {d} {r} {i}", 'microseconds, rank, iteration'))
        out.append((f"late_threshold_us {d // 2}", 'an operation is late when its lateness is at least this'))
    out.append((f"messages {len(A['msgs'])}", 'point-to-point, every one matched'))
    kinds = defaultdict(int)
    for key, ops in A['colls'].items():
        kinds[ops[0].name] += 1
    for k, v in sorted(kinds.items()):
        out.append((f"collective {k} {v}", 'invocations'))
    return out


def section_lines(A, delay):
    out = []
    parts = A['parts']
    order = sorted(A['nodes'], key=lambda n: (A['offset'][n], min(op.rank for op in parts[n])))
    nops = sum(len(ops) for ops in A['timelines'])
    out.append((f"operations {nops}", 'communication operations, all ranks'))
    out.append((f"partitions {len(order)}", None))
    out.append((f"comm_steps_total {A['total']}", 'global steps, one per communication step'))
    out.append((f"global_steps_total {2 * A['total']}", 'the same, doubled: an aggregated step before each'))
    for n in order:
        ops = parts[n]
        its = sorted({op.iter for op in ops})
        itdesc = 'setup' if its == [-1] else ('iteration ' + ','.join(map(str, its)))
        out.append((f"partition {A['offset'][n]} {A['nsteps'][n]} "
                    f"{ranks_str({op.rank for op in ops})} {len(ops)}", itdesc))
    for r, ops in enumerate(A['timelines']):
        out.append((f"timeline {r} " + ' '.join(f"{op.kind}{op.gstep}" for op in ops), None))
    if delay:
        lateness(A)
        iter_index(A)
        thr = delay[0] * 1e-6 / 2
        late = late_list(A, thr)
        out.append((f"late_count {len(late)}", 'operations with lateness >= late_threshold_us'))
        for r, op, what, lat, dl, case in late:
            out.append((f"late {r} {op.iter} {op.iter_idx} {what} {op.gstep} {case}",
                        f"lateness {lat * 1e3:.2f} ms, differential {dl * 1e3:.2f} ms"))
        best = None
        for ops in A['timelines']:
            prev = None
            for op in ops:
                cands = [(op.dl, op, op.name)]
                if op.agg_enter is not None:
                    cands.append((op.agg_dl, op, 'agg'))
                for dl, o, what in cands:
                    if best is None or dl > best[0]:
                        best = (dl, o, what)
                prev = op
        dl, op, what = best
        if dl < thr:
            out.append(("hotspot none", f"largest differential lateness {dl * 1e3:.2f} ms, "
                        "below the threshold"))
            return out
        if what == 'agg':
            case = 'a'
        else:
            case = 'c' if op.kind in ('r', 'x') else 'a'
        out.append((f"hotspot {op.rank} {op.iter} {op.iter_idx} {what} {case}",
                    f"differential lateness {dl * 1e3:.2f} ms"))
    return out


def fmt(pairs):
    lines = []
    for key, comment in pairs:
        lines.append(key if not comment else f"{key:<40} # {comment}")
    return lines


def parse_delay(text):
    d, r, i = (int(x) for x in text.split(':'))
    return (d, r, i)


def emit(args):
    delay = parse_delay(args.delay) if args.delay else None
    A = analyse(args.anchor)
    lines = ['# Expected logical structure of this trace; format: traces/apps/README.md.',
             '# Written by traces/apps/refcheck.py; the structure does not depend on',
             '# timing, the late/hotspot lines do. Figures in comments come from the run',
             '# the file was written from; later runs must match the other lines.']
    notes = list(args.note or [])
    if args.notes:
        with open(args.notes) as f:
            for x in f:
                key, sep, text = x.partition(':')
                if sep and not key.startswith('#') and (
                        args.trace == key or args.trace.startswith(key + '-')):
                    notes.append(text.strip())
    for note in notes:
        lines.append(('# ' + note).rstrip())
    lines.append('format skein-expected 1')
    lines.append(f'trace {args.trace}')
    lines.append(f'command {args.command}')
    lines += fmt(trace_lines(A, delay))
    for name in ['default'] + [s for s in (args.section or []) if s != 'default']:
        A = analyse_section(args.anchor, name)
        lines.append('')
        lines.append(f'section {name}')
        lines.append(options_line(name))
        lines += fmt(section_lines(A, delay))
        lines.append('end')
        if delay and not clear_margins(A, delay, name) and not args.force:
            return 3
    print('\n'.join(lines))


def clear_margins(A, delay, name):
    """Refuse to write down a run whose noise comes near the threshold: the
    late operations must be at least 0.6 D late, the others at most 0.4 D,
    and the hotspot (if any) must be the injected delay."""
    d = delay[0] * 1e-6
    late = late_list(A, d / 2)
    listed = {(id(op), w) for r, op, w, *_ in late}
    lo = min((lat for *_, lat, dl, case in late), default=d)
    hi = 0.0
    best = (0.0, None, None)
    for ops in A['timelines']:
        for op in ops:
            vals = [(op.lat, op.dl, op.name)]
            if op.agg_enter is not None:
                vals.append((op.agg_lat, op.agg_dl, 'agg'))
            for lat, dl, what in vals:
                if (id(op), what) not in listed:
                    hi = max(hi, lat)
                if dl > best[0]:
                    best = (dl, op, what)
    ok = lo >= 0.6 * d and hi <= 0.4 * d
    dl, op, what = best
    if dl >= d / 2 and (what != 'agg' or op.rank != delay[1] or op.iter != delay[2]
                        or not op.agg_delay):
        ok = False
    if not ok:
        print(f'refcheck: section {name}: too noisy to write down: late operations '
              f'down to {lo * 1e3:.2f} ms, others up to {hi * 1e3:.2f} ms, '
              f'delay {d * 1e3:.2f} ms', file=sys.stderr)
    return ok


def strip(line):
    return line.split('#', 1)[0].rstrip()


def check(args):
    with open(args.expected) as f:
        want = [strip(x) for x in f]
    want = [x for x in want if x]
    delay = None
    for x in want:
        if x.startswith('delay '):
            delay = tuple(int(v) for v in x.split()[1:4])
    sections = [x.split()[1] for x in want if x.startswith('section ')]
    A = analyse(args.anchor)
    got = [strip(x) for x in fmt(trace_lines(A, delay))]
    for name in sections:
        A = analyse_section(args.anchor, name)
        got += [f'section {name}', options_line(name)]
        got += [strip(x) for x in fmt(section_lines(A, delay))]
        got.append('end')
    want = [x for x in want if not x.startswith(('format ', 'trace ', 'command '))]
    bad = 0
    if A['unmatched']:
        print(f'{args.anchor}: {A["unmatched"]} unmatched message ends')
        bad += 1
    wset, gset = set(want), set(got)
    import difflib
    for line in difflib.unified_diff(want, got, 'expected', 'trace', lineterm='', n=0):
        print(line)
        bad += 1
    return 1 if bad else 0


def show(args):
    A = analyse(args.anchor, coalesce=not args.no_coalesce, waitall=not args.no_waitall_merge,
                leap=args.leap_merge, global_merge=args.global_merge,
                auto=not args.paper, progress=not args.paper)
    delay = (int(args.delay), -1, -1) if args.delay else None
    for line in fmt(trace_lines(A, None)) + fmt(section_lines(A, delay)):
        print(line)
    if A['leaplog']:
        print('# leap merges:', A['leaplog'])
    lateness(A)
    iter_index(A)
    top = []
    for ops in A['timelines']:
        for op in ops:
            if op.agg_enter is not None:
                top.append((op.agg_dl, op, 'agg'))
            top.append((op.dl, op, op.name))
    top.sort(key=lambda x: -x[0])
    for dl, op, what in top[:5]:
        print(f"# top differential lateness {dl * 1e6:9.1f} us: rank {op.rank} "
              f"iteration {op.iter} op {op.iter_idx} {what} step {op.gstep}")
    late = set()
    if delay:
        late = {(id(op), w) for r, op, w, *_ in late_list(A, delay[0] * 1e-6 / 2)}
    mx = 0.0
    for ops in A['timelines']:
        for op in ops:
            if (id(op), op.name) not in late:
                mx = max(mx, op.lat)
            if op.agg_enter is not None and (id(op), 'agg') not in late:
                mx = max(mx, op.agg_lat)
    print(f"# largest lateness of an operation not listed as late: {mx * 1e6:.1f} us")


def main():
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    sub = ap.add_subparsers(dest='cmd', required=True)
    p = sub.add_parser('show')
    p.add_argument('anchor')
    p.add_argument('--no-coalesce', action='store_true')
    p.add_argument('--no-waitall-merge', action='store_true')
    p.add_argument('--leap-merge', action='store_true')
    p.add_argument('--global-merge', action='store_true')
    p.add_argument('--paper', action='store_true', help='no automatic merge, no sender progress')
    p.add_argument('--delay', type=int, help='injected delay, us')
    p.set_defaults(func=show)
    p = sub.add_parser('emit')
    p.add_argument('anchor')
    p.add_argument('--trace', required=True)
    p.add_argument('--command', required=True)
    p.add_argument('--delay', help='D:R:I')
    p.add_argument('--section', action='append', choices=sorted(SECTIONS))
    p.add_argument('--note', action='append')
    p.add_argument('--notes', help='file of "APP: text" lines; those for this trace\'s app become comments')
    p.add_argument('--force', action='store_true',
                   help='write even a run too noisy for a fresh corpus entry (to rewrite a '
                        'committed file from its committed trace after a change of conventions)')
    p.set_defaults(func=emit)
    p = sub.add_parser('check')
    p.add_argument('anchor')
    p.add_argument('expected')
    p.set_defaults(func=check)
    a = ap.parse_args()
    sys.exit(a.func(a) or 0)


if __name__ == '__main__':
    main()
