/* otf2_events.c — reading events on every core.
 *
 * The locations are cut into chunks of consecutive locations with about
 * the same number of declared events. Each worker thread (par_workers())
 * reads chunks, decoding each location's event file itself (otf2_evt.h,
 * into a chunk buffer of the worker's; or with event readers of its own
 * under SKEIN_OTF2_EVENTS=library, OTF2's pthread locking callbacks
 * guarding the shared archive state), and builds them at once into a
 * builder block's own arrays (build_block_create): decoding and
 * building overlap on every core, and no record is handed between
 * threads. Worker 0 takes chunks from the front, one after the other,
 * into one block; the others take them from the back, each into a block
 * of its own, until the two meet. When every chunk is read, the blocks
 * are joined in location order (build_join), which renumbers their ids:
 * the model is the one a single reader would build, whatever the number
 * of threads or which thread read which chunk. The front block is the
 * first, and the join makes its arrays the model's without copying them:
 * only what the other workers read is copied (a second first touch of
 * its pages), half of the records on two threads instead of all but the
 * first chunk's. (A share of a distributed read that does not start at
 * the first location is sent away block by block: there every chunk is
 * a block, so that what travels at once stays bounded.)
 *
 * The calling thread is worker 0: it alone reports progress (and notices
 * a cancel), so a caller's progress callback is never called from another
 * thread. The first chunk, in location order, that failed gives the
 * error: once one failed, only the chunks before it are still read.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/file.h"
#include "base/par.h"
#include "otf2_impl.h"
#include "otf2_read.h"

/* events between progress reports (and cancel checks) */
#define REPORT_EVENTS (1u << 20)
/* a share read for another process: blocks of about this many declared
 * events (at least four per thread); at most MAX_BLOCKS in any read */
#define BLOCK_EVENTS (1u << 20)
#define MAX_BLOCKS OTF2R_MAX_BLOCKS

struct evread {
	struct otf2r *r;
	OTF2_Reader *rd;
	const struct otf2_read_opts *o;
	OTF2_EvtReaderCallbacks *cb;
	struct evblock *blocks;
	uint32_t n_blocks;
	uint64_t total;               /* declared events */
	pthread_mutex_t claim_mu;     /* guards front, back and failed */
	uint32_t front, back;         /* the chunks not taken yet: [front, back) */
	uint32_t failed;              /* the first chunk that failed so far, or UINT32_MAX */
	int one_front;                /* worker 0 reads its chunks into one block */
	int own;                      /* skein decodes the files (else libotf2) */
	struct build *front_b;        /* that block: chunks [0, front) */
	atomic_ullong done;           /* events read so far, all workers */
	atomic_int stop;              /* the user cancelled */
};

/* ---- reading a block ---- */

/* Worker 0 reports progress; any worker stops when asked to. Returns
 * non-zero when reading must stop. */
static int
check_in(struct evread *v, struct evblock *k, uint32_t worker, uint64_t got)
{
	uint64_t done = atomic_fetch_add(&v->done, got) + got;
	if (atomic_load(&v->stop))
		return 1;
	const struct otf2_read_opts *o = v->o;
	if (worker == 0 && o && o->progress && o->progress(o->ud, "reading", done, v->total)) {
		k->rc = err_set(&k->err, ERR_CANCELLED, "%s: cancelled", k->r->anchor);
		atomic_store(&v->stop, 1);
		return 1;
	}
	return 0;
}

/* The message for a location whose events cannot be read past events. */
static int
corrupt(struct otf2r *r, struct evblock *k, const struct trace_location *L, const char *path,
	uint64_t events, OTF2_ErrorCode st, const char *why)
{
	char what[96];
	snprintf(what, sizeof what, "truncated or corrupt events of location %llu after %llu events",
		 (unsigned long long)L->id, (unsigned long long)events);
	if (why)
		return err_set(&k->err, ERR_FORMAT, "%s: %s (%s)", path, what, why);
	return otf2r_fail(r, &k->err, ERR_FORMAT, st, path, what);
}

/* Location li's events by libotf2's event reader; *events is how many
 * were read. Returns 0 or ERR_* (message in k->err). */
