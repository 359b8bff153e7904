/* otf2_records.c — each event record into the builder (model/build.h),
 * from skein's own decoding (otf2_evt.h) and from libotf2's callbacks
 * alike: the one-sided and non-blocking collective callbacks fill the
 * record skein's decoding fills and hand it to the same function, so
 * that both read a record the same way (tests/test_evt.c compares the
 * records, tests/threads.sh the models). */
#include "otf2_impl.h"

/* ---- records -> builder ---- */

/* Each record kind has a function of its own, called by libotf2's
 * callbacks and by skein's own decoding alike; each returns 0 or the
 * builder's error (also kept in k->rc, which stops the reading). */

static int
built(struct evblock *k, int rc)
{
	if (rc)
		k->rc = rc;
	return rc;
}

/* Counts a record of kind rec and returns its time relative to the
 * trace's offset, widening the block's time span. */
static uint64_t
stamp(struct evblock *k, enum trace_rec rec, uint64_t time)
{
	k->records[rec]++;
	uint64_t off = k->r->t->info.global_offset;
	uint64_t rel = time >= off ? time - off : 0;
	k->before_offset += time < off;
	if (rel < k->t_begin)
		k->t_begin = rel;
	if (rel > k->t_end)
		k->t_end = rel;
	return rel;
}

/* MPI records on a location that is not a rank cannot be placed: they
 * are counted and dropped. Returns 1 when the record is to be kept. */
static int
on_rank(struct evblock *k)
{
	if (k->cur_tl != TRACE_NONE)
		return 1;
	k->nonrank_mpi++;
	return 0;
}

/* Request ids are opaque; UINT64_MAX is kept for "blocking". */
static uint64_t
req(uint64_t request)
{
	return request == UINT64_MAX ? request - 1 : request;
}

/* Enter and Leave (an Enter tagged by its attributes with its OpenMP
 * team's id or its stream + 1, or 0; else by the team or task record
 * before it). Regions not defined are counted as bad references. */
static int
region_event(struct evblock *k, enum trace_rec rec, uint64_t time, uint64_t region, uint64_t tag)
{
	uint64_t rel = stamp(k, rec, time);
	uint32_t id = otf2r_refs_get(&k->r->region_of, region);
	k->bad_refs += id == TRACE_NONE;
	if (rec == REC_ENTER && !tag)
		tag = k->next_tag;
	k->next_tag = 0;
	k->last_region = TRACE_NONE;
	if (rec == REC_ENTER && id != TRACE_NONE && (k->cur_lane != TRACE_NONE || k->cur_tl != TRACE_NONE) &&
	    (tag || k->r->t->n_lanes)) {
		/* the Enter's time as its frame will have it, for a task
		 * created in it later (records between may move the clock;
		 * tasks matter where a process has threads) */
		k->last_enter = otf2r_frame_time(k, rel);
		k->last_region = id;
		if (tag && otf2r_team_tag(k, k->last_enter, id, tag - 1))
			return k->rc = ERR_NOMEM;
	}
	if (k->cur_lane != TRACE_NONE && id != TRACE_NONE)
		return otf2r_lane_region(k, rec == REC_ENTER, rel, id);
	if (k->cur_tl == TRACE_NONE || id == TRACE_NONE)
		return 0;
	return built(k, rec == REC_ENTER ? build_enter(k->b, rel, id) : build_leave(k->b, rel, id));
}

/* Send, Isend, Recv, Irecv (request UINT64_MAX for the blocking ones). */
static int
p2p_event(struct evblock *k, enum trace_rec rec, uint64_t time, uint32_t peer, uint64_t comm,
	  uint32_t tag, uint64_t len, uint64_t request)
{
	uint64_t rel = stamp(k, rec, time);
	if (!on_rank(k))
		return 0;
	uint32_t c = otf2r_refs_get(&k->r->comm_of, comm);
	int send = rec == REC_MPI_SEND || rec == REC_MPI_ISEND;
	return built(k, send ? build_send(k->b, rel, peer, c, tag, len, request)
			     : build_recv(k->b, rel, peer, c, tag, len, request));
}

