/* test_evt.c — skein's own OTF2 event decoding (src/otf2/otf2_evt.c)
 * against libotf2's event reader, record by record, on every location of
 * every trace at hand (the corpus, and ../shared's real traces with their
 * mapping tables and clock offsets); and on files made byte by byte here:
 * both byte orders, long records, attribute lists, records skein skips,
 * every truncation and damaged bytes. */
#include "testutil.h"

#include <math.h>
#include <string.h>

#include <otf2/otf2.h>

#include "base/err.h"
#include "otf2/otf2_evt.h"

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

/* ---- the local definitions: mapping tables and clock offsets ---- */

struct local {
	const OTF2_IdMap *region, *comm, *cc;
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
		a->tag == b->tag && a->len == b->len && a->request == b->request;
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
	OTF2_Reader_OpenEvtFiles(rd);
	uint8_t *buf = malloc(evt_chunk + OTF2_EVT_PAD);
	assert_non_null(buf);
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
		*maps += l->region || l->comm;
		*clocks += n_iv > 0;
		struct otf2_evt_maps m = { .region = l->region, .comm = l->comm,
					   .calling_context = l->cc, .cc = &locs.cc, .iv = iv,
					   .n_iv = (uint32_t)n_iv };
		struct otf2_evt e;
		assert_int_equal(otf2_evt_open(&e, path, evt_chunk, buf, &m), 0);
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
	free(buf);
	OTF2_EvtReaderCallbacks_Delete(cb);
	OTF2_Reader_CloseEvtFiles(rd);
	OTF2_Reader_Close(rd);
	otf2_ccmap_fini(&locs.cc);
	free(local);
	return compared;
}

