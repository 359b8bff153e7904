/* test_core.c — the small building blocks: interning, the hash map, the
 * JSON writer, MPI name classification. */
#include "testutil.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "base/fmt.h"
#include "base/hmap.h"
#include "base/intern.h"
#include "base/json.h"
#include "base/par.h"
#include "base/vec.h"

/* Under TSan a quarter of the random values and operations of the tests
 * of single-threaded code (the hash map, fmt_f9, json_g9; the JSON
 * pieces up to 7 items where 13): TSan has no race to find in them, each
 * is some twenty times slower there, and the plain and ASan runs take
 * them whole. */
#if defined(__SANITIZE_THREAD__)
#define CORE_CUT 4
#else
#define CORE_CUT 1
#endif

static void
intern_dedups(void **state)
{
	(void)state;
	struct intern *in = intern_create();
	assert_non_null(in);
	assert_string_equal(intern_str(in, 0), "");
	uint32_t a, b, c, d;
	assert_int_equal(intern_add(in, "MPI_Send", 8, &a), 0);
	assert_int_equal(intern_add(in, "MPI_Sendrecv", 12, &b), 0);
	assert_int_equal(intern_add(in, "MPI_Sendrecv", 8, &c), 0);   /* a prefix */
	assert_int_equal(c, a);
	assert_int_not_equal(a, b);
	char buf[32];
	for (int i = 0; i < 5000; i++) {      /* through several rehashes */
		int n = snprintf(buf, sizeof buf, "region-%d", i);
		assert_int_equal(intern_add(in, buf, (size_t)n, &d), 0);
		assert_int_equal(d, (uint32_t)i + 3);
	}
	assert_int_equal(intern_add(in, "region-77", 9, &d), 0);
	assert_int_equal(d, 80);
	assert_string_equal(intern_str(in, 80), "region-77");
	assert_string_equal(intern_str(in, 999999), "");
	assert_int_equal(intern_count(in), 5003);
	intern_destroy(in);
	intern_destroy(NULL);
}

static void
hmap_put_get_take(void **state)
{
	(void)state;
	struct hmap m = { 0 };
	assert_null(hmap_get(&m, 1, 2));
	for (uint64_t i = 0; i < 10000; i++)
		assert_int_equal(hmap_put(&m, i, i * 7, (uint32_t)i), 0);
	assert_int_equal(m.n, 10000);
	uint32_t v;
	/* remove every other key, then check the rest are all still found */
	for (uint64_t i = 0; i < 10000; i += 2) {
		assert_int_equal(hmap_take(&m, i, i * 7, &v), 1);
		assert_int_equal(v, i);
	}
	assert_int_equal(hmap_take(&m, 0, 0, &v), 0);
	for (uint64_t i = 1; i < 10000; i += 2) {
		uint32_t *p = hmap_get(&m, i, i * 7);
		assert_non_null(p);
		assert_int_equal(*p, i);
		assert_null(hmap_get(&m, i, i * 7 + 1));
	}
	assert_int_equal(hmap_put(&m, 1, 7, 99), 0);      /* overwrite */
	assert_int_equal(*hmap_get(&m, 1, 7), 99);
	assert_int_equal(m.n, 5000);
	hmap_clear(&m);
	assert_null(hmap_get(&m, 1, 7));
	hmap_fini(&m);
}

/* hmap against a plain array of what it should hold, under random puts
 * (new keys and overwrites) and takes: consecutive keys, as request ids
 * often are, and keys differing only in their high bits (put and take
 * each probe once, take shifting the chain back). */
static void
hmap_random_ops(void **state)
{
	(void)state;
	enum { KEYS = 3000 };
	static uint32_t want[2 * KEYS];      /* value + 1, 0 when absent */
	struct hmap m = { 0 };
	uint32_t v;
	assert_int_equal(hmap_take(&m, 5, 0, &v), 0);
	uint64_t x = 12345;
	size_t n = 0;
	for (int step = 0; step < 200000 / CORE_CUT; step++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		uint32_t k = (uint32_t)(x >> 33) % (2 * KEYS);
		uint64_t key = k < KEYS ? 1000 + k : (uint64_t)(k - KEYS) << 40;
		if ((x >> 20) % 3) {
			uint32_t val = (uint32_t)(x >> 40);
			assert_int_equal(hmap_put(&m, key, 0, val), 0);
			n += !want[k];
			want[k] = val + 1;
		} else {
			int had = hmap_take(&m, key, 0, &v);
			assert_int_equal(had, want[k] != 0);
			if (had)
				assert_int_equal(v, want[k] - 1);
			n -= want[k] != 0;
			want[k] = 0;
		}
		assert_int_equal(m.n, n);
	}
	for (uint32_t k = 0; k < 2 * KEYS; k++) {
		uint64_t key = k < KEYS ? 1000 + k : (uint64_t)(k - KEYS) << 40;
		uint32_t *p = hmap_get(&m, key, 0);
		assert_int_equal(p != NULL, want[k] != 0);
		if (p)
			assert_int_equal(*p, want[k] - 1);
		assert_null(hmap_get(&m, key, 1));
	}
	hmap_fini(&m);
}