static int
library_location(struct evread *v, struct evblock *k, uint32_t worker, uint32_t li,
		 const char *path, uint64_t *events)
{
	struct otf2r *r = v->r;
	const struct trace_location *L = &r->t->locations[li];
	OTF2_EvtReader *er = OTF2_Reader_GetEvtReader(v->rd, L->id);
	if (!er)
		return otf2r_fail(r, &k->err, ERR_FORMAT, OTF2_SUCCESS, path, "cannot read the events");
	OTF2_EvtReader_SetCallbacks(er, v->cb, k);
	uint8_t kinds = r->local_kinds[li];
	if (!(kinds & OTF2R_LOCAL_MAPS))
		OTF2_EvtReader_ApplyMappingTables(er, false);
	if (!(kinds & OTF2R_LOCAL_OFFSETS))
		OTF2_EvtReader_ApplyClockOffsets(er, false);
	int rc = 0;
	for (;;) {
		uint64_t got = 0;
		OTF2_ErrorCode st = OTF2_EvtReader_ReadEvents(er, REPORT_EVENTS, &got);
		*events += got;
		if (k->rc) {          /* the builder failed */
			rc = otf2r_build_error(&k->err, k->rc, r->anchor, "building the model");
			break;
		}
		if (st != OTF2_SUCCESS) {
			rc = corrupt(r, k, L, path, *events, st, NULL);
			break;
		}
		if (check_in(v, k, worker, got)) {
			rc = k->rc ? k->rc : ERR_CANCELLED;
			break;
		}
		if (got < REPORT_EVENTS)
			break;
	}
	OTF2_Reader_CloseEvtReader(v->rd, er);
	return rc;
}

int
otf2r_own_decoding(void)
{
	/* SKEIN_OTF2_EVENTS=library: libotf2's event readers, to compare */
	const char *how = getenv("SKEIN_OTF2_EVENTS");
	return !how || strcmp(how, "library") != 0;
}

/* Records decoded at a time: a few pages, in the first level cache */
#define OWN_BATCH 256

/* Location li's events by skein's own decoding (otf2_evt.h) into the
 * worker's chunk buffer buf; as library_location. */
static int
own_location(struct evread *v, struct evblock *k, uint32_t worker, uint32_t li,
	     const char *path, struct otf2_evt_buf *buf, uint64_t *events)
{
	struct otf2r *r = v->r;
	const struct trace_location *L = &r->t->locations[li];
	const struct otf2r_local *l = r->locals ? &r->locals[li] : NULL;
	struct otf2_evt_maps m = { .cc = &r->cc, .team_attr = r->team_attr, .stream_attr = r->stream_attr };
	if (l)
		m = (struct otf2_evt_maps){ .region = l->region_map, .comm = l->comm_map,
					    .calling_context = l->cc_map, .win = l->win_map, .attr = l->attr_map,
					    .loc = l->loc_map,
					    .team_attr = r->team_attr, .stream_attr = r->stream_attr, .cc = &r->cc,
					    .iv = l->iv, .n_iv = l->n_iv };
	struct otf2_evt e;
	int rc = otf2_evt_open(&e, path, r->anc.evt_chunk, buf, &m);
	struct otf2_evt_rec x[OWN_BATCH];
	uint64_t reported = 0;
	uint32_t n = 1;
	while (rc == 0 && n) {
		rc = otf2_evt_read(&e, x, OWN_BATCH, &n);
		otf2r_own_events(k, x, n);
		if (k->rc) {
			rc = otf2r_build_error(&k->err, k->rc, r->anchor, "building the model");
			break;
		}
		if (!rc && (e.events - reported >= REPORT_EVENTS || !n)) {
			uint64_t got = e.events - reported;
			reported = e.events;
			if (check_in(v, k, worker, got)) {
				rc = k->rc ? k->rc : ERR_CANCELLED;
				break;
			}
		}
	}
	*events = e.events;
	if (rc == ERR_IO)
		rc = err_set(&k->err, ERR_IO, "%s: %s", path, strerror(errno));
	else if (rc == ERR_NOMEM)
		rc = err_set(&k->err, ERR_NOMEM, "%s: out of memory", path);
	else if (rc == ERR_FORMAT)
		rc = corrupt(r, k, L, path, e.events, OTF2_SUCCESS, e.why);
	otf2_evt_close(&e);
	return rc;
}

