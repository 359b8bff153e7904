/* test_defs.c — the definitions files' check before libotf2 reads them
 * (otf2r_check_defs, otf2/otf2_anchor.c) over chunks: files built byte
 * by byte at the least chunk size OTF2 has (256 KiB), the ones libotf2
 * writes or reads accepted with every record counted, the others
 * refused with what is wrong; and a global definitions file over one
 * chunk, written by libotf2, read whole. */
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
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
