/* otf2_read.c — opening an archive and reading its events per location. */
#include "otf2_read.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "otf2_impl.h"

/* Events read between progress reports (and cancel checks). */
#define CHUNK_EVENTS (1u << 20)

static OTF2_ErrorCode
on_otf2_error(void *ud, const char *file, uint64_t line, const char *func,
	      OTF2_ErrorCode code, const char *fmt, va_list va)
{
	struct otf2r *r = ud;
	(void)file; (void)line; (void)func;
	if (r && !r->otf2_msg[0]) {
		char detail[160] = "";
		if (fmt)
			vsnprintf(detail, sizeof detail, fmt, va);
		snprintf(r->otf2_msg, sizeof r->otf2_msg, "%s%s%s",
			 OTF2_Error_GetDescription(code), detail[0] ? ": " : "", detail);
	}
	return code;
}

static int
has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Finds the anchor file for path; *anchor is malloc'd. */
static int
resolve_anchor(const char *path, char **anchor, struct err *e)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return err_set(e, ERR_IO, "%s: %s", path, strerror(errno));
	if (!S_ISDIR(st.st_mode)) {
		*anchor = strdup(path);
		return *anchor ? 0 : err_set(e, ERR_NOMEM, "%s: out of memory", path);
	}
	DIR *d = opendir(path);
	if (!d)
		return err_set(e, ERR_IO, "%s: %s", path, strerror(errno));
	char *found = NULL;
	int count = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (!has_suffix(de->d_name, ".otf2"))
			continue;
		count++;
		if (!found || strcmp(de->d_name, "traces.otf2") == 0) {
			free(found);
			found = strdup(de->d_name);
		}
	}
	closedir(d);
	if (!found)
		return err_set(e, ERR_IO, "%s: directory holds no OTF2 anchor file (*.otf2)", path);
	if (count > 1 && strcmp(found, "traces.otf2") != 0) {
		free(found);
		return err_set(e, ERR_IO, "%s: directory holds several OTF2 anchor files; name one", path);
	}
	size_t n = strlen(path) + strlen(found) + 2;
	*anchor = malloc(n);
	if (*anchor)
		snprintf(*anchor, n, "%s%s%s", path, has_suffix(path, "/") ? "" : "/", found);
	free(found);
	return *anchor ? 0 : err_set(e, ERR_NOMEM, "%s: out of memory", path);
}

/* An OTF2 anchor starts with a 3-byte-length-prefixed "OTF2"; checking it
 * first gives a clear message for a non-trace file instead of OTF2's. */
static int
check_magic(const char *anchor, struct err *e)
{
	FILE *f = fopen(anchor, "rb");
	if (!f)
		return err_set(e, ERR_IO, "%s: %s", anchor, strerror(errno));
	unsigned char head[8] = { 0 };
	size_t n = fread(head, 1, sizeof head, f);
	fclose(f);
	if (n < 6 || memcmp(head + 2, "OTF2", 4) != 0)
		return err_set(e, ERR_IO, "%s: not an OTF2 archive (no OTF2 anchor header)", anchor);
	return 0;
}

/* ---- event callbacks: OTF2 record -> builder call ---- */

#define EVT_ARGS OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *ud, \
	OTF2_AttributeList *attrs
#define EVT_PROLOGUE(rec) \
	struct otf2r *r = ud; \
	(void)loc; (void)pos; (void)attrs; \
	r->t->info.records[rec]++; \
	uint64_t rel = time >= r->t->info.global_offset ? time - r->t->info.global_offset : 0; \
	if (rel < r->t->info.t_begin) r->t->info.t_begin = rel; \
	if (rel > r->t->info.t_end) r->t->info.t_end = rel

static OTF2_CallbackCode
done(struct otf2r *r, int rc)
{
	if (rc == 0)
		return OTF2_CALLBACK_SUCCESS;
	r->failed = rc;
	return OTF2_CALLBACK_INTERRUPT;
}

/* MPI records on a location that is not a rank cannot be placed. */
#define NEED_RANK() \
	if (r->cur_tl == TRACE_NONE) { \
		r->t->info.warnings[WARN_NONRANK_MPI]++; \
		return OTF2_CALLBACK_SUCCESS; \
	}

static uint32_t
comm_id(const struct otf2r *r, OTF2_CommRef c)
{
	return otf2r_table_get(r->comm_of, r->n_comm_of, c);
}

