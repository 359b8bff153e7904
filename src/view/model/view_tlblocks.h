/* view_tlblocks.h — the timeline's blocks of lops: each rank's lops in
 * blocks of a size, and what a block's claims on one timeline cell would
 * leave (view_timeline.c's rules), so that the timeline claims a block at
 * once wherever all of it falls in one cell: the kinds, the lop covering
 * most (the first of them) and the top lop (the highest kind rank, then
 * the first covering most), with their coverages, the latest exit, and
 * whether its lops are in time order.
 * Computed from the analysis and the index alone, which nothing changes
 * once a view is made, so a thread may compute them (view_prefetch.c).
 */
#ifndef SKEIN_VIEW_TLBLOCKS_H
#define SKEIN_VIEW_TLBLOCKS_H

#include <stdint.h>

#include "analysis/core/analysis.h"
#include "view_index.h"

struct tl_block {
	uint64_t ex_max, dom_ov, top_ov;
	uint32_t dom, top;
	uint8_t kinds;
	int8_t top_rank;
	/* 1 when its lops enter in time order and none exits before it
	 * enters: only then is each lop's claim inside the cells of the
	 * first's enter and the latest exit (a reordered trace moves
	 * receives ahead of earlier lops) */
	uint8_t ordered;
};

struct tl_blocks {
	uint32_t size;               /* lops a block */
	uint32_t n_blk;
	uint32_t *first;             /* per rank (n_ranks + 1): its first block */
	struct tl_block *blk;
};

/* The block of lops ids[0..n) (ids NULL: first .. first + n), in that
 * order. */
void tl_block_make(const struct analysis *a, const uint32_t *ids, uint32_t first, uint32_t n,
		   const int8_t rank_of_kind[8], struct tl_block *k);

/* Block k followed by block next, k's last lop entering at en_last and
 * next's first at next_en: k becomes the block of both (what their
 * claims on one cell leave, as tl_block_make of all their lops). */
void tl_block_join(struct tl_block *k, const struct tl_block *next, uint64_t en_last, uint64_t next_en);

/* Fills b (its size set) on nw workers, a kind's rank for the top lop
 * from rank_of_kind (by enum trace_op_kind, 8 kinds). 0 or ERR_NOMEM. */
int tl_blocks_compute(struct tl_blocks *b, const struct analysis *a, const struct view_index *ix,
		      const int8_t rank_of_kind[8], uint32_t nw);
void tl_blocks_free(struct tl_blocks *b);

#endif
