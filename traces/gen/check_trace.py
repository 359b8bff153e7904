#!/usr/bin/env python3
"""check_trace.py -- verify a skein-gen archive through otf2-print.

  check_trace.py verify ARCHIVE SUMMARY NODES
      Reads the archive with otf2-print (definitions and events) and checks:
      record counts equal the generator's summary (KIND COUNT lines) and the
      per-location counts in the definitions; timestamps never decrease on a
      location; Enter/Leave nest; MPI records sit inside an MPI region (and
      request completions inside MPI_Wait/MPI_Waitall); every send matches
      exactly one receive, FIFO per (sender, receiver, communicator, tag),
      with equal length and the receive completing at least a latency
      (400 ns) after the send started;
      every request completes exactly once; every collective completes on
      all members in the same order with the same operation and root, and
      no member leaves before causality allows; ranks sit on NODES nodes in
      blocks.

  check_trace.py delay BASE DELAYED D_US RANK ITER FULL
      Compares a trace with its delayed twin: nothing changes before the
      delay; rank RANK's compute region in iteration ITER lasts exactly
      D_US longer; and the lateness spreads: to every rank by the end of
      iteration ITER when FULL is 1, else to at least one other rank by the
      end of the last iteration.

Prints one line per problem; exit status 1 if there was any.
"""
import collections
import re
import subprocess
import sys

RE_REGION = re.compile(r'Region: "([^"]*)" <(\d+)>')
RE_PEER = re.compile(r'(?:Receiver|Sender): (\d+)')
RE_COMM = re.compile(r'Communicator: "[^"]*" <(\d+)>')
RE_TAG = re.compile(r'Tag: (\d+)')
RE_LEN = re.compile(r'Length: (\d+)')
RE_REQ = re.compile(r'Request: (\d+)')
RE_OP = re.compile(r'Operation: (\w+)')
RE_ROOT = re.compile(r'Root: (NONE|\d+)')
RE_SIZES = re.compile(r'Sent: (\d+), Received: (\d+)')
RE_LOC = re.compile(r'^LOCATION\s+(\d+)\s+Name: .*# Events: (\d+), '
                    r'Group: "[^"]*" <(\d+)>')
RE_LG = re.compile(r'^LOCATION_GROUP\s+(\d+)\s+Name: "[^"]*" <\d+>, '
                   r'Type: PROCESS, Parent: "node::([^"]*)" <(\d+)>')

P2P_SEND = ('MPI_SEND', 'MPI_ISEND')
MIN_LATENCY = 400  # ns, skein-gen's latency within a node (sim.h)
P2P_RECV = ('MPI_RECV', 'MPI_IRECV')


class Problems:
    def __init__(self):
        self.lines = []

    def __call__(self, msg):
        if len(self.lines) < 20:
            self.lines.append(msg)
        elif len(self.lines) == 20:
            self.lines.append('... more problems')

    def report(self):
        for line in self.lines:
            print('  ' + line)
        return 1 if self.lines else 0


def otf2_print(args, bad):
    r = subprocess.run(['otf2-print'] + args, capture_output=True, text=True)
    if r.returncode != 0:
        bad('otf2-print %s: exit %d: %s' % (' '.join(args), r.returncode,
                                            r.stderr.strip()[:200]))
    if r.stderr.strip():
        bad('otf2-print wrote to stderr: ' + r.stderr.strip()[:200])
    if 'INVALID' in r.stdout or 'UNKNOWN' in r.stdout:
        bad('otf2-print shows INVALID/UNKNOWN references')
    return r.stdout


def read_events(archive, bad):
    """Per location: list of (kind, time, rest), in the location's order."""
    per = collections.defaultdict(list)
    for line in otf2_print([archive], bad).splitlines():
        f = line.split(None, 3)
        if len(f) < 3 or not f[1].isdigit() or not f[2].isdigit():
            continue
        per[int(f[1])].append((f[0], int(f[2]), f[3] if len(f) > 3 else ''))
    return per


def read_summary(path):
    counts = {}
    with open(path) as fh:
        for line in fh:
            f = line.split()
            if len(f) == 2 and not line.startswith('#') and f[1].isdigit():
                counts[f[0]] = int(f[1])
    return counts


def num(rx, rest):
    m = rx.search(rest)
    return m.group(1) if m else None