static OTF2_CallbackCode
evt_enter(EVT_ARGS, OTF2_RegionRef region)
{
	EVT_PROLOGUE(REC_ENTER);
	if (r->cur_tl == TRACE_NONE)
		return OTF2_CALLBACK_SUCCESS;
	uint32_t id = otf2r_table_get(r->region_of, r->n_region_of, region);
	if (id == TRACE_NONE) {
		r->t->info.warnings[WARN_STRAY_LEAVE]++;
		return OTF2_CALLBACK_SUCCESS;
	}
	return done(r, build_enter(r->b, rel, id));
}

static OTF2_CallbackCode
evt_leave(EVT_ARGS, OTF2_RegionRef region)
{
	EVT_PROLOGUE(REC_LEAVE);
	if (r->cur_tl == TRACE_NONE)
		return OTF2_CALLBACK_SUCCESS;
	uint32_t id = otf2r_table_get(r->region_of, r->n_region_of, region);
	if (id == TRACE_NONE) {
		r->t->info.warnings[WARN_STRAY_LEAVE]++;
		return OTF2_CALLBACK_SUCCESS;
	}
	return done(r, build_leave(r->b, rel, id));
}

static OTF2_CallbackCode
evt_send(EVT_ARGS, uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t len)
{
	EVT_PROLOGUE(REC_MPI_SEND);
	NEED_RANK();
	return done(r, build_send(r->b, rel, receiver, comm_id(r, comm), tag, len, UINT64_MAX));
}

static OTF2_CallbackCode
evt_isend(EVT_ARGS, uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t len,
	  uint64_t request)
{
	EVT_PROLOGUE(REC_MPI_ISEND);
	NEED_RANK();
	if (request == UINT64_MAX)
		request--;     /* keep "blocking" distinct from a real request id */
	return done(r, build_send(r->b, rel, receiver, comm_id(r, comm), tag, len, request));
}

static OTF2_CallbackCode
evt_isend_complete(EVT_ARGS, uint64_t request)
{
	EVT_PROLOGUE(REC_MPI_ISEND_COMPLETE);
	NEED_RANK();
	if (request == UINT64_MAX)
		request--;
	return done(r, build_isend_complete(r->b, rel, request));
}

static OTF2_CallbackCode
evt_irecv_request(EVT_ARGS, uint64_t request)
{
	EVT_PROLOGUE(REC_MPI_IRECV_REQUEST);
	NEED_RANK();
	if (request == UINT64_MAX)
		request--;
	return done(r, build_irecv_request(r->b, rel, request));
}

static OTF2_CallbackCode
evt_irecv(EVT_ARGS, uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t len,
	  uint64_t request)
{
	EVT_PROLOGUE(REC_MPI_IRECV);
	NEED_RANK();
	if (request == UINT64_MAX)
		request--;
	return done(r, build_recv(r->b, rel, sender, comm_id(r, comm), tag, len, request));
}

static OTF2_CallbackCode
evt_recv(EVT_ARGS, uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t len)
{
	EVT_PROLOGUE(REC_MPI_RECV);
	NEED_RANK();
	return done(r, build_recv(r->b, rel, sender, comm_id(r, comm), tag, len, UINT64_MAX));
}

static OTF2_CallbackCode
evt_coll_begin(EVT_ARGS)
{
	EVT_PROLOGUE(REC_MPI_COLLECTIVE_BEGIN);
	NEED_RANK();
	return done(r, build_coll_begin(r->b, rel));
}

static OTF2_CallbackCode
evt_coll_end(EVT_ARGS, OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root,
	     uint64_t sent, uint64_t received)
{
	EVT_PROLOGUE(REC_MPI_COLLECTIVE_END);
	NEED_RANK();
	return done(r, build_coll_end(r->b, rel, (uint8_t)(op < COLL_TYPE_COUNT ? op : COLL_OTHER),
				      comm_id(r, comm), root, sent, received));
}

