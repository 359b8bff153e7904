/* test_defs.c — the definitions files' check before libotf2 reads them
 * (otf2r_check_defs, otf2/otf2_anchor.c) over chunks: files built byte
 * by byte at the least chunk size OTF2 has (256 KiB), the ones libotf2
 * writes or reads accepted with every record counted, the others
 * refused with what is wrong; and a global definitions file over one
 * chunk, written by libotf2, read whole. The mapping tables and clock
 * offsets skein reads itself (otf2r_walk_defs) against libotf2's
 * reading of the files libotf2 writes: every kind, both modes, the
 * largest ids; and the broken ones refused, a second table of a kind
 * too (as libotf2 refuses it). */
#include "testutil.h"
#include "testotf2.h"

#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "model/trace.h"
#include "otf2/otf2_impl.h"
#include "otf2/otf2_read.h"

#define CHUNK ((size_t)OTF2_CHUNK_SIZE_MIN)

static char tmpdir[] = "/tmp/skein-defs-XXXXXX";

/* A file being built: bytes, and the records it holds. */
struct file {
	unsigned char *b;
	size_t n, cap;
	uint64_t records;
};

static void
put(struct file *f, const void *p, size_t len)
{
	if (f->n + len > f->cap) {
		f->cap = 4 * CHUNK;
		while (f->cap < f->n + len)
			f->cap *= 2;
		f->b = realloc(f->b, f->cap);
		assert_non_null(f->b);
	}
	memcpy(f->b + f->n, p, len);
	f->n += len;
}

/* A chunk header at the next multiple of the chunk size (the first at 0),
 * the bytes before it zero; order 0x42 little endian, 0x23 big. */
static void
header(struct file *f, unsigned char order)
{
	size_t at = f->n ? (f->n + CHUNK - 1) / CHUNK * CHUNK : 0;
	unsigned char zero[1] = { 0 };
	while (f->n < at)
		put(f, zero, 1);
	unsigned char h[18] = { 3, order };
	put(f, h, sizeof h);
}

/* A clock offset record (type 6) of len bytes of content. */
static void
record(struct file *f, unsigned char len)
{
	unsigned char r[2 + 255] = { 6, len };
	put(f, r, 2u + len);
	f->records++;
}

static void
byte(struct file *f, unsigned char x)
{
	put(f, &x, 1);
}

/* Writes f to a file of its own; its path in path. */
static void
save(struct file *f, const char *name, char *path, size_t n)
{
	snprintf(path, n, "%s/%s.def", tmpdir, name);
	FILE *out = fopen(path, "wb");
	assert_non_null(out);
	assert_int_equal(fwrite(f->b, 1, f->n, out), f->n);
	assert_int_equal(fclose(out), 0);
}

/* f's check: 0 and every record counted, or the error naming want. */
static void
check(struct file *f, const char *name, const char *want)
{
	char path[256];
	save(f, name, path, sizeof path);
	uint64_t records = 0, maps = 0;
	struct err e = { 0 };
	int rc = otf2r_check_defs(path, CHUNK, 0, &records, &maps, &e);
	if (want) {
		if (rc != ERR_FORMAT || !strstr(e.msg, want))
			print_error("%s: %d '%s', want '%s'\n", name, rc, e.msg, want);
		assert_int_equal(rc, ERR_FORMAT);
		assert_non_null(strstr(e.msg, want));
	} else {
		if (rc)
			print_error("%s: %s\n", name, e.msg);
		assert_int_equal(rc, 0);
		assert_int_equal(records, f->records);
		assert_int_equal(maps, f->records);
	}
	free(f->b);
	*f = (struct file){ 0 };
}

/* Records of 98 bytes up to where the chunk's end leaves `room` bytes. */
static void
fill(struct file *f, size_t room)
{
	size_t end = (f->n / CHUNK + 1) * CHUNK;
	while (end - f->n >= 100 + room)
		record(f, 98);
	size_t left = end - f->n - room;   /* 0 to 99 */
	if (left >= 2)
		record(f, (unsigned char)(left - 2));
	else if (left == 1)
		byte(f, 0);                    /* an end of chunk, then padding */
}