static int
request_event(struct evblock *k, enum trace_rec rec, uint64_t time, uint64_t request)
{
	uint64_t rel = stamp(k, rec, time);
	if (!on_rank(k))
		return 0;
	return built(k, rec == REC_MPI_ISEND_COMPLETE ? build_isend_complete(k->b, rel, req(request))
			: build_irecv_request(k->b, rel, req(request)));
}

static int
coll_begin_event(struct evblock *k, uint64_t time)
{
	uint64_t rel = stamp(k, REC_MPI_COLLECTIVE_BEGIN, time);
	return on_rank(k) ? built(k, build_coll_begin(k->b, rel)) : 0;
}

static int
coll_end_event(struct evblock *k, uint64_t time, unsigned op, uint64_t comm, uint32_t root,
	       uint64_t sent, uint64_t received)
{
	uint64_t rel = stamp(k, REC_MPI_COLLECTIVE_END, time);
	if (!on_rank(k))
		return 0;
	uint8_t type = op < COLL_TYPE_COUNT ? (uint8_t)op : COLL_OTHER;
	return built(k, build_coll_end(k->b, rel, type, otf2r_refs_get(&k->r->comm_of, comm), root,
				       sent, received));
}

static int
measurement_event(struct evblock *k, uint64_t time, int on)
{
	uint64_t rel = stamp(k, REC_MEASUREMENT_ON_OFF, time);
	if (k->cur_tl == TRACE_NONE)
		return 0;
	return built(k, build_measurement(k->b, rel, on));
}

/* Non-blocking collectives: requested, completed. */
static int
nbc_event(struct evblock *k, const struct otf2_evt_rec *x)
{
	uint64_t rel = stamp(k, x->kind, x->time);
	if (!on_rank(k))
		return 0;
	if (x->kind == REC_NBC_REQUEST)
		return built(k, build_nbc_request(k->b, rel, req(x->request)));
	uint8_t type = x->tag < COLL_TYPE_COUNT ? (uint8_t)x->tag : COLL_OTHER;
	return built(k, build_nbc_complete(k->b, rel, type, otf2r_refs_get(&k->r->comm_of, x->comm),
					   x->ref, x->len, x->aux, req(x->request)));
}

/* One-sided records. On a location that is not a rank (Score-P records a
 * device copy on the device's stream) they are counted only. */
static int
rma_event(struct evblock *k, const struct otf2_evt_rec *x)
{
	uint64_t rel = stamp(k, x->kind, x->time);
	if (k->cur_lane != TRACE_NONE)
		return otf2r_lane_rma(k, x->kind, rel, x->len);
	if (k->cur_tl == TRACE_NONE)
		return 0;
	struct build *b = k->b;
	uint32_t win = otf2r_refs_get(&k->r->win_of, x->comm);
	switch (x->kind) {
	case REC_RMA_COLLECTIVE_END: {
		uint8_t type = x->tag < COLL_TYPE_COUNT ? (uint8_t)x->tag : COLL_OTHER;
		return built(k, build_rma_coll_end(b, rel, type, win, x->ref, x->len, x->aux));
	}
	case REC_RMA_PUT:
		return built(k, build_rma_op(b, rel, RMA_PUT, 0, win, x->ref, x->len, 0, x->request));
	case REC_RMA_GET:
		return built(k, build_rma_op(b, rel, RMA_GET, 0, win, x->ref, 0, x->len, x->request));
	case REC_RMA_ATOMIC:
		return built(k, build_rma_op(b, rel, RMA_ATOMIC, (uint8_t)x->tag, win, x->ref, x->len,
					     x->aux, x->request));
	case REC_RMA_OP_COMPLETE_BLOCKING:
		return built(k, build_rma_complete(b, rel, RMA_DONE_BLOCKING, win, x->request));
	case REC_RMA_OP_COMPLETE_NON_BLOCKING:
		return built(k, build_rma_complete(b, rel, RMA_DONE_LOCAL, win, x->request));
	case REC_RMA_OP_COMPLETE_REMOTE:
		return built(k, build_rma_complete(b, rel, RMA_DONE_REMOTE, win, x->request));
	case REC_RMA_REQUEST_LOCK: case REC_RMA_ACQUIRE_LOCK: case REC_RMA_TRY_LOCK:
		return built(k, build_rma_lock(b, rel, win, x->ref, x->tag == OTF2_LOCK_SHARED));
	case REC_RMA_RELEASE_LOCK:
		return built(k, build_rma_release(b, rel, win, x->ref));
	case REC_RMA_SYNC: case REC_RMA_GROUP_SYNC: case REC_RMA_WAIT_CHANGE: case REC_RMA_OP_TEST:
		return built(k, build_rma_sync(b, rel));
	case REC_RMA_COLLECTIVE_BEGIN:
		return built(k, build_coll_begin(b, rel));
	default:          /* a window created or destroyed: inside its collective */
		return 0;
	}
}

