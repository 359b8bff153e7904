/* test_evt.c — skein's own OTF2 event decoding (src/otf2/otf2_evt.c)
 * against libotf2's event reader, record by record, on every location of
 * every trace at hand (the corpus, and ../shared's real traces with their
 * mapping tables and clock offsets); and on files made byte by byte here:
 * both byte orders, long records, attribute lists, records skein skips,
 * every truncation and damaged bytes (test_evt_bytes.c). */
#include "testutil.h"
#include "testotf2.h"

#include <string.h>

#include <otf2/otf2.h>

#include "base/err.h"
#include "otf2/otf2_evt.h"
#include "otf2/otf2_impl.h"
#include "otf2/otf2_read.h"

/* ---- what libotf2 delivers ---- */

struct recs {
	struct otf2_evt_rec *v;
	size_t n, cap;
};

static void
push(struct recs *r, struct otf2_evt_rec x)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 1024;
		r->v = realloc(r->v, r->cap * sizeof *r->v);
		assert_non_null(r->v);
	}
	r->v[r->n++] = x;
}

#define ARGS OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *ud, \
	OTF2_AttributeList *attrs
#define UNUSED() ((void)loc, (void)pos, (void)attrs)

static OTF2_CallbackCode
on_enter(ARGS, OTF2_RegionRef region)
{
	UNUSED();
	push(ud, (struct otf2_evt_rec){ .kind = REC_ENTER, .time = time, .ref = region });
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_leave(ARGS, OTF2_RegionRef region)
{
	UNUSED();
	push(ud, (struct otf2_evt_rec){ .kind = REC_LEAVE, .time = time, .ref = region });
	return OTF2_CALLBACK_SUCCESS;
}

static void
p2p(void *ud, uint8_t kind, uint64_t time, uint32_t peer, uint32_t comm, uint32_t tag,
    uint64_t len, uint64_t request)
{
	push(ud, (struct otf2_evt_rec){ .kind = kind, .time = time, .ref = peer, .comm = comm,
					.tag = tag, .len = len, .request = request });
}

static OTF2_CallbackCode
on_send(ARGS, uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t len)
{
	UNUSED();
	p2p(ud, REC_MPI_SEND, time, peer, comm, tag, len, UINT64_MAX);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_isend(ARGS, uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t len, uint64_t request)
{
	UNUSED();
	p2p(ud, REC_MPI_ISEND, time, peer, comm, tag, len, request);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_recv(ARGS, uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t len)
{
	UNUSED();
	p2p(ud, REC_MPI_RECV, time, peer, comm, tag, len, UINT64_MAX);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_irecv(ARGS, uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t len, uint64_t request)
{
	UNUSED();
	p2p(ud, REC_MPI_IRECV, time, peer, comm, tag, len, request);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_isend_complete(ARGS, uint64_t request)
{
	UNUSED();
	push(ud, (struct otf2_evt_rec){ .kind = REC_MPI_ISEND_COMPLETE, .time = time, .request = request });
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_irecv_request(ARGS, uint64_t request)
{
	UNUSED();
	push(ud, (struct otf2_evt_rec){ .kind = REC_MPI_IRECV_REQUEST, .time = time, .request = request });
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_coll_begin(ARGS)
{
	UNUSED();
	push(ud, (struct otf2_evt_rec){ .kind = REC_MPI_COLLECTIVE_BEGIN, .time = time });
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_coll_end(ARGS, OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root, uint64_t sent,
	    uint64_t received)
{
	UNUSED();
	push(ud, (struct otf2_evt_rec){ .kind = REC_MPI_COLLECTIVE_END, .time = time, .tag = op,
					.comm = comm, .ref = root, .len = sent, .request = received });
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_measurement(ARGS, OTF2_MeasurementMode mode)
{
	UNUSED();
	push(ud, (struct otf2_evt_rec){ .kind = REC_MEASUREMENT_ON_OFF, .time = time, .ref = mode });
	return OTF2_CALLBACK_SUCCESS;
}

/* the one-sided and non-blocking collective records, filled as
 * otf2_evt.h's table says */
#define PUSH(...) (push(ud, (struct otf2_evt_rec){ .time = time, __VA_ARGS__ }), OTF2_CALLBACK_SUCCESS)

static OTF2_CallbackCode
on_win_create(ARGS, OTF2_RmaWinRef win)
{
	UNUSED();
	return PUSH(.kind = REC_RMA_WIN_CREATE, .comm = win);
}

static OTF2_CallbackCode
on_win_destroy(ARGS, OTF2_RmaWinRef win)
{
	UNUSED();
	return PUSH(.kind = REC_RMA_WIN_DESTROY, .comm = win);
}

static OTF2_CallbackCode
on_rma_coll_begin(ARGS)
{
	UNUSED();
	return PUSH(.kind = REC_RMA_COLLECTIVE_BEGIN);
}

static OTF2_CallbackCode
on_rma_coll_end(ARGS, OTF2_CollectiveOp op, OTF2_RmaSyncLevel level, OTF2_RmaWinRef win,
		uint32_t root, uint64_t sent, uint64_t received)
{
	UNUSED();
	(void)level;
	return PUSH(.kind = REC_RMA_COLLECTIVE_END, .tag = op, .comm = win, .ref = root, .len = sent,
		    .aux = received);
}

static OTF2_CallbackCode
on_group_sync(ARGS, OTF2_RmaSyncLevel level, OTF2_RmaWinRef win, OTF2_GroupRef group)
{
	UNUSED();
	(void)level;
	(void)group;
	return PUSH(.kind = REC_RMA_GROUP_SYNC, .comm = win);
}

static OTF2_CallbackCode
on_request_lock(ARGS, OTF2_RmaWinRef win, uint32_t remote, uint64_t id, OTF2_LockType type)
{
	UNUSED();
	(void)id;
	return PUSH(.kind = REC_RMA_REQUEST_LOCK, .comm = win, .ref = remote, .tag = type);
}

static OTF2_CallbackCode
on_acquire_lock(ARGS, OTF2_RmaWinRef win, uint32_t remote, uint64_t id, OTF2_LockType type)
{
	UNUSED();
	(void)id;
	return PUSH(.kind = REC_RMA_ACQUIRE_LOCK, .comm = win, .ref = remote, .tag = type);
}

static OTF2_CallbackCode
on_try_lock(ARGS, OTF2_RmaWinRef win, uint32_t remote, uint64_t id, OTF2_LockType type)
{
	UNUSED();
	(void)id;
	return PUSH(.kind = REC_RMA_TRY_LOCK, .comm = win, .ref = remote, .tag = type);
}

static OTF2_CallbackCode
on_release_lock(ARGS, OTF2_RmaWinRef win, uint32_t remote, uint64_t id)
{
	UNUSED();
	(void)id;
	return PUSH(.kind = REC_RMA_RELEASE_LOCK, .comm = win, .ref = remote);
}

static OTF2_CallbackCode
on_rma_sync(ARGS, OTF2_RmaWinRef win, uint32_t remote, OTF2_RmaSyncType type)
{
	UNUSED();
	return PUSH(.kind = REC_RMA_SYNC, .comm = win, .ref = remote, .tag = type);
}

static OTF2_CallbackCode
on_wait_change(ARGS, OTF2_RmaWinRef win)
{
	UNUSED();
	return PUSH(.kind = REC_RMA_WAIT_CHANGE, .comm = win);
}

static OTF2_CallbackCode
on_put(ARGS, OTF2_RmaWinRef win, uint32_t remote, uint64_t bytes, uint64_t matching)
{
	UNUSED();
	return PUSH(.kind = REC_RMA_PUT, .comm = win, .ref = remote, .len = bytes, .request = matching);
}

static OTF2_CallbackCode
on_get(ARGS, OTF2_RmaWinRef win, uint32_t remote, uint64_t bytes, uint64_t matching)
{
	UNUSED();
	return PUSH(.kind = REC_RMA_GET, .comm = win, .ref = remote, .len = bytes, .request = matching);
}

static OTF2_CallbackCode
on_atomic(ARGS, OTF2_RmaWinRef win, uint32_t remote, OTF2_RmaAtomicType type, uint64_t sent,
	  uint64_t received, uint64_t matching)
{
	UNUSED();
	return PUSH(.kind = REC_RMA_ATOMIC, .comm = win, .ref = remote, .tag = type, .len = sent,
		    .aux = received, .request = matching);
}

#define ON_DONE(name, rec) \
	static OTF2_CallbackCode \
	name(ARGS, OTF2_RmaWinRef win, uint64_t matching) \
	{ \
		UNUSED(); \
		return PUSH(.kind = rec, .comm = win, .request = matching); \
	}
ON_DONE(on_done_blocking, REC_RMA_OP_COMPLETE_BLOCKING)
ON_DONE(on_done_local, REC_RMA_OP_COMPLETE_NON_BLOCKING)
ON_DONE(on_op_test, REC_RMA_OP_TEST)
ON_DONE(on_done_remote, REC_RMA_OP_COMPLETE_REMOTE)

static OTF2_CallbackCode
on_nbc_request(ARGS, uint64_t request)
{
	UNUSED();
	return PUSH(.kind = REC_NBC_REQUEST, .request = request);
}

static OTF2_CallbackCode
on_nbc_complete(ARGS, OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root, uint64_t sent,
		uint64_t received, uint64_t request)
{
	UNUSED();
	return PUSH(.kind = REC_NBC_COMPLETE, .tag = op, .comm = comm, .ref = root, .len = sent,
		    .aux = received, .request = request);
}

static OTF2_CallbackCode
on_thread_lock(ARGS, OTF2_Paradigm model, uint32_t lock, uint32_t order, enum trace_rec kind)
{
	UNUSED();
	return PUSH(.kind = kind, .tag = model, .ref = lock, .len = order);
}

static OTF2_CallbackCode
on_acquire(ARGS, OTF2_Paradigm model, uint32_t lock, uint32_t order)
{
	return on_thread_lock(loc, time, pos, ud, attrs, model, lock, order, REC_THREAD_ACQUIRE_LOCK);
}

static OTF2_CallbackCode
on_release(ARGS, OTF2_Paradigm model, uint32_t lock, uint32_t order)
{
	return on_thread_lock(loc, time, pos, ud, attrs, model, lock, order, REC_THREAD_RELEASE_LOCK);
}

static OTF2_CallbackCode
on_omp_acquire(ARGS, uint32_t lock, uint32_t order)
{
	return on_thread_lock(loc, time, pos, ud, attrs, OTF2_PARADIGM_OPENMP, lock, order, REC_THREAD_ACQUIRE_LOCK);
}

static OTF2_CallbackCode
on_omp_release(ARGS, uint32_t lock, uint32_t order)
{
	return on_thread_lock(loc, time, pos, ud, attrs, OTF2_PARADIGM_OPENMP, lock, order, REC_THREAD_RELEASE_LOCK);
}

static OTF2_CallbackCode
on_team_begin(ARGS, OTF2_CommRef team)
{
	UNUSED();
	return PUSH(.kind = REC_THREAD_TEAM_BEGIN, .comm = team);
}

static OTF2_CallbackCode
on_task(ARGS, OTF2_CommRef team, uint32_t creator, uint32_t generation, enum trace_rec kind)
{
	UNUSED();
	return PUSH(.kind = kind, .request = otf2_task_id(team, creator, generation));
}

static OTF2_CallbackCode
on_task_create(ARGS, OTF2_CommRef team, uint32_t creator, uint32_t generation)
{
	return on_task(loc, time, pos, ud, attrs, team, creator, generation, REC_THREAD_TASK_CREATE);
}

static OTF2_CallbackCode
on_task_switch(ARGS, OTF2_CommRef team, uint32_t creator, uint32_t generation)
{
	return on_task(loc, time, pos, ud, attrs, team, creator, generation, REC_THREAD_TASK_SWITCH);
}

static OTF2_CallbackCode
on_omp_task_create(ARGS, uint64_t task)
{
	UNUSED();
	return PUSH(.kind = REC_THREAD_TASK_CREATE, .request = task);
}

static OTF2_CallbackCode
on_omp_task_switch(ARGS, uint64_t task)
{
	UNUSED();
	return PUSH(.kind = REC_THREAD_TASK_SWITCH, .request = task);
}

/* ---- the local definitions: mapping tables and clock offsets ---- */

struct local {
	const OTF2_IdMap *region, *comm, *cc, *win;
	uint64_t time[64];
	int64_t offset[64];
	size_t n;
};

static OTF2_CallbackCode
on_mapping(void *ud, OTF2_MappingType type, const OTF2_IdMap *map)
{
	struct local *l = ud;
	if (type == OTF2_MAPPING_REGION)
		l->region = map;
	if (type == OTF2_MAPPING_COMM)
		l->comm = map;
	if (type == OTF2_MAPPING_CALLING_CONTEXT)
		l->cc = map;
	if (type == OTF2_MAPPING_RMA_WIN)
		l->win = map;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_clock_offset(void *ud, OTF2_TimeStamp time, int64_t offset, double deviation)
{
	(void)deviation;
	struct local *l = ud;
	assert_true(l->n < 64);
	l->time[l->n] = time;
	l->offset[l->n++] = offset;
	return OTF2_CALLBACK_SUCCESS;
}

struct locs {
	uint64_t id[4096];
	size_t n;
	struct otf2_ccmap cc;
};

static OTF2_CallbackCode
on_calling_context(void *ud, OTF2_CallingContextRef self, OTF2_RegionRef region,
		   OTF2_SourceCodeLocationRef where, OTF2_CallingContextRef parent)
{
	(void)where; (void)parent;
	struct locs *l = ud;
	assert_int_equal(otf2_ccmap_add(&l->cc, self, region), 0);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_location(void *ud, OTF2_LocationRef self, OTF2_StringRef name, OTF2_LocationType type,
	    uint64_t events, OTF2_LocationGroupRef group)
{
	(void)name; (void)type; (void)events; (void)group;
	struct locs *l = ud;
	assert_true(l->n < 4096);
	l->id[l->n++] = self;
	return OTF2_CALLBACK_SUCCESS;
}

static int
same_rec(const struct otf2_evt_rec *a, const struct otf2_evt_rec *b)
{
	return a->kind == b->kind && a->time == b->time && a->ref == b->ref && a->comm == b->comm &&
		a->tag == b->tag && a->len == b->len && a->request == b->request && a->aux == b->aux;
}

/* Every location of the archive at anchor, both ways; returns the
 * records compared and counts mapped and corrected locations. */
static uint64_t
compare_archive(const char *anchor, unsigned *maps, unsigned *clocks)
{
	OTF2_Reader *rd = OTF2_Reader_Open(anchor);
	assert_non_null(rd);
	OTF2_Reader_SetSerialCollectiveCallbacks(rd);
	uint64_t evt_chunk = 0, def_chunk = 0;
	assert_int_equal(OTF2_Reader_GetChunkSize(rd, &evt_chunk, &def_chunk), OTF2_SUCCESS);
	static struct locs locs;
	locs.n = 0;
	OTF2_GlobalDefReader *gr = OTF2_Reader_GetGlobalDefReader(rd);
	OTF2_GlobalDefReaderCallbacks *gcb = OTF2_GlobalDefReaderCallbacks_New();
	OTF2_GlobalDefReaderCallbacks_SetLocationCallback(gcb, on_location);
	OTF2_GlobalDefReaderCallbacks_SetCallingContextCallback(gcb, on_calling_context);
	OTF2_Reader_RegisterGlobalDefCallbacks(rd, gr, gcb, &locs);
	uint64_t n = 0;
	assert_int_equal(OTF2_Reader_ReadAllGlobalDefinitions(rd, gr, &n), OTF2_SUCCESS);
	OTF2_GlobalDefReaderCallbacks_Delete(gcb);
	OTF2_Reader_CloseGlobalDefReader(rd, gr);

	struct local *local = calloc(locs.n, sizeof *local);
	assert_non_null(local);
	char base[1024];
	snprintf(base, sizeof base, "%.*s", (int)(strlen(anchor) - 5), anchor);
	for (size_t i = 0; i < locs.n; i++)
		OTF2_Reader_SelectLocation(rd, locs.id[i]);
	OTF2_Reader_OpenDefFiles(rd);
	OTF2_DefReaderCallbacks *dcb = OTF2_DefReaderCallbacks_New();
	OTF2_DefReaderCallbacks_SetMappingTableCallback(dcb, on_mapping);
	OTF2_DefReaderCallbacks_SetClockOffsetCallback(dcb, on_clock_offset);
	for (size_t i = 0; i < locs.n; i++) {
		char path[1100];
		snprintf(path, sizeof path, "%s/%llu.def", base, (unsigned long long)locs.id[i]);
		struct stat st;
		if (stat(path, &st) != 0 || st.st_size == 0)
			continue;
		OTF2_DefReader *dr = OTF2_Reader_GetDefReader(rd, locs.id[i]);
		assert_non_null(dr);
		OTF2_Reader_RegisterDefCallbacks(rd, dr, dcb, &local[i]);
		assert_int_equal(OTF2_Reader_ReadAllLocalDefinitions(rd, dr, &n), OTF2_SUCCESS);
		OTF2_Reader_CloseDefReader(rd, dr);
	}
	OTF2_DefReaderCallbacks_Delete(dcb);
	OTF2_Reader_CloseDefFiles(rd);

	OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
	OTF2_EvtReaderCallbacks_SetEnterCallback(cb, on_enter);
	OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, on_leave);
	OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, on_send);
	OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, on_isend);
	OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, on_isend_complete);
	OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, on_irecv_request);
	OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, on_irecv);
	OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, on_recv);
	OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, on_coll_begin);
	OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, on_coll_end);
	OTF2_EvtReaderCallbacks_SetMeasurementOnOffCallback(cb, on_measurement);
	OTF2_EvtReaderCallbacks_SetRmaWinCreateCallback(cb, on_win_create);
	OTF2_EvtReaderCallbacks_SetRmaWinDestroyCallback(cb, on_win_destroy);
	OTF2_EvtReaderCallbacks_SetRmaCollectiveBeginCallback(cb, on_rma_coll_begin);
	OTF2_EvtReaderCallbacks_SetRmaCollectiveEndCallback(cb, on_rma_coll_end);
	OTF2_EvtReaderCallbacks_SetRmaGroupSyncCallback(cb, on_group_sync);
	OTF2_EvtReaderCallbacks_SetRmaRequestLockCallback(cb, on_request_lock);
	OTF2_EvtReaderCallbacks_SetRmaAcquireLockCallback(cb, on_acquire_lock);
	OTF2_EvtReaderCallbacks_SetRmaTryLockCallback(cb, on_try_lock);
	OTF2_EvtReaderCallbacks_SetRmaReleaseLockCallback(cb, on_release_lock);
	OTF2_EvtReaderCallbacks_SetRmaSyncCallback(cb, on_rma_sync);
	OTF2_EvtReaderCallbacks_SetRmaWaitChangeCallback(cb, on_wait_change);
	OTF2_EvtReaderCallbacks_SetRmaPutCallback(cb, on_put);
	OTF2_EvtReaderCallbacks_SetRmaGetCallback(cb, on_get);
	OTF2_EvtReaderCallbacks_SetRmaAtomicCallback(cb, on_atomic);
	OTF2_EvtReaderCallbacks_SetRmaOpCompleteBlockingCallback(cb, on_done_blocking);
	OTF2_EvtReaderCallbacks_SetRmaOpCompleteNonBlockingCallback(cb, on_done_local);
	OTF2_EvtReaderCallbacks_SetRmaOpTestCallback(cb, on_op_test);
	OTF2_EvtReaderCallbacks_SetRmaOpCompleteRemoteCallback(cb, on_done_remote);
	OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveRequestCallback(cb, on_nbc_request);
	OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveCompleteCallback(cb, on_nbc_complete);
	OTF2_EvtReaderCallbacks_SetThreadAcquireLockCallback(cb, on_acquire);
	OTF2_EvtReaderCallbacks_SetThreadReleaseLockCallback(cb, on_release);
	OTF2_EvtReaderCallbacks_SetOmpAcquireLockCallback(cb, on_omp_acquire);
	OTF2_EvtReaderCallbacks_SetOmpReleaseLockCallback(cb, on_omp_release);
	OTF2_EvtReaderCallbacks_SetThreadTeamBeginCallback(cb, on_team_begin);
	OTF2_EvtReaderCallbacks_SetThreadTaskCreateCallback(cb, on_task_create);
	OTF2_EvtReaderCallbacks_SetThreadTaskSwitchCallback(cb, on_task_switch);
	OTF2_EvtReaderCallbacks_SetOmpTaskCreateCallback(cb, on_omp_task_create);
	OTF2_EvtReaderCallbacks_SetOmpTaskSwitchCallback(cb, on_omp_task_switch);
	OTF2_Reader_OpenEvtFiles(rd);
	struct otf2_evt_buf buf = { 0 };     /* grown as files need (the sanitizers see a read past
					      * the file that grew it) */
	uint64_t compared = 0;
	for (size_t i = 0; i < locs.n; i++) {
		char path[1100];
		snprintf(path, sizeof path, "%s/%llu.evt", base, (unsigned long long)locs.id[i]);
		if (!tu_exists(path))
			continue;
		struct recs want = { 0 };
		OTF2_EvtReader *er = OTF2_Reader_GetEvtReader(rd, locs.id[i]);
		assert_non_null(er);
		OTF2_EvtReader_SetCallbacks(er, cb, &want);
		uint64_t events = 0;
		assert_int_equal(OTF2_EvtReader_ReadEvents(er, UINT64_MAX, &events), OTF2_SUCCESS);
		OTF2_Reader_CloseEvtReader(rd, er);

		struct local *l = &local[i];
		struct otf2_clock_iv iv[64];
		long n_iv = otf2_clock_intervals(l->time, l->offset, l->n, iv);
		assert_true(n_iv >= 0);
		*maps += l->region || l->comm || l->win;
		*clocks += n_iv > 0;
		struct otf2_evt_maps m = { .region = l->region, .comm = l->comm,
					   .calling_context = l->cc, .win = l->win, .cc = &locs.cc, .iv = iv,
					   .n_iv = (uint32_t)n_iv };
		struct otf2_evt e;
		assert_int_equal(otf2_evt_open(&e, path, evt_chunk, &buf, &m), 0);
		struct otf2_evt_rec x[7];     /* small batches: records cross them */
		uint32_t got;
		size_t at = 0;
		do {
			assert_int_equal(otf2_evt_read(&e, x, 7, &got), 0);
			for (uint32_t j = 0; j < got; j++, at++) {
				assert_true(at < want.n);
				if (!same_rec(&x[j], &want.v[at]))
					fail_msg("%s: record %zu of location %llu differs from libotf2's",
						 anchor, at, (unsigned long long)locs.id[i]);
			}
		} while (got);
		otf2_evt_close(&e);
		assert_int_equal(at, want.n);
		assert_int_equal(e.events, events);
		compared += at;
		free(want.v);
	}
	free(buf.p);
	OTF2_EvtReaderCallbacks_Delete(cb);
	OTF2_Reader_CloseEvtFiles(rd);
	OTF2_Reader_Close(rd);
	otf2_ccmap_fini(&locs.cc);
	free(local);
	return compared;
}

/* Under TSan every ninth corpus archive (the ninth, 18th, 27th) and
 * every third shared one (the third, sixth, ...) is compared, and the
 * counts asserted over them are that part of the whole's:
 * compare_archive runs on the caller's thread alone (libotf2's reader
 * against otf2_evt), so TSan has no race to find in it, and libotf2
 * gives each location's events a 1 MiB buffer and the definitions one
 * of the archive's chunk, each memset on opening, which TSan follows
 * byte range by byte range on fresh pages (every archive: 14 s of CPU,
 * with the tracer's archives at 256 KiB definition chunks; 28 s at 4
 * MiB). The plain and ASan runs compare every archive. */
#if defined(__SANITIZE_THREAD__)
#define CORPUS_STEP 9u
#define SHARED_STEP 3u
#else
#define CORPUS_STEP 1u
#define SHARED_STEP 1u
#endif

/* The archives pattern finds (*found), every step-th of them compared
 * (*n_traces); the records compared. */
static uint64_t
compare_glob(const char *pattern, unsigned step, unsigned *found, unsigned *n_traces, unsigned *maps,
	     unsigned *clocks)
{
	glob_t g;
	uint64_t recs = 0;
	if (glob(pattern, 0, NULL, &g) != 0)
		return 0;
	*found = (unsigned)g.gl_pathc;
	for (size_t i = step - 1; i < g.gl_pathc; i += step) {
		recs += compare_archive(g.gl_pathv[i], maps, clocks);
		(*n_traces)++;
	}
	globfree(&g);
	return recs;
}

static void
corpus_as_libotf2(void **state)
{
	(void)state;
	char pattern[1100];
	PROJECT_PATH(pattern, "traces/corpus/*/traces.otf2");
	unsigned found = 0, n = 0, maps = 0, clocks = 0;
	uint64_t recs = compare_glob(pattern, CORPUS_STEP, &found, &n, &maps, &clocks);
	assert_true(found >= 20);
	assert_int_equal(n, found / CORPUS_STEP);
	assert_true(recs * CORPUS_STEP > 10000);
}

static void
shared_as_libotf2(void **state)
{
	(void)state;
	char dir[1100];
	SHARED_TRACE(dir, "otf2");
	char pattern[1200];
	unsigned found = 0, n = 0, maps = 0, clocks = 0;
	snprintf(pattern, sizeof pattern, "%s/*/*.otf2", dir);
	uint64_t recs = compare_glob(pattern, SHARED_STEP, &found, &n, &maps, &clocks);
	print_message("%u archives, %u locations with mapped ids, %u with corrected clocks, "
		      "%llu records\n", n, maps, clocks, (unsigned long long)recs);
	/* the eleven Score-P and tracer archives map ids (35 locations map
	 * regions or communicators) and correct clocks (114); under TSan
	 * the four compared 12, 54 and 281,374 records */
	assert_true(found >= 12);
	assert_int_equal(n, found / SHARED_STEP);
	assert_true(maps * SHARED_STEP >= 30);
	assert_true(clocks * SHARED_STEP >= 100);
	assert_true(recs * SHARED_STEP > 250000);
}

static char tmpdir[] = "/tmp/skein-evt-XXXXXX";

/* ---- an archive written by libotf2 with what the traces at hand lack ---- */

static OTF2_IdMap *
dense_map(const uint64_t *global, size_t n)
{
	OTF2_IdMap *m = OTF2_IdMap_CreateFromUint64Array(n, global, false);
	assert_non_null(m);
	return m;
}

/* Calling contexts defined out of order and delivered as Enters and
 * Leaves (or not at all: undefined, or past those defined), mapped
 * through the location's table; a buffer flush whose stop time lies past
 * a clock offset (libotf2 corrects it too, which moves its search of the
 * clock stretches on); mapped regions and communicators. */
static void
written_by_libotf2(void **state)
{
	(void)state;
	char dir[64];
	snprintf(dir, sizeof dir, "%s/w", tmpdir);
	OTF2_Archive *a = tu_new_archive(dir);
	OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(a, 0);
	assert_non_null(w);
	OTF2_EvtWriter_Enter(w, NULL, 10, 0);
	OTF2_EvtWriter_CallingContextEnter(w, NULL, 20, 0, 1);   /* local 0 -> 7 -> region 2 */
	OTF2_EvtWriter_BufferFlush(w, NULL, 50, 150);
	OTF2_EvtWriter_Enter(w, NULL, 60, 1);
	OTF2_EvtWriter_CallingContextLeave(w, NULL, 70, 5);      /* not defined: nothing */
	OTF2_EvtWriter_CallingContextEnter(w, NULL, 75, OTF2_UNDEFINED_CALLING_CONTEXT, 0);
	OTF2_EvtWriter_MpiSend(w, NULL, 80, 1, 0, 42, 1000);
	OTF2_EvtWriter_MpiIrecv(w, NULL, 85, 1, 1, 43, 2000, 77);
	OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, 88);
	OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, 89, OTF2_COLLECTIVE_OP_ALLREDUCE, 1, 0, 8, 8);
	OTF2_EvtWriter_MeasurementOnOff(w, NULL, 90, OTF2_MEASUREMENT_OFF);
	OTF2_EvtWriter_Leave(w, NULL, 160, 1);
	OTF2_EvtWriter_CallingContextLeave(w, NULL, 170, 2);     /* local 2 -> 1 -> region 0 */
	/* a thread's locks, OTF2 1.x's OpenMP records (deprecated for
	 * writing, still read: old traces hold them) and the thread ones */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	OTF2_EvtWriter_OmpAcquireLock(w, NULL, 180, 5, 1);
	OTF2_EvtWriter_ThreadAcquireLock(w, NULL, 190, OTF2_PARADIGM_PTHREAD, 6, 2);
	OTF2_EvtWriter_ThreadReleaseLock(w, NULL, 200, OTF2_PARADIGM_PTHREAD, 6, 2);
	OTF2_EvtWriter_OmpReleaseLock(w, NULL, 210, 5, 1);
	/* OpenMP's teams and tasks (the team a mapped communicator; the
	 * team's end not read), OTF2 1.x's tasks */
	OTF2_EvtWriter_ThreadTeamBegin(w, NULL, 215, 1);
	OTF2_EvtWriter_ThreadTaskCreate(w, NULL, 220, 0, 2, 7);
	OTF2_EvtWriter_ThreadTaskSwitch(w, NULL, 225, 1, 70000, 9);
	OTF2_EvtWriter_ThreadTeamEnd(w, NULL, 226, 1);
	OTF2_EvtWriter_OmpTaskCreate(w, NULL, 230, 123456789012ull);
	OTF2_EvtWriter_OmpTaskSwitch(w, NULL, 235, 42);
#pragma GCC diagnostic pop
	OTF2_EvtWriter_Leave(w, NULL, 250, 0);
	OTF2_Archive_CloseEvtWriter(a, w);
	OTF2_Archive_CloseEvtFiles(a);
	OTF2_Archive_OpenDefFiles(a);
	OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(a, 0);
	assert_non_null(d);
	const uint64_t regions[] = { 2, 0, 1 }, comms[] = { 1, 0 }, contexts[] = { 7, 0, 1 };
	OTF2_IdMap *maps[] = { dense_map(regions, 3), dense_map(comms, 2), dense_map(contexts, 3) };
	OTF2_DefWriter_WriteMappingTable(d, OTF2_MAPPING_REGION, maps[0]);
	OTF2_DefWriter_WriteMappingTable(d, OTF2_MAPPING_COMM, maps[1]);
	OTF2_DefWriter_WriteMappingTable(d, OTF2_MAPPING_CALLING_CONTEXT, maps[2]);
	for (int i = 0; i < 3; i++)
		OTF2_IdMap_Free(maps[i]);
	OTF2_DefWriter_WriteClockOffset(d, 0, 0, 0);
	OTF2_DefWriter_WriteClockOffset(d, 100, 1000, 0);
	OTF2_DefWriter_WriteClockOffset(d, 200, 3000, 0);
	OTF2_Archive_CloseDefWriter(a, d);
	OTF2_Archive_CloseDefFiles(a);
	OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(a);
	assert_non_null(g);
	tu_plain_defs(g, 1000, 3, 1, 24);
	OTF2_GlobalDefWriter_WriteCallingContext(g, 0, 1, OTF2_UNDEFINED_SOURCE_CODE_LOCATION,
						 OTF2_UNDEFINED_CALLING_CONTEXT);
	OTF2_GlobalDefWriter_WriteCallingContext(g, 7, 2, OTF2_UNDEFINED_SOURCE_CODE_LOCATION, 0);
	OTF2_GlobalDefWriter_WriteCallingContext(g, 1, 0, OTF2_UNDEFINED_SOURCE_CODE_LOCATION, 0);
	OTF2_Archive_CloseGlobalDefWriter(a, g);
	OTF2_Archive_Close(a);

	char anchor[80];
	snprintf(anchor, sizeof anchor, "%s/traces.otf2", dir);
	unsigned maps_seen = 0, clocks = 0;
	/* 24 event records; libotf2 delivers 20 (not the buffer flush, nor two
	 * of the calling contexts, nor the team's end), as skein's decoding
	 * must */
	assert_int_equal(compare_archive(anchor, &maps_seen, &clocks), 20);
	assert_int_equal(maps_seen, 1);
	assert_int_equal(clocks, 1);
}