static void
chunks_as_libotf2_writes_them(void **state)
{
	(void)state;
	struct file f = { 0 };
	/* the end-of-chunk record the chunk's last byte */
	header(&f, 0x42);
	fill(&f, 1);
	byte(&f, 0);
	assert_int_equal(f.n, CHUNK);
	header(&f, 0x42);
	record(&f, 10);
	byte(&f, 2);
	check(&f, "last-byte", NULL);
	/* padding after it, three chunks, the last short, big endian */
	header(&f, 0x23);
	fill(&f, 50);
	byte(&f, 0);
	header(&f, 0x23);
	fill(&f, 1);
	byte(&f, 0);
	header(&f, 0x23);
	record(&f, 200);
	byte(&f, 2);
	check(&f, "three", NULL);
	/* each chunk names its byte order */
	header(&f, 0x42);
	record(&f, 5);
	byte(&f, 0);
	header(&f, 0x23);
	record(&f, 5);
	byte(&f, 2);
	check(&f, "orders", NULL);
}

static void
broken_chunks_refused(void **state)
{
	(void)state;
	struct file f = { 0 };
	/* a record's length the chunk's last byte: it would swallow the
	 * next chunk's header */
	header(&f, 0x42);
	fill(&f, 2);
	byte(&f, 6);
	byte(&f, 18);
	assert_int_equal(f.n, CHUNK);
	header(&f, 0x42);
	byte(&f, 2);
	check(&f, "length-at-end", "a record runs past the end of its chunk");
	/* a record up to the chunk's end, no byte after it */
	header(&f, 0x42);
	fill(&f, 10);
	record(&f, 8);
	assert_int_equal(f.n, CHUNK);
	header(&f, 0x42);
	byte(&f, 2);
	check(&f, "no-end-of-chunk", "a record runs past the end of its chunk");
	/* the next chunk without its header */
	header(&f, 0x42);
	record(&f, 5);
	byte(&f, 0);
	header(&f, 0x42);
	f.b[CHUNK] = 7;
	byte(&f, 2);
	check(&f, "no-header", "a chunk without its header");
	/* the file ends where the next chunk would begin */
	header(&f, 0x42);
	fill(&f, 1);
	byte(&f, 0);
	check(&f, "cut", "no end-of-file mark");
}

/* Global definitions over one chunk: some 9,000 strings. */
static void
global_definitions_over_chunks(void **state)
{
	(void)state;
	char dir[64], path[96];
	snprintf(dir, sizeof dir, "%s/g", tmpdir);
	OTF2_Archive *a = tu_new_archive_chunks(dir, OTF2_CHUNK_SIZE_MIN);
	OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(a, 0);
	assert_non_null(w);
	OTF2_EvtWriter_Enter(w, NULL, 10, 0);
	OTF2_EvtWriter_Leave(w, NULL, 20, 0);
	OTF2_Archive_CloseEvtWriter(a, w);
	OTF2_Archive_CloseEvtFiles(a);
	OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(a);
	assert_non_null(g);
	tu_plain_defs(g, 100, 1, 1, 2);
	char s[64];
	for (OTF2_StringRef i = 2; i < 9002; i++) {
		snprintf(s, sizeof s, "a string of some length, number %u", (unsigned)i);
		OTF2_GlobalDefWriter_WriteString(g, i, s);
	}
	OTF2_Archive_CloseGlobalDefWriter(a, g);
	OTF2_Archive_Close(a);
	snprintf(path, sizeof path, "%s/traces.def", dir);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	assert_true(ftell(f) > (long)CHUNK);
	fclose(f);
	snprintf(path, sizeof path, "%s/traces.otf2", dir);
	struct trace *t = NULL;
	struct err e = { 0 };
	if (otf2_read(path, NULL, &t, &e))
		print_error("%s\n", e.msg);
	assert_non_null(t);
	assert_int_equal(trace_info(t)->events, 2);
	trace_destroy(t);
}

/* What a local definitions file delivered, in order: for a mapping table
 * its type, size and pairs, for a clock offset its time and offset, as
 * a list of numbers. */
struct seen {
	uint64_t *v;
	size_t n, cap;
};

