/* sort.c — a stable bottom-up merge sort of ids with a context, and a
 * stable radix sort of keyed ids. */
#include "sort.h"

#include <stdlib.h>
#include <string.h>

#include "err.h"

int
sort_ids(uint32_t *v, uint32_t n, sort_cmp_fn cmp, const void *ctx)
{
	if (n < 2)
		return 0;
	uint32_t *tmp = malloc((size_t)n * sizeof *tmp);
	if (!tmp)
		return ERR_NOMEM;
	for (uint64_t w = 1; w < n; w *= 2) {
		for (uint64_t lo = 0; lo < n; lo += 2 * w) {
			uint64_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			uint64_t i = lo, j = mid, k = lo;
			while (i < mid && j < hi)
				tmp[k++] = cmp(ctx, v[j], v[i]) < 0 ? v[j++] : v[i++];
			while (i < mid)
				tmp[k++] = v[i++];
			while (j < hi)
				tmp[k++] = v[j++];
		}
		memcpy(v, tmp, (size_t)n * sizeof *v);
	}
	free(tmp);
	return 0;
}

/* The radix passes over digits of `bits` bits (8 or 16), those no two
 * keys differ in skipped (differ: the bits that differ); count has 2^bits
 * entries. tmp holds n records. Leaves the result in v. */
static void
passes(struct sort_kv *v, struct sort_kv *tmp, uint32_t n, uint64_t differ, int bits, uint32_t *count)
{
	uint32_t radix = 1u << bits, mask = radix - 1;
	struct sort_kv *a = v, *b = tmp;
	for (int shift = 0; shift < 64; shift += bits) {
		if (!((differ >> shift) & mask))
			continue;
		memset(count, 0, radix * sizeof *count);
		for (uint32_t i = 0; i < n; i++)
			count[(a[i].key >> shift) & mask]++;
		uint32_t sum = 0;
		for (uint32_t d = 0; d < radix; d++) {
			uint32_t c = count[d];
			count[d] = sum;
			sum += c;
		}
		for (uint32_t i = 0; i < n; i++)
			b[count[(a[i].key >> shift) & mask]++] = a[i];
		struct sort_kv *t = a;
		a = b;
		b = t;
	}
	if (a != v)
		memcpy(v, a, (size_t)n * sizeof *v);
}

int
sort_keyed(struct sort_kv *v, uint32_t n)
{
	if (n < 2)
		return 0;
	uint64_t all_or = 0, all_and = UINT64_MAX;
	for (uint32_t i = 0; i < n; i++) {
		all_or |= v[i].key;
		all_and &= v[i].key;
	}
	uint64_t differ = all_or ^ all_and;
	if (!differ)
		return 0;
	if (n <= 32) {              /* a few: insertion, stable, nothing allocated */
		for (uint32_t i = 1; i < n; i++) {
			struct sort_kv x = v[i];
			uint32_t j = i;
			for (; j > 0 && v[j - 1].key > x.key; j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
		return 0;
	}
	/* 8-bit digits, the counts on the stack, below the 16-bit table's
	 * 65,536 entries (clearing and summing them cost more than the
	 * records themselves) */
	uint32_t small[256], *count = n < 65536 ? small : malloc(65536 * sizeof *count);
	struct sort_kv *tmp = malloc((size_t)n * sizeof *tmp);
	int rc = tmp && count ? 0 : ERR_NOMEM;
	if (!rc)
		passes(v, tmp, n, differ, count == small ? 8 : 16, count);
	free(tmp);
	if (count != small)
		free(count);
	return rc;
}

int
sort_ids_keyed(uint32_t *v, uint32_t n, uint64_t (*key)(const void *ctx, uint32_t id), const void *ctx)
{
	if (n < 2)
		return 0;
	struct sort_kv *kv = malloc((size_t)n * sizeof *kv);
	if (!kv)
		return ERR_NOMEM;
	for (uint32_t i = 0; i < n; i++)
		kv[i] = (struct sort_kv){ key(ctx, v[i]), v[i] };
	int rc = sort_keyed(kv, n);
	for (uint32_t i = 0; i < n && !rc; i++)
		v[i] = kv[i].id;
	free(kv);
	return rc;
}

/* the top's order: larger key first, then smaller id */
static int
top_before(const struct sort_kv *x, const struct sort_kv *y)
{
	return x->key > y->key || (x->key == y->key && x->id < y->id);
}

/* a heap in the top's order reversed: the root is the last kept */
static void
top_sift_down(struct sort_kv *h, uint32_t n, uint32_t i)
{
	for (;;) {
		uint32_t w = i, c = 2 * i + 1;
		if (c < n && top_before(&h[w], &h[c]))
			w = c;
		if (c + 1 < n && top_before(&h[w], &h[c + 1]))
			w = c + 1;
		if (w == i)
			return;
		struct sort_kv tmp = h[i];
		h[i] = h[w];
		h[w] = tmp;
		i = w;
	}
}

static void
top_heapify(struct sort_kv *h, uint32_t n)
{
	for (uint32_t i = n / 2 + 1; i-- > 0;)
		top_sift_down(h, n, i);
}

uint32_t
sort_top_offer(struct sort_kv *h, uint32_t n, uint32_t k, struct sort_kv x)
{
	if (n < k) {
		h[n++] = x;
		if (n == k)
			top_heapify(h, n);
	} else if (k && top_before(&x, &h[0])) {
		h[0] = x;
		top_sift_down(h, n, 0);
	}
	return n;
}

void
sort_top_ids(struct sort_kv *h, uint32_t n, uint32_t k, uint32_t *out)
{
	if (n < k)
		top_heapify(h, n);
	for (uint32_t end = n; end > 1; end--) {
		struct sort_kv tmp = h[0];
		h[0] = h[end - 1];
		h[end - 1] = tmp;
		top_sift_down(h, end - 1, 0);
	}
	for (uint32_t i = 0; i < n; i++)
		out[i] = h[i].id;
}
