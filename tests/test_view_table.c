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

static const struct vt_col cols[2] = { { "name", 10, 0, 1 }, { "value", 9, 0, 0 } };

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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(few_rows_by_comparison),
		cmocka_unit_test(many_rows_by_radix),
		cmocka_unit_test(all_ties),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