static OTF2_CallbackCode
evt_measurement(EVT_ARGS, OTF2_MeasurementMode mode)
{
	EVT_PROLOGUE(REC_MEASUREMENT_ON_OFF);
	if (r->cur_tl == TRACE_NONE)
		return OTF2_CALLBACK_SUCCESS;
	return done(r, build_measurement(r->b, rel, mode == OTF2_MEASUREMENT_ON));
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

/* ---- the reading sequence ---- */

static int
read_local_definitions(struct otf2r *r, OTF2_Reader *rd)
{
	/* Mapping tables and clock offsets live in the local definitions;
	 * events read without them keep local ids and raw clocks. Archives
	 * that have none for a location are fine. */
	if (OTF2_Reader_OpenDefFiles(rd) != OTF2_SUCCESS)
		return 0;
	for (size_t i = 0; i < r->t->n_locations; i++) {
		OTF2_DefReader *dr = OTF2_Reader_GetDefReader(rd, r->t->locations[i].id);
		if (!dr)
			continue;
		uint64_t n = 0;
		OTF2_ErrorCode st = OTF2_Reader_ReadAllLocalDefinitions(rd, dr, &n);
		OTF2_Reader_CloseDefReader(rd, dr);
		if (st != OTF2_SUCCESS)
			return err_set(r->e, ERR_FORMAT,
				       "%s: corrupt local definitions of location %llu (%s)",
				       r->anchor, (unsigned long long)r->t->locations[i].id,
				       r->otf2_msg[0] ? r->otf2_msg : OTF2_Error_GetDescription(st));
	}
	OTF2_Reader_CloseDefFiles(rd);
	r->otf2_msg[0] = '\0';
	return 0;
}

static int
read_location(struct otf2r *r, OTF2_Reader *rd, uint32_t li,
	      const struct otf2_read_opts *o, uint64_t *done_events, uint64_t total)
{
	struct trace *t = r->t;
	struct trace_location *L = &t->locations[li];
	OTF2_EvtReader *er = OTF2_Reader_GetEvtReader(rd, L->id);
	if (!er)
		return err_set(r->e, ERR_FORMAT, "%s: no event data for location %llu (%s)",
			       r->anchor, (unsigned long long)L->id,
			       r->otf2_msg[0] ? r->otf2_msg : "missing event file");
	OTF2_EvtReaderCallbacks *cb = event_callbacks();
	if (!cb) {
		OTF2_Reader_CloseEvtReader(rd, er);
		return err_set(r->e, ERR_NOMEM, "%s: out of memory", r->anchor);
	}
	OTF2_Reader_RegisterEvtCallbacks(rd, er, cb, r);
	OTF2_EvtReaderCallbacks_Delete(cb);

	r->cur_loc = li;
	r->cur_tl = L->timeline;
	r->events = 0;
	int rc = 0;
	if (r->cur_tl != TRACE_NONE)
		rc = build_timeline_begin(r->b, r->cur_tl);
	for (;;) {
		uint64_t got = 0;
		if (rc)
			break;
		OTF2_ErrorCode st = OTF2_Reader_ReadLocalEvents(rd, er, CHUNK_EVENTS, &got);
		if (r->failed) {
			rc = err_set(r->e, r->failed, "%s: %s while reading location %llu",
				     r->anchor, err_name(r->failed), (unsigned long long)L->id);
			break;
		}
		if (st != OTF2_SUCCESS) {
			rc = err_set(r->e, ERR_FORMAT,
				     "%s: truncated or corrupt events of location %llu after %llu events (%s)",
				     r->anchor, (unsigned long long)L->id, (unsigned long long)r->events,
				     r->otf2_msg[0] ? r->otf2_msg : OTF2_Error_GetDescription(st));
			break;
		}
		*done_events += got;
		r->events += got;
		if (o && o->progress && o->progress(o->ud, "reading", *done_events, total)) {
			rc = err_set(r->e, ERR_CANCELLED, "%s: cancelled", r->anchor);
			break;
		}
		if (got < CHUNK_EVENTS)
			break;
	}
	if (rc == 0 && r->cur_tl != TRACE_NONE) {
		rc = build_timeline_end(r->b);
		if (rc)
			err_set(r->e, rc, "%s: %s", r->anchor, err_name(rc));
		t->timelines[r->cur_tl].events = r->events;
	}
	L->events = r->events;
	t->info.events += r->events;
	if (L->events != L->events_declared)
		t->info.warnings[WARN_EVENT_COUNT_MISMATCH]++;
	OTF2_Reader_CloseEvtReader(rd, er);
	return rc;
}

static int
read_events(struct otf2r *r, OTF2_Reader *rd, const struct otf2_read_opts *o)
{
	struct trace *t = r->t;
	uint64_t total = 0, done_events = 0;
	for (size_t i = 0; i < t->n_locations; i++) {
		OTF2_Reader_SelectLocation(rd, t->locations[i].id);
		total += t->locations[i].events_declared;
	}
	int rc = read_local_definitions(r, rd);
	if (rc)
		return rc;
	if (OTF2_Reader_OpenEvtFiles(rd) != OTF2_SUCCESS)
		return err_set(r->e, ERR_FORMAT, "%s: cannot open event files (%s)", r->anchor,
			       r->otf2_msg[0] ? r->otf2_msg : "unknown reason");
	t->info.t_begin = UINT64_MAX;
	for (uint32_t i = 0; i < t->n_locations && rc == 0; i++)
		rc = read_location(r, rd, i, o, &done_events, total);
	OTF2_Reader_CloseEvtFiles(rd);
	/* Records without a callback (metrics, RMA, threads, OpenMP, CUDA ...)
	 * are skipped by OTF2 but still counted in the events read. */
	uint64_t known = 0;
	for (int k = 0; k < REC_OTHER; k++)
		known += t->info.records[k];
	t->info.records[REC_OTHER] = t->info.events - known;
	if (t->info.t_begin == UINT64_MAX)
		t->info.t_begin = 0;
	return rc;
}

static int
read_archive(struct otf2r *r, const struct otf2_read_opts *o)
{
	OTF2_Reader *rd = OTF2_Reader_Open(r->anchor);
	if (!rd)
		return err_set(r->e, ERR_IO, "%s: cannot open OTF2 archive (%s)", r->anchor,
			       r->otf2_msg[0] ? r->otf2_msg : "unknown reason");
	int rc = 0;
	if (OTF2_Reader_SetSerialCollectiveCallbacks(rd) != OTF2_SUCCESS) {
		rc = err_set(r->e, ERR_FORMAT, "%s: cannot read archive (%s)", r->anchor,
			     r->otf2_msg[0] ? r->otf2_msg : "unknown reason");
		goto out;
	}
	uint8_t v[3] = { 0 };
	char *creator = NULL;
	if (OTF2_Reader_GetVersion(rd, &v[0], &v[1], &v[2]) == OTF2_SUCCESS)
		for (int i = 0; i < 3; i++)
			r->t->info.version[i] = v[i];
	if (OTF2_Reader_GetCreator(rd, &creator) == OTF2_SUCCESS) {
		rc = trace_set_creator(r->t, creator);
		free(creator);
		if (rc) {
			err_set(r->e, rc, "%s: out of memory", r->anchor);
			goto out;
		}
	}
	if ((rc = otf2r_read_definitions(r, rd)))
		goto out;
	if (r->t->n_locations == 0) {
		rc = err_set(r->e, ERR_FORMAT, "%s: the archive defines no locations", r->anchor);
		goto out;
	}
	r->b = build_create(r->t);
	if (!r->b) {
		rc = err_set(r->e, ERR_NOMEM, "%s: out of memory", r->anchor);
		goto out;
	}
	if ((rc = read_events(r, rd, o)))
		goto out;
	rc = build_finish(r->b, o ? o->progress : NULL, o ? o->ud : NULL);
	if (rc)
		err_set(r->e, rc, "%s: %s while matching messages", r->anchor, err_name(rc));
out:
	OTF2_Reader_Close(rd);
	return rc;
}

int
otf2_read(const char *path, const struct otf2_read_opts *opts,
	  struct trace **out, struct err *e)
{
	*out = NULL;
	char *anchor = NULL;
	int rc = resolve_anchor(path, &anchor, e);
	if (rc)
		return rc;
	if ((rc = check_magic(anchor, e))) {
		free(anchor);
		return rc;
	}
	struct otf2r r = { .e = e, .anchor = anchor, .cur_tl = TRACE_NONE };
	r.t = trace_new();
	if (!r.t || trace_set_path(r.t, anchor)) {
		trace_destroy(r.t);
		free(anchor);
		return err_set(e, ERR_NOMEM, "%s: out of memory", path);
	}
	/* OTF2 prints its errors to stderr unless told otherwise; keep them
	 * for our own one-line message. The callback is process-wide. */
	OTF2_ErrorCallback prev = OTF2_Error_RegisterCallback(on_otf2_error, &r);
	rc = read_archive(&r, opts);
	OTF2_Error_RegisterCallback(prev, NULL);
	build_destroy(r.b);
	otf2r_free_definitions(&r);
	free(anchor);
	if (rc) {
		trace_destroy(r.t);
		return rc;
	}
	*out = r.t;
	return 0;
}
