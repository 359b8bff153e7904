/* otf2_events.c — reading events, on two threads.
 *
 * Decoding OTF2 and building the model cost about the same, so they run
 * as a pipeline: a reader thread turns each record into a small fixed
 * struct (struct evrec) and hands full chunks of them to the main thread,
 * which applies them to the builder in order. Only the reader thread calls
 * OTF2; only the main thread touches the model. Memory in flight is a few
 * chunks. If no thread can be started, the same code runs the chunks
 * inline.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/file.h"
#include "otf2_impl.h"
#include "otf2_read.h"

enum evtype {
	EV_ENTER, EV_LEAVE, EV_SEND, EV_ISEND_COMPLETE, EV_IRECV_REQUEST, EV_RECV,
	EV_COLL_BEGIN, EV_COLL_END, EV_MEASURE, EV_TL_BEGIN, EV_TL_END,
};

struct evrec {
	uint64_t time;
	uint64_t x, y;       /* bytes, request, or sizes */
	uint32_t a, b, c;    /* region, peer, comm, tag, type, root, timeline */
	uint8_t type;
};

#define CHUNK_RECS 8192
#define N_CHUNKS 8
/* events between progress reports (and cancel checks) */
#define REPORT_EVENTS (1u << 20)

struct chunk {
	uint32_t n;
	struct evrec rec[CHUNK_RECS];
};

struct pipeline {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct chunk *chunks;
	uint32_t full[N_CHUNKS], fhead, fcount;   /* FIFO of filled chunks */
	uint32_t spare[N_CHUNKS], nspare;         /* stack of empty chunks */
	int threaded;
	int done;          /* the reader has finished (or failed) */
	atomic_int abort;  /* the builder failed: stop reading (read unlocked) */
	struct chunk *cur; /* the reader's chunk being filled */
	struct otf2r *r;   /* for inline application */
	int build_rc;
	/* reader side */
	OTF2_Reader *rd;
	const struct otf2_read_opts *opts;
	int read_rc;
};

/* ---- the consumer: records -> builder ---- */

static int
apply(struct otf2r *r, const struct evrec *e)
{
	struct build *b = r->b;
	switch (e->type) {
	case EV_ENTER: return build_enter(b, e->time, e->a);
	case EV_LEAVE: return build_leave(b, e->time, e->a);
	case EV_SEND: return build_send(b, e->time, e->b, e->a, e->c, e->x, e->y);
	case EV_ISEND_COMPLETE: return build_isend_complete(b, e->time, e->y);
	case EV_IRECV_REQUEST: return build_irecv_request(b, e->time, e->y);
	case EV_RECV: return build_recv(b, e->time, e->b, e->a, e->c, e->x, e->y);
	case EV_COLL_BEGIN: return build_coll_begin(b, e->time);
	case EV_COLL_END:
		return build_coll_end(b, e->time, (uint8_t)e->c, e->a, e->b, e->x, e->y);
	case EV_MEASURE: return build_measurement(b, e->time, (int)e->a);
	case EV_TL_BEGIN: return build_timeline_begin(b, e->a);
	case EV_TL_END:
		r->t->timelines[e->a].events = e->x;
		return build_timeline_end(b);
	}
	return 0;
}

static int
apply_chunk(struct otf2r *r, const struct chunk *c)
{
	for (uint32_t i = 0; i < c->n; i++) {
		int rc = apply(r, &c->rec[i]);
		if (rc)
			return rc;
	}
	return 0;
}

/* ---- the hand-over ---- */

/* Reader: queue the filled chunk and take an empty one. Returns non-zero
 * when reading must stop (the builder failed). */
static int
hand_over(struct pipeline *p)
{
	if (!p->threaded) {
		int rc = apply_chunk(p->r, p->cur);
		p->cur->n = 0;
		if (rc) {
			p->build_rc = rc;
			p->abort = 1;
		}
		return p->abort;
	}
	pthread_mutex_lock(&p->mu);
	p->full[(p->fhead + p->fcount++) % N_CHUNKS] = (uint32_t)(p->cur - p->chunks);
	pthread_cond_broadcast(&p->cv);
	while (!p->nspare && !p->abort)
		pthread_cond_wait(&p->cv, &p->mu);
	p->cur = p->abort ? p->cur : &p->chunks[p->spare[--p->nspare]];
	int stop = p->abort;
	pthread_mutex_unlock(&p->mu);
	if (!stop)
		p->cur->n = 0;
	return stop;
}