static void
json_writer(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json j;
	json_init(&j, f, 0);
	json_begin_object(&j);
	json_key(&j, "a\"b"); json_string(&j, "x\ny\x01");
	json_key(&j, "list");
	json_begin_array(&j);
	json_uint(&j, 1); json_int(&j, -2); json_double(&j, 0.5); json_bool(&j, 1); json_null(&j);
	json_begin_object(&j); json_end_object(&j);
	json_end_array(&j);
	json_key(&j, "empty"); json_begin_array(&j); json_end_array(&j);
	json_end_object(&j);
	json_finish(&j);
	fclose(f);
	assert_string_equal(buf, "{\"a\\\"b\":\"x\\ny\\u0001\",\"list\":[1,-2,0.5,true,null,{}],\"empty\":[]}\n");
	free(buf);

	/* past the writer's buffer: 100,000 numbers, a string longer than
	 * the buffer with escapes, the extremes; byte for byte what a
	 * FILE written by hand holds */
	f = open_memstream(&buf, &len);
	json_init(&j, f, 1);
	json_begin_array(&j);
	for (uint64_t i = 0; i < 100000; i++)
		json_uint(&j, i * 7919);
	static char big[3 * JSON_BUF];
	for (size_t i = 0; i < sizeof big - 1; i++)
		big[i] = i % 20000 == 19999 ? '\n' : (char)('a' + i % 26);
	json_string(&j, big);
	json_int(&j, INT64_MIN);
	json_double(&j, 1.0 / 0.0);
	json_end_array(&j);
	json_finish(&j);
	fclose(f);
	/* the same written by hand */
	char *hand = NULL;
	size_t hand_len = 0;
	FILE *h = open_memstream(&hand, &hand_len);
	fputc('[', h);
	for (uint64_t i = 0; i < 100000; i++)
		fprintf(h, "%s\n  %" PRIu64, i ? "," : "", i * 7919);
	fputs(",\n  \"", h);
	for (size_t i = 0; i < sizeof big - 1; i++)
		fputs(big[i] == '\n' ? "\\n" : (char[]){ big[i], 0 }, h);
	fprintf(h, "\",\n  %" PRId64 ",\n  null\n]\n", INT64_MIN);
	fclose(h);
	assert_int_equal(len, hand_len);
	assert_memory_equal(buf, hand, len);
	free(hand);
	assert_memory_equal(buf, "[\n  0,\n  7919,", 14);
	free(buf);
}

/* Item i of the pieces' test: every third one writes nothing (a list
 * whose filter keeps some), some are long (past the writer's buffer). */
static void
piece_item(struct json *j, int i)
{
	static char big[JSON_BUF + 100];
	if (!big[0])
		memset(big, 'x', sizeof big - 1);
	if (i % 3 == 1)
		return;
	json_begin_object(j);
	json_key(j, "i"); json_uint(j, (uint64_t)i);
	json_key(j, "s"); json_string(j, i % 7 == 5 ? big : i % 2 ? "odd\n" : "even");
	json_end_object(j);
}

/* The document with items [0, n): [0, a) written in place, [a, b) and
 * [b, n) as two pieces through one reused memory (cut: 0, all in place). */
static char *
pieces_doc(int pretty, int n, int cut, int a, int b, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	struct json j, p;
	struct json_mem m = { 0 };
	json_init(&j, f, pretty);
	json_begin_object(&j);
	json_key(&j, "before"); json_uint(&j, 1);
	json_key(&j, "items");
	json_begin_array(&j);
	for (int i = 0; i < (cut ? a : n); i++)
		piece_item(&j, i);
	for (int k = 0; cut && k < 2; k++) {
		json_piece_open(&j, &p, &m);
		for (int i = k ? b : a; i < (k ? n : b); i++)
			piece_item(&p, i);
		assert_int_equal(json_piece_close(&p), 0);
		json_piece_append(&j, &p);
	}
	json_end_array(&j);
	json_key(&j, "after"); json_begin_array(&j); json_end_array(&j);
	json_end_object(&j);
	json_finish(&j);
	fclose(f);
	free(m.p);
	return buf;
}

