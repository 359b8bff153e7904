/* hybrid.c — the lanes' dependencies and wait states (hybrid.h). */
#include "hybrid_impl.h"

#include "base/sort.h"
#include "base/vec.h"

#include <stdlib.h>
#include <string.h>

int
hy_add_wait(struct hy *y, uint64_t from, uint64_t to, uint32_t place, uint32_t frame, uint32_t cause,
	 uint32_t cause_frame, uint8_t kind, uint32_t *id)
{
	struct hybrid *h = y->h;
	if (VEC_GROW(h->waits, h->n_waits, y->n_waits_cap))
		return ERR_NOMEM;
	*id = h->n_waits;
	h->waits[h->n_waits++] = (struct hybrid_wait){ from, to, from, from, place, frame, cause, cause_frame,
							  kind };
	return 0;
}

int
hy_add_edge(struct hy *y, uint64_t at, uint32_t place, uint32_t frame, uint64_t by_at, uint32_t by,
	 uint32_t by_frame, uint32_t wait)
{
	struct hybrid *h = y->h;
	if (VEC_GROW(h->edges, h->n_edges, y->n_edges_cap))
		return ERR_NOMEM;
	h->edges[h->n_edges++] = (struct hybrid_edge){
		.at = at, .by_at = by_at < at ? by_at : at, .place = place, .by = by,
		.frame = frame, .by_frame = by_frame, .wait = wait };
	return 0;
}


static int
has(const char *s, const char *part)
{
	return strstr(s, part) != NULL;
}

/* OTF2's paradigms of device calls: CUDA, OpenACC, OpenCL, HIP (a user
 * function named like one is not one). */
static int
device_paradigm(uint8_t p)
{
	return p == 5 || p == 18 || p == 19 || p == 23;
}

enum hybrid_class
hybrid_class(const char *name, uint8_t paradigm)
{
	if (!strncmp(name, "!$omp ", 6)) {
		const char *w = name + 6;
		if (!strncmp(w, "parallel", 8))
			return HY_PARALLEL;
		if (!strncmp(w, "implicit_task", 13) || !strncmp(w, "implicit task", 13))
			return HY_IMPLICIT;
		if (!strncmp(w, "barrier", 7) || !strncmp(w, "implicit barrier", 16) ||
		    !strncmp(w, "ibarrier", 8))
			return HY_BARRIER;
		if (!strncmp(w, "critical sblock", 15))
			return HY_CRITICAL_BODY;
		if (!strncmp(w, "create task", 11))
			return HY_TASK_CREATE;
		if (!strncmp(w, "taskwait", 8))
			return HY_TASKWAIT;
		if (!strncmp(w, "task ", 5) || !strncmp(w, "task@", 5) || !strcmp(w, "task"))
			return HY_TASK;
		if (!strncmp(w, "critical", 8))
			return HY_CRITICAL;
		return HY_NONE;
	}
	/* OpenMP's lock routines and Pthread's mutexes, as Score-P names them
	 * (the locks Score-P records) */
	if (!strcmp(name, "omp_set_lock") || !strcmp(name, "omp_set_nest_lock") ||
	    !strcmp(name, "pthread_mutex_lock"))
		return HY_LOCK;
	if (!strcmp(name, "omp_unset_lock") || !strcmp(name, "omp_unset_nest_lock") ||
	    !strcmp(name, "pthread_mutex_unlock"))
		return HY_UNLOCK;
	/* CUDA driver and runtime, HIP, OpenCL */
	if (!device_paradigm(paradigm))
		return HY_NONE;
	if (has(name, "LaunchKernel") || has(name, "cudaLaunch") || has(name, "cuLaunch") ||
	    has(name, "clEnqueueNDRangeKernel") || has(name, "clEnqueueTask"))
		return HY_LAUNCH;
	if (has(name, "Synchronize") || !strcmp(name, "clFinish") || !strcmp(name, "clWaitForEvents"))
		return HY_SYNC;
	if (has(name, "Memcpy") || has(name, "clEnqueueReadBuffer") ||
	    has(name, "clEnqueueWriteBuffer") || has(name, "clEnqueueCopyBuffer"))
		return has(name, "Async") ? HY_COPY_ASYNC : HY_COPY;
	return HY_NONE;
}