/* A thread's lock taken or let go (otf2_lanes.c keeps the holds), on a
 * rank's location or a lane's. */
static int
lock_event(struct evblock *k, const struct otf2_evt_rec *x)
{
	uint64_t rel = stamp(k, x->kind, x->time);
	if (k->cur_tl == TRACE_NONE && k->cur_lane == TRACE_NONE)
		return 0;
	return otf2r_thread_lock(k, x->kind == REC_THREAD_ACQUIRE_LOCK, rel, (uint8_t)x->tag, x->ref,
				 (uint32_t)x->len);
}

/* A team begun, a task created or switched to (otf2_teams.c). */
static int
team_event(struct evblock *k, const struct otf2_evt_rec *x)
{
	stamp(k, x->kind, x->time);
	if (x->kind == REC_THREAD_TEAM_BEGIN)
		return otf2r_team_begin(k, x->comm);
	return otf2r_task_record(k, x->kind == REC_THREAD_TASK_CREATE, x->request);
}

/* A record of skein's own decoding (and of libotf2's, for the records
 * below whose callbacks fill one). */
static int
own_event(struct evblock *k, const struct otf2_evt_rec *x)
{
	if (x->kind >= REC_RMA_WIN_CREATE && x->kind <= REC_RMA_OP_COMPLETE_REMOTE)
		return rma_event(k, x);
	switch (x->kind) {
	case REC_ENTER: case REC_LEAVE:
		return region_event(k, x->kind, x->time, x->ref, x->kind == REC_ENTER ? x->aux : 0);
	case REC_MPI_SEND: case REC_MPI_RECV:
		return p2p_event(k, x->kind, x->time, x->ref, x->comm, x->tag, x->len, UINT64_MAX);
	case REC_MPI_ISEND: case REC_MPI_IRECV:
		return p2p_event(k, x->kind, x->time, x->ref, x->comm, x->tag, x->len, req(x->request));
	case REC_MPI_ISEND_COMPLETE: case REC_MPI_IRECV_REQUEST:
		return request_event(k, x->kind, x->time, x->request);
	case REC_MPI_COLLECTIVE_BEGIN:
		return coll_begin_event(k, x->time);
	case REC_MPI_COLLECTIVE_END:
		return coll_end_event(k, x->time, x->tag, x->comm, x->ref, x->len, x->request);
	case REC_MEASUREMENT_ON_OFF:
		return measurement_event(k, x->time, x->ref == OTF2_MEASUREMENT_ON);
	case REC_NBC_REQUEST: case REC_NBC_COMPLETE:
		return nbc_event(k, x);
	case REC_THREAD_ACQUIRE_LOCK: case REC_THREAD_RELEASE_LOCK:
		return lock_event(k, x);
	case REC_THREAD_TEAM_BEGIN: case REC_THREAD_TASK_CREATE: case REC_THREAD_TASK_SWITCH:
		return team_event(k, x);
	}
	return 0;
}