/* An array's items written in pieces apart and added in order are the
 * bytes of the items written in place, wherever the cuts fall (before
 * any item, between, after all; pieces that write nothing), compact and
 * pretty. */
static void
json_pieces(void **state)
{
	(void)state;
	for (int pretty = 0; pretty < 2; pretty++)
		for (int n = 0; n <= (CORE_CUT > 1 ? 7 : 13); n++)
			for (int a = 0; a <= n; a++)
				for (int b = a; b <= n; b++) {
					size_t l1, l2;
					char *want = pieces_doc(pretty, n, 0, 0, 0, &l1);
					char *got = pieces_doc(pretty, n, 1, a, b, &l2);
					assert_int_equal(l1, l2);
					assert_memory_equal(want, got, l1);
					free(want);
					free(got);
				}
}

/* The fast "%.9g" against printf's: a million values of the kinds a
 * report writes (seconds from nanosecond and microsecond ticks, every
 * magnitude, any bit pattern, values a hair from a rounding half,
 * negatives, the boundaries of nine digits and of the notations), the
 * same bytes wherever it answers; where it does not, printf does. */
static void
json_g9_is_printf(void **state)
{
	(void)state;
	uint64_t x = 88172645463325252ull;
	char a[64], b[64];
	uint32_t answered = 0, n = 0;
	static const double edge[] = { 1e-14, 9.99999999e-5, 9.999999995e-5, 1e-4, 0.000123456789,
				       99999999.5, 999999999, 999999999.4, 999999999.6, 1e9, 123456789012.0,
				       1e21, 9.999999999e21, 0.1, 0.5, 1.5, 2.5e-7, -1e-5, 3.0,
				       1.0000000000000002e-14, 1.0000000000000004e-14, 9.999999999999999e21,
				       2.2250738585072014e-308, 1.7976931348623157e308 };
	enum { N = 1000000 / CORE_CUT };
	for (uint32_t i = 0; i < N + sizeof edge / sizeof *edge; i++) {
		double v;
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		switch (i < N ? i % 6 : 6) {
		case 0: v = (double)(x % 10000000000000ull) / 1e9; break;
		case 1: v = (double)(x % 1000000000000ull) / 1e6; break;
		case 2: v = pow(10.0, (double)(x % 3600000) / 100000.0 - 14.5); break;
		case 3: memcpy(&v, &x, sizeof v); break;
		case 4: v = ((double)(x % 2000000000ull) + 0.5) * pow(10.0, (double)((int)(x >> 40) % 30 - 15)); break;
		case 5: v = -(double)(x % 100000) / 7.0; break;
		default: v = edge[i - N]; break;
		}
		if (!isfinite(v))
			continue;
		n++;
		int k = json_g9(v, a);
		if (!k)
			continue;
		answered++;
		a[k] = 0;
		snprintf(b, sizeof b, "%.9g", v);
		if (strcmp(a, b))
			fail_msg("%.17g: %s, printf %s", v, a, b);
	}
	assert_true(answered > n / 2);          /* it answers most */
}

/* fmt_f9 against printf's "%.9f": ticks of clocks at 1 GHz, 1 MHz and
 * 2.4 GHz as seconds, any bit pattern, exact halves (odd multiples of
 * 2^-10 are halves of the ninth decimal), values near them, negatives
 * and -0, subnormals, the bound; where it does not answer, printf
 * must be used (not finite, 1.8e10 or more). */