/* Every one-sided and non-blocking collective record, as libotf2 writes
 * it, with the windows and communicators mapped: both ways alike, and
 * the fields the ones written. */
static void
rma_written_by_libotf2(void **state)
{
	(void)state;
	char dir[64];
	snprintf(dir, sizeof dir, "%s/r", tmpdir);
	OTF2_Archive *a = tu_new_archive(dir);
	OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(a, 0);
	assert_non_null(w);
	uint64_t t = 10;
	OTF2_EvtWriter_RmaCollectiveBegin(w, NULL, t++);
	OTF2_EvtWriter_RmaWinCreate(w, NULL, t++, 0);
	OTF2_EvtWriter_RmaCollectiveEnd(w, NULL, t++, OTF2_COLLECTIVE_OP_CREATE_HANDLE,
					OTF2_RMA_SYNC_LEVEL_NONE, 0, OTF2_UNDEFINED_UINT32, 0, 0);
	OTF2_EvtWriter_RmaGroupSync(w, NULL, t++, OTF2_RMA_SYNC_LEVEL_PROCESS, 1, 3);
	OTF2_EvtWriter_RmaRequestLock(w, NULL, t++, 1, 1, 0, OTF2_LOCK_EXCLUSIVE);
	OTF2_EvtWriter_RmaAcquireLock(w, NULL, t++, 1, 1, 0, OTF2_LOCK_EXCLUSIVE);
	OTF2_EvtWriter_RmaTryLock(w, NULL, t++, 0, OTF2_UNDEFINED_UINT32, 5, OTF2_LOCK_SHARED);
	OTF2_EvtWriter_RmaPut(w, NULL, t++, 1, 1, 0x123456789aull, 1);
	OTF2_EvtWriter_RmaGet(w, NULL, t++, 0, 0, 16, 2);
	OTF2_EvtWriter_RmaAtomic(w, NULL, t++, 1, 1, OTF2_RMA_ATOMIC_TYPE_FETCH_AND_ACCUMULATE, 8,
				 0x10000, 3);
	OTF2_EvtWriter_RmaOpTest(w, NULL, t++, 1, 1);
	OTF2_EvtWriter_RmaOpCompleteBlocking(w, NULL, t++, 1, 1);
	OTF2_EvtWriter_RmaOpCompleteNonBlocking(w, NULL, t++, 0, 2);
	OTF2_EvtWriter_RmaSync(w, NULL, t++, 1, 1, OTF2_RMA_SYNC_TYPE_NOTIFY_IN);
	OTF2_EvtWriter_RmaOpCompleteRemote(w, NULL, t++, 1, 3);
	OTF2_EvtWriter_RmaWaitChange(w, NULL, t++, 1);
	OTF2_EvtWriter_RmaReleaseLock(w, NULL, t++, 1, 1, 0);
	OTF2_EvtWriter_NonBlockingCollectiveRequest(w, NULL, t++, 99);
	OTF2_EvtWriter_NonBlockingCollectiveComplete(w, NULL, t++, OTF2_COLLECTIVE_OP_BCAST, 1, 1, 24,
						     0x2000000, 99);
	OTF2_EvtWriter_RmaCollectiveBegin(w, NULL, t++);
	OTF2_EvtWriter_RmaWinDestroy(w, NULL, t++, 0);
	OTF2_EvtWriter_RmaCollectiveEnd(w, NULL, t++, OTF2_COLLECTIVE_OP_DESTROY_HANDLE,
					OTF2_RMA_SYNC_LEVEL_NONE, 0, 2, 7, 9);
	OTF2_Archive_CloseEvtWriter(a, w);
	OTF2_Archive_CloseEvtFiles(a);
	OTF2_Archive_OpenDefFiles(a);
	OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(a, 0);
	assert_non_null(d);
	const uint64_t wins[] = { 4, 2 }, comms[] = { 1, 0 };
	OTF2_IdMap *maps[] = { dense_map(wins, 2), dense_map(comms, 2) };
	OTF2_DefWriter_WriteMappingTable(d, OTF2_MAPPING_RMA_WIN, maps[0]);
	OTF2_DefWriter_WriteMappingTable(d, OTF2_MAPPING_COMM, maps[1]);
	for (int i = 0; i < 2; i++)
		OTF2_IdMap_Free(maps[i]);
	OTF2_Archive_CloseDefWriter(a, d);
	OTF2_Archive_CloseDefFiles(a);
	OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(a);
	assert_non_null(g);
	OTF2_GlobalDefWriter_WriteClockProperties(g, 1, 0, 1000, OTF2_UNDEFINED_TIMESTAMP);
	OTF2_GlobalDefWriter_WriteString(g, 0, "");
	OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, 0, 0, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
	OTF2_GlobalDefWriter_WriteLocationGroup(g, 0, 0, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
						OTF2_UNDEFINED_LOCATION_GROUP);
	OTF2_GlobalDefWriter_WriteLocation(g, 0, 0, OTF2_LOCATION_TYPE_CPU_THREAD, 22, 0);
	OTF2_Archive_CloseGlobalDefWriter(a, g);
	OTF2_Archive_Close(a);

	char anchor[80];
	snprintf(anchor, sizeof anchor, "%s/traces.otf2", dir);
	unsigned maps_seen = 0, clocks = 0;
	assert_int_equal(compare_archive(anchor, &maps_seen, &clocks), 22);
	assert_int_equal(maps_seen, 1);
	/* and the fields are the ones written (windows 0, 1 are 4, 2) */
	char path[100];
	snprintf(path, sizeof path, "%s/traces/0.evt", dir);
	struct otf2_evt_buf buf = { 0 };
	OTF2_IdMap *wm = dense_map(wins, 2), *cm = dense_map(comms, 2);
	struct otf2_evt_maps m = { .win = wm, .comm = cm };
	struct otf2_evt e;
	assert_int_equal(otf2_evt_open(&e, path, 1 << 20, &buf, &m), 0);
	struct otf2_evt_rec x[32];
	uint32_t got;
	assert_int_equal(otf2_evt_read(&e, x, 32, &got), 0);
	assert_int_equal(got, 22);
	assert_int_equal(x[2].kind, REC_RMA_COLLECTIVE_END);
	assert_int_equal(x[2].comm, 4);
	assert_int_equal(x[2].tag, OTF2_COLLECTIVE_OP_CREATE_HANDLE);
	assert_int_equal(x[2].ref, UINT32_MAX);
	assert_int_equal(x[4].kind, REC_RMA_REQUEST_LOCK);
	assert_int_equal(x[4].comm, 2);
	assert_int_equal(x[4].ref, 1);
	assert_int_equal(x[6].kind, REC_RMA_TRY_LOCK);
	assert_int_equal(x[6].ref, UINT32_MAX);
	assert_int_equal(x[6].tag, OTF2_LOCK_SHARED);
	assert_int_equal(x[7].kind, REC_RMA_PUT);
	assert_true(x[7].len == 0x123456789aull && x[7].request == 1 && x[7].comm == 2);
	assert_int_equal(x[9].kind, REC_RMA_ATOMIC);
	assert_true(x[9].tag == OTF2_RMA_ATOMIC_TYPE_FETCH_AND_ACCUMULATE && x[9].len == 8 &&
		    x[9].aux == 0x10000 && x[9].request == 3);
	assert_int_equal(x[13].kind, REC_RMA_SYNC);
	assert_int_equal(x[13].tag, OTF2_RMA_SYNC_TYPE_NOTIFY_IN);
	assert_int_equal(x[18].kind, REC_NBC_COMPLETE);
	assert_true(x[18].tag == OTF2_COLLECTIVE_OP_BCAST && x[18].comm == 0 && x[18].ref == 1 &&
		    x[18].len == 24 && x[18].aux == 0x2000000 && x[18].request == 99);
	assert_int_equal(x[21].kind, REC_RMA_COLLECTIVE_END);
	assert_true(x[21].ref == 2 && x[21].len == 7 && x[21].aux == 9);
	assert_int_equal(otf2_evt_read(&e, x, 32, &got), 0);
	assert_int_equal(got, 0);
	otf2_evt_close(&e);
	OTF2_IdMap_Free(wm);
	OTF2_IdMap_Free(cm);
	free(buf.p);
}