/* Which way a copy call or a stream's copy goes, from its name: the
 * stream's regions, CUDA's and HIP's HtoD and DtoH (and HtoA, AtoH),
 * OpenCL's writes (to the device) and reads (to the host); DIR_NONE
 * where the name does not say (cudaMemcpy takes it as an argument, a
 * copy between devices or buffers). */
static uint8_t
copy_direction(const char *name)
{
	if (!strcmp(name, TRACE_COPY_TO_DEVICE) || has(name, "HtoD") || has(name, "HtoA") ||
	    has(name, "HostToDevice") || !strncmp(name, "clEnqueueWrite", 14))
		return DIR_TO_DEVICE;
	if (!strcmp(name, TRACE_COPY_TO_HOST) || has(name, "DtoH") || has(name, "AtoH") ||
	    has(name, "DeviceToHost") || !strncmp(name, "clEnqueueRead", 13))
		return DIR_TO_HOST;
	return DIR_NONE;
}

const char *
hybrid_wait_name(enum hybrid_wait_kind k)
{
	return k == HYW_DEVICE ? "device-wait" : k == HYW_BARRIER ? "omp-barrier"
		: k == HYW_CRITICAL ? "omp-critical" : k == HYW_LOCK ? "lock-wait"
		: k == HYW_TASKWAIT ? "omp-taskwait" : "?";
}

const struct trace_frame *
hybrid_place_frames(const struct trace *t, const struct hybrid *h, uint32_t p, uint32_t *first,
		    uint32_t *n)
{
	uint32_t nf;
	if (p < h->n_timelines) {
		const struct trace_timeline *tl = &trace_timelines(t, NULL)[p];
		*first = tl->frame_first;
		*n = tl->frame_count;
		return trace_frames(t, &nf);
	}
	const struct trace_lane *L = &trace_lanes(t, NULL)[p - h->n_timelines];
	*first = L->frame_first;
	*n = L->frame_count;
	return trace_lane_frames(t, &nf);
}

uint32_t
hybrid_place_rank(const struct trace *t, const struct hybrid *h, uint32_t p)
{
	return p < h->n_timelines ? p : trace_lanes(t, NULL)[p - h->n_timelines].timeline;
}

uint64_t
hy_tag(const struct hy *y, uint32_t place, const struct trace_frame *fr)
{
	uint32_t n;
	const struct trace_tag *g = trace_tags(y->t, &n);
	if (!y->loc_of_place || !n)
		return 0;
	uint32_t loc = y->loc_of_place[place], lo = 0, hi = n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (g[mid].location < loc || (g[mid].location == loc && g[mid].time < fr->t_enter))
			lo = mid + 1;
		else
			hi = mid;
	}
	/* the place's k-th frame of the region entered at that time takes
	 * the k-th such tag (tasks created at one tick in a loop); past
	 * 1024 frames at one tick (no timer is that coarse), none */
	uint32_t first, nf, k = 0, seen = 0;
	const struct trace_frame *pf = hybrid_place_frames(y->t, y->h, place, &first, &nf);
	for (const struct trace_frame *q = fr; q > pf + first && q[-1].t_enter == fr->t_enter; q--)
		if (++seen > 1024)
			return 0;
		else
			k += q[-1].region == fr->region;
	for (; lo < n && g[lo].location == loc && g[lo].time == fr->t_enter; lo++)
		if (g[lo].region == fr->region && k-- == 0)
			return g[lo].value < UINT64_MAX ? g[lo].value + 1 : 0;
	return 0;
}

/* Are two host calls' classes of one kind (copies, synchronous or not)? */
static int
same_kind(uint8_t a, uint8_t b)
{
	int ca = a == HY_COPY || a == HY_COPY_ASYNC, cb = b == HY_COPY || b == HY_COPY_ASYNC;
	return a == b || (ca && cb);
}

/* The rank's host calls that issue or wait for device work: the
 * innermost of nested calls of one kind (a runtime call wrapping a
 * driver call is one call). */