/* Reads location li into block k; returns 0 or ERR_* (message in k->err). */
static int
read_location(struct evread *v, struct evblock *k, uint32_t worker, uint32_t li,
	      struct otf2_evt_buf *buf)
{
	struct otf2r *r = v->r;
	struct trace_location *L = &r->t->locations[li];
	char path[sizeof r->base + 32];
	otf2r_local_path(r, L->id, "evt", path, sizeof path);
	/* it must be a regular file (a FIFO would block), and may be absent
	 * only when no events are declared */
	struct stat st;
	int absent = stat(path, &st) != 0;
	if (absent && (errno != ENOENT || L->events_declared))
		return err_set(&k->err, ERR_FORMAT, "%s: %s (the definitions declare %llu events)",
			       path, strerror(errno), (unsigned long long)L->events_declared);
	if (!absent && !S_ISREG(st.st_mode))
		return err_set(&k->err, ERR_IO, "%s: is %s, not a regular file", path,
			       file_kind(st.st_mode));
	k->cur_tl = L->timeline;
	k->cur_loc = li;
	otf2r_teams_begin(k);
	int rc = 0;
	if (k->cur_tl != TRACE_NONE)
		rc = build_timeline_begin(k->b, k->cur_tl);
	else if (r->lane_of_loc && r->lane_of_loc[li] != TRACE_NONE)
		otf2r_lane_begin(k, r->lane_of_loc[li]);
	uint64_t events = 0;
	if (rc == 0 && !absent)
		rc = buf ? own_location(v, k, worker, li, path, buf, &events)
			 : library_location(v, k, worker, li, path, &events);
	L->events = events;
	otf2r_holds_end(k);
	if (k->cur_lane != TRACE_NONE && otf2r_lane_end(k) && !rc)
		rc = err_set(&k->err, ERR_NOMEM, "%s: out of memory", r->anchor);
	if (rc == 0 && k->cur_tl != TRACE_NONE) {
		r->t->timelines[k->cur_tl].events = events;
		if ((rc = build_timeline_end(k->b)))
			otf2r_build_error(&k->err, rc, r->anchor, "building the model");
	}
	return rc;
}

/* Takes the next chunk from the front or the back into *i; 0 when none
 * is left. After a chunk failed, only the chunks before it are still
 * read, so that the error named is the first in location order, on any
 * number of threads. */
static int
claim(struct evread *v, int from_front, uint32_t *i)
{
	pthread_mutex_lock(&v->claim_mu);
	int got = v->front < v->back && !atomic_load(&v->stop) &&
		(from_front ? v->front : v->back - 1) < v->failed;
	if (got)
		*i = from_front ? v->front++ : --v->back;
	pthread_mutex_unlock(&v->claim_mu);
	return got;
}

static void
read_chunk(struct evread *v, struct evblock *k, uint32_t worker, struct otf2_evt_buf *buf)
{
	if (!k->b)
		k->rc = err_set(&k->err, ERR_NOMEM, "%s: out of memory", v->r->anchor);
	for (uint32_t li = k->loc_first; li < k->loc_end && !k->rc; li++)
		k->rc = read_location(v, k, worker, li, buf);
	if (k->rc) {
		pthread_mutex_lock(&v->claim_mu);
		uint32_t i = (uint32_t)(k - v->blocks);
		if (i < v->failed)
			v->failed = i;
		pthread_mutex_unlock(&v->claim_mu);
	}
}

static int
read_worker(void *ctx, uint32_t worker, uint32_t n)
{
	(void)n;
	struct evread *v = ctx;
	/* skein's own decoding reads each chunk into a buffer of the worker's */
	struct otf2_evt_buf own = { 0 }, *buf = v->own ? &own : NULL;
	uint32_t i;
	while (claim(v, worker == 0, &i)) {
		struct evblock *k = &v->blocks[i];
		if (worker > 0 || !v->one_front) {
			k->b = build_block_create(v->r->t);
			read_chunk(v, k, worker, buf);
			continue;
		}
		if (!v->front_b)
			v->front_b = build_block_create(v->r->t);
		k->b = v->front_b;
		read_chunk(v, k, worker, buf);
		k->b = NULL;
	}
	free(own.p);
	return 0;
}