static void
see(struct seen *s, uint64_t x)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 256;
		s->v = realloc(s->v, s->cap * sizeof *s->v);
		assert_non_null(s->v);
	}
	s->v[s->n++] = x;
}

static void
see_pair(uint64_t local, uint64_t global, void *ud)
{
	see(ud, local);
	see(ud, global);
}

static void
see_map(struct seen *s, uint8_t type, const OTF2_IdMap *m)
{
	uint64_t size = 0;
	OTF2_IdMapMode mode;
	assert_int_equal(OTF2_IdMap_GetSize(m, &size), OTF2_SUCCESS);
	assert_int_equal(OTF2_IdMap_GetMode(m, &mode), OTF2_SUCCESS);
	see(s, 1000 + type);
	see(s, mode);
	see(s, size);
	OTF2_IdMap_Traverse(m, see_pair, s);
}

static OTF2_CallbackCode
lib_mapping(void *ud, OTF2_MappingType type, const OTF2_IdMap *m)
{
	see_map(ud, type, m);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
lib_clock(void *ud, OTF2_TimeStamp time, int64_t offset, double dev)
{
	(void)dev;
	see(ud, 2000);
	see(ud, time);
	see(ud, (uint64_t)offset);
	return OTF2_CALLBACK_SUCCESS;
}

static int
own_mapping(void *ctx, uint8_t type, OTF2_IdMap *m)
{
	see_map(ctx, type, m);
	OTF2_IdMap_Free(m);
	return 0;
}

static int
own_clock(void *ctx, uint64_t time, int64_t offset)
{
	return lib_clock(ctx, time, offset, 0), 0;
}

static OTF2_IdMap *
sparse_map(const uint64_t *pairs, size_t n)
{
	OTF2_IdMap *m = OTF2_IdMap_Create(OTF2_ID_MAP_SPARSE, n);
	assert_non_null(m);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(OTF2_IdMap_AddIdPair(m, pairs[2 * i], pairs[2 * i + 1]), OTF2_SUCCESS);
	return m;
}

static void
own_tables_as_libotf2_reads_them(void **state)
{
	(void)state;
	enum { N_LOC = 3, N_IDS = 10000 };
	char dir[64], path[128];
	snprintf(dir, sizeof dir, "%s/m", tmpdir);
	OTF2_Archive *a = tu_new_archive_chunks(dir, OTF2_CHUNK_SIZE_MIN);
	for (uint64_t l = 0; l < N_LOC; l++) {
		OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(a, l);
		assert_non_null(w);
		OTF2_EvtWriter_Enter(w, NULL, 10, 0);
		OTF2_EvtWriter_Leave(w, NULL, 20, 0);
		OTF2_Archive_CloseEvtWriter(a, w);
	}
	OTF2_Archive_CloseEvtFiles(a);
	OTF2_Archive_OpenDefFiles(a);
	uint64_t *ids = malloc(N_IDS * sizeof *ids);
	assert_non_null(ids);
	for (uint64_t i = 0; i < N_IDS; i++)
		ids[i] = i * 2654435761u % 100003 + (i % 97 == 0 ? UINT64_C(1) << 40 : 0);
	ids[7] = OTF2_UNDEFINED_UINT64;
	const uint64_t pairs[] = { 3, 9, 70000, 1, UINT64_C(1) << 33, 4, 12, OTF2_UNDEFINED_UINT64 };
	const OTF2_MappingType kinds[] = { OTF2_MAPPING_REGION, OTF2_MAPPING_COMM, OTF2_MAPPING_CALLING_CONTEXT,
					   OTF2_MAPPING_RMA_WIN, OTF2_MAPPING_ATTRIBUTE, OTF2_MAPPING_LOCATION,
					   OTF2_MAPPING_STRING, OTF2_MAPPING_METRIC };
	for (uint64_t l = 0; l < N_LOC; l++) {
		OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(a, l);
		assert_non_null(d);
		for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
			/* dense and sparse, of one id up to N_IDS */
			OTF2_IdMap *m = k && (k + l) % 2 ? sparse_map(pairs, 4)
				: OTF2_IdMap_CreateFromUint64Array(k == 0 ? N_IDS : 1 + k, ids, false);
			assert_non_null(m);
			OTF2_DefWriter_WriteMappingTable(d, kinds[k], m);
			OTF2_IdMap_Free(m);
		}
		for (int64_t c = 0; c < 50; c++)
			OTF2_DefWriter_WriteClockOffset(d, (UINT64_C(1) << 56) * (uint64_t)c + (uint64_t)c,
							c % 3 == 0 ? -c * 1000003 : c == 1 ? -1 : c, 0.25);
		OTF2_Archive_CloseDefWriter(a, d);
	}
	free(ids);
	OTF2_Archive_CloseDefFiles(a);
	OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(a);
	assert_non_null(g);
	tu_plain_defs(g, 100, 1, N_LOC, 2 * N_LOC);
	OTF2_Archive_CloseGlobalDefWriter(a, g);
	OTF2_Archive_Close(a);

	snprintf(path, sizeof path, "%s/traces.otf2", dir);
	OTF2_Reader *rd = OTF2_Reader_Open(path);
	assert_non_null(rd);
	OTF2_Reader_SetSerialCollectiveCallbacks(rd);
	for (uint64_t l = 0; l < N_LOC; l++)
		OTF2_Reader_SelectLocation(rd, l);
	OTF2_Reader_OpenDefFiles(rd);
	OTF2_DefReaderCallbacks *cb = OTF2_DefReaderCallbacks_New();
	OTF2_DefReaderCallbacks_SetMappingTableCallback(cb, lib_mapping);
	OTF2_DefReaderCallbacks_SetClockOffsetCallback(cb, lib_clock);
	for (uint64_t l = 0; l < N_LOC; l++) {
		struct seen lib = { 0 }, own = { 0 };
		OTF2_DefReader *dr = OTF2_Reader_GetDefReader(rd, l);
		assert_non_null(dr);
		OTF2_Reader_RegisterDefCallbacks(rd, dr, cb, &lib);
		uint64_t n = 0;
		assert_int_equal(OTF2_Reader_ReadAllLocalDefinitions(rd, dr, &n), OTF2_SUCCESS);
		OTF2_Reader_CloseDefReader(rd, dr);
		snprintf(path, sizeof path, "%s/traces/%llu.def", dir, (unsigned long long)l);
		struct otf2r_local_sink sink = { own_mapping, own_clock, &own };
		uint64_t records = 0, maps = 0;
		struct err e = { 0 };
		if (otf2r_walk_defs(path, OTF2_CHUNK_SIZE_MIN, 0, &sink, &records, &maps, &e))
			print_error("%s\n", e.msg);
		assert_int_equal(records, 8 + 50);
		assert_int_equal(maps, 8 + 50);
		assert_true(lib.n > N_IDS);
		assert_int_equal(own.n, lib.n);
		for (size_t i = 0; i < lib.n; i++)
			assert_true(own.v[i] == lib.v[i]);
		free(lib.v);
		free(own.v);
	}
	OTF2_DefReaderCallbacks_Delete(cb);
	OTF2_Reader_CloseDefFiles(rd);
	OTF2_Reader_Close(rd);
}