static int
host_calls(struct hy *y, uint32_t place)
{
	uint32_t first, n;
	const struct trace_frame *fr = hybrid_place_frames(y->t, y->h, place, &first, &n);
	for (uint32_t i = first; i < first + n; i++) {
		uint8_t c = cls_of(y, &fr[i]);
		if (c != HY_LAUNCH && c != HY_COPY && c != HY_COPY_ASYNC && c != HY_SYNC)
			continue;
		/* a call holding a call of its kind is the wrapper: skipped */
		int wraps = 0;
		for (uint32_t k = i + 1; k < first + n && fr[k].t_enter <= fr[i].t_leave && !wraps; k++) {
			if (!same_kind(cls_of(y, &fr[k]), c))
				continue;
			uint32_t p = fr[k].parent;
			while (p != TRACE_NONE && p > i)
				p = fr[p].parent;
			wraps = p == i;
		}
		if (wraps)
			continue;
		if (VEC_GROW(y->calls, y->n_calls, y->cap_calls))
			return ERR_NOMEM;
		/* a launch tagged with its stream (Score-P's CUDA_STREAM_REF) */
		uint32_t stream = TRACE_NONE;
		uint64_t tag = c == HY_LAUNCH ? hy_tag(y, place, &fr[i]) : 0;
		for (uint32_t s = 0; tag && s < y->n_streams && stream == TRACE_NONE; s++)
			if (y->stream_id[s] == tag - 1)
				stream = y->stream_place[s];
		y->calls[y->n_calls++] = (struct call){ fr[i].t_enter, fr[i].t_leave, place, i, stream,
							TRACE_NONE, c, c == HY_LAUNCH ? DIR_NONE : y->dir[fr[i].region] };
	}
	return 0;
}

static int
device_work(struct hy *y, uint32_t place)
{
	uint32_t first, n;
	const struct trace_frame *fr = hybrid_place_frames(y->t, y->h, place, &first, &n);
	for (uint32_t i = first; i < first + n; i++) {
		if (fr[i].depth != 0)
			continue;
		if (VEC_GROW(y->work, y->n_work, y->cap_work))
			return ERR_NOMEM;
		/* a copy's direction; a kernel's DIR_NONE */
		uint8_t copy = trace_region_is_copy(y->t, fr[i].region) ? y->dir[fr[i].region] : DIR_NONE;
		y->work[y->n_work++] = (struct work){ fr[i].t_enter, fr[i].t_leave, fr[i].t_enter, place, i,
						      TRACE_NONE, copy };
	}
	return 0;
}

static int
reserve_order(struct hy *y, size_t n)
{
	if (n <= y->cap_order)
		return 0;
	free(y->order);
	free(y->prefix_end);
	free(y->prefix_at);
	y->order = malloc(n * sizeof *y->order);
	y->prefix_end = malloc(n * sizeof *y->prefix_end);
	y->prefix_at = malloc(n * sizeof *y->prefix_at);
	y->cap_order = y->order && y->prefix_end && y->prefix_at ? n : 0;
	return y->cap_order ? 0 : ERR_NOMEM;
}

static int
by_call_enter(const void *p, const void *q)
{
	const struct call *a = p, *b = q;
	if (a->enter != b->enter)
		return a->enter < b->enter ? -1 : 1;
	return a->place < b->place ? -1 : a->place > b->place;
}

