/* test_view_table.c — the sortable table's order against a reference:
 * the largest key first, ties in row order, the reverse when desc is
 * set, the selection kept on its row. Tables of a few rows sort by
 * comparison and long ones by radix (view_table.c); both must give the
 * reference's order for keys with ties, negatives, -0, huge and tiny
 * magnitudes and NaN (last). */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "view/model/view_table.h"

struct rows {
	double *k;
	uint32_t n;
	long calls;                   /* key callbacks made */
};

static const struct vt_col cols[2] = { { "name", 10, 0, 1, 0 }, { "value", 9, 0, 0, 0 } };

static void
cell(void *ctx, uint32_t r, int c, char *buf, size_t n)
{
	struct rows *x = ctx;
	if (c)
		snprintf(buf, n, "%g", x->k[r]);
	else
		snprintf(buf, n, "row%06u", r);
}

static double
key(void *ctx, uint32_t r, int c)
{
	struct rows *x = ctx;
	x->calls++;
	return c ? x->k[r] : 0;
}

static const double *ref_keys;

/* The reference: largest first, NaN last, -0 as 0, ties by row. */
static int
ref_cmp(const void *p, const void *q)
{
	uint32_t a = *(const uint32_t *)p, b = *(const uint32_t *)q;
	double x = ref_keys[a], y = ref_keys[b];
	int xn = isnan(x), yn = isnan(y);
	if (xn != yn)
		return xn - yn;
	if (!xn && x != y)
		return x > y ? -1 : 1;
	return a < b ? -1 : a > b;
}

static double
random_key(uint32_t i)
{
	switch (rand() % 10) {
	case 0: return 0.0;
	case 1: return -0.0;
	case 2: return (double)(rand() % 5);          /* many ties */
	case 3: return -(double)(rand() % 7);
	case 4: return ldexp((double)rand(), rand() % 600 - 300);
	case 5: return -ldexp((double)rand(), rand() % 600 - 300);
	case 6: return i % 97 == 0 ? NAN : 1.5;
	case 7: return (double)UINT64_MAX;
	default: return (double)rand() / 7.0;
	}
}

static void
check_order(uint32_t n, int desc)
{
	struct rows x = { malloc((size_t)n * sizeof(double)), n, 0 };
	uint32_t *ref = malloc((size_t)n * sizeof *ref);
	assert_non_null(x.k);
	assert_non_null(ref);
	for (uint32_t i = 0; i < n; i++) {
		x.k[i] = random_key(i);
		ref[i] = i;
	}
	ref_keys = x.k;
	qsort(ref, n, sizeof *ref, ref_cmp);
	struct vt_source s = { cols, 2, &x, cell, key, NULL };
	struct vtable t;
	vt_init(&t, 1);
	t.desc = desc;
	assert_int_equal(vt_reset(&t, n), 0);
	vt_move(&t, (long)n / 3);                   /* a row selected: kept */
	uint32_t sel = vt_selected(&t);
	assert_int_equal(vt_sort(&t, &s), 0);
	for (uint32_t i = 0; i < n; i++)
		assert_int_equal(t.order[i], ref[desc ? n - 1 - i : i]);
	assert_int_equal(vt_selected(&t), sel);
	assert_true(x.calls <= (long)n);           /* each key asked once */
	vt_fini(&t);
	free(ref);
	free(x.k);
}

static void
few_rows_by_comparison(void **state)
{
	(void)state;
	srand(7);
	for (uint32_t n = 1; n < 200; n += 13) {
		check_order(n, 0);
		check_order(n, 1);
	}
}

static void
many_rows_by_radix(void **state)
{
	(void)state;
	srand(11);
	check_order(2047, 0);
	check_order(2048, 0);
	check_order(50000, 0);
	check_order(50000, 1);
	check_order(300001, 0);
}