static uint64_t
location_weight(const void *ctx, uint32_t li)
{
	const struct trace_location *loc = ctx;
	return loc[li].events_declared + 1024;   /* opening a file costs too */
}

/* The blocks of a read on every core, into cut (n + 1 of them, block i
 * being [cut[i], cut[i + 1])); returns n. Worker 0 takes blocks from the
 * front and the others from the back (claim), so they meet about the
 * middle; the blocks get smaller towards it, the size of each round a
 * share of what is left (guided scheduling), so that whichever core is
 * the faster at the time takes the last small blocks while the other
 * finishes its own: cut evenly, the last blocks were each a tenth of a
 * 10^7-event read, and the core that finished first waited for the
 * other (18 ms a run on average on this shared machine). */
#define GUIDED_MIN (1u << 17)

uint32_t
otf2r_guided_cut(const struct trace_location *loc, uint32_t nl, uint32_t nw, uint32_t *cut)
{
	uint32_t front[MAX_BLOCKS], back[MAX_BLOCKS], nf = 0, nb = 0, f = 0, b = nl;
	uint64_t left = 0;
	for (uint32_t i = 0; i < nl; i++)
		left += location_weight(loc, i);
	while (f < b) {
		uint64_t size = left / (2 * (uint64_t)nw);
		if (size < GUIDED_MIN)
			size = GUIDED_MIN;
		if (nf + nb + nw >= MAX_BLOCKS)
			size = left;
		for (uint32_t j = 0; j < nw && f < b; j++) {
			uint64_t got = 0;
			do
				got += location_weight(loc, j == 0 ? f++ : --b);
			while (got < size && f < b);
			left -= got;
			if (j == 0)
				front[nf++] = f;
			else
				back[nb++] = b;
		}
	}
	/* the front blocks end at front[], the back ones start at back[]
	 * (the last of each list is where they met) */
	uint32_t n = 0;
	cut[0] = 0;
	for (uint32_t i = 0; i < nf; i++)
		cut[++n] = front[i];
	for (uint32_t i = nb; i-- > 0;)
		cut[++n] = i ? back[i - 1] : nl;
	return n;
}

/* Cuts locations [lo, hi) into blocks. */
static int
make_blocks(struct evread *v, uint32_t lo, uint32_t hi)
{
	const struct trace *t = v->r->t;
	uint32_t nl = hi - lo;
	for (uint32_t i = lo; i < hi; i++)
		v->total += t->locations[i].events_declared;
	/* one block on one thread; else otf2r_guided_cut's. A share that starts
	 * past the first location is sent to another process block by block
	 * (doc/distributed.md): it is cut into blocks of about BLOCK_EVENTS,
	 * on one thread too, so that what travels at once is bounded. */
	uint32_t nw = par_workers();
	uint32_t cut[MAX_BLOCKS + 1];
	uint64_t nb;
	if (lo == 0 && nl > 1 && nw > 1) {
		nb = otf2r_guided_cut(t->locations, nl, nw, cut);
	} else {
		nb = nw == 1 && lo == 0 ? 1 : v->total / BLOCK_EVENTS + 1;
		if (nw > 1 && nb < 4 * nw)
			nb = 4 * nw;
		if (nb > MAX_BLOCKS)
			nb = MAX_BLOCKS;
		if (nb > nl)
			nb = nl ? nl : 1;
		par_split(nl, (uint32_t)nb, location_weight, t->locations + lo, cut);
	}
	v->blocks = calloc(nb, sizeof *v->blocks);
	if (!v->blocks)
		return ERR_NOMEM;
	v->n_blocks = v->back = (uint32_t)nb;
	v->failed = UINT32_MAX;
	/* a share sent to another process travels block by block: its
	 * chunks stay blocks of their own (make_blocks' bound) */
	v->one_front = lo == 0;
	for (uint32_t i = 0; i < nb; i++)
		v->blocks[i] = (struct evblock){ .r = v->r, .loc_first = lo + cut[i], .loc_end = lo + cut[i + 1],
						 .cur_tl = TRACE_NONE, .cur_lane = TRACE_NONE,
						 .copy_at = TRACE_NONE, .t_begin = UINT64_MAX };
	return 0;
}

