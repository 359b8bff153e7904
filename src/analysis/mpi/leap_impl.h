/* leap_impl.h — the leap merge's state, shared by leap.c (Algorithm 1's
 * passes) and leap_graph.c (the merged partitions' graph and its leaps).
 *
 * Partitions as they stand on entry are "base" partitions; merges go into
 * a union-find over them, each set rooted at its smallest member, and a
 * merged partition is named by its root. The graph of merged partitions
 * is never stored whole: a merged partition's edges are its members'
 * base edges seen through the union-find.
 *
 * Leaps (depths in that graph: longest path from a source) are known only
 * up to leap k + 1 while leap k is grown: a pass over leap k merges
 * partitions of leaps k - 1 .. k + 1 only, so partitions of leap k - 2 and
 * before can never change again (their depths depend on their ancestors
 * alone), and after a pass only the window of leaps k - 1 .. k + 1 is
 * levelled again, from the frozen leaps before it. Each pass therefore
 * costs the window, not the whole graph.
 */
#ifndef SKEIN_LEAP_IMPL_H
#define SKEIN_LEAP_IMPL_H

#include "analysis/core/analysis_impl.h"
#include "leap.h"

/* bdep of a base partition whose leap is beyond the window */
#define LEAP_UNRESOLVED UINT32_MAX
/* levels kept: k - 1, k, k + 1 (and k + 2 while moving to the next leap) */
#define LEAP_LEVELS 4

/* A growable list of 32-bit values. */
struct leap_list {
	uint32_t *v;
	size_t n, cap;
};

struct leaper {
	const struct leap_in *in;
	uint32_t nb;                /* base partitions */
	struct uf bu;               /* union-find over base partitions, root = min */
	uint32_t *bnext, *btail;    /* members of a root: a list through bnext */
	const struct leap_edge *be; /* base edges, grouped by src (in->edges) */
	uint32_t nbe;
	uint32_t *out_first;        /* nb + 1: base edges of src b: be[out_first[b]..] */
	uint32_t *in_first, *in_src;   /* nb + 1, nbe: reverse base edges */
	uint32_t *bdep;             /* base partition -> leap of its merged partition,
				     * LEAP_UNRESOLVED past the window */
	uint32_t n_leaps;           /* after the last full levelling */

	/* the window: merged partitions (roots, ascending) of leaps lo .. */
	uint32_t lo;
	struct leap_list level[LEAP_LEVELS];
	/* leap k's partitions as the current pass sees them (taken when the
	 * window was levelled): each with its predecessors and successors
	 * (successors by key) and their leaps */
	uint32_t k;
	struct leap_list kp, kpred_first, kpred, kpred_dep, ksucc_first, ksucc, ksucc_dep;

	/* scratch */
	uint32_t *stamp, stamp_gen;      /* nb */
	uint32_t *pos;                   /* nb */
	uint32_t *key;                   /* nb */
	uint32_t *mark, mark_gen;        /* nb */
	uint64_t *pairs;
	size_t cap_pairs;
	struct leap_list tmp, cand, w;
	uint32_t n_tl;
	uint32_t *in_leap, tstamp;  /* timeline covered by the leap at hand */
	/* per timeline: the records holding a merged partition's least and
	 * greatest lop there */
	uint32_t *tl_first, *tl_last, *tl_seen, *touched, dstamp;
};

#define LEAP_MEMBERS(L, root, b) \
	for (uint32_t b = (root); b != TRACE_NONE; b = (L)->bnext[b])

uint32_t leap_find(struct leaper *L, uint32_t x);
/* Unites two merged partitions (the smaller root stays) and splices their
 * member lists; 1 if they were apart. */
int leap_union(struct leaper *L, uint32_t x, uint32_t y);

int leap_list_push(struct leap_list *l, uint32_t x);
void leap_list_free(struct leap_list *l);

/* Base edges and the reverse index (after the scratch arrays exist). */
int leap_graph_init(struct leaper *L);
/* Merges every cycle of the whole merged graph and computes every leap;
 * then keeps the window of leap k. Costs the whole graph: used at the
 * start, at the end, and after a forced merge. */
int leap_level_all(struct leaper *L, uint32_t k);
/* After merges among leaps k - 1 .. k + 1 (or none, when moving on to
 * leap k): merges the cycles those merges closed and levels the window
 * of leap k again from the frozen leaps before it. */
int leap_level_window(struct leaper *L, uint32_t k, int merged);
/* The partitions of leap k in the window (ascending roots); empty when the
 * graph has fewer leaps. */
static inline const struct leap_list *
leap_level(const struct leaper *L, uint32_t k)
{
	return &L->level[k - L->lo];
}

#endif