static int
by_enter(const void *ctx, uint32_t a, uint32_t b)
{
	const struct work *w = ctx;
	if (w[a].enter != w[b].enter)
		return w[a].enter < w[b].enter ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* How far time t is from [lo, hi]: 0 inside. */
static uint64_t
distance(uint64_t t, uint64_t lo, uint64_t hi)
{
	return t < lo ? lo - t : t > hi ? t - hi : 0;
}

/* The calls ci[0 .. nc) (by time) and the work order[0 .. nw) (by start)
 * paired first in, first out. Where calls outnumber the work (the tracer
 * lost device records: CUPTI drops them when its buffers fill), a call is
 * left without its work when the work is nearer the next call than this
 * one and could not have been this one's: this one is a blocking copy
 * (its copy is done before it returns), or the next call came while the
 * stream was idle (the work would have begun before it), or the work
 * before it on the stream was issued after this call (a stream runs its
 * work in order) — as many times as there are calls too many. Nearer, not
 * after the next call's enter: a device clock that runs behind the
 * host's puts a copy up to 50 us before its own call
 * (casita-2_jacobi_blame_cpu_015), and one lost copy would otherwise
 * shift every later pairing. Where nothing was lost the rule is not used:
 * the clocks may differ by more than the calls are apart. */
static void
pair_run(struct hy *y, const uint32_t *ci, uint32_t nc, const uint32_t *order, uint32_t nw)
{
	uint32_t j = 0, surplus = nc > nw ? nc - nw : 0;
	for (uint32_t k = 0; k < nw; k++) {
		uint32_t wi = order[k];
		struct work *w = &y->work[wi];
		/* the stream's work before it (the work is by stream, in
		 * time order) ended at idle, issued at prev_issue */
		int prev = wi > 0 && y->work[wi - 1].place == w->place;
		uint64_t idle = prev ? y->work[wi - 1].leave : 0, prev_issue = prev ? y->work[wi - 1].issue : 0;
		while (surplus && j + 1 < nc) {
			const struct call *c = &y->calls[ci[j]], *next = &y->calls[ci[j + 1]];
			if ((c->cls != HY_COPY && idle > next->enter && prev_issue <= c->enter) ||
			    distance(w->enter, next->enter, next->leave) >= distance(w->enter, c->enter, c->leave))
				break;
			y->h->unpaired_calls++;
			surplus--;
			j++;
		}
		if (j == nc) {
			y->h->unpaired_work++;
			continue;
		}
		struct call *c = &y->calls[ci[j]];
		c->work = wi;
		w->call = ci[j++];
		w->issue = c->enter;
	}
	y->h->unpaired_calls += nc - j;
}

/* The calls ci[0 .. nc) and the work order[0 .. nw) of one kind (`dir`)
 * into the tails of ci and order (past nc and nw), and paired. */
static void
pair_dir(struct hy *y, uint32_t *ci, uint32_t nc, uint32_t nw, uint8_t dir)
{
	uint32_t mc = 0, mw = 0, *sc = ci + nc, *sw = y->order + nw;
	for (uint32_t c = 0; c < nc; c++)
		if (y->calls[ci[c]].dir == dir)
			sc[mc++] = ci[c];
	for (uint32_t k = 0; k < nw; k++)
		if (y->work[y->order[k]].copy == dir)
			sw[mw++] = y->order[k];
	pair_run(y, sc, mc, sw, mw);
}

static int
pair(struct hy *y)
{
	if (y->n_calls)
		qsort(y->calls, y->n_calls, sizeof *y->calls, by_call_enter);
	/* twice: a stream's share is gathered after the whole (and the
	 * order's likewise: one_rank reserves it twice the work) */
	uint32_t *ci = malloc((2 * y->n_calls + 1) * sizeof *ci);
	if (!ci)
		return ERR_NOMEM;
	for (int copy = 0; copy < 2; copy++) {
		uint32_t nw = 0, nc = 0;
		for (size_t i = 0; i < y->n_work; i++)
			if ((y->work[i].copy != DIR_NONE) == copy)
				y->order[nw++] = (uint32_t)i;
		for (size_t c = 0; c < y->n_calls; c++) {
			uint8_t cc = y->calls[c].cls;
			if (copy ? cc == HY_COPY || cc == HY_COPY_ASYNC : cc == HY_LAUNCH)
				ci[nc++] = (uint32_t)c;
		}
		/* the work by start (equal starts: by place, then frame) */
		if (sort_ids(y->order, nw, by_enter, y->work)) {
			free(ci);
			return ERR_NOMEM;
		}
		/* launches that each name their stream (Score-P's
		 * CUDA_STREAM_REF): each stream's kernels with its launches;
		 * else the process's kernels with its launches in time order */
		int tagged = !copy && nc > 0;
		for (uint32_t c = 0; c < nc && tagged; c++)
			tagged = y->calls[ci[c]].stream != TRACE_NONE;
		/* copy calls whose names each say which way they copy
		 * (cuMemcpyHtoD, clEnqueueReadBuffer): each way's calls with
		 * its copies, so that a copy lost one way does not shift the
		 * other way's pairs; else all copies with all calls */
		int directed = copy && nc > 0;
		for (uint32_t c = 0; c < nc && directed; c++)
			directed = y->calls[ci[c]].dir != DIR_NONE;
		if (directed) {
			pair_dir(y, ci, nc, nw, DIR_TO_DEVICE);
			pair_dir(y, ci, nc, nw, DIR_TO_HOST);
			continue;
		}
		if (!tagged) {
			pair_run(y, ci, nc, y->order, nw);
			continue;
		}
		/* stream by stream: its launches and its kernels, kept in the
		 * tails of ci and order (both already in time order) */
		for (uint32_t s = 0; s < y->n_streams; s++) {
			uint32_t place = y->stream_place[s], mc = 0, mw = 0;
			uint32_t *sc = ci + nc, *sw = y->order + nw;
			for (uint32_t c = 0; c < nc; c++)
				if (y->calls[ci[c]].stream == place)
					sc[mc++] = ci[c];
			for (uint32_t k = 0; k < nw; k++)
				if (y->work[y->order[k]].place == place)
					sw[mw++] = y->order[k];
			pair_run(y, sc, mc, sw, mw);
		}
	}
	free(ci);
	return 0;
}

/* A stream's kernel or copy issued while the stream was idle waited for
 * its call: an edge back to it; issued while the stream was busy (or,
 * issued by no call we know, begun before the work before it ended), for
 * the work before it on the stream: an edge to that work's end (the time
 * between, the stream's own latency, on the path as its wait). Other
 * work has no edge: the path leaves it for its rank (path.c). */
static int
stream_edges(struct hy *y)
{
	uint64_t prev_end = 0;
	uint32_t prev_place = TRACE_NONE;
	for (size_t i = 0; i < y->n_work; i++) {
		const struct work *w = &y->work[i];
		if (w->place != prev_place)
			prev_end = 0, prev_place = w->place;
		/* issued then, as the device's clock has it */
		uint64_t at = w->issue < w->enter ? w->issue : w->enter;
		if (w->call != TRACE_NONE && at >= prev_end) {
			const struct call *c = &y->calls[w->call];
			if (hy_add_edge(y, w->enter, w->place, w->frame, at, c->place, c->frame, TRACE_NONE))
				return ERR_NOMEM;
		} else if (i > 0 && y->work[i - 1].place == w->place &&
			   (w->call != TRACE_NONE || prev_end >= w->enter) &&
			   hy_add_edge(y, w->enter, w->place, w->frame, prev_end, w->place, y->work[i - 1].frame,
				       TRACE_NONE)) {
			return ERR_NOMEM;     /* queued behind the work before it */
		}
		if (w->leave > prev_end)
			prev_end = w->leave;
	}
	return 0;
}

static int
by_issue(const void *ctx, uint32_t a, uint32_t b)
{
	const struct work *w = ctx;
	if (w[a].issue != w[b].issue)
		return w[a].issue < w[b].issue ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* The number of works issued before t (order by issue). */
static uint32_t
issued_before(const struct hy *y, uint64_t t)
{
	uint32_t lo = 0, hi = (uint32_t)y->n_work;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (y->work[y->order[mid]].issue < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* How far back (in issue order) a call looks for the work that released
 * it when the latest-ending one ended after the call returned. */
#define SKEW_LOOK 64

/* Of the first k works by issue, the one that ended last while call x
 * ran (after it began, no later than it returned), or NULL: a device
 * clock that lags the host's records some copies after their blocking
 * call returned (casita-2_cuda_simple), which cannot have held it. Work
 * `skip` (a copy call's own copy, or TRACE_NONE) is not counted. */
static const struct work *
released_by(const struct hy *y, uint32_t k, const struct call *x, uint32_t skip)
{
	if (k == 0 || y->prefix_end[k - 1] <= x->enter)
		return NULL;
	const struct work *d = &y->work[y->prefix_at[k - 1]];
	if (d->leave <= x->leave && y->prefix_at[k - 1] != skip)
		return d;
	d = NULL;
	for (uint32_t i = k, seen = 0; i-- > 0 && seen < SKEW_LOOK; seen++) {
		const struct work *o = &y->work[y->order[i]];
		if (y->order[i] != skip && o->leave <= x->leave && o->leave > x->enter && (!d || o->leave > d->leave))
			d = o;
	}
	return d;
}

/* Synchronisations and blocking copies: released by the latest-ending
 * device work issued before they returned; their wait state is the time
 * they spent before work issued before them was done. */
static int
host_waits(struct hy *y)
{
	uint32_t nw = (uint32_t)y->n_work;
	if (!nw)
		return 0;
	for (uint32_t i = 0; i < nw; i++)
		y->order[i] = i;
	if (sort_ids(y->order, nw, by_issue, y->work))
		return ERR_NOMEM;
	for (uint32_t i = 0; i < nw; i++) {
		const struct work *w = &y->work[y->order[i]];
		int more = i == 0 || w->leave > y->prefix_end[i - 1];
		y->prefix_end[i] = more ? w->leave : y->prefix_end[i - 1];
		y->prefix_at[i] = more ? y->order[i] : y->prefix_at[i - 1];
	}
	for (size_t c = 0; c < y->n_calls; c++) {
		const struct call *x = &y->calls[c];
		if (x->cls != HY_SYNC && x->cls != HY_COPY)
			continue;
		const struct work *d = released_by(y, issued_before(y, x->leave), x, TRACE_NONE);
		if (!d)
			continue;
		uint64_t at = d->leave;
		uint32_t wait = TRACE_NONE;
		/* the wait: for the work issued before the call (a copy
		 * call's own transfer is not waiting, though a device clock
		 * behind the host's may put it before the call) */
		const struct work *b = x->cls == HY_SYNC ? d : released_by(y, issued_before(y, x->enter), x, x->work);
		if (b && hy_add_wait(y, x->enter, b->leave, x->place, x->frame, b->place, b->frame, HYW_DEVICE,
				     &wait))
			return ERR_NOMEM;
		if (b != d)
			wait = TRACE_NONE;
		if (hy_add_edge(y, at, x->place, x->frame, at, d->place, d->frame, wait))
			return ERR_NOMEM;
	}
	return 0;
}

/* One rank and its lanes (lanes[lf .. le) by lane index); `locked`:
 * its critical sections were found from the locks' records. */
static int
one_rank(struct hy *y, uint32_t tl, const uint32_t *lanes, uint32_t n_lanes, int locked)
{
	const struct trace_lane *L = trace_lanes(y->t, NULL);
	const struct trace_location *locs = trace_locations(y->t, NULL);
	uint32_t n_tl = y->h->n_timelines;
	y->n_calls = y->n_work = 0;
	/* its streams, for the launches tagged with theirs */
	y->n_streams = 0;
	for (uint32_t i = 0; i < n_lanes && y->loc_of_place; i++) {
		if (L[lanes[i]].kind != LANE_GPU)
			continue;
		if (VEC_GROW(y->stream_place, y->n_streams, y->cap_stream_place) ||
		    VEC_GROW(y->stream_id, y->n_streams, y->cap_stream_id))
			return ERR_NOMEM;
		y->stream_id[y->n_streams] = locs[L[lanes[i]].location].id;
		y->stream_place[y->n_streams++] = n_tl + lanes[i];
	}
	int rc = host_calls(y, tl);
	for (uint32_t i = 0; i < n_lanes && !rc; i++) {
		uint32_t place = n_tl + lanes[i];
		rc = L[lanes[i]].kind == LANE_GPU ? device_work(y, place) : host_calls(y, place);
	}
	if (!rc && y->n_work) {
		if ((rc = reserve_order(y, 2 * y->n_work)))
			return rc;
		if (!(rc = pair(y)) && !(rc = stream_edges(y)))
			rc = host_waits(y);
	}
	if (!rc)
		rc = omp_teams(y, tl, lanes, n_lanes);
	if (!rc && !locked)
		rc = omp_criticals(y, tl, lanes, n_lanes);
	if (!rc)
		rc = omp_tasks(y, tl, lanes, n_lanes);
	return rc;
}

/* Per region, for the task regions (created or run), the first task
 * region naming the same source line ("!$omp create task @f.c:164" and
 * "!$omp task @f.c:164" name one task): what follows "task"; by sorting
 * their names' tails, O(r log r). NULL when out of memory. */
static int
by_tail(const void *ctx, uint32_t a, uint32_t b)
{
	const char *const *tail = ctx;
	int c = strcmp(tail[a], tail[b]);
	return c ? c : (a > b) - (a < b);
}

static uint32_t *
task_keys(const struct trace *t, const uint8_t *cls, uint32_t nr)
{
	uint32_t *key = malloc(((size_t)nr + 1) * sizeof *key), *ids = malloc(((size_t)nr + 1) * sizeof *ids), n = 0;
	const char **tail = malloc(((size_t)nr + 1) * sizeof *tail);
	if (!key || !ids || !tail) {
		free(key), free(ids), free(tail);
		return NULL;
	}
	const struct trace_region *reg = trace_regions(t, NULL);
	for (uint32_t r = 0; r < nr; r++) {
		key[r] = TRACE_NONE;
		tail[r] = "";
		if (cls[r] != HY_TASK && cls[r] != HY_TASK_CREATE)
			continue;
		const char *name = trace_str(t, reg[r].name), *at = strstr(name, "task");
		tail[r] = at ? at + 4 : name;
		ids[n++] = r;
	}
	if (sort_ids(ids, n, by_tail, tail)) {
		free(key), free(ids), free(tail);
		return NULL;
	}
	for (uint32_t i = 0; i < n; i++)
		key[ids[i]] = i && !strcmp(tail[ids[i]], tail[ids[i - 1]]) ? key[ids[i - 1]] : ids[i];
	free(ids);
	free(tail);
	return key;
}

static int
by_place_at(const void *p, const void *q)
{
	const struct hybrid_edge *a = p, *b = q;
	if (a->place != b->place)
		return a->place < b->place ? -1 : 1;
	if (a->at != b->at)
		return a->at < b->at ? -1 : 1;
	return a->frame < b->frame ? -1 : a->frame > b->frame;
}

static int
wait_by_place(const void *ctx, uint32_t a, uint32_t b)
{
	const struct hybrid_wait *w = ctx;
	if (w[a].place != w[b].place)
		return w[a].place < w[b].place ? -1 : 1;
	if (w[a].from != w[b].from)
		return w[a].from < w[b].from ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* The waits by place and time, the edges' wait indices renumbered. */
static int
order_waits(struct hybrid *h)
{
	uint32_t n = h->n_waits;
	uint32_t *ord = malloc((n + 1) * sizeof *ord), *rank = malloc((n + 1) * sizeof *rank);
	struct hybrid_wait *w = malloc((n + 1) * sizeof *w);
	if (!ord || !rank || !w) {
		free(ord), free(rank), free(w);
		return ERR_NOMEM;
	}
	for (uint32_t i = 0; i < n; i++)
		ord[i] = i;
	if (sort_ids(ord, n, wait_by_place, h->waits)) {
		free(ord), free(rank), free(w);
		return ERR_NOMEM;
	}
	for (uint32_t i = 0; i < n; i++) {
		w[i] = h->waits[ord[i]];
		rank[ord[i]] = i;
	}
	for (uint32_t i = 0; i < h->n_edges; i++)
		if (h->edges[i].wait != TRACE_NONE)
			h->edges[i].wait = rank[h->edges[i].wait];
	free(h->waits);
	h->waits = w;
	free(ord);
	free(rank);
	return 0;
}

int
hybrid_compute(const struct trace *t, struct hybrid *h, struct err *e)
{
	memset(h, 0, sizeof *h);
	uint32_t n_tl, n_lanes, n_regions;
	trace_timelines(t, &n_tl);
	trace_lanes(t, &n_lanes);
	const struct trace_region *regions = trace_regions(t, &n_regions);
	h->n_timelines = n_tl;
	h->n_places = n_tl + n_lanes;
	struct hy y = { .t = t, .h = h };
	uint8_t *cls = calloc(n_regions + 1, 1), *dir = calloc(n_regions + 1, 1);
	uint32_t *task_key = NULL;
	uint32_t *by_rank = NULL, *rank_first = NULL;
	uint8_t *locked = NULL;
	h->edge_first = calloc((size_t)h->n_places + 1, sizeof *h->edge_first);
	int rc = ERR_NOMEM;
	if (!cls || !dir || !h->edge_first || trace_lanes_by_rank(t, &rank_first, &by_rank))
		goto out;
	for (uint32_t r = 0; r < n_regions; r++) {
		const char *name = trace_str(t, regions[r].name);
		cls[r] = (uint8_t)hybrid_class(name, regions[r].paradigm);
		if (cls[r] == HY_COPY || cls[r] == HY_COPY_ASYNC || trace_region_is_copy(t, r))
			dir[r] = copy_direction(name);
	}
	y.cls = cls;
	y.dir = dir;
	if (!(task_key = task_keys(t, cls, n_regions))) {
		rc = ERR_NOMEM;
		goto out;
	}
	y.task_key = task_key;
	rc = (locked = calloc((size_t)n_tl + 1, 1)) ? 0 : ERR_NOMEM;
	uint32_t n_tags, nloc;
	trace_tags(t, &n_tags);
	const struct trace_location *locs = trace_locations(t, &nloc);
	if (!rc && n_tags && n_lanes) {
		if (!(y.loc_of_place = malloc(((size_t)h->n_places + 1) * sizeof *y.loc_of_place)))
			rc = ERR_NOMEM;
		for (uint32_t p = 0; !rc && p < h->n_places; p++)
			y.loc_of_place[p] = TRACE_NONE;
		for (uint32_t i = 0; !rc && i < nloc; i++)
			if (locs[i].timeline < n_tl)
				y.loc_of_place[locs[i].timeline] = i;
		const struct trace_lane *L = trace_lanes(t, NULL);
		for (uint32_t i = 0; !rc && i < n_lanes; i++)
			y.loc_of_place[n_tl + i] = L[i].location;
	}
	if (!rc && n_lanes)
		rc = thread_locks(&y, locked);
	for (uint32_t r = 0; r < n_tl && !rc && n_lanes; r++)
		if (rank_first[r + 1] > rank_first[r])
			rc = one_rank(&y, r, by_rank + rank_first[r], rank_first[r + 1] - rank_first[r],
				      locked[r]);
	if (!rc)
		rc = order_waits(h);
	if (!rc) {
		if (h->n_edges)
			qsort(h->edges, h->n_edges, sizeof *h->edges, by_place_at);
		for (uint32_t i = 0; i < h->n_edges; i++)
			h->edge_first[h->edges[i].place + 1]++;
		for (uint32_t p = 0; p < h->n_places; p++)
			h->edge_first[p + 1] += h->edge_first[p];
	}
out:
	free(cls);
	free(dir);
	free(locked);
	free(task_key);
	free(by_rank);
	free(rank_first);
	free(y.calls);
	free(y.work);
	free(y.order);
	free(y.prefix_end);
	free(y.prefix_at);
	free(y.loc_of_place);
	free(y.stream_id);
	free(y.stream_place);
	if (rc) {
		hybrid_free(h);
		return err_set(e, rc, "the threads' and streams' dependencies: out of memory");
	}
	return 0;
}

void
hybrid_free(struct hybrid *h)
{
	free(h->waits);
	free(h->edges);
	free(h->edge_first);
	memset(h, 0, sizeof *h);
}

const struct hybrid_edge *
hybrid_edge_before(const struct hybrid *h, uint32_t p, uint64_t t)
{
	if (p >= h->n_places)
		return NULL;
	uint32_t lo = h->edge_first[p], hi = h->edge_first[p + 1], first = lo;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (h->edges[mid].at < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > first ? &h->edges[lo - 1] : NULL;
}