void
otf2r_share_cut(const struct trace *t, uint32_t n, uint32_t *cut)
{
	par_split((uint32_t)t->n_locations, n, location_weight, t->locations, cut);
}

/* Adds the blocks' counts to c. */
static void
sum_counts(const struct evread *v, struct otf2r_counts *c)
{
	for (uint32_t i = 0; i < v->n_blocks; i++) {
		const struct evblock *k = &v->blocks[i];
		for (int j = 0; j < REC_COUNT; j++)
			c->records[j] += k->records[j];
		c->nonrank_mpi += k->nonrank_mpi;
		c->before_offset += k->before_offset;
		c->bad_refs += k->bad_refs;
		c->lane_stray += k->lane_stray;
		c->lane_misnested += k->lane_misnested;
		c->lane_unclosed += k->lane_unclosed;
		c->t_begin = k->t_begin < c->t_begin ? k->t_begin : c->t_begin;
		c->t_end = k->t_end > c->t_end ? k->t_end : c->t_end;
	}
}

void
otf2r_finish_counts(struct otf2r *r, const struct otf2r_counts *c)
{
	struct trace *t = r->t;
	for (int j = 0; j < REC_COUNT; j++)
		t->info.records[j] += c->records[j];
	t->info.warnings[WARN_NONRANK_MPI] += c->nonrank_mpi;
	t->info.warnings[WARN_BEFORE_OFFSET] += c->before_offset;
	t->info.warnings[WARN_BAD_REF] += c->bad_refs;
	t->info.warnings[WARN_STRAY_LEAVE] += c->lane_stray;
	t->info.warnings[WARN_MISNESTED_LEAVE] += c->lane_misnested;
	t->info.warnings[WARN_UNCLOSED_REGION] += c->lane_unclosed;
	t->info.t_begin = c->t_begin == UINT64_MAX ? 0 : c->t_begin;
	t->info.t_end = c->t_end;
	t->info.events = 0;
	for (size_t i = 0; i < t->n_locations; i++) {
		t->info.events += t->locations[i].events;
		if (t->locations[i].events != t->locations[i].events_declared)
			t->info.warnings[WARN_EVENT_COUNT_MISMATCH]++;
	}
	/* Records without a callback (metrics, threads, OpenMP, CUDA ...)
	 * are skipped by OTF2 but still counted in the events read. */
	uint64_t known = 0;
	for (int j = 0; j < REC_OTHER; j++)
		known += t->info.records[j];
	t->info.records[REC_OTHER] = t->info.events - known;
}

/* glibc's malloc while events are read. Large arrays must be mapped, so
 * that freeing one (the blocks' arrays, as they are joined) gives its
 * pages back: glibc's sliding mmap threshold would serve anything up to
 * 32 MB from the heap, where freed memory stays in the process (25% more
 * peak memory at 10^7 events); so the threshold is fixed. But each event
 * reader holds a buffer of the archive's event chunk (1 MiB in every
 * archive seen), allocated when a location is opened and freed when it
 * is closed: mapped, it is mapped afresh for every location and the
 * kernel clears its pages again (a third of the reading time at 1024
 * ranks, 10^7 events). So the threshold goes just above a chunk of up to
 * 1 MiB, and while reading the heap keeps a few chunks' worth at its top
 * instead of trimming it on every free: the buffer is the same memory
 * from one location to the next. (The builder's arrays jump from 64 KiB
 * to 2 MiB, build.c, so none of them lives in the heap near the
 * threshold.) Larger chunks are mapped as before. */
#define MMAP_MIN ((size_t)1 << 20)
#define TRIM_DEFAULT ((size_t)128 << 10)

static void
malloc_reading(const struct otf2r *r, int on)
{
#ifdef __GLIBC__
	size_t chunk = r->anc.evt_chunk, mmap_at = chunk <= MMAP_MIN ? MMAP_MIN + (64 << 10) : MMAP_MIN;
	mallopt(M_MMAP_THRESHOLD, (int)mmap_at);
	mallopt(M_TRIM_THRESHOLD, on ? (int)(4 * mmap_at) : (int)TRIM_DEFAULT);
	if (!on)
		malloc_trim(0);
#else
	(void)r;
	(void)on;
#endif
}