def verify(archive, summary, nodes):
    bad = Problems()
    want = read_summary(summary)
    defs = otf2_print(['-G', archive], bad)
    loc_events, loc_group, group_node = {}, {}, {}
    for line in defs.splitlines():
        m = RE_LOC.match(line)
        if m:
            loc_events[int(m.group(1))] = int(m.group(2))
            loc_group[int(m.group(1))] = int(m.group(3))
        m = RE_LG.match(line)
        if m:
            group_node[int(m.group(1))] = int(m.group(3))
    ev = read_events(archive, bad)
    ranks = len(loc_events)

    # Counts.
    kinds = collections.Counter(k for l in ev.values() for k, _, _ in l)
    total = sum(kinds.values())
    if total != want.get('events'):
        bad('events: trace %d, generator %s' % (total, want.get('events')))
    for k, n in want.items():
        if k.isupper() and kinds.get(k, 0) != n:
            bad('%s: trace %d, generator %d' % (k, kinds.get(k, 0), n))
    for k in kinds:
        if k not in want:
            bad('unexpected record kind ' + k)
    for loc, n in loc_events.items():
        if len(ev.get(loc, [])) != n:
            bad('location %d: %d events, definition says %d'
                % (loc, len(ev.get(loc, [])), n))

    # Placement: block placement over `nodes` nodes.
    per = (ranks + nodes - 1) // nodes
    for loc, g in loc_group.items():
        if group_node.get(g) != 1 + loc // per:
            bad('rank %d on system-tree node %s, expected %d'
                % (loc, group_node.get(g), 1 + loc // per))

    sends = collections.defaultdict(collections.deque)
    recvs = collections.defaultdict(list)
    colls = {}
    for loc, events in sorted(ev.items()):
        last, stack = 0, []
        open_req = {}
        seq = []
        begun = False
        for kind, t, rest in events:
            if t < last:
                bad('location %d: time goes back at %s %d' % (loc, kind, t))
            last = t
            top = stack[-1] if stack else ''
            if kind == 'ENTER':
                stack.append(num(RE_REGION, rest))
                continue
            if kind == 'LEAVE':
                region = num(RE_REGION, rest)
                if not stack or stack.pop() != region:
                    bad('location %d: Leave %s does not match' % (loc, region))
                continue
            if kind.startswith('MPI_') and not top.startswith('MPI_'):
                bad('location %d: %s outside an MPI region (%s)'
                    % (loc, kind, top))
            if kind in P2P_SEND or kind in P2P_RECV:
                key_peer = int(num(RE_PEER, rest))
                comm, tag = num(RE_COMM, rest), num(RE_TAG, rest)
                length = int(num(RE_LEN, rest))
                if kind in P2P_SEND:
                    sends[(loc, key_peer, comm, tag)].append((t, length))
                else:
                    recvs[(key_peer, loc, comm, tag)].append((t, length))
            if kind in ('MPI_ISEND', 'MPI_IRECV_REQUEST'):
                req = num(RE_REQ, rest)
                if req in open_req:
                    bad('location %d: request %s reused while open'
                        % (loc, req))
                open_req[req] = kind
            if kind in ('MPI_ISEND_COMPLETE', 'MPI_IRECV'):
                req = num(RE_REQ, rest)
                want_kind = ('MPI_ISEND' if kind == 'MPI_ISEND_COMPLETE'
                             else 'MPI_IRECV_REQUEST')
                if open_req.pop(req, None) != want_kind:
                    bad('location %d: %s of request %s never started'
                        % (loc, kind, req))
                if top not in ('MPI_Wait', 'MPI_Waitall'):
                    bad('location %d: %s inside %s' % (loc, kind, top))
            if kind == 'MPI_COLLECTIVE_BEGIN':
                if begun:
                    bad('location %d: nested collective' % loc)
                begun, t_begin = True, t
            if kind == 'MPI_COLLECTIVE_END':
                if not begun:
                    bad('location %d: collective end without begin' % loc)
                begun = False
                seq.append((num(RE_COMM, rest), num(RE_OP, rest),
                            num(RE_ROOT, rest), t_begin, t, top))
        if stack:
            bad('location %d: regions left open: %s' % (loc, stack))
        if open_req:
            bad('location %d: requests never completed: %s'
                % (loc, sorted(open_req)))
        colls[loc] = seq

    # Messages: FIFO per (sender, receiver, communicator, tag).
    nmsg = 0
    for key in set(sends) | set(recvs):
        s, r = list(sends.get(key, [])), recvs.get(key, [])
        if len(s) != len(r):
            bad('%d sends but %d receives for sender %d receiver %d comm %s '
                'tag %s' % (len(s), len(r), key[0], key[1], key[2], key[3]))
        for (ts, ls), (tr, lr) in zip(s, r):
            nmsg += 1
            if ls != lr:
                bad('message %s: sent %d bytes, received %d' % (key, ls, lr))
            if tr < ts + MIN_LATENCY:
                bad('message %s: received at %d, sent at %d'
                    % (key, tr, ts))
    if nmsg != want.get('messages'):
        bad('messages: matched %d, generator %s' % (nmsg, want.get('messages')))

    # Collectives: same sequence on all members (all ranks: MPI_COMM_WORLD).
    ref = colls.get(0, [])
    for loc, seq in colls.items():
        if [c[:3] for c in seq] != [c[:3] for c in ref]:
            bad('location %d: collective sequence differs from rank 0' % loc)
    if len(ref) != want.get('collectives'):
        bad('collectives: %d, generator %s' % (len(ref),
                                                want.get('collectives')))
    for i, c in enumerate(ref):
        members = [colls[l][i] for l in colls if len(colls[l]) > i]
        if len(members) != ranks:
            bad('collective %d incomplete: %d of %d members'
                % (i, len(members), ranks))
            continue
        last_begin = max(m[3] for m in members)
        op, root = c[1], c[2]
        for loc, m in zip(sorted(colls), members):
            if op in ('BARRIER', 'ALLREDUCE') and m[4] < last_begin:
                bad('collective %d (%s): rank %d ends before the last member '
                    'began' % (i, op, loc))
            if op == 'BCAST' and m[4] < members[int(root)][3]:
                bad('collective %d: rank %d ends before the root began'
                    % (i, loc))
            if op == 'REDUCE' and loc == int(root) and m[4] < last_begin:
                bad('collective %d: root ends before the last member began'
                    % i)
    return bad.report()


def iteration_ends(per):
    """Per location: times of Leave "iteration", and the compute spans."""
    ends, comp = {}, {}
    for loc, events in per.items():
        e, c, t_enter = [], [], None
        for kind, t, rest in events:
            region = num(RE_REGION, rest)
            if kind == 'LEAVE' and region == 'iteration':
                e.append(t)
            if kind == 'ENTER' and region == 'compute':
                t_enter = t
            if kind == 'LEAVE' and region == 'compute':
                c.append((t_enter, t))
        ends[loc], comp[loc] = e, c
    return ends, comp


def delay(base, delayed, d_us, rank, it, full):
    bad = Problems()
    d = int(round(float(d_us) * 1000))
    rank, it, full = int(rank), int(it), full == '1'
    a, b = read_events(base, bad), read_events(delayed, bad)
    ca, cb = iteration_ends(a)[1], iteration_ends(b)[1]
    ea, eb = iteration_ends(a)[0], iteration_ends(b)[0]
    t_delay = ca[rank][it][0]
    for loc in a:
        if len(a[loc]) != len(b[loc]):
            bad('location %d: event count changed' % loc)
            continue
        for (ka, ta, _), (kb, tb, _) in zip(a[loc], b[loc]):
            if ta <= t_delay and ta != tb:
                bad('location %d: %s at %d changed before the delay'
                    % (loc, ka, ta))
                break
            if tb < ta:
                bad('location %d: %s got earlier with a delay' % (loc, ka))
                break
    (s0, e0), (s1, e1) = ca[rank][it], cb[rank][it]
    if s0 != s1 or (e1 - s1) - (e0 - s0) != d:
        bad('rank %d iteration %d: compute grew by %d ns, not %d'
            % (rank, it, (e1 - s1) - (e0 - s0), d))
    # How late each rank is at the end of the delayed iteration / the run.
    late_it = [l for l in a if eb[l][it] - ea[l][it] >= d // 2]
    late_end = [l for l in a if eb[l][-1] - ea[l][-1] >= d // 2]
    if rank not in late_it:
        bad('rank %d itself is not late after iteration %d' % (rank, it))
    if full and len(late_it) != len(a):
        bad('after iteration %d only ranks %s are late' % (it, late_it))
    if not full and len([l for l in late_end if l != rank]) == 0:
        bad('the delay reached no other rank')
    return bad.report()


def main(argv):
    if len(argv) == 5 and argv[1] == 'verify':
        return verify(argv[2], argv[3], int(argv[4]))
    if len(argv) == 8 and argv[1] == 'delay':
        return delay(*argv[2:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