static int
emit(struct otf2r *r, const struct evrec *e)
{
	struct pipeline *p = r->pipe;
	p->cur->rec[p->cur->n++] = *e;
	return p->cur->n == CHUNK_RECS ? hand_over(p) : 0;
}

/* ---- the producer: OTF2 callbacks -> records ---- */

#define EVT_ARGS OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *ud, \
	OTF2_AttributeList *attrs
#define EVT_UNUSED() ((void)loc, (void)pos, (void)attrs)

static OTF2_CallbackCode
emit_rec(struct otf2r *r, const struct evrec *e)
{
	return emit(r, e) ? OTF2_CALLBACK_INTERRUPT : OTF2_CALLBACK_SUCCESS;
}

/* Counts a record of kind rec and returns its time relative to the
 * trace's offset, widening the trace's time span. */
static uint64_t
stamp(struct otf2r *r, enum trace_rec rec, OTF2_TimeStamp time)
{
	r->records[rec]++;
	uint64_t rel = time >= r->t->info.global_offset ? time - r->t->info.global_offset : 0;
	if (rel < r->t_begin)
		r->t_begin = rel;
	if (rel > r->t_end)
		r->t_end = rel;
	return rel;
}

/* MPI records on a location that is not a rank cannot be placed: they
 * are counted and dropped. Returns 1 when the record is to be kept. */
static int
on_rank(struct otf2r *r)
{
	if (r->cur_tl != TRACE_NONE)
		return 1;
	r->nonrank_mpi++;
	return 0;
}

static uint32_t
comm_id(const struct otf2r *r, OTF2_CommRef c)
{
	return otf2r_refs_get(&r->comm_of, c);
}

/* Request ids are opaque; UINT64_MAX is kept for "blocking". */
static uint64_t
req(uint64_t request)
{
	return request == UINT64_MAX ? request - 1 : request;
}

/* Enter and Leave. Regions not defined are counted as bad references. */
static OTF2_CallbackCode
region_event(struct otf2r *r, enum trace_rec rec, uint8_t type, OTF2_TimeStamp time,
	     OTF2_RegionRef region)
{
	uint64_t rel = stamp(r, rec, time);
	uint32_t id = otf2r_refs_get(&r->region_of, region);
	r->bad_refs += id == TRACE_NONE;
	if (r->cur_tl == TRACE_NONE || id == TRACE_NONE)
		return OTF2_CALLBACK_SUCCESS;
	return emit_rec(r, &(struct evrec){ .type = type, .time = rel, .a = id });
}

/* An MPI record (everything but Enter, Leave and MeasurementOnOff):
 * counted, placed in time, and emitted when the location is a rank. e
 * holds the record's fields; its time is filled in here. */
static OTF2_CallbackCode
mpi_event(struct otf2r *r, enum trace_rec rec, OTF2_TimeStamp time, struct evrec e)
{
	e.time = stamp(r, rec, time);
	return on_rank(r) ? emit_rec(r, &e) : OTF2_CALLBACK_SUCCESS;
}

/* Send, Isend, Recv, Irecv (request UINT64_MAX for the blocking ones). */
static OTF2_CallbackCode
p2p_event(struct otf2r *r, enum trace_rec rec, uint8_t type, OTF2_TimeStamp time, uint32_t peer,
	  OTF2_CommRef comm, uint32_t tag, uint64_t len, uint64_t request)
{
	return mpi_event(r, rec, time, (struct evrec){ .type = type, .a = comm_id(r, comm), .b = peer,
						       .c = tag, .x = len, .y = request });
}