static void
fmt_f9_is_printf(void **state)
{
	(void)state;
	uint64_t x = 88172645463325252ull;
	char a[64], b[64];
	uint32_t halves = 0;
	static const double edge[] = { 0.0, -0.0, 0.0009765625, 0.0029296875, -0.0009765625, 1.5e-9,
				       4.9999999999e-10, 5e-10, 5.000000001e-10, 1e-300, 4.9e-324, -4.9e-324,
				       0.9999999995, 0.99999999949999, 9.9999999995, 17999999999.999998,
				       1.7999999999e10, 123456.0009765625, 1.0 / 3.0 };
	enum { N = 2000000 / CORE_CUT };
	for (uint32_t i = 0; i < N + sizeof edge / sizeof *edge; i++) {
		double v;
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		switch (i < N ? i % 7 : 7) {
		case 0: v = (double)(x % 100000000000000ull) / 1e9; break;
		case 1: v = (double)(x % 100000000000ull) / 1e6; break;
		case 2: v = (double)(x % 100000000000000ull) / 2.4e9; break;
		case 3: memcpy(&v, &x, sizeof v); break;
		case 4: v = (double)(2 * (x % 20000000000000ull) + 1) / 1024.0 / 1e3; break;
		case 5: v = nextafter((double)(2 * (x % 1000000) + 1) / 1024.0, (x >> 63) ? 0.0 : 1.0); break;
		case 6: v = -(double)(x % 10000000000000ull) / 7e9; break;
		default: v = edge[i - N]; break;
		}
		int k = fmt_f9(v, a);
		if (!isfinite(v) || fabs(v) >= 1.8e10) {
			assert_int_equal(k, 0);
			continue;
		}
		assert_true(k > 0 && k < 32);
		a[k] = 0;
		snprintf(b, sizeof b, "%.9f", v);
		if (strcmp(a, b))
			fail_msg("%.17g: %s, printf %s", v, a, b);
		halves += fmod(fabs(v) * 1e9, 1.0) == 0.5;
	}
	assert_true(halves > 1000);          /* exact halves were met */
}

static void
classify_mpi(void **state)
{
	(void)state;
	assert_int_equal(trace_classify_mpi("MPI_Send"), ROLE_SEND);
	assert_int_equal(trace_classify_mpi("MPI_Issend"), ROLE_SEND);
	assert_int_equal(trace_classify_mpi("MPI_Irecv"), ROLE_RECV);
	assert_int_equal(trace_classify_mpi("MPI_Sendrecv_replace"), ROLE_SENDRECV);
	assert_int_equal(trace_classify_mpi("MPI_Waitall"), ROLE_WAIT);
	assert_int_equal(trace_classify_mpi("MPI_Testsome"), ROLE_WAIT);
	assert_int_equal(trace_classify_mpi("MPI_Allreduce"), ROLE_COLLECTIVE);
	assert_int_equal(trace_classify_mpi("MPI_Iallreduce"), ROLE_COLLECTIVE);
	assert_int_equal(trace_classify_mpi("MPI_Ibarrier"), ROLE_COLLECTIVE);
	assert_int_equal(trace_classify_mpi("MPI_Comm_split"), ROLE_MPI_OTHER);
	assert_int_equal(trace_classify_mpi("MPI_Init"), ROLE_MPI_OTHER);
	assert_int_equal(trace_classify_mpi("main"), ROLE_USER);
	assert_int_equal(trace_classify_mpi("MPIX_thing"), ROLE_USER);
	/* names in other cases (Fortran tools) classify the same */
	assert_int_equal(trace_classify_mpi("mpi_allreduce"), ROLE_COLLECTIVE);
	assert_int_equal(trace_classify_mpi("MPI_iallreduce"), ROLE_COLLECTIVE);
	assert_int_equal(trace_classify_mpi("mpi_send"), ROLE_SEND);
	assert_int_equal(trace_classify_mpi("mpi_init"), ROLE_MPI_OTHER);
	for (int k = 0; k < OP_KIND_COUNT; k++)
		assert_string_not_equal(trace_op_kind_name(k), "?");
	for (int w = 0; w < WARN_COUNT; w++)
		assert_string_not_equal(trace_warning_name(w), "?");
	assert_string_equal(trace_op_kind_name(OP_KIND_COUNT), "?");
}

static void
err_keeps_first(void **state)
{
	(void)state;
	struct err e = { 0 };
	assert_int_equal(err_set(&e, ERR_IO, "first %d", 1), ERR_IO);
	assert_int_equal(err_set(&e, ERR_FORMAT, "second"), ERR_FORMAT);
	assert_int_equal(e.code, ERR_IO);
	assert_string_equal(e.msg, "first 1");
	assert_int_equal(err_set(NULL, ERR_NOMEM, "x"), ERR_NOMEM);
	err_clear(&e);
	assert_int_equal(e.code, 0);
	assert_string_equal(e.msg, "");
}

/* One spelling per quantity, four significant digits, and no "1000 us"
 * where rounding reaches the next unit. */