/* Equal keys everywhere: the rows' own order, reversed by desc. */
static void
all_ties(void **state)
{
	(void)state;
	uint32_t n = 10000;
	struct rows x = { calloc(n, sizeof(double)), n, 0 };
	assert_non_null(x.k);
	struct vt_source s = { cols, 2, &x, cell, key, NULL };
	struct vtable t;
	vt_init(&t, 1);
	assert_int_equal(vt_reset(&t, n), 0);
	assert_int_equal(vt_sort(&t, &s), 0);
	for (uint32_t i = 0; i < n; i++)
		assert_int_equal(t.order[i], i);
	t.desc = 1;
	assert_int_equal(vt_sort(&t, &s), 0);
	for (uint32_t i = 0; i < n; i++)
		assert_int_equal(t.order[i], n - 1 - i);
	vt_fini(&t);
	free(x.k);
}

/* ---- the layout: what a row shows (doc/explorer.md, the table panes) */

static const char *const names[] = {
	"MPI_Win_flush_local", "MPI_Win_flush_local_all", "MPI_Send",
	"/phylanx/access-variable$77$i/2$67$38::eval", "/phylanx/store$16/2$67$29::eval",
};
enum { N_NAMES = sizeof names / sizeof *names };
static const struct vt_col named_cols[3] = {
	{ "region", 12, 0, 1, 0 }, { "calls", 4, 0, 0, 0 }, { "exclusive", 9, 1, 0, 0 },
};

static void
named_cell(void *ctx, uint32_t r, int c, char *buf, size_t n)
{
	(void)ctx;
	if (c == 0)
		snprintf(buf, n, "%s", names[r % N_NAMES]);
	else if (c == 1)
		snprintf(buf, n, "%u", 1234567u + r);     /* 7 digits in a column of 4 */
	else
		snprintf(buf, n, "%u.000 ms", r);
}

static double
named_key(void *ctx, uint32_t r, int c)
{
	(void)ctx;
	return c == 2 ? (double)r : 0;
}

/* The UTF-8 text of a one-row grid. */
static void
row_text(const struct grid *g, char *out, size_t n)
{
	size_t k = 0;
	for (int x = 0; x < g->w && k + 5 < n; x++) {
		uint32_t ch = g->cells[x].ch ? g->cells[x].ch : ' ';
		if (ch < 0x80) {
			out[k++] = (char)ch;
		} else if (ch < 0x800) {
			out[k++] = (char)(0xc0 | ch >> 6);
			out[k++] = (char)(0x80 | (ch & 0x3f));
		} else {
			out[k++] = (char)(0xe0 | ch >> 12);
			out[k++] = (char)(0x80 | (ch >> 6 & 0x3f));
			out[k++] = (char)(0x80 | (ch & 0x3f));
		}
	}
	out[k] = 0;
}

/* Lays out n rows at width w, rows in view, sorted by column sort, and
 * writes the header and the rows shown into text[] (one row each). */
static void
lay(uint32_t n, int w, int rows, int sort, char text[][512])
{
	struct vt_source s = { named_cols, 3, NULL, named_cell, named_key, NULL };
	struct vtable t;
	vt_init(&t, sort);
	assert_int_equal(vt_reset(&t, n), 0);
	assert_int_equal(vt_sort(&t, &s), 0);
	vt_layout(&t, &s, w, rows);
	struct grid *g = grid_create(w, 1);
	assert_non_null(g);
	grid_clear(g);
	vt_header(&t, &s, g, 0);
	row_text(g, text[0], 512);
	for (int y = 0; y < rows; y++) {
		grid_clear(g);
		vt_row(&t, &s, y, g, 0);
		row_text(g, text[y + 1], 512);
	}
	grid_destroy(g);
	vt_fini(&t);
}

/* Room enough: the names whole (the first column takes its widest
 * name, not its own 12), the numbers whole in a column of 4, the
 * sorted header with its mark. */