void
otf2r_own_events(struct evblock *k, const struct otf2_evt_rec *x, uint32_t n)
{
	for (uint32_t i = 0; i < n && !k->rc; i++)
		own_event(k, &x[i]);
}

/* ---- libotf2's callbacks ---- */

#define EVT_ARGS OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *ud, \
	OTF2_AttributeList *attrs
#define EVT_UNUSED() ((void)loc, (void)pos, (void)attrs)

static OTF2_CallbackCode
go_on(int rc)
{
	return rc ? OTF2_CALLBACK_INTERRUPT : OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
evt_enter(EVT_ARGS, OTF2_RegionRef region)
{
	(void)loc, (void)pos;
	struct evblock *k = ud;
	uint64_t v, tag = 0;
	OTF2_LocationRef s;
	if (k->r->team_attr && attrs &&
	    OTF2_AttributeList_GetUint64(attrs, k->r->team_attr - 1, &v) == OTF2_SUCCESS && v < UINT64_MAX)
		tag = v + 1;
	else if (k->r->stream_attr && attrs &&
		 OTF2_AttributeList_GetLocationRef(attrs, k->r->stream_attr - 1, &s) == OTF2_SUCCESS &&
		 s < UINT64_MAX)
		tag = s + 1;
	return go_on(region_event(ud, REC_ENTER, time, region, tag));
}

static OTF2_CallbackCode
evt_leave(EVT_ARGS, OTF2_RegionRef region)
{
	EVT_UNUSED();
	return go_on(region_event(ud, REC_LEAVE, time, region, 0));
}

static OTF2_CallbackCode
evt_send(EVT_ARGS, uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t len)
{
	EVT_UNUSED();
	return go_on(p2p_event(ud, REC_MPI_SEND, time, receiver, comm, tag, len, UINT64_MAX));
}

static OTF2_CallbackCode
evt_isend(EVT_ARGS, uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t len,
	  uint64_t request)
{
	EVT_UNUSED();
	return go_on(p2p_event(ud, REC_MPI_ISEND, time, receiver, comm, tag, len, req(request)));
}

static OTF2_CallbackCode
evt_recv(EVT_ARGS, uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t len)
{
	EVT_UNUSED();
	return go_on(p2p_event(ud, REC_MPI_RECV, time, sender, comm, tag, len, UINT64_MAX));
}

static OTF2_CallbackCode
evt_irecv(EVT_ARGS, uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t len,
	  uint64_t request)
{
	EVT_UNUSED();
	return go_on(p2p_event(ud, REC_MPI_IRECV, time, sender, comm, tag, len, req(request)));
}

static OTF2_CallbackCode
evt_isend_complete(EVT_ARGS, uint64_t request)
{
	EVT_UNUSED();
	return go_on(request_event(ud, REC_MPI_ISEND_COMPLETE, time, request));
}

static OTF2_CallbackCode
evt_irecv_request(EVT_ARGS, uint64_t request)
{
	EVT_UNUSED();
	return go_on(request_event(ud, REC_MPI_IRECV_REQUEST, time, request));
}

static OTF2_CallbackCode
evt_coll_begin(EVT_ARGS)
{
	EVT_UNUSED();
	return go_on(coll_begin_event(ud, time));
}

static OTF2_CallbackCode
evt_coll_end(EVT_ARGS, OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root,
	     uint64_t sent, uint64_t received)
{
	EVT_UNUSED();
	return go_on(coll_end_event(ud, time, op, comm, root, sent, received));
}

static OTF2_CallbackCode
evt_measurement(EVT_ARGS, OTF2_MeasurementMode mode)
{
	EVT_UNUSED();
	return go_on(measurement_event(ud, time, mode == OTF2_MEASUREMENT_ON));
}

/* The one-sided and non-blocking collective records, filled as skein's
 * own decoding fills them (otf2_evt.h) and handed to own_event. */
#define OWN(...) go_on(own_event(ud, &(struct otf2_evt_rec){ .time = time, __VA_ARGS__ }))

static OTF2_CallbackCode
evt_rma_win_create(EVT_ARGS, OTF2_RmaWinRef win)
{
	EVT_UNUSED();
	return OWN(.kind = REC_RMA_WIN_CREATE, .comm = win);
}

static OTF2_CallbackCode
evt_rma_win_destroy(EVT_ARGS, OTF2_RmaWinRef win)
{
	EVT_UNUSED();
	return OWN(.kind = REC_RMA_WIN_DESTROY, .comm = win);
}

static OTF2_CallbackCode
evt_rma_coll_begin(EVT_ARGS)
{
	EVT_UNUSED();
	return OWN(.kind = REC_RMA_COLLECTIVE_BEGIN);
}

static OTF2_CallbackCode
evt_rma_coll_end(EVT_ARGS, OTF2_CollectiveOp op, OTF2_RmaSyncLevel level, OTF2_RmaWinRef win,
		 uint32_t root, uint64_t sent, uint64_t received)
{
	EVT_UNUSED();
	(void)level;
	return OWN(.kind = REC_RMA_COLLECTIVE_END, .tag = op, .comm = win, .ref = root, .len = sent,
		   .aux = received);
}

static OTF2_CallbackCode
evt_rma_group_sync(EVT_ARGS, OTF2_RmaSyncLevel level, OTF2_RmaWinRef win, OTF2_GroupRef group)
{
	EVT_UNUSED();
	(void)level;
	(void)group;
	return OWN(.kind = REC_RMA_GROUP_SYNC, .comm = win);
}

#define LOCK_CB(name, rec) \
	static OTF2_CallbackCode \
	name(EVT_ARGS, OTF2_RmaWinRef win, uint32_t remote, uint64_t id, OTF2_LockType type) \
	{ \
		EVT_UNUSED(); \
		(void)id; \
		return OWN(.kind = rec, .comm = win, .ref = remote, .tag = type); \
	}
LOCK_CB(evt_rma_request_lock, REC_RMA_REQUEST_LOCK)
LOCK_CB(evt_rma_acquire_lock, REC_RMA_ACQUIRE_LOCK)
LOCK_CB(evt_rma_try_lock, REC_RMA_TRY_LOCK)

static OTF2_CallbackCode
evt_rma_release_lock(EVT_ARGS, OTF2_RmaWinRef win, uint32_t remote, uint64_t id)
{
	EVT_UNUSED();
	(void)id;
	return OWN(.kind = REC_RMA_RELEASE_LOCK, .comm = win, .ref = remote);
}

static OTF2_CallbackCode
evt_rma_sync(EVT_ARGS, OTF2_RmaWinRef win, uint32_t remote, OTF2_RmaSyncType type)
{
	EVT_UNUSED();
	return OWN(.kind = REC_RMA_SYNC, .comm = win, .ref = remote, .tag = type);
}

static OTF2_CallbackCode
evt_rma_wait_change(EVT_ARGS, OTF2_RmaWinRef win)
{
	EVT_UNUSED();
	return OWN(.kind = REC_RMA_WAIT_CHANGE, .comm = win);
}

#define XFER_CB(name, rec) \
	static OTF2_CallbackCode \
	name(EVT_ARGS, OTF2_RmaWinRef win, uint32_t remote, uint64_t bytes, uint64_t matching) \
	{ \
		EVT_UNUSED(); \
		return OWN(.kind = rec, .comm = win, .ref = remote, .len = bytes, \
			   .request = matching); \
	}
XFER_CB(evt_rma_put, REC_RMA_PUT)
XFER_CB(evt_rma_get, REC_RMA_GET)

static OTF2_CallbackCode
evt_rma_atomic(EVT_ARGS, OTF2_RmaWinRef win, uint32_t remote, OTF2_RmaAtomicType type,
	       uint64_t sent, uint64_t received, uint64_t matching)
{
	EVT_UNUSED();
	return OWN(.kind = REC_RMA_ATOMIC, .comm = win, .ref = remote, .tag = type, .len = sent,
		   .aux = received, .request = matching);
}

#define DONE_CB(name, rec) \
	static OTF2_CallbackCode \
	name(EVT_ARGS, OTF2_RmaWinRef win, uint64_t matching) \
	{ \
		EVT_UNUSED(); \
		return OWN(.kind = rec, .comm = win, .request = matching); \
	}
DONE_CB(evt_rma_complete_blocking, REC_RMA_OP_COMPLETE_BLOCKING)
DONE_CB(evt_rma_complete_nonblocking, REC_RMA_OP_COMPLETE_NON_BLOCKING)
DONE_CB(evt_rma_op_test, REC_RMA_OP_TEST)
DONE_CB(evt_rma_complete_remote, REC_RMA_OP_COMPLETE_REMOTE)

static OTF2_CallbackCode
evt_nbc_request(EVT_ARGS, uint64_t request)
{
	EVT_UNUSED();
	return OWN(.kind = REC_NBC_REQUEST, .request = request);
}

static OTF2_CallbackCode
evt_nbc_complete(EVT_ARGS, OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root, uint64_t sent,
		 uint64_t received, uint64_t request)
{
	EVT_UNUSED();
	return OWN(.kind = REC_NBC_COMPLETE, .tag = op, .comm = comm, .ref = root, .len = sent,
		   .aux = received, .request = request);
}

#define THREAD_LOCK_CB(name, rec) \
	static OTF2_CallbackCode \
	name(EVT_ARGS, OTF2_Paradigm model, uint32_t lock, uint32_t order) \
	{ \
		EVT_UNUSED(); \
		return OWN(.kind = rec, .tag = model, .ref = lock, .len = order); \
	}
THREAD_LOCK_CB(evt_thread_acquire_lock, REC_THREAD_ACQUIRE_LOCK)
THREAD_LOCK_CB(evt_thread_release_lock, REC_THREAD_RELEASE_LOCK)

/* OTF2 1.x's OpenMP lock records: libotf2 hands them to these, not to
 * the thread callbacks above (skein's decoding reads them alike) */
#define OMP_LOCK_CB(name, rec) \
	static OTF2_CallbackCode \
	name(EVT_ARGS, uint32_t lock, uint32_t order) \
	{ \
		EVT_UNUSED(); \
		return OWN(.kind = rec, .tag = OTF2_PARADIGM_OPENMP, .ref = lock, .len = order); \
	}
OMP_LOCK_CB(evt_omp_acquire_lock, REC_THREAD_ACQUIRE_LOCK)
OMP_LOCK_CB(evt_omp_release_lock, REC_THREAD_RELEASE_LOCK)

static OTF2_CallbackCode
evt_team_begin(EVT_ARGS, OTF2_CommRef team)
{
	EVT_UNUSED();
	return OWN(.kind = REC_THREAD_TEAM_BEGIN, .comm = team);
}

#define TASK_CB(name, rec) \
	static OTF2_CallbackCode \
	name(EVT_ARGS, OTF2_CommRef team, uint32_t creator, uint32_t generation) \
	{ \
		EVT_UNUSED(); \
		return OWN(.kind = rec, .request = otf2_task_id(team, creator, generation)); \
	}
TASK_CB(evt_task_create, REC_THREAD_TASK_CREATE)
TASK_CB(evt_task_switch, REC_THREAD_TASK_SWITCH)

#define OMP_TASK_CB(name, rec) \
	static OTF2_CallbackCode \
	name(EVT_ARGS, uint64_t task) \
	{ \
		EVT_UNUSED(); \
		return OWN(.kind = rec, .request = task); \
	}
OMP_TASK_CB(evt_omp_task_create, REC_THREAD_TASK_CREATE)
OMP_TASK_CB(evt_omp_task_switch, REC_THREAD_TASK_SWITCH)
#undef OWN

OTF2_EvtReaderCallbacks *
otf2r_event_callbacks(void)
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
	OTF2_EvtReaderCallbacks_SetRmaWinCreateCallback(cb, evt_rma_win_create);
	OTF2_EvtReaderCallbacks_SetRmaWinDestroyCallback(cb, evt_rma_win_destroy);
	OTF2_EvtReaderCallbacks_SetRmaCollectiveBeginCallback(cb, evt_rma_coll_begin);
	OTF2_EvtReaderCallbacks_SetRmaCollectiveEndCallback(cb, evt_rma_coll_end);
	OTF2_EvtReaderCallbacks_SetRmaGroupSyncCallback(cb, evt_rma_group_sync);
	OTF2_EvtReaderCallbacks_SetRmaRequestLockCallback(cb, evt_rma_request_lock);
	OTF2_EvtReaderCallbacks_SetRmaAcquireLockCallback(cb, evt_rma_acquire_lock);
	OTF2_EvtReaderCallbacks_SetRmaTryLockCallback(cb, evt_rma_try_lock);
	OTF2_EvtReaderCallbacks_SetRmaReleaseLockCallback(cb, evt_rma_release_lock);
	OTF2_EvtReaderCallbacks_SetRmaSyncCallback(cb, evt_rma_sync);
	OTF2_EvtReaderCallbacks_SetRmaWaitChangeCallback(cb, evt_rma_wait_change);
	OTF2_EvtReaderCallbacks_SetRmaPutCallback(cb, evt_rma_put);
	OTF2_EvtReaderCallbacks_SetRmaGetCallback(cb, evt_rma_get);
	OTF2_EvtReaderCallbacks_SetRmaAtomicCallback(cb, evt_rma_atomic);
	OTF2_EvtReaderCallbacks_SetRmaOpCompleteBlockingCallback(cb, evt_rma_complete_blocking);
	OTF2_EvtReaderCallbacks_SetRmaOpCompleteNonBlockingCallback(cb, evt_rma_complete_nonblocking);
	OTF2_EvtReaderCallbacks_SetRmaOpTestCallback(cb, evt_rma_op_test);
	OTF2_EvtReaderCallbacks_SetRmaOpCompleteRemoteCallback(cb, evt_rma_complete_remote);
	OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveRequestCallback(cb, evt_nbc_request);
	OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveCompleteCallback(cb, evt_nbc_complete);
	OTF2_EvtReaderCallbacks_SetThreadAcquireLockCallback(cb, evt_thread_acquire_lock);
	OTF2_EvtReaderCallbacks_SetThreadReleaseLockCallback(cb, evt_thread_release_lock);
	OTF2_EvtReaderCallbacks_SetOmpAcquireLockCallback(cb, evt_omp_acquire_lock);
	OTF2_EvtReaderCallbacks_SetOmpReleaseLockCallback(cb, evt_omp_release_lock);
	OTF2_EvtReaderCallbacks_SetThreadTeamBeginCallback(cb, evt_team_begin);
	OTF2_EvtReaderCallbacks_SetThreadTaskCreateCallback(cb, evt_task_create);
	OTF2_EvtReaderCallbacks_SetThreadTaskSwitchCallback(cb, evt_task_switch);
	OTF2_EvtReaderCallbacks_SetOmpTaskCreateCallback(cb, evt_omp_task_create);
	OTF2_EvtReaderCallbacks_SetOmpTaskSwitchCallback(cb, evt_omp_task_switch);
	return cb;
}