static void
fmt_quantities(void **state)
{
	(void)state;
	static const struct { double s; const char *text; } sec[] = {
		{ 0, "0" }, { 794e-9, "794 ns" }, { 999.4e-9, "999 ns" }, { 999.6e-9, "1.000 us" },
		{ 56.892e-6, "56.89 us" }, { 999.96e-6, "1.000 ms" }, { 10.0604e-3, "10.06 ms" },
		{ 234.8e-3, "234.8 ms" }, { 1.23449, "1.234 s" }, { 4321.09, "4321.1 s" },
		{ -2.5e-3, "-2.500 ms" },
	};
	char buf[32];
	for (size_t i = 0; i < sizeof sec / sizeof sec[0]; i++)
		assert_string_equal(fmt_seconds(sec[i].s, buf, sizeof buf), sec[i].text);
	static const struct { double b; const char *text; } by[] = {
		{ 0, "0 B" }, { 1023, "1023 B" }, { 1024, "1 KiB" }, { 1536, "1.5 KiB" },
		{ 1048575, "1 MiB" }, { 4.0 * 1024 * 1024 * 1024, "4 GiB" },
	};
	for (size_t i = 0; i < sizeof by / sizeof by[0]; i++)
		assert_string_equal(fmt_bytes(by[i].b, buf, sizeof buf), by[i].text);
	assert_string_equal(fmt_time(0.2292314, buf, sizeof buf), "0.229231 s");
	/* the ends of a window read apart: more decimals while alike */
	char x[32], y[32];
	fmt_times(0.1, 0.25, x, y, sizeof x);
	assert_string_equal(x, "0.100000 s");
	assert_string_equal(y, "0.250000 s");
	fmt_times(1.0, 1.0000002, x, y, sizeof x);
	assert_string_equal(x, "1.0000000 s");
	assert_string_equal(y, "1.0000002 s");
	fmt_times(0.2, 0.200000001, x, y, sizeof x);
	assert_string_equal(y, "0.200000001 s");
	fmt_times(2.5, 2.5, x, y, sizeof x);
	assert_string_equal(y, "2.500000 s");
	static const struct { double c; const char *text; } cnt[] = {
		{ 0, "0" }, { 9999, "9999" }, { 10000, "10.0k" }, { 425345, "425.3k" }, { 999949, "999.9k" },
		{ 999950, "1.00M" }, { 15676000, "15.68M" }, { 2e9, "2.00G" },
	};
	for (size_t i = 0; i < sizeof cnt / sizeof cnt[0]; i++)
		assert_string_equal(fmt_count(cnt[i].c, buf, sizeof buf), cnt[i].text);
}

/* Ids stop short of the two marker values; the count is kept on error. */
static void
vec_ids(void **state)
{
	(void)state;
	uint32_t *v = NULL, id = 7;
	size_t n = 0, cap = 0;
	for (uint32_t i = 0; i < 100; i++) {
		assert_int_equal(VEC_NEW_ID(v, n, cap, &id), 0);
		assert_int_equal(id, i);
		v[id] = i;
	}
	assert_int_equal(n, 100);
	assert_true(cap >= 100);
	size_t big = (size_t)VEC_MAX_ID + 1, bigcap = big;
	assert_int_equal(VEC_NEW_ID(v, big, bigcap, &id), ERR_LIMIT);
	assert_int_equal(big, (size_t)VEC_MAX_ID + 1);
	free(v);
}

/* Every piece is taken exactly once, whichever worker takes it. */
struct piecework {
	struct par_pieces q;
	uint32_t taken[PAR_PIECES_MAX];
	uint32_t by[PAR_MAX];
};

static int
take_pieces(void *ctx, uint32_t w, uint32_t n)
{
	struct piecework *pw = ctx;
	uint32_t i;
	(void)n;
	while (par_take(&pw->q, w, &i)) {
		__atomic_fetch_add(&pw->taken[i], 1, __ATOMIC_RELAXED);
		pw->by[w]++;
	}
	return 0;
}