static OTF2_CallbackCode
evt_enter(EVT_ARGS, OTF2_RegionRef region)
{
	EVT_UNUSED();
	return region_event(ud, REC_ENTER, EV_ENTER, time, region);
}

static OTF2_CallbackCode
evt_leave(EVT_ARGS, OTF2_RegionRef region)
{
	EVT_UNUSED();
	return region_event(ud, REC_LEAVE, EV_LEAVE, time, region);
}

static OTF2_CallbackCode
evt_send(EVT_ARGS, uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t len)
{
	EVT_UNUSED();
	return p2p_event(ud, REC_MPI_SEND, EV_SEND, time, receiver, comm, tag, len, UINT64_MAX);
}

static OTF2_CallbackCode
evt_isend(EVT_ARGS, uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t len,
	  uint64_t request)
{
	EVT_UNUSED();
	return p2p_event(ud, REC_MPI_ISEND, EV_SEND, time, receiver, comm, tag, len, req(request));
}

static OTF2_CallbackCode
evt_recv(EVT_ARGS, uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t len)
{
	EVT_UNUSED();
	return p2p_event(ud, REC_MPI_RECV, EV_RECV, time, sender, comm, tag, len, UINT64_MAX);
}

static OTF2_CallbackCode
evt_irecv(EVT_ARGS, uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t len,
	  uint64_t request)
{
	EVT_UNUSED();
	return p2p_event(ud, REC_MPI_IRECV, EV_RECV, time, sender, comm, tag, len, req(request));
}

static OTF2_CallbackCode
evt_isend_complete(EVT_ARGS, uint64_t request)
{
	EVT_UNUSED();
	return mpi_event(ud, REC_MPI_ISEND_COMPLETE, time,
			 (struct evrec){ .type = EV_ISEND_COMPLETE, .y = req(request) });
}

static OTF2_CallbackCode
evt_irecv_request(EVT_ARGS, uint64_t request)
{
	EVT_UNUSED();
	return mpi_event(ud, REC_MPI_IRECV_REQUEST, time,
			 (struct evrec){ .type = EV_IRECV_REQUEST, .y = req(request) });
}

static OTF2_CallbackCode
evt_coll_begin(EVT_ARGS)
{
	EVT_UNUSED();
	return mpi_event(ud, REC_MPI_COLLECTIVE_BEGIN, time, (struct evrec){ .type = EV_COLL_BEGIN });
}

static OTF2_CallbackCode
evt_coll_end(EVT_ARGS, OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root,
	     uint64_t sent, uint64_t received)
{
	EVT_UNUSED();
	struct otf2r *r = ud;
	return mpi_event(r, REC_MPI_COLLECTIVE_END, time,
			 (struct evrec){ .type = EV_COLL_END, .a = comm_id(r, comm), .b = root,
					 .c = op < COLL_TYPE_COUNT ? op : COLL_OTHER, .x = sent, .y = received });
}

static OTF2_CallbackCode
evt_measurement(EVT_ARGS, OTF2_MeasurementMode mode)
{
	EVT_UNUSED();
	struct otf2r *r = ud;
	uint64_t rel = stamp(r, REC_MEASUREMENT_ON_OFF, time);
	if (r->cur_tl == TRACE_NONE)
		return OTF2_CALLBACK_SUCCESS;
	return emit_rec(r, &(struct evrec){ .type = EV_MEASURE, .time = rel, .a = mode == OTF2_MEASUREMENT_ON });
}

static OTF2_EvtReaderCallbacks *
event_callbacks(void)
{
	OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
	if (!cb)
		return NULL;
	OTF2_EvtReaderCallbacks_SetEnterCallback(cb, evt_enter);
	OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, evt_leave);
	OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, evt_send);
	OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, evt_isend);
	OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, evt_isend_complete);
	OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, evt_irecv_request);
	OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, evt_irecv);
	OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, evt_recv);
	OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, evt_coll_begin);
	OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, evt_coll_end);
	OTF2_EvtReaderCallbacks_SetMeasurementOnOffCallback(cb, evt_measurement);
	return cb;
}