/* A local file of one record, type and content, refused naming want. */
static void
refused(const char *name, unsigned char type, const unsigned char *content, unsigned char len,
	const char *want)
{
	struct file f = { 0 };
	header(&f, 0x42);
	byte(&f, type);
	byte(&f, len);
	put(&f, content, len);
	byte(&f, 2);
	char path[256];
	save(&f, name, path, sizeof path);
	free(f.b);
	struct seen s = { 0 };
	struct otf2r_local_sink sink = { own_mapping, own_clock, &s };
	struct err e = { 0 };
	int rc = otf2r_walk_defs(path, CHUNK, 0, &sink, NULL, NULL, &e);
	if (rc != ERR_FORMAT || !strstr(e.msg, want))
		print_error("%s: %d '%s', want '%s'\n", name, rc, e.msg, want);
	assert_int_equal(rc, ERR_FORMAT);
	assert_non_null(strstr(e.msg, want));
	assert_non_null(strstr(e.msg, "at byte 18)"));    /* the record's first */
	free(s.v);
}

/* An archive named name of one location (one region entered at 150,
 * left at 250) whose local definitions defs writes; its anchor's path
 * in path. */
static void
one_location_archive(const char *name, void (*defs)(OTF2_DefWriter *d, int k), int k, char *path,
		     size_t n)
{
	char dir[64];
	snprintf(dir, sizeof dir, "%s/%s", tmpdir, name);
	OTF2_Archive *a = tu_new_archive(dir);
	OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(a, 0);
	assert_non_null(w);
	OTF2_EvtWriter_Enter(w, NULL, 150, 0);
	OTF2_EvtWriter_Leave(w, NULL, 250, 0);
	OTF2_Archive_CloseEvtWriter(a, w);
	OTF2_Archive_CloseEvtFiles(a);
	OTF2_Archive_OpenDefFiles(a);
	OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(a, 0);
	assert_non_null(d);
	defs(d, k);
	OTF2_Archive_CloseDefWriter(a, d);
	OTF2_Archive_CloseDefFiles(a);
	OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(a);
	assert_non_null(g);
	tu_plain_defs(g, 400, 1, 1, 2);
	OTF2_Archive_CloseGlobalDefWriter(a, g);
	OTF2_Archive_Close(a);
	snprintf(path, n, "%s/traces.otf2", dir);
}

