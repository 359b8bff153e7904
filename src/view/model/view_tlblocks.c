/* view_tlblocks.c — the timeline's blocks of lops (view_tlblocks.h). */
#include "view_tlblocks.h"

#include <stdlib.h>

#include "base/err.h"
#include "base/par.h"

struct blocking {
	struct tl_blocks *b;
	const struct analysis *a;
	const struct view_index *ix;
	const int8_t *rank_of_kind;
};

void
tl_block_make(const struct analysis *a, const uint32_t *ids, uint32_t first, uint32_t n,
	      const int8_t rank_of_kind[8], struct tl_block *out)
{
	struct tl_block k = { .dom = TRACE_NONE, .top = TRACE_NONE, .top_rank = -1, .ordered = 1 };
	uint64_t last_en = 0;
	for (uint32_t j = 0; j < n; j++) {
		uint32_t i = ids ? ids[j] : first + j;
		uint64_t en = analysis_lop_enter(a, i), ex = analysis_lop_exit(a, i);
		if (en < last_en || ex < en)
			k.ordered = 0;
		last_en = en;
		double da = (double)en, dz = (double)ex;
		uint64_t ov = (uint64_t)(dz > da ? dz - da : 0) + 1;   /* as view_tl_claim's */
		int kind = analysis_lop_kind(a, i), rank = rank_of_kind[kind & 7];
		k.kinds |= (uint8_t)(1u << kind);
		k.ex_max = ex > k.ex_max ? ex : k.ex_max;
		if (ov > k.dom_ov) {
			k.dom_ov = ov;
			k.dom = i;
		}
		if (rank > k.top_rank || (rank == k.top_rank && ov > k.top_ov)) {
			k.top_ov = ov;
			k.top = i;
			k.top_rank = (int8_t)rank;
		}
	}
	*out = k;
}

void
tl_block_join(struct tl_block *k, const struct tl_block *next, uint64_t en_last, uint64_t next_en)
{
	k->ordered = k->ordered && next->ordered && next_en >= en_last;
	k->kinds |= next->kinds;
	k->ex_max = next->ex_max > k->ex_max ? next->ex_max : k->ex_max;
	if (next->dom_ov > k->dom_ov) {
		k->dom_ov = next->dom_ov;
		k->dom = next->dom;
	}
	if (next->top_rank > k->top_rank || (next->top_rank == k->top_rank && next->top_ov > k->top_ov)) {
		k->top_ov = next->top_ov;
		k->top = next->top;
		k->top_rank = next->top_rank;
	}
}

static int
blocks_work(void *ctx, uint32_t w, uint32_t nw)
{
	const struct blocking *g = ctx;
	struct tl_blocks *tb = g->b;
	uint32_t b0, b1, r = 0, n_ranks = view_index_ranks(g->ix);
	par_share(tb->n_blk, w, nw, &b0, &b1);
	for (uint32_t b = b0; b < b1; b++) {
		while (r < n_ranks && tb->first[r + 1] <= b)
			r++;
		uint32_t first, end;
		view_index_rank_lops(g->ix, r, &first, &end);
		uint32_t i0 = first + (b - tb->first[r]) * tb->size, i1 = i0 + tb->size < end ? i0 + tb->size : end;
		tl_block_make(g->a, NULL, i0, i1 - i0, g->rank_of_kind, &tb->blk[b]);
	}
	return 0;
}

int
tl_blocks_compute(struct tl_blocks *b, const struct analysis *a, const struct view_index *ix,
		  const int8_t rank_of_kind[8], uint32_t nw)
{
	uint32_t n_ranks = view_index_ranks(ix);
	b->first = malloc(((size_t)n_ranks + 1) * sizeof *b->first);
	if (!b->first || b->size < 1) {
		tl_blocks_free(b);
		return ERR_NOMEM;
	}
	b->first[0] = 0;
	for (uint32_t r = 0; r < n_ranks; r++) {
		uint32_t first, end;
		view_index_rank_lops(ix, r, &first, &end);
		b->first[r + 1] = b->first[r] + (end - first + b->size - 1) / b->size;
	}
	b->n_blk = b->first[n_ranks];
	b->blk = malloc(((size_t)b->n_blk + 1) * sizeof *b->blk);
	if (!b->blk) {
		tl_blocks_free(b);
		return ERR_NOMEM;
	}
	struct blocking g = { b, a, ix, rank_of_kind };
	if (nw > 1)
		par_run(nw, blocks_work, &g);
	else
		blocks_work(&g, 0, 1);
	return 0;
}

void
tl_blocks_free(struct tl_blocks *b)
{
	free(b->first);
	free(b->blk);
	b->first = NULL;
	b->blk = NULL;
	b->n_blk = 0;
}