static void
layout_names_and_numbers_whole(void **state)
{
	(void)state;
	char text[1 + N_NAMES][512];
	lay(N_NAMES, 100, N_NAMES, 2, text);
	assert_non_null(strstr(text[0], "exclusive\u25bc"));
	/* sorted by exclusive, largest first: rows N_NAMES-1 .. 0 */
	for (int y = 0; y < N_NAMES; y++) {
		uint32_t r = N_NAMES - 1 - (uint32_t)y;
		char num[16];
		snprintf(num, sizeof num, " %u ", 1234567u + r);
		assert_non_null(strstr(text[y + 1], names[r]));
		assert_non_null(strstr(text[y + 1], num));
	}
}

/* Too narrow for the names: the numbers still whole, and names that
 * differ still read apart (cut at the end, the two flushes and the two
 * phylanx names read alike). */
static void
layout_cut_names_told_apart(void **state)
{
	(void)state;
	char text[1 + N_NAMES][512];
	lay(N_NAMES, 36, N_NAMES, 2, text);
	for (int y = 1; y <= N_NAMES; y++) {
		uint32_t r = N_NAMES - (uint32_t)y;
		char num[16];
		snprintf(num, sizeof num, " %u ", 1234567u + r);
		assert_non_null(strstr(text[y], num));
		assert_non_null(strstr(text[y], "ms"));
		for (int z = 1; z < y; z++) {
			/* the name's part: up to the calls */
			size_t a = strcspn(text[y], "1"), b = strcspn(text[z], "1");
			assert_false(a == b && !strncmp(text[y], text[z], a));
		}
	}
}

/* Rows that scroll leave the last column to the arrows: no character
 * of a row is in it but ↑ or ↓. */
static void
layout_arrow_column(void **state)
{
	(void)state;
	char text[1 + 3][512];
	lay(40, 34, 3, 2, text);
	for (int y = 1; y <= 3; y++) {
		const char *end = text[y] + strlen(text[y]);
		const char *last = end - 1;
		while (last > text[y] && ((unsigned char)*last & 0xc0) == 0x80)
			last--;
		assert_true(*last == ' ' || !strcmp(last, "\u2193") || !strcmp(last, "\u2191"));
		/* and the number before it is whole: "N.000 ms" */
		assert_non_null(strstr(text[y], ".000 ms"));
	}
}

/* The header's mark says which way the rows go: ▼ from the largest (or
 * Z), ▲ from the smallest (or A), whether the column's own order is the
 * largest first (a time) or, its key negated, the smallest (an id: the
 * messages' "sent" said ▼ over the earliest first). */
static void
header_mark_direction(void **state)
{
	(void)state;
	static const struct vt_col mc[3] = {
		{ "name", 10, 0, 1, 0 }, { "took", 9, 0, 0, 0 }, { "sent", 9, 0, 0, 1 },
	};
	struct vt_source s = { mc, 3, NULL, named_cell, named_key, NULL };
	static const struct { int sort, desc; const char *want; } cases[] = {
		{ 1, 0, "took\u25bc" }, { 1, 1, "took\u25b2" }, { 2, 0, "sent\u25b2" },
		{ 2, 1, "sent\u25bc" }, { 0, 0, "name\u25b2" }, { 0, 1, "name\u25bc" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct vtable t;
		vt_init(&t, cases[i].sort);
		t.desc = cases[i].desc;
		assert_int_equal(vt_reset(&t, 3), 0);
		assert_int_equal(vt_sort(&t, &s), 0);
		vt_layout(&t, &s, 60, 3);
		struct grid *g = grid_create(60, 1);
		assert_non_null(g);
		grid_clear(g);
		vt_header(&t, &s, g, 0);
		char text[512];
		row_text(g, text, sizeof text);
		assert_non_null(strstr(text, cases[i].want));
		grid_destroy(g);
		vt_fini(&t);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(few_rows_by_comparison),
		cmocka_unit_test(many_rows_by_radix),
		cmocka_unit_test(all_ties),
		cmocka_unit_test(layout_names_and_numbers_whole),
		cmocka_unit_test(layout_cut_names_told_apart),
		cmocka_unit_test(layout_arrow_column),
		cmocka_unit_test(header_mark_direction),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
