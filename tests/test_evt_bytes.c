/* test_evt_bytes.c — skein's own OTF2 event decoding (otf2_evt.c) on
 * files made byte by byte (test_evt.c compares it with libotf2 on real
 * archives): both byte orders, long records, attribute lists, records
 * skein skips, every truncation, damaged bytes, malformed records, and
 * the clock corrections worked out by hand. */
#include "testutil.h"

#include <math.h>
#include <string.h>

#include "base/err.h"
#include "otf2/otf2_evt.h"
#include "model/trace.h"

static int
same_rec(const struct otf2_evt_rec *a, const struct otf2_evt_rec *b)
{
	return a->kind == b->kind && a->time == b->time && a->ref == b->ref && a->comm == b->comm &&
		a->tag == b->tag && a->len == b->len && a->request == b->request && a->aux == b->aux;
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

/* The chunk buffer of the decodes below, grown by otf2_evt_open to the
 * bytes a file needs when it needs more (it never shrinks): a read past
 * the file that grew it, the first cut of every_truncation's among them,
 * is one past the allocation, which the sanitizers see. */
static struct otf2_evt_buf grown;

/* Decodes path; returns 0 or the error, the records in out (at most
 * max), their number in *n and the events in *events. */
static int
decode_with(const char *path, const struct otf2_evt_maps *m, struct otf2_evt_rec *out, uint32_t max,
	    uint32_t *n, uint64_t *events)
{
	struct otf2_evt e;
	*n = 0;
	int rc = otf2_evt_open(&e, path, CHUNK, &grown, m);
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

/* Decodes path without mapping tables (decode_with). */
static int
decode(const char *path, struct otf2_evt_rec *out, uint32_t max, uint32_t *n, uint64_t *events)
{
	return decode_with(path, NULL, out, max, n, events);
}

static char tmpdir[] = "/tmp/skein-evtb-XXXXXX";

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

/* OMPT's team attribute (OMPT_PARALLEL_REGION_ID, global ref 5 here)
 * in the attribute list before an Enter: its value + 1 in the Enter's
 * aux, after attributes of every width; not taken from another type,
 * nor across a record, nor from a list cut short (no error: the list is
 * skipped by its length). */
static void
team_tags_by_hand(void **state)
{
	(void)state;
	static struct bytes f;
	f.n = 0;
	chunk_header(&f, 0);
	stamp(&f, 100);
	/* 4 attributes: uint8 (1 byte), int16 (2), float (4), then ref 5 uint64 42 */
	u8(&f, 6); u8(&f, 23); cint(&f, 4, 1);
	cint(&f, 3, 1); u8(&f, 1); u8(&f, 9);
	cint(&f, 4, 1); u8(&f, 6); u8(&f, 1); u8(&f, 2);
	cint(&f, 6, 1); u8(&f, 9); u8(&f, 0); u8(&f, 0); u8(&f, 0); u8(&f, 0);
	cint(&f, 5, 1); u8(&f, 4); cint(&f, 42, 1);
	u8(&f, 12); cint(&f, 7, 1);                    /* Enter 7: tag 42 */
	stamp(&f, 101);
	u8(&f, 6); u8(&f, 7); cint(&f, 1, 1); cint(&f, 5, 1); u8(&f, 3); cint(&f, 9, 1);
	u8(&f, 12); cint(&f, 8, 1);                    /* ref 5 as a uint32: no tag */
	stamp(&f, 102);
	u8(&f, 6); u8(&f, 7); cint(&f, 1, 1); cint(&f, 5, 1); u8(&f, 4); cint(&f, 3, 1);
	u8(&f, 13); cint(&f, 7, 1);                    /* a Leave takes it: */
	u8(&f, 12); cint(&f, 9, 1);                    /* the next Enter has none */
	stamp(&f, 103);
	u8(&f, 6); u8(&f, 5); cint(&f, 3, 1); cint(&f, 5, 1); u8(&f, 4);  /* 3 claimed, cut */
	u8(&f, 12); cint(&f, 10, 1);
	u8(&f, 2);
	char path[64];
	snprintf(path, sizeof path, "%s/tag.evt", tmpdir);
	write_file(path, f.b, f.n);
	struct otf2_evt_maps m = { .team_attr = 5 + 1 };
	struct otf2_evt_rec out[8];
	uint32_t n;
	uint64_t events;
	assert_int_equal(decode_with(path, &m, out, 8, &n, &events), 0);
	assert_int_equal(n, 5);
	const uint64_t want[5] = { 43, 0, 0, 0, 0 };
	for (uint32_t i = 0; i < n; i++)
		assert_int_equal(out[i].aux, want[i]);
	assert_int_equal(out[0].ref, 7);
	assert_int_equal(out[4].ref, 10);
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
		struct otf2_evt e;
		int rc = otf2_evt_open(&e, path, CHUNK, &grown, NULL);
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
 * too long for its field; OpenMP's task records with a field more. */
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

	/* OpenMP's team and task records cut short: a ThreadTeamBegin
	 * without its team, a ThreadTaskCreate without its generation */
	f.n = 0;
	chunk_header(&f, 0);
	stamp(&f, 5);
	u8(&f, 55); u8(&f, 0);
	u8(&f, 0); u8(&f, 2);
	write_file(path, f.b, f.n);
	assert_int_equal(decode(path, out, 4, &n, &events), ERR_FORMAT);
	f.n = 0;
	chunk_header(&f, 0);
	stamp(&f, 5);
	u8(&f, 59); u8(&f, 4); cint(&f, 1, 1); cint(&f, 0, 0);
	u8(&f, 0); u8(&f, 0); u8(&f, 2);
	write_file(path, f.b, f.n);
	assert_int_equal(decode(path, out, 4, &n, &events), ERR_FORMAT);
	/* whole, with a field added after (a later OTF2's), read */
	f.n = 0;
	chunk_header(&f, 0);
	stamp(&f, 5);
	u8(&f, 60); u8(&f, 8); cint(&f, 1, 1); cint(&f, 2, 1); cint(&f, 3, 1); u8(&f, 9); u8(&f, 9);
	u8(&f, 2);
	write_file(path, f.b, f.n);
	assert_int_equal(decode(path, out, 4, &n, &events), 0);
	assert_int_equal(n, 1);
	assert_int_equal(out[0].kind, REC_THREAD_TASK_SWITCH);
	assert_int_equal(out[0].request, otf2_task_id(1, 2, 3));

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
	struct otf2_evt_buf b = { buf, sizeof buf };
	struct otf2_evt e;
	struct otf2_evt_maps m = { .iv = iv, .n_iv = 2 };
	assert_int_equal(otf2_evt_open(&e, path, CHUNK, &b, &m), 0);
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
	struct otf2_evt_buf b = { buf, sizeof buf };
	struct otf2_evt e;
	struct otf2_evt_maps m = { .iv = iv, .n_iv = 1 };
	assert_int_equal(otf2_evt_open(&e, path, CHUNK, &b, &m), 0);
	struct otf2_evt_rec out[4];
	uint32_t n;
	int rc = otf2_evt_read(&e, out, 4, &n);
	otf2_evt_close(&e);
	assert_int_equal(rc, 0);
	assert_int_equal(n, 2);
	assert_int_equal(out[0].time, 2000 + 5 - (UINT64_C(1) << 62));
}

/* The chunk buffer grows to the file when the file is shorter than a
 * chunk, to the chunk when it is longer, and never shrinks. */
static void
buffer_sized_by_file(void **state)
{
	(void)state;
	static struct bytes one, two;
	one.n = 0;
	chunk_header(&one, 0);
	stamp(&one, 1000);
	u8(&one, 12); cint(&one, 7, 1);
	u8(&one, 2);
	sample_file(&two);
	char small[64], big[64];
	snprintf(small, sizeof small, "%s/small.evt", tmpdir);
	snprintf(big, sizeof big, "%s/big.evt", tmpdir);
	write_file(small, one.b, one.n);
	write_file(big, two.b, two.n);
	struct otf2_evt_buf b = { 0 };
	struct otf2_evt e;
	struct otf2_evt_rec out[8];
	uint32_t n;
	assert_int_equal(otf2_evt_open(&e, small, CHUNK, &b, NULL), 0);
	assert_int_equal(b.cap, one.n + OTF2_EVT_PAD);
	assert_int_equal(otf2_evt_read(&e, out, 8, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(out[0].ref, 7);
	otf2_evt_close(&e);
	assert_int_equal(otf2_evt_open(&e, big, CHUNK, &b, NULL), 0);
	assert_int_equal(b.cap, CHUNK + OTF2_EVT_PAD);
	otf2_evt_close(&e);
	assert_int_equal(otf2_evt_open(&e, small, CHUNK, &b, NULL), 0);
	assert_int_equal(b.cap, CHUNK + OTF2_EVT_PAD);
	otf2_evt_close(&e);
	free(b.p);
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
	free(grown.p);
	return getenv("KEEP") ? 0 : system(cmd) == 0 ? 0 : -1;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(made_by_hand),
		cmocka_unit_test(team_tags_by_hand),
		cmocka_unit_test(every_truncation),
		cmocka_unit_test(damaged_bytes),
		cmocka_unit_test(malformed_records),
		cmocka_unit_test(clock_corrections),
		cmocka_unit_test(clock_absurd_slope),
		cmocka_unit_test(buffer_sized_by_file),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