/* Reads one location; returns 0 or ERR_* (message in r->prod_err). */
static int
read_location(struct otf2r *r, OTF2_Reader *rd, OTF2_EvtReaderCallbacks *cb, uint32_t li,
	      const struct otf2_read_opts *o, uint64_t *done, uint64_t total)
{
	struct trace_location *L = &r->t->locations[li];
	struct pipeline *p = r->pipe;
	char path[sizeof r->base + 32];
	otf2r_local_path(r, L->id, "evt", path, sizeof path);
	/* libotf2 opens the file itself: it must be a regular file (a FIFO
	 * would block), and may be absent only when no events are declared */
	struct stat st;
	int absent = stat(path, &st) != 0;
	if (absent && (errno != ENOENT || L->events_declared))
		return err_set(r->prod_err, ERR_FORMAT, "%s: %s (the definitions declare %llu events)",
			       path, strerror(errno), (unsigned long long)L->events_declared);
	if (!absent && !S_ISREG(st.st_mode))
		return err_set(r->prod_err, ERR_IO, "%s: is %s, not a regular file", path,
			       file_kind(st.st_mode));
	OTF2_EvtReader *er = absent ? NULL : OTF2_Reader_GetEvtReader(rd, L->id);
	if (!absent && !er)
		return otf2r_fail(r, r->prod_err, ERR_FORMAT, OTF2_SUCCESS, path, "cannot read the events");
	if (er)
		OTF2_Reader_RegisterEvtCallbacks(rd, er, cb, r);
	r->cur_tl = L->timeline;
	int rc = 0;
	if (r->cur_tl != TRACE_NONE && emit(r, &(struct evrec){ .type = EV_TL_BEGIN, .a = r->cur_tl }))
		rc = ERR_CANCELLED;       /* the builder failed; its error wins */
	uint64_t events = 0;
	while (rc == 0 && er) {
		uint64_t got = 0;
		OTF2_ErrorCode st2 = OTF2_Reader_ReadLocalEvents(rd, er, REPORT_EVENTS, &got);
		events += got;
		*done += got;
		if (p->abort) {
			rc = ERR_CANCELLED;
			break;
		}
		if (st2 != OTF2_SUCCESS) {
			char what[96];
			snprintf(what, sizeof what, "truncated or corrupt events of location %llu after %llu events",
				 (unsigned long long)L->id, (unsigned long long)events);
			rc = otf2r_fail(r, r->prod_err, ERR_FORMAT, st2, path, what);
			break;
		}
		if (o && o->progress && o->progress(o->ud, "reading", *done, total)) {
			rc = err_set(r->prod_err, ERR_CANCELLED, "%s: cancelled", r->anchor);
			break;
		}
		if (got < REPORT_EVENTS)
			break;
	}
	L->events = events;
	if (rc == 0 && r->cur_tl != TRACE_NONE &&
	    emit(r, &(struct evrec){ .type = EV_TL_END, .a = r->cur_tl, .x = events }))
		rc = ERR_CANCELLED;
	if (er)
		OTF2_Reader_CloseEvtReader(rd, er);
	return rc;
}

static int
produce(struct otf2r *r, OTF2_Reader *rd, const struct otf2_read_opts *o)
{
	struct trace *t = r->t;
	uint64_t total = 0, done = 0;
	for (size_t i = 0; i < t->n_locations; i++)
		total += t->locations[i].events_declared;
	OTF2_ErrorCode st = OTF2_Reader_OpenEvtFiles(rd);
	if (st != OTF2_SUCCESS)
		return otf2r_fail(r, r->prod_err, ERR_FORMAT, st, r->anchor, "cannot open event files");
	OTF2_EvtReaderCallbacks *cb = event_callbacks();
	int rc = cb ? 0 : err_set(r->prod_err, ERR_NOMEM, "%s: out of memory", r->anchor);
	for (uint32_t i = 0; i < t->n_locations && rc == 0; i++)
		rc = read_location(r, rd, cb, i, o, &done, total);
	if (rc == 0 && r->pipe->cur->n)
		rc = hand_over(r->pipe) ? ERR_CANCELLED : 0;
	OTF2_EvtReaderCallbacks_Delete(cb);
	OTF2_Reader_CloseEvtFiles(rd);
	return rc;
}