static OTF2_CallbackCode
count_mapping(void *ud, OTF2_MappingType type, const OTF2_IdMap *map)
{
	(void)type;
	(void)map;
	++*(uint64_t *)ud;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
count_clock(void *ud, OTF2_TimeStamp time, int64_t offset, double deviation)
{
	(void)time;
	(void)offset;
	(void)deviation;
	++*(uint64_t *)ud;
	return OTF2_CALLBACK_SUCCESS;
}

/* Local definitions over several chunks (definition chunks of 256 KiB,
 * the least OTF2 has; one mapping table and 20,000 clock offsets, some
 * 390 KiB): skein's check of the file follows each end-of-chunk record to
 * the next chunk's header and counts every record (it took the padding
 * and the next header for records, and refused the archive), and the
 * archive reads as libotf2 reads it. */
static void
definitions_over_chunks(void **state)
{
	(void)state;
	enum { N_CLOCKS = 20000 };
	char dir[64];
	snprintf(dir, sizeof dir, "%s/c", tmpdir);
	OTF2_Archive *a = tu_new_archive_chunks(dir, OTF2_CHUNK_SIZE_MIN);
	OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(a, 0);
	assert_non_null(w);
	for (uint64_t t = 100; t < 200000; t += 1000) {
		OTF2_EvtWriter_Enter(w, NULL, t, 1);
		OTF2_EvtWriter_Leave(w, NULL, t + 500, 1);
	}
	OTF2_Archive_CloseEvtWriter(a, w);
	OTF2_Archive_CloseEvtFiles(a);
	OTF2_Archive_OpenDefFiles(a);
	OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(a, 0);
	assert_non_null(d);
	const uint64_t regions[] = { 1, 0 };
	OTF2_IdMap *m = dense_map(regions, 2);
	OTF2_DefWriter_WriteMappingTable(d, OTF2_MAPPING_REGION, m);
	OTF2_IdMap_Free(m);
	for (uint64_t i = 0; i < N_CLOCKS; i++)
		OTF2_DefWriter_WriteClockOffset(d, 1000000 + 10 * i, (int64_t)(i % 7), 0.5);
	OTF2_Archive_CloseDefWriter(a, d);
	OTF2_Archive_CloseDefFiles(a);
	OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(a);
	assert_non_null(g);
	tu_plain_defs(g, 300000, 2, 1, 400);
	OTF2_Archive_CloseGlobalDefWriter(a, g);
	OTF2_Archive_Close(a);

	char path[96];
	snprintf(path, sizeof path, "%s/traces/0.def", dir);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	assert_true(ftell(f) > (long)OTF2_CHUNK_SIZE_MIN);   /* two chunks at least */
	fclose(f);
	uint64_t records = 0, maps = 0;
	struct err e = { 0 };
	assert_int_equal(otf2r_check_defs(path, OTF2_CHUNK_SIZE_MIN, 0, &records, &maps, &e), 0);
	assert_int_equal(records, N_CLOCKS + 1);
	assert_int_equal(maps, N_CLOCKS + 1);
	snprintf(path, sizeof path, "%s/traces.otf2", dir);
	/* libotf2 delivers as many */
	OTF2_Reader *rd = OTF2_Reader_Open(path);
	assert_non_null(rd);
	OTF2_Reader_SetSerialCollectiveCallbacks(rd);
	OTF2_DefReaderCallbacks *cb = OTF2_DefReaderCallbacks_New();
	OTF2_DefReaderCallbacks_SetMappingTableCallback(cb, count_mapping);
	OTF2_DefReaderCallbacks_SetClockOffsetCallback(cb, count_clock);
	OTF2_Reader_OpenDefFiles(rd);
	OTF2_DefReader *dr = OTF2_Reader_GetDefReader(rd, 0);
	assert_non_null(dr);
	uint64_t delivered = 0, read = 0;
	OTF2_Reader_RegisterDefCallbacks(rd, dr, cb, &delivered);
	assert_int_equal(OTF2_Reader_ReadAllLocalDefinitions(rd, dr, &read), OTF2_SUCCESS);
	assert_int_equal(delivered, N_CLOCKS + 1);
	OTF2_Reader_CloseDefReader(rd, dr);
	OTF2_Reader_CloseDefFiles(rd);
	OTF2_DefReaderCallbacks_Delete(cb);
	OTF2_Reader_Close(rd);
	struct trace *t = NULL;
	if (otf2_read(path, NULL, &t, &e))
		print_error("%s\n", e.msg);
	assert_non_null(t);
	assert_int_equal(trace_info(t)->events, 400);
	trace_destroy(t);
}

static int
setup(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int
teardown(void **state)
{
	(void)state;
	char cmd[64];
	snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
	return getenv("KEEP") ? 0 : system(cmd) == 0 ? 0 : -1;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(corpus_as_libotf2),
		cmocka_unit_test(shared_as_libotf2),
		cmocka_unit_test(written_by_libotf2),
		cmocka_unit_test(rma_written_by_libotf2),
		cmocka_unit_test(definitions_over_chunks),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
