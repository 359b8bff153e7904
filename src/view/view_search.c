/* view_search.c — search by region name (/, n, N).
 *
 * A pattern matches a region whose name holds it (case-insensitive), or
 * matches it as a glob when it has wildcards. An operation matches when
 * its own region or any user region around it does (the whole stack the
 * details show: "in exchange ← iteration"), so /iteration finds every
 * operation inside an iteration. The matches are listed once per pattern
 * in step order (then rank), so n and N are binary searches and the
 * message can say "match k/N"; listing them is one pass over the lops.
 * In a Charm++ run an operation also matches by its chare's name.
 */
#include "view_impl.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct hit {
	uint32_t step, rank, lop;
};

/* Regions whose name matches; returns how many. */
static uint32_t
compile_regions(struct view *v)
{
	uint32_t n, hits = 0;
	const struct trace_region *r = trace_regions(v->t, &n);
	int glob = strpbrk(v->search, "*?[") != NULL;
	size_t pl = strlen(v->search);
	for (uint32_t i = 0; i < n; i++) {
		const char *name = trace_str(v->t, r[i].name);
		int m = 0;
		if (glob)
			m = fnmatch(v->search, name, 0) == 0;
		else
			for (const char *p = name; *p && !m; p++)
				m = strncasecmp(p, v->search, pl) == 0;
		v->search_match[i] = (uint8_t)m;
		hits += (uint32_t)m;
	}
	/* Charm++: chares match by name too ("Jacobi(1,2)", "runtime[PE 0]") */
	uint32_t nr = view_index_ranks(v->ix);
	for (uint32_t i = 0; i < nr && view_is_charm(v); i++) {
		char who[VIEW_MAX_ROW_NAME + 32];
		view_row_name(v, i, who, sizeof who);
		int m = 0;
		if (glob)
			m = fnmatch(v->search, who, 0) == 0;
		else
			for (const char *p = who; *p && !m; p++)
				m = strncasecmp(p, v->search, pl) == 0;
		v->search_chare[i] = (uint8_t)m;
		hits += (uint32_t)m;
	}
	return hits;
}

/* match_region's answer when only the operation's chare matches */
#define CHARE_MATCH (TRACE_NONE - 1)

/* The region that makes lop match: its own, else the innermost matching
 * one around it; TRACE_NONE when none does. */
static uint32_t
match_region(const struct view *v, uint32_t lop)
{
	uint32_t nreg, nf;
	trace_regions(v->t, &nreg);
	const struct trace_frame *fr = trace_frames(v->t, &nf);
	/* a Charm++ computation is an entry method's execution: it has one */
	uint32_t r = analysis_lop_kind(v->a, lop) == OP_COMPUTE && !view_is_charm(v) ? TRACE_NONE
		: analysis_lop_region(v->a, lop);
	if (r < nreg && v->search_match[r])
		return r;
	if (view_is_charm(v) && v->search_chare[analysis_lop_timeline(v->a, lop)])
		return CHARE_MATCH;
	for (uint32_t f = analysis_lop_frame(v->a, lop), d = 0; f < nf && d < 64; f = fr[f].parent, d++)
		if (fr[f].region < nreg && v->search_match[fr[f].region])
			return fr[f].region;
	return TRACE_NONE;
}

static int
cmp_hit(const void *x, const void *y)
{
	const struct hit *a = x, *b = y;
	if (a->step != b->step)
		return a->step < b->step ? -1 : 1;
	return a->rank < b->rank ? -1 : a->rank > b->rank;
}

/* The matches of the pattern in step order, then rank: a counting sort
 * by step (lops are numbered rank by rank, so each step's matches come
 * out in rank order). O(lops + steps); 0 or ERR_NOMEM. */