static void *
reader_main(void *arg)
{
	struct pipeline *p = arg;
	p->read_rc = produce(p->r, p->rd, p->opts);
	pthread_mutex_lock(&p->mu);
	p->done = 1;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* Main thread: apply chunks as they come, until the reader is done. */
static int
consume(struct pipeline *p)
{
	int rc = 0;
	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (!p->fcount && !p->done)
			pthread_cond_wait(&p->cv, &p->mu);
		if (!p->fcount)
			break;
		uint32_t c = p->full[p->fhead];
		p->fhead = (p->fhead + 1) % N_CHUNKS;
		p->fcount--;
		pthread_mutex_unlock(&p->mu);
		if (rc == 0)
			rc = apply_chunk(p->r, &p->chunks[c]);
		pthread_mutex_lock(&p->mu);
		p->spare[p->nspare++] = c;
		if (rc)
			p->abort = 1;
		pthread_cond_broadcast(&p->cv);
	}
	pthread_mutex_unlock(&p->mu);
	return rc;
}

int
otf2r_read_events(struct otf2r *r, OTF2_Reader *rd, const struct otf2_read_opts *o)
{
	struct trace *t = r->t;
	struct pipeline p = { .r = r, .rd = rd, .opts = o };
	p.chunks = malloc(N_CHUNKS * sizeof *p.chunks);
	if (!p.chunks)
		return err_set(r->e, ERR_NOMEM, "%s: out of memory", r->anchor);
	for (uint32_t i = 1; i < N_CHUNKS; i++)
		p.spare[p.nspare++] = i;
	p.cur = &p.chunks[0];
	p.cur->n = 0;
	r->pipe = &p;
	r->t_begin = UINT64_MAX;
	int rc = 0;
	pthread_t th;
	if (pthread_mutex_init(&p.mu, NULL) == 0) {
		if (pthread_cond_init(&p.cv, NULL) == 0) {
			/* set before the thread starts: the reader reads it */
			p.threaded = 1;
			if (pthread_create(&th, NULL, reader_main, &p) != 0)
				p.threaded = 0;
			if (p.threaded) {
				rc = consume(&p);
				pthread_join(th, NULL);
			}
			pthread_cond_destroy(&p.cv);
		}
		pthread_mutex_destroy(&p.mu);
	}
	if (!p.threaded) {
		p.read_rc = produce(r, rd, o);
		rc = p.build_rc;
	}
	free(p.chunks);
	r->pipe = NULL;

	/* the reader's error is the cause; a builder error otherwise */
	if (p.read_rc && p.read_rc != ERR_CANCELLED) {
		err_set(r->e, p.read_rc, "%s", r->prod_err->msg);
		return p.read_rc;
	}
	if (rc)
		return err_set(r->e, rc, "%s: %s while building the model", r->anchor, err_name(rc));
	if (p.read_rc)
		return err_set(r->e, p.read_rc, "%s", r->prod_err->msg);

	memcpy(t->info.records, r->records, sizeof r->records);
	t->info.warnings[WARN_NONRANK_MPI] += r->nonrank_mpi;
	t->info.warnings[WARN_BAD_REF] += r->bad_refs;
	t->info.t_begin = r->t_begin == UINT64_MAX ? 0 : r->t_begin;
	t->info.t_end = r->t_end;
	t->info.events = 0;
	for (size_t i = 0; i < t->n_locations; i++) {
		t->info.events += t->locations[i].events;
		if (t->locations[i].events != t->locations[i].events_declared)
			t->info.warnings[WARN_EVENT_COUNT_MISMATCH]++;
	}
	/* Records without a callback (metrics, RMA, threads, OpenMP, CUDA ...)
	 * are skipped by OTF2 but still counted in the events read. */
	uint64_t known = 0;
	for (int k = 0; k < REC_OTHER; k++)
		known += t->info.records[k];
	t->info.records[REC_OTHER] = t->info.events - known;
	return 0;
}
