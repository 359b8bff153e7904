/* test_sort.c — base/sort.h's radix sort of keyed ids against a
 * reference: smallest key first, equal keys in their order (stable),
 * keys differing only in some 16-bit digits (the others skipped), two
 * passes sorting by two keys; ids sorted by a key read from a context
 * against sort_ids with the keys' comparison; the k first by larger key
 * then smaller id (sort_top_offer) against a full sort, for k below, at
 * and above the stream's length, the stream in random id order. */
#include "testutil.h"

#include <stdlib.h>

#include "base/sort.h"

static int
ref_cmp(const void *p, const void *q)
{
	const struct sort_kv *x = p, *y = q;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static uint64_t
random_key(int shape)
{
	uint64_t r = (uint64_t)rand() << 33 ^ (uint64_t)rand() << 11 ^ (uint64_t)rand();
	switch (shape) {
	case 0: return r;                           /* every digit */
	case 1: return r % 7;                       /* many ties */
	case 2: return (r % 5) << 48;               /* the top digit only */
	case 3: return (r & 0xffff) << 16 | 0xabcd000000000000ull;
	default: return 42;                         /* all equal */
	}
}

static void
against_reference(void **state)
{
	(void)state;
	srand(3);
	uint32_t sizes[] = { 0, 1, 2, 17, 1000, 70000, 300000 };
	for (int shape = 0; shape < 5; shape++)
		for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
			uint32_t n = sizes[k];
			struct sort_kv *v = malloc((n + 1) * sizeof *v), *r = malloc((n + 1) * sizeof *r);
			assert_non_null(v);
			assert_non_null(r);
			for (uint32_t i = 0; i < n; i++)
				r[i] = v[i] = (struct sort_kv){ random_key(shape), i };
			qsort(r, n, sizeof *r, ref_cmp);
			assert_int_equal(sort_keyed(v, n), 0);
			for (uint32_t i = 0; i < n; i++) {
				assert_int_equal(v[i].id, r[i].id);
				assert_true(v[i].key == r[i].key);
			}
			free(v);
			free(r);
		}
}

/* By time, latest first, then by lop, latest first (explain/delay.c's
 * order): the minor key's pass, then the major's. */
static void
two_keys(void **state)
{
	(void)state;
	srand(5);
	uint32_t n = 50000;
	uint64_t *t = malloc(n * sizeof *t);
	uint32_t *lop = malloc(n * sizeof *lop);
	struct sort_kv *v = malloc(n * sizeof *v);
	assert_non_null(t);
	assert_non_null(lop);
	assert_non_null(v);
	for (uint32_t i = 0; i < n; i++) {
		t[i] = (uint64_t)(rand() % 1000) * 1000000007ull;
		lop[i] = (uint32_t)rand();
		v[i] = (struct sort_kv){ UINT32_MAX - lop[i], i };
	}
	assert_int_equal(sort_keyed(v, n), 0);
	for (uint32_t i = 0; i < n; i++)
		v[i].key = UINT64_MAX - t[v[i].id];
	assert_int_equal(sort_keyed(v, n), 0);
	for (uint32_t i = 1; i < n; i++) {
		uint32_t p = v[i - 1].id, q = v[i].id;
		assert_true(t[p] > t[q] || (t[p] == t[q] && lop[p] >= lop[q]));
	}
	free(t);
	free(lop);
	free(v);
}

/* sort_ids_keyed gives sort_ids' order under a comparison of the keys
 * (ties in the ids' order, whatever it was): ids listed in a shuffled
 * order, keys with ties. */
static uint64_t
key_of(const void *ctx, uint32_t id)
{
	return ((const uint64_t *)ctx)[id];
}

static int
cmp_key(const void *ctx, uint32_t x, uint32_t y)
{
	uint64_t a = key_of(ctx, x), b = key_of(ctx, y);
	return a < b ? -1 : a > b;
}

static void
ids_keyed(void **state)
{
	(void)state;
	srand(5);
	uint32_t sizes[] = { 0, 1, 2, 33, 5000, 100000 };
	for (int shape = 0; shape < 5; shape++)
		for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
			uint32_t n = sizes[k];
			uint64_t *key = malloc((n + 1) * sizeof *key);
			uint32_t *v = malloc((n + 1) * sizeof *v), *r = malloc((n + 1) * sizeof *r);
			assert_true(key && v && r);
			for (uint32_t i = 0; i < n; i++) {
				key[i] = random_key(shape);
				v[i] = i;
			}
			for (uint32_t i = n; i > 1; i--) {     /* shuffled: ties keep this order */
				uint32_t j = (uint32_t)rand() % i, t = v[i - 1];
				v[i - 1] = v[j];
				v[j] = t;
			}
			for (uint32_t i = 0; i < n; i++)
				r[i] = v[i];
			assert_int_equal(sort_ids(r, n, cmp_key, key), 0);
			assert_int_equal(sort_ids_keyed(v, n, key_of, key), 0);
			for (uint32_t i = 0; i < n; i++)
				assert_int_equal(v[i], r[i]);
			free(key);
			free(v);
			free(r);
		}
}

/* larger key first, then smaller id: sort_top's order */
static int
top_cmp(const void *p, const void *q)
{
	const struct sort_kv *x = p, *y = q;
	if (x->key != y->key)
		return x->key > y->key ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static void
top_against_full_sort(void **state)
{
	(void)state;
	srand(5);
	uint32_t sizes[] = { 0, 1, 2, 17, 1000, 20000 }, ks[] = { 0, 1, 3, 10, 17, 999, 1000, 5000 };
	for (int shape = 0; shape < 5; shape++)
		for (size_t a = 0; a < sizeof sizes / sizeof *sizes; a++)
			for (size_t b = 0; b < sizeof ks / sizeof *ks; b++) {
				uint32_t n = sizes[a], k = ks[b], kept = 0;
				struct sort_kv *v = malloc((n + 1) * sizeof *v), *h = malloc((k + 1) * sizeof *h);
				uint32_t *out = malloc((k + 1) * sizeof *out);
				assert_true(v && h && out);
				for (uint32_t i = 0; i < n; i++)
					v[i] = (struct sort_kv){ random_key(shape), i };
				for (uint32_t i = n; i > 1; i--) {   /* offered in random id order */
					uint32_t j = (uint32_t)rand() % i;
					struct sort_kv t = v[i - 1];
					v[i - 1] = v[j];
					v[j] = t;
				}
				for (uint32_t i = 0; i < n; i++)
					kept = sort_top_offer(h, kept, k, v[i]);
				assert_int_equal(kept, n < k ? n : k);
				sort_top_ids(h, kept, k, out);
				qsort(v, n, sizeof *v, top_cmp);
				for (uint32_t i = 0; i < kept; i++)
					assert_int_equal(out[i], v[i].id);
				free(v);
				free(h);
				free(out);
			}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(against_reference),
		cmocka_unit_test(two_keys),
		cmocka_unit_test(ids_keyed),
		cmocka_unit_test(top_against_full_sort),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