static void
pieces_each_once(void **state)
{
	(void)state;
	assert_int_equal(PAR_PIECES(1), 1);
	assert_int_equal(PAR_PIECES(4), 4 * PAR_PIECES_PER);
	for (uint32_t nw = 1; nw <= 4; nw++) {
		struct piecework pw = { 0 };
		uint32_t np = PAR_PIECES(nw);
		par_pieces_init(&pw.q, np, nw);
		assert_int_equal(par_run(nw, take_pieces, &pw), 0);
		uint32_t sum = 0;
		for (uint32_t i = 0; i < PAR_PIECES_MAX; i++)
			assert_int_equal(pw.taken[i], i < np ? 1 : 0);
		for (uint32_t w = 0; w < nw; w++)
			sum += pw.by[w];
		assert_int_equal(sum, np);
		uint32_t i = 12345;
		assert_false(par_take(&pw.q, 0, &i));       /* none left */
		assert_int_equal(i, 12345);
	}
	/* a worker takes its own share from the front, then the other's
	 * from the back */
	struct par_pieces q;
	par_pieces_init(&q, 8, 2);
	uint32_t order[8], i;
	for (uint32_t k = 0; k < 8; k++) {
		assert_true(par_take(&q, 0, &i));
		order[k] = i;
	}
	const uint32_t want[8] = { 0, 1, 2, 3, 7, 6, 5, 4 };
	assert_memory_equal(order, want, sizeof want);
	assert_false(par_take(&q, 1, &i));
	par_pieces_init(&q, 8, 2);
	assert_true(par_take(&q, 1, &i));
	assert_int_equal(i, 4);
}

/* par_bucket against a one-core counting sort, on 1 to 8 workers: keys
 * out of range left out, more keys than ids (fewer workers), no ids. */
static uint32_t
key_at(const void *ctx, uint32_t i)
{
	return ((const uint32_t *)ctx)[i];
}

static void
bucket_by_key(void **state)
{
	(void)state;
	srand(11);
	const uint32_t sizes[][2] = { { 0, 4 }, { 1, 1 }, { 7, 100 }, { 5000, 3 }, { 100000, 64 },
				      { 100000, 70000 } };
	for (size_t c = 0; c < sizeof sizes / sizeof *sizes; c++) {
		uint32_t n = sizes[c][0], nk = sizes[c][1];
		uint32_t *key = malloc((n + 1) * sizeof *key), *want = malloc((n + 1) * sizeof *want);
		uint32_t *got = malloc((n + 1) * sizeof *got), *wf = calloc(nk + 1, sizeof *wf);
		uint32_t *gf = malloc((nk + 1) * sizeof *gf);
		assert_true(key && want && got && wf && gf);
		for (uint32_t i = 0; i < n; i++)   /* about one in 20 out of range */
			key[i] = (uint32_t)rand() % (nk + nk / 19 + 1);
		/* the reference: one pass to count, one to place */
		for (uint32_t i = 0; i < n; i++)
			if (key[i] < nk)
				wf[key[i] + 1]++;
		for (uint32_t k = 0; k + 1 < nk; k++)
			wf[k + 1] += wf[k];
		uint32_t m = 0, *at = calloc(nk + 1, sizeof *at);
		assert_non_null(at);
		memcpy(at, wf, nk * sizeof *at);
		for (uint32_t i = 0; i < n; i++)
			if (key[i] < nk) {
				want[at[key[i]]++] = i;
				m++;
			}
		free(at);
		wf[nk] = m;
		for (int th = 1; th <= 8; th++) {
			char v[16];
			snprintf(v, sizeof v, "%d", th);
			setenv("SKEIN_THREADS", v, 1);
			memset(got, 0xff, (n + 1) * sizeof *got);
			assert_int_equal(par_bucket(n, nk, key_at, key, gf, got), 0);
			assert_memory_equal(gf, wf, (nk + 1) * sizeof *gf);
			if (m)
				assert_memory_equal(got, want, m * sizeof *got);
		}
		unsetenv("SKEIN_THREADS");
		free(key);
		free(want);
		free(got);
		free(wf);
		free(gf);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(intern_dedups),
		cmocka_unit_test(hmap_put_get_take),
		cmocka_unit_test(hmap_random_ops),
		cmocka_unit_test(json_writer),
		cmocka_unit_test(json_pieces),
		cmocka_unit_test(json_g9_is_printf),
		cmocka_unit_test(fmt_f9_is_printf),
		cmocka_unit_test(classify_mpi),
		cmocka_unit_test(err_keeps_first),
		cmocka_unit_test(fmt_quantities),
		cmocka_unit_test(vec_ids),
		cmocka_unit_test(pieces_each_once),
		cmocka_unit_test(bucket_by_key),
	};
	return cmocka_run_group_tests_name("core utilities", tests, NULL, NULL);
}
