/* path_same.h — two critical paths compared field by field (test_path,
 * fuzz/fuzz_projections): the kept PE order and the path's own sort must
 * give the same path. */
#ifndef SKEIN_TESTS_PATH_SAME_H
#define SKEIN_TESTS_PATH_SAME_H

#include "analysis/path/path.h"

/* NULL when p and q are the same path, else what differs first, with
 * its index in *at (0 for a count). */
static inline const char *
path_difference(const struct path *p, const struct path *q, uint32_t *at)
{
	*at = 0;
	if (p->n_segs != q->n_segs || p->jumps != q->jumps || p->length != q->length)
		return "the segments' count, jumps or length";
	if (p->n_regions != q->n_regions)
		return "the regions' count";
	for (uint32_t i = 0; i < p->n_segs; i++) {
		const struct path_seg *x = &p->segs[i], *y = &q->segs[i];
		*at = i;
		if (x->from != y->from || x->to != y->to || x->tl != y->tl || x->wait_lop != y->wait_lop ||
		    x->release_lop != y->release_lop || x->kind != y->kind)
			return "segment";
	}
	for (uint32_t i = 0; i < p->n_regions; i++) {
		const struct path_region *x = &p->regions[i], *y = &q->regions[i];
		*at = i;
		if (x->region != y->region || x->time != y->time || x->blame != y->blame || x->calls != y->calls)
			return "region";
	}
	return NULL;
}

#endif