static void
two_region_tables(OTF2_DefWriter *d, int k)
{
	(void)k;
	const uint64_t ids[] = { 0 };
	for (int i = 0; i < 2; i++) {
		OTF2_IdMap *m = OTF2_IdMap_CreateFromUint64Array(1, ids, false);
		assert_non_null(m);
		OTF2_DefWriter_WriteMappingTable(d, OTF2_MAPPING_REGION, m);
		OTF2_IdMap_Free(m);
	}
}

/* Two region tables in one location's file: refused, as libotf2 refuses
 * them (skein before read the last); two tables of a kind OTF2 does not
 * know (20): read, as libotf2 ignores them. */
static void
second_table_of_a_kind(void **state)
{
	(void)state;
	for (int kind = 0; kind < 2; kind++) {
		struct file f = { 0 };
		header(&f, 0x42);
		const unsigned char table[] = { 5, 5, kind ? 20 : 0, 1, 1, 0, 0 };
		put(&f, table, sizeof table);
		put(&f, table, sizeof table);
		byte(&f, 2);
		char path[256];
		save(&f, kind ? "unknown-twice" : "region-twice", path, sizeof path);
		free(f.b);
		struct seen s = { 0 };
		struct otf2r_local_sink sink = { own_mapping, own_clock, &s };
		struct err e = { 0 };
		uint64_t records = 0;
		int rc = otf2r_walk_defs(path, CHUNK, 0, &sink, &records, NULL, &e);
		if (kind) {
			assert_int_equal(rc, 0);
			assert_int_equal(records, 2);
		} else {
			assert_int_equal(rc, ERR_FORMAT);
			assert_non_null(strstr(e.msg, "a second mapping table of one kind at byte 25)"));
		}
		free(s.v);
	}
	/* the same, written by libotf2 into an archive: refused both ways */
	char path[128];
	one_location_archive("twice", two_region_tables, 0, path, sizeof path);
	for (int library = 0; library < 2; library++) {
		if (library)
			setenv("SKEIN_OTF2_EVENTS", "library", 1);
		struct trace *t = NULL;
		struct err e = { 0 };
		assert_int_equal(otf2_read(path, NULL, &t, &e), ERR_FORMAT);
		assert_null(t);
		assert_non_null(strstr(e.msg, "0.def: corrupt local definitions"));
		unsetenv("SKEIN_OTF2_EVENTS");
	}
}