static int
collect(struct view *v)
{
	uint32_t n = analysis_lop_count(v->a), ns = view_index_steps(v->ix);
	free(v->search_hits);
	v->search_hits = NULL;
	v->n_search_hits = 0;
	uint8_t *m = malloc(n ? n : 1);
	size_t *at = calloc((size_t)ns + 1, sizeof *at);
	if (!m || !at) {
		free(m);
		free(at);
		return ERR_NOMEM;
	}
	size_t k = 0;
	for (uint32_t l = 0; l < n; l++) {
		uint32_t s = analysis_lop_step(v->a, l);
		m[l] = s < ns && match_region(v, l) != TRACE_NONE;
		if (m[l]) {
			at[s + 1]++;
			k++;
		}
	}
	for (uint32_t s = 0; s < ns; s++)
		at[s + 1] += at[s];
	struct hit *h = malloc((k ? k : 1) * sizeof *h);
	if (h)
		for (uint32_t l = 0; l < n; l++)
			if (m[l]) {
				uint32_t s = analysis_lop_step(v->a, l);
				h[at[s]++] = (struct hit){ s, analysis_lop_timeline(v->a, l), l };
			}
	free(m);
	free(at);
	if (!h)
		return ERR_NOMEM;
	v->search_hits = h;
	v->n_search_hits = k;
	return 0;
}

/* Index of the first hit after (step, rank), dir 1, or the last before
 * it, dir -1; -1 when there is none that way. */
static long
neighbour(const struct view *v, uint32_t step, uint32_t rank, int dir)
{
	const struct hit *h = v->search_hits;
	struct hit key = { step, rank, 0 };
	size_t lo = 0, hi = v->n_search_hits;     /* first hit > key */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (cmp_hit(&h[mid], &key) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (dir > 0)
		return lo < v->n_search_hits ? (long)lo : -1;
	/* the last hit < key */
	while (lo > 0 && cmp_hit(&h[lo - 1], &key) == 0)
		lo--;
	return lo > 0 ? (long)lo - 1 : -1;
}

void
view_search_reset(struct view *v)
{
	free(v->search_hits);
	v->search_hits = NULL;
	v->n_search_hits = 0;
	v->search_done[0] = 0;
}

void
view_search_step(struct view *v, int dir)
{
	if (!v->search[0]) {
		view_set_message(v, 1, "no search yet: / starts one");
		return;
	}
	if (strcmp(v->search_done, v->search) != 0) {
		view_search_reset(v);
		if (compile_regions(v) == 0) {
			view_set_message(v, 1, "no region matches '%s'", v->search);
			return;
		}
		if (collect(v)) {
			view_set_message(v, 1, "out of memory");
			return;
		}
		snprintf(v->search_done, sizeof v->search_done, "%s", v->search);
	}
	if (v->n_search_hits == 0) {
		view_set_message(v, 1, "no operation in a region matching '%s'", v->search);
		return;
	}
	/* from the selected operation (or the selected cell) */
	uint32_t step = v->sel_step, rank = v->sel_rank;
	if (v->sel_lop != TRACE_NONE) {
		step = analysis_lop_step(v->a, v->sel_lop);
		rank = analysis_lop_timeline(v->a, v->sel_lop);
	}
	long i = neighbour(v, step, rank, dir);
	int wrapped = i < 0;
	if (wrapped)
		i = dir > 0 ? 0 : (long)v->n_search_hits - 1;
	uint32_t lop = v->search_hits[i].lop, reg = match_region(v, lop);
	view_jump_lop(v, lop);
	char what[200];
	uint32_t own = analysis_lop_kind(v->a, lop) == OP_COMPUTE && !view_is_charm(v) ? TRACE_NONE
		: analysis_lop_region(v->a, lop);
	if (reg == own || reg == CHARE_MATCH)
		snprintf(what, sizeof what, "%s", view_region_name(v, own));
	else
		snprintf(what, sizeof what, "%s in %s", view_region_name(v, own), view_region_name(v, reg));
	char who[VIEW_MAX_ROW_NAME + 32];
	view_row_name(v, v->sel_rank, who, sizeof who);
	view_set_message(v, 0, "/%s: match %ld/%zu, %s at %s%s step %u%s", v->search, i + 1,
			 v->n_search_hits, what, view_is_charm(v) ? "" : "rank ", view_is_charm(v) ? who : who + 1,
			 v->sel_step, wrapped ? dir > 0 ? " (wrapped to the start)" : " (wrapped to the end)" : "");
}