int
otf2r_read_blocks(struct otf2r *r, OTF2_Reader *rd, const struct otf2_read_opts *o, uint32_t lo,
		  uint32_t hi, struct build ***blocks, uint32_t *n_blocks, struct otf2r_counts *c)
{
	struct evread v = { .r = r, .rd = rd, .o = o };
	int rc = 0;
	if (pthread_mutex_init(&v.claim_mu, NULL))
		return err_set(r->e, ERR_NOMEM, "%s: out of memory", r->anchor);
	*blocks = NULL;
	*n_blocks = 0;
	OTF2_ErrorCode st = OTF2_Reader_OpenEvtFiles(rd);
	if (st != OTF2_SUCCESS)
		return otf2r_fail(r, r->e, ERR_FORMAT, st, r->anchor, "cannot open event files");
	v.own = otf2r_own_decoding();
	v.cb = otf2r_event_callbacks();
	if (!v.cb || make_blocks(&v, lo, hi)) {
		rc = err_set(r->e, ERR_NOMEM, "%s: out of memory", r->anchor);
		goto out;
	}
	uint32_t nw = par_workers();
	malloc_reading(r, 1);
	par_run(nw < v.n_blocks ? nw : v.n_blocks, read_worker, &v);
	malloc_reading(r, 0);
	for (uint32_t i = 0; i < v.n_blocks && !rc; i++)
		if (v.blocks[i].rc && v.blocks[i].rc != ERR_CANCELLED)
			rc = err_set(r->e, v.blocks[i].rc, "%s", v.blocks[i].err.msg);
	for (uint32_t i = 0; i < v.n_blocks && !rc; i++)
		if (v.blocks[i].rc)
			rc = err_set(r->e, v.blocks[i].rc, "%s", v.blocks[i].err.msg);
	/* the lanes' frames (a share's: those of its lanes, gathered by
	 * trace_lanes_gather) */
	if (!rc && (rc = otf2r_lanes_join(r, v.blocks, v.n_blocks)))
		rc = err_set(r->e, rc, "%s: the threads' and streams' regions: %s", r->anchor,
			     err_name(rc));
	if (rc)
		goto out;
	/* the front block, then the others' in location order */
	if (!(*blocks = malloc((v.n_blocks + 1) * sizeof **blocks))) {
		rc = err_set(r->e, ERR_NOMEM, "%s: out of memory", r->anchor);
		goto out;
	}
	if (v.front_b)
		(*blocks)[(*n_blocks)++] = v.front_b;
	v.front_b = NULL;
	for (uint32_t i = 0; i < v.n_blocks; i++)
		if (v.blocks[i].b) {
			(*blocks)[(*n_blocks)++] = v.blocks[i].b;
			v.blocks[i].b = NULL;
		}
	sum_counts(&v, c);
out:
	if (v.blocks)
		otf2r_lanes_drop(v.blocks, v.n_blocks);
	build_destroy(v.front_b);
	if (v.blocks)
		for (uint32_t i = 0; i < v.n_blocks; i++)
			build_destroy(v.blocks[i].b);
	free(v.blocks);
	pthread_mutex_destroy(&v.claim_mu);
	if (v.cb)
		OTF2_EvtReaderCallbacks_Delete(v.cb);
	OTF2_Reader_CloseEvtFiles(rd);
	return rc;
}

int
otf2r_read_events(struct otf2r *r, OTF2_Reader *rd, const struct otf2_read_opts *o)
{
	struct otf2r_counts c = { .t_begin = UINT64_MAX };
	struct build **blk;
	uint32_t n;
	int rc = otf2r_read_blocks(r, rd, o, 0, (uint32_t)r->t->n_locations, &blk, &n, &c);
	if (rc)
		return rc;
	rc = build_join(r->b, blk, n);
	free(blk);
	if (rc)
		return otf2r_build_error(r->e, rc, r->anchor, "building the model");
	otf2r_finish_counts(r, &c);
	return 0;
}