static void
broken_tables_refused(void **state)
{
	(void)state;
	/* a region table (0): its size (compressed), mode, the ids */
	const unsigned char cut[] = { 0, 1, 2, 0, 5, 2, 6 };
	refused("table-cut", 5, cut, sizeof cut, "a mapping table cut short");
	const unsigned char cut_pair[] = { 0, 1, 1, 1, 5, 2, 7 };
	refused("pair-cut", 5, cut_pair, sizeof cut_pair, "a mapping table cut short");
	const unsigned char no_mode[] = { 0, 1, 2 };
	refused("no-mode", 5, no_mode, sizeof no_mode, "a mapping table cut short");
	const unsigned char mode[] = { 0, 1, 1, 7, 0 };
	refused("mode", 5, mode, sizeof mode, "a mapping table of an unknown mode");
	const unsigned char empty[] = { 0, 0, 0 };
	refused("empty", 5, empty, sizeof empty, "an empty mapping table");
	const unsigned char many[] = { 0, 4, 0xff, 0xff, 0xff, 0x0f, 1, 0, 1 };
	refused("many", 5, many, sizeof many, "claims more ids than its record holds");
	const unsigned char size[] = { 0, 9, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0 };
	refused("size-byte", 5, size, sizeof size, "a mapping table cut short");
	const unsigned char unsorted[] = { 1, 1, 2, 1, 1, 5, 1, 7, 1, 4, 1, 8 };
	refused("unsorted", 5, unsorted, sizeof unsorted, "a sparse mapping table's local ids out of order");
	const unsigned char twice[] = { 1, 1, 2, 1, 1, 5, 1, 7, 1, 5, 1, 8 };
	refused("twice", 5, twice, sizeof twice, "a sparse mapping table's local ids out of order");
	/* a clock offset: time (8 bytes), offset (compressed), a double */
	const unsigned char clock[] = { 1, 0, 0, 0, 0, 0, 0, 0, 1, 5, 0, 0, 0 };
	refused("clock", 6, clock, sizeof clock, "a clock offset cut short");
	const unsigned char clock_time[] = { 1, 0, 0 };
	refused("clock-time", 6, clock_time, sizeof clock_time, "a clock offset cut short");
}

/* Offsets a whole int64 apart (libotf2 writes them): the slope's
 * difference is taken modulo 2^64, as libotf2's build takes it, without
 * a signed overflow (the sanitizer builds stop at one). */
static void
clock_offsets_far_apart(void **state)
{
	(void)state;
	const uint64_t time[] = { 0, 1000, 2000 };
	const int64_t offset[] = { -1, INT64_MAX, INT64_MIN };
	struct otf2_clock_iv iv[2];
	assert_int_equal(otf2_clock_intervals(time, offset, 3, iv), 2);
	assert_true(iv[0].slope == (double)INT64_MIN / 1000.0);    /* INT64_MAX + 1 wrapped */
	assert_true(iv[1].slope == 1.0 / 1000.0);                  /* INT64_MIN - INT64_MAX wrapped: 1 */
}

/* Clock offsets whose times do not rise (libotf2 refuses them when it
 * reads them; skein, reading them itself, too) */
static void
out_of_order_offsets(OTF2_DefWriter *d, int k)
{
	const uint64_t times[][3] = { { 100, 100, 300 }, { 100, 300, 200 } };
	for (int i = 0; i < 3; i++)
		OTF2_DefWriter_WriteClockOffset(d, times[k][i], 10 * i, 0);
}

static void
clock_offsets_out_of_order_refused(void **state)
{
	(void)state;
	for (int k = 0; k < 2; k++) {
		char name[16], path[128];
		snprintf(name, sizeof name, "o%d", k);
		one_location_archive(name, out_of_order_offsets, k, path, sizeof path);
		struct trace *t = NULL;
		struct err e = { 0 };
		assert_int_equal(otf2_read(path, NULL, &t, &e), ERR_FORMAT);
		assert_null(t);
		if (!strstr(e.msg, "clock offsets out of order"))
			print_error("%s\n", e.msg);
		assert_non_null(strstr(e.msg, "clock offsets out of order"));
	}
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
	return system(cmd) == 0 ? 0 : -1;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(chunks_as_libotf2_writes_them),
		cmocka_unit_test(broken_chunks_refused),
		cmocka_unit_test(global_definitions_over_chunks),
		cmocka_unit_test(own_tables_as_libotf2_reads_them),
		cmocka_unit_test(broken_tables_refused),
		cmocka_unit_test(second_table_of_a_kind),
		cmocka_unit_test(clock_offsets_out_of_order_refused),
		cmocka_unit_test(clock_offsets_far_apart),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