static uint64_t
compare_glob(const char *pattern, unsigned *n_traces, unsigned *maps, unsigned *clocks)
{
	glob_t g;
	uint64_t recs = 0;
	if (glob(pattern, 0, NULL, &g) != 0)
		return 0;
	for (size_t i = 0; i < g.gl_pathc; i++) {
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
	unsigned n = 0, maps = 0, clocks = 0;
	uint64_t recs = compare_glob(pattern, &n, &maps, &clocks);
	assert_true(n >= 20);
	assert_true(recs > 10000);
}

static void
shared_as_libotf2(void **state)
{
	(void)state;
	char dir[1100];
	SHARED_TRACE(dir, "otf2");
	char pattern[1200];
	unsigned n = 0, maps = 0, clocks = 0;
	snprintf(pattern, sizeof pattern, "%s/*/*.otf2", dir);
	uint64_t recs = compare_glob(pattern, &n, &maps, &clocks);
	print_message("%u archives, %u locations with mapped ids, %u with corrected clocks, "
		      "%llu records\n", n, maps, clocks, (unsigned long long)recs);
	/* the eleven Score-P and tracer archives map ids (35 locations map
	 * regions or communicators) and correct clocks (114) */
	assert_true(n >= 12);
	assert_true(maps >= 30);
	assert_true(clocks >= 100);
	assert_true(recs > 250000);
}

/* ---- files made byte by byte ---- */

struct bytes {
	uint8_t b[4096];
	size_t n;
	int big;
};

static void
put(struct bytes *f, const void *p, size_t n)
{
	assert_true(f->n + n <= sizeof f->b);
	memcpy(f->b + f->n, p, n);
	f->n += n;
}

static void
u8(struct bytes *f, unsigned v)
{
	uint8_t c = (uint8_t)v;
	put(f, &c, 1);
}

static void
full64(struct bytes *f, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		u8(f, (unsigned)(v >> (f->big ? 56 - 8 * i : 8 * i)));
}

/* a compressed integer in size bytes (0xff: all ones) */
static void
cint(struct bytes *f, uint64_t v, unsigned size)
{
	u8(f, size);
	if (size == 0xff)
		return;
	for (unsigned i = 0; i < size; i++)
		u8(f, (unsigned)(v >> (f->big ? 8 * (size - 1 - i) : 8 * i)));
}

static void
chunk_header(struct bytes *f, int big)
{
	f->big = big;
	u8(f, 3);
	u8(f, big ? 0x23 : 0x42);
	full64(f, 1);
	full64(f, 0);
}

static void
stamp(struct bytes *f, uint64_t t)
{
	u8(f, 5);
	full64(f, t);
}

/* pads the chunk that started at start to size with end-of-chunk bytes */
static void
end_chunk(struct bytes *f, size_t start, size_t size)
{
	while (f->n < start + size)
		u8(f, 0);
}

#define CHUNK 256

/* Two chunks, little- then big-endian, with every way a record can be
 * written that skein meets. */
static void
sample_file(struct bytes *f)
{
	f->n = 0;
	chunk_header(f, 0);
	stamp(f, 1000);
	u8(f, 12); cint(f, 7, 1);                      /* Enter 7 */
	stamp(f, 1001);
	u8(f, 6); u8(f, 4); u8(f, 1); u8(f, 9); u8(f, 0); u8(f, 0);  /* attribute list, skipped */
	u8(f, 13); cint(f, 0x123456, 3);               /* Leave, no timestamp of its own */
	stamp(f, 1002);
	u8(f, 200); u8(f, 0xff); full64(f, 3); u8(f, 1); u8(f, 2); u8(f, 3);  /* unknown, long length */
	u8(f, 24); cint(f, 0, 0xff);                   /* OmpFork: a singleton skipped */
	u8(f, 31); u8(f, 2); u8(f, 0); u8(f, 0);       /* Metric: skipped by length */
	stamp(f, 1003);
	u8(f, 15); u8(f, 15);                          /* Isend, a field added after */
	cint(f, 3, 1); cint(f, 0, 0); cint(f, 42, 1); cint(f, 0x0102030405ull, 5);
	cint(f, 0, 0xff); u8(f, 0); u8(f, 0); u8(f, 0);
	u8(f, 0);                                      /* end of chunk */
	end_chunk(f, 0, CHUNK);
	chunk_header(f, 1);
	stamp(f, 2000);
	u8(f, 22); u8(f, 0);                           /* CollectiveBegin */
	stamp(f, 2001);
	u8(f, 23); u8(f, 12);                          /* CollectiveEnd, big-endian */
	u8(f, 10); cint(f, 0x0201, 2); cint(f, 0, 0); cint(f, 0x010203, 3); cint(f, 0x0a0b, 2);
	stamp(f, 2002);
	u8(f, 11); u8(f, 1); u8(f, 1);                 /* MeasurementOnOff on */
	u8(f, 16); cint(f, 0x0102, 2);                 /* IsendComplete */
	u8(f, 2);                                      /* end of file */
}

static const struct otf2_evt_rec sample_recs[] = {
	{ .kind = REC_ENTER, .time = 1000, .ref = 7 },
	{ .kind = REC_LEAVE, .time = 1001, .ref = 0x123456 },
	{ .kind = REC_MPI_ISEND, .time = 1003, .ref = 3, .comm = 0, .tag = 42, .len = 0x0102030405ull,
	  .request = UINT64_MAX },
	{ .kind = REC_MPI_COLLECTIVE_BEGIN, .time = 2000 },
	{ .kind = REC_MPI_COLLECTIVE_END, .time = 2001, .tag = 10, .comm = 0x0201, .ref = 0,
	  .len = 0x010203, .request = 0x0a0b },
	{ .kind = REC_MEASUREMENT_ON_OFF, .time = 2002, .ref = 1 },
	{ .kind = REC_MPI_ISEND_COMPLETE, .time = 2002, .request = 0x0102 },
};
#define SAMPLE_EVENTS 10   /* the records above and the three skipped */

static void
write_file(const char *path, const uint8_t *b, size_t n)
{
	FILE *fp = fopen(path, "wb");
	assert_non_null(fp);
	assert_int_equal(fwrite(b, 1, n, fp), n);
	fclose(fp);
}

/* Decodes path; returns 0 or the error, the records in out (at most
 * max), their number in *n and the events in *events. */
static int
decode(const char *path, struct otf2_evt_rec *out, uint32_t max, uint32_t *n, uint64_t *events)
{
	static uint8_t buf[CHUNK + OTF2_EVT_PAD];
	struct otf2_evt e;
	*n = 0;
	int rc = otf2_evt_open(&e, path, CHUNK, buf, NULL);
	if (rc)
		return rc;
	uint32_t got;
	do {
		rc = otf2_evt_read(&e, out + *n, max - *n > 2 ? 2 : max - *n, &got);
		*n += got;
	} while (!rc && got && *n < max);
	*events = e.events;
	otf2_evt_close(&e);
	return rc;
}

static char tmpdir[] = "/tmp/skein-evt-XXXXXX";

static void
made_by_hand(void **state)
{
	(void)state;
	static struct bytes f;
	sample_file(&f);
	char path[64];
	snprintf(path, sizeof path, "%s/a.evt", tmpdir);
	write_file(path, f.b, f.n);
	struct otf2_evt_rec out[16];
	uint32_t n;
	uint64_t events;
	assert_int_equal(decode(path, out, 16, &n, &events), 0);
	assert_int_equal(n, sizeof sample_recs / sizeof *sample_recs);
	for (uint32_t i = 0; i < n; i++)
		if (!same_rec(&out[i], &sample_recs[i]))
			fail_msg("record %u differs", i);
	assert_int_equal(events, SAMPLE_EVENTS);
}

/* Every file cut short of its end-of-file record is an error, never a
 * crash or a silent end. */
static void
every_truncation(void **state)
{
	(void)state;
	static struct bytes f;
	sample_file(&f);
	char path[64];
	snprintf(path, sizeof path, "%s/t.evt", tmpdir);
	for (size_t len = 0; len < f.n; len++) {
		write_file(path, f.b, len);
		struct otf2_evt_rec out[16];
		uint32_t n;
		uint64_t events;
		int rc = decode(path, out, 16, &n, &events);
		if (rc != ERR_FORMAT)
			fail_msg("cut at %zu bytes of %zu: %d, not a format error", len, f.n, rc);
	}
}

/* Damaged bytes: any result but a crash or a hang (run under the
 * sanitizers), and the damage named when it is found. */
static void
damaged_bytes(void **state)
{
	(void)state;
	static struct bytes f;
	sample_file(&f);
	char path[64];
	snprintf(path, sizeof path, "%s/d.evt", tmpdir);
	uint32_t seed = 12345;
	unsigned errors = 0;
	for (int round = 0; round < 3000; round++) {
		static uint8_t b[sizeof f.b];
		memcpy(b, f.b, f.n);
		for (int k = 0; k < 1 + round % 4; k++) {
			seed = seed * 1103515245u + 12345u;
			size_t at = (seed >> 8) % f.n;
			seed = seed * 1103515245u + 12345u;
			b[at] = round % 3 == 0 ? 0xff : (uint8_t)(seed >> 16);
		}
		write_file(path, b, f.n);
		static uint8_t buf[CHUNK + OTF2_EVT_PAD];
		struct otf2_evt e;
		int rc = otf2_evt_open(&e, path, CHUNK, buf, NULL);
		struct otf2_evt_rec out[4];
		uint32_t got = 1;
		for (int i = 0; !rc && got && i < 1000; i++)
			rc = otf2_evt_read(&e, out, 4, &got);
		if (rc) {
			errors++;
			assert_int_equal(rc, ERR_FORMAT);
			assert_non_null(e.why);
		}
		assert_true(rc || !got);    /* it ends */
		otf2_evt_close(&e);
	}
	assert_true(errors > 300);
}

/* Fields past the record's announced length, and a compressed number
 * too long for its field. */
static void
malformed_records(void **state)
{
	(void)state;
	char path[64];
	snprintf(path, sizeof path, "%s/m.evt", tmpdir);
	static struct bytes f;
	struct otf2_evt_rec out[4];
	uint32_t n;
	uint64_t events;

	f.n = 0;
	chunk_header(&f, 0);
	stamp(&f, 5);
	u8(&f, 18); u8(&f, 3); cint(&f, 1, 1); cint(&f, 0, 0);   /* Recv cut after two fields */
	u8(&f, 0); u8(&f, 0); u8(&f, 2);
	write_file(path, f.b, f.n);
	assert_int_equal(decode(path, out, 4, &n, &events), ERR_FORMAT);

	f.n = 0;
	chunk_header(&f, 0);
	stamp(&f, 5);
	u8(&f, 12); u8(&f, 5); full64(&f, 0);                   /* Enter with a 5-byte region */
	u8(&f, 2);
	write_file(path, f.b, f.n);
	assert_int_equal(decode(path, out, 4, &n, &events), ERR_FORMAT);

	f.n = 0;
	chunk_header(&f, 0);
	f.b[1] = 0x77;                                           /* no byte order */
	u8(&f, 2);
	write_file(path, f.b, f.n);
	assert_int_equal(decode(path, out, 4, &n, &events), ERR_FORMAT);
}

/* The clock offsets' stretches and libotf2's interpolation, checked by
 * hand: before the first offset, between, and past the last. */
static void
clock_corrections(void **state)
{
	(void)state;
	uint64_t time[3] = { 1000, 2000, 4000 };
	int64_t offset[3] = { 100, 200, -100 };
	struct otf2_clock_iv iv[3];
	assert_int_equal(otf2_clock_intervals(time, offset, 3, iv), 2);
	assert_true(fabs(iv[0].slope - 0.1) < 1e-12);
	assert_true(fabs(iv[1].slope + 0.15) < 1e-12);
	assert_int_equal(otf2_clock_intervals(time, offset, 1, iv), 0);
	uint64_t bad_time[2] = { 2000, 2000 };
	assert_int_equal(otf2_clock_intervals(bad_time, offset, 2, iv), -1);
	otf2_clock_intervals(time, offset, 3, iv);

	static struct bytes f;
	f.n = 0;
	chunk_header(&f, 0);
	uint64_t at[] = { 500, 1500, 2000, 3001, 5000 };
	for (size_t i = 0; i < 5; i++) {
		stamp(&f, at[i]);
		u8(&f, 12); cint(&f, i, 1);
	}
	u8(&f, 2);
	char path[64];
	snprintf(path, sizeof path, "%s/c.evt", tmpdir);
	write_file(path, f.b, f.n);
	static uint8_t buf[CHUNK + OTF2_EVT_PAD];
	struct otf2_evt e;
	struct otf2_evt_maps m = { .iv = iv, .n_iv = 2 };
	assert_int_equal(otf2_evt_open(&e, path, CHUNK, buf, &m), 0);
	struct otf2_evt_rec out[8];
	uint32_t n;
	assert_int_equal(otf2_evt_read(&e, out, 8, &n), 0);
	otf2_evt_close(&e);
	assert_int_equal(n, 5);
	/* 500: 100 + 0.1 * -500 = 50; 1500: 150; 2000: 200 (the first
	 * stretch holds its end); 3001: 200 - 0.15 * 1001 = 49.85 -> 50;
	 * 5000: past the last stretch, 200 - 0.15 * 3000 = -250 */
	uint64_t want[] = { 550, 1650, 2200, 3051, 4750 };
	for (int i = 0; i < 5; i++)
		assert_int_equal(out[i].time, want[i]);
}

/* Found by fuzz_otf2: a corrupt archive's offsets give a slope so steep
 * that slope times distance leaves int64_t (undefined as a conversion):
 * the correction is held at 2^62 ticks either way. */
static void
clock_absurd_slope(void **state)
{
	(void)state;
	struct otf2_clock_iv iv[1] = { { .begin = 1000, .end = 2000, .offset = 5, .slope = -4.9e19 } };
	static struct bytes f;
	f.n = 0;
	chunk_header(&f, 0);
	stamp(&f, 2000);
	u8(&f, 12); cint(&f, 0, 1);
	stamp(&f, 0);
	u8(&f, 12); cint(&f, 1, 1);
	u8(&f, 2);
	char path[64];
	snprintf(path, sizeof path, "%s/s.evt", tmpdir);
	write_file(path, f.b, f.n);
	static uint8_t buf[CHUNK + OTF2_EVT_PAD];
	struct otf2_evt e;
	struct otf2_evt_maps m = { .iv = iv, .n_iv = 1 };
	assert_int_equal(otf2_evt_open(&e, path, CHUNK, buf, &m), 0);
	struct otf2_evt_rec out[4];
	uint32_t n;
	int rc = otf2_evt_read(&e, out, 4, &n);
	otf2_evt_close(&e);
	assert_int_equal(rc, 0);
	assert_int_equal(n, 2);
	assert_int_equal(out[0].time, 2000 + 5 - (UINT64_C(1) << 62));
}

/* ---- an archive written by libotf2 with what the traces at hand lack ---- */

static OTF2_FlushType
pre_flush(void *ud, OTF2_FileType type, OTF2_LocationRef loc, void *data, bool final)
{
	(void)ud; (void)type; (void)loc; (void)data; (void)final;
	return OTF2_FLUSH;
}

static OTF2_TimeStamp
post_flush(void *ud, OTF2_FileType type, OTF2_LocationRef loc)
{
	(void)ud; (void)type; (void)loc;
	return 0;
}

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
	OTF2_Archive *a = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, 1 << 20, 4 << 20,
					    OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
	assert_non_null(a);
	static OTF2_FlushCallbacks flush = { pre_flush, post_flush };
	OTF2_Archive_SetFlushCallbacks(a, &flush, NULL);
	OTF2_Archive_SetSerialCollectiveCallbacks(a);
	OTF2_Archive_OpenEvtFiles(a);
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
	OTF2_GlobalDefWriter_WriteClockProperties(g, 1, 0, 1000, OTF2_UNDEFINED_TIMESTAMP);
	OTF2_GlobalDefWriter_WriteString(g, 0, "");
	OTF2_GlobalDefWriter_WriteString(g, 1, "f");
	for (OTF2_RegionRef r = 0; r < 3; r++)
		OTF2_GlobalDefWriter_WriteRegion(g, r, 1, 1, 0, OTF2_REGION_ROLE_FUNCTION,
						 OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE, 0, 0, 0);
	OTF2_GlobalDefWriter_WriteCallingContext(g, 0, 1, OTF2_UNDEFINED_SOURCE_CODE_LOCATION,
						 OTF2_UNDEFINED_CALLING_CONTEXT);
	OTF2_GlobalDefWriter_WriteCallingContext(g, 7, 2, OTF2_UNDEFINED_SOURCE_CODE_LOCATION, 0);
	OTF2_GlobalDefWriter_WriteCallingContext(g, 1, 0, OTF2_UNDEFINED_SOURCE_CODE_LOCATION, 0);
	OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, 1, 1, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
	OTF2_GlobalDefWriter_WriteLocationGroup(g, 0, 1, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
						OTF2_UNDEFINED_LOCATION_GROUP);
	OTF2_GlobalDefWriter_WriteLocation(g, 0, 1, OTF2_LOCATION_TYPE_CPU_THREAD, 14, 0);
	OTF2_Archive_CloseGlobalDefWriter(a, g);
	OTF2_Archive_Close(a);

	char anchor[80];
	snprintf(anchor, sizeof anchor, "%s/traces.otf2", dir);
	unsigned maps_seen = 0, clocks = 0;
	/* 14 event records; libotf2 delivers 11 (not the buffer flush, nor two
	 * of the calling contexts), as skein's decoding must */
	assert_int_equal(compare_archive(anchor, &maps_seen, &clocks), 11);
	assert_int_equal(maps_seen, 1);
	assert_int_equal(clocks, 1);
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
		cmocka_unit_test(made_by_hand),
		cmocka_unit_test(every_truncation),
		cmocka_unit_test(damaged_bytes),
		cmocka_unit_test(malformed_records),
		cmocka_unit_test(clock_corrections),
		cmocka_unit_test(clock_absurd_slope),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
