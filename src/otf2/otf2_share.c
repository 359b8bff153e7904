/* otf2_share.c — a distributed read's shares as bytes, and their join.
 *
 * A packed share is a run of pieces: a head (part, its locations [lo,
 * hi), its blocks, the events' counts, the events read on each of its
 * locations, then each block's size), then its blocks one by one as
 * build_block_pack() writes them. The pieces travel one at a time, so
 * that neither end holds a second copy of the share. Part 0 takes every
 * other part's head first, in part order: with every block's size known
 * it begins the join (build_join_begin: the model's arrays sized once,
 * its own blocks put in place), and each block that follows goes
 * straight to its place (build_join_unpack). Blocks come in part order,
 * so they end up in location order and every id is numbered as one
 * reader would.
 */
#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "otf2_impl.h"
#include "otf2_read.h"

#define SHARE_MAGIC 0x32524148534e4b53ull   /* "SKNSHAR2" */

struct share_head {
	uint64_t magic, part, lo, hi, n_blocks, locations;
	struct otf2r_counts counts;
};

static size_t
events_bytes(const struct otf2_share *s)
{
	return (size_t)(s->hi - s->lo) * sizeof(uint64_t);
}

size_t
otf2_share_piece_size(const struct otf2_share *s, uint32_t i)
{
	if (i == 0)
		return sizeof(struct share_head) + events_bytes(s) +
		       s->n_blocks * sizeof(struct build_block_size);
	return i - 1 < s->n_blocks && s->blocks[i - 1] ? build_block_pack_size(s->blocks[i - 1]) : 0;
}

uint32_t
otf2_share_pieces(const struct otf2_share *s)
{
	return 1 + s->n_blocks;
}

void
otf2_share_pack_piece(struct otf2_share *s, uint32_t i, void *buf)
{
	if (i == 0) {
		struct share_head h = { SHARE_MAGIC, s->part, s->lo, s->hi, s->n_blocks,
					s->r.t->n_locations, s->counts };
		char *at = buf;
		memcpy(at, &h, sizeof h);
		at += sizeof h;
		for (uint32_t l = s->lo; l < s->hi; l++, at += sizeof(uint64_t))
			memcpy(at, &s->r.t->locations[l].events, sizeof(uint64_t));
		for (uint32_t k = 0; k < s->n_blocks; k++, at += sizeof(struct build_block_size)) {
			struct build_block_size z;
			build_block_size(s->blocks[k], &z);
			memcpy(at, &z, sizeof z);
		}
		return;
	}
	build_block_pack(s->blocks[i - 1], buf);
	s->blocks[i - 1] = NULL;
}

static const char *
share_path(const struct otf2_share *s)
{
	return s->r.t->path ? s->r.t->path : "trace";
}

/* The next part's head: its locations' events, counts and block sizes. */
static int
add_head(struct otf2_share *s, const char *buf, size_t len, struct err *e)
{
	struct trace *t = s->r.t;
	struct share_head h;
	if (len < sizeof h)
		return err_set(e, ERR_FORMAT, "%s: a share's head of %zu bytes", share_path(s), len);
	memcpy(&h, buf, sizeof h);
	if (h.magic != SHARE_MAGIC || h.part != s->next_head || h.locations != t->n_locations ||
	    h.lo > h.hi || h.hi > t->n_locations || h.n_blocks > VEC_MAX_ID)
		return err_set(e, ERR_FORMAT, "%s: part %u's head is not the one expected "
			       "(another archive, or out of order)", share_path(s), s->next_head);
	size_t want = sizeof h + (h.hi - h.lo) * sizeof(uint64_t) +
		      h.n_blocks * sizeof(struct build_block_size);
	if (len != want)
		return err_set(e, ERR_FORMAT, "%s: part %u's head is %zu bytes, not %zu (cut short, "
			       "or bytes past its end)", share_path(s), s->next_head, len, want);
	if (vec_reserve((void **)&s->sizes, &s->cap_sizes, s->n_sizes + h.n_blocks, sizeof *s->sizes))
		return err_set(e, ERR_NOMEM, "%s: out of memory", share_path(s));
	const char *at = buf + sizeof h;
	for (uint64_t i = h.lo; i < h.hi; i++, at += sizeof(uint64_t))
		memcpy(&t->locations[i].events, at, sizeof(uint64_t));
	memcpy(s->sizes + s->n_sizes, at, h.n_blocks * sizeof *s->sizes);
	s->n_sizes += h.n_blocks;
	s->part_blocks[s->next_head] = (uint32_t)h.n_blocks;
	const struct otf2r_counts *c = &h.counts;
	for (int j = 0; j < REC_COUNT; j++)
		s->counts.records[j] += c->records[j];
	s->counts.nonrank_mpi += c->nonrank_mpi;
	s->counts.before_offset += c->before_offset;
	s->counts.bad_refs += c->bad_refs;
	s->counts.lane_stray += c->lane_stray;
	s->counts.lane_misnested += c->lane_misnested;
	s->counts.lane_unclosed += c->lane_unclosed;
	if (c->t_begin < s->counts.t_begin)
		s->counts.t_begin = c->t_begin;
	if (c->t_end > s->counts.t_end)
		s->counts.t_end = c->t_end;
	s->next_head++;
	return 0;
}

/* The part whose blocks the next block belongs to. */
static uint32_t
block_part(const struct otf2_share *s)
{
	uint32_t p = 1, k = s->joined;
	while (p < s->n_parts && k >= s->part_blocks[p])
		k -= s->part_blocks[p++];
	return p;
}

/* Begins the join: part 0's own blocks in place, the model's arrays
 * sized for every block. */
static int
begin_join(struct otf2_share *s, struct err *e)
{
	int rc = build_join_begin(s->r.b, s->blocks, s->n_blocks, s->sizes,
				  (uint32_t)s->n_sizes, &s->join);
	s->n_blocks = 0;
	if (rc)
		return otf2r_build_error(e, rc, share_path(s), "building the model");
	return 0;
}

/* The next block, straight into its place. */
static int
add_block(struct otf2_share *s, const char *buf, size_t len, struct err *e)
{
	if (s->joined >= s->n_sizes)
		return err_set(e, ERR_FORMAT, "%s: a block past the %zu the heads announced",
			       share_path(s), s->n_sizes);
	if (!s->join) {
		int rc = begin_join(s, e);
		if (rc)
			return rc;
	}
	size_t used = 0;
	int rc = build_join_unpack(s->join, buf, len, &used);
	if (!rc && used != len)
		rc = ERR_FORMAT;
	if (rc)
		return err_set(e, rc, "%s: part %u's share: %s", share_path(s), block_part(s),
			       rc == ERR_NOMEM ? "out of memory" :
			       "a block that is corrupt or not the one its head announced");
	s->joined++;
	return 0;
}

int
otf2_share_add_piece(struct otf2_share *s, const void *buf, size_t len, struct err *e)
{
	if (s->part != 0)
		return err_set(e, ERR_USAGE, "%s: only part 0 joins", share_path(s));
	if (!s->part_blocks && !(s->part_blocks = calloc(s->n_parts, sizeof *s->part_blocks)))
		return err_set(e, ERR_NOMEM, "%s: out of memory", share_path(s));
	if (s->next_head < s->n_parts)
		return add_head(s, buf, len, e);
	return add_block(s, buf, len, e);
}

int
otf2_share_finish(struct otf2_share *s, const struct otf2_read_opts *opts, struct trace **out,
		  struct err *e)
{
	*out = NULL;
	struct trace *t = s->r.t;
	const char *path = share_path(s);
	if (s->part != 0 || s->next_head != s->n_parts)
		return err_set(e, ERR_USAGE, "%s: %u of %u shares' heads added", path,
			       s->part == 0 ? s->next_head : 0, s->n_parts);
	if (!s->join) {
		int rc = begin_join(s, e);
		if (rc)
			return rc;
	}
	int rc = build_join_end(s->join);
	s->join = NULL;
	if (rc)
		return err_set(e, ERR_FORMAT, "%s: %u of the %zu blocks of the other parts' shares "
			       "came", path, s->joined, s->n_sizes);
	s->r.e = e;
	otf2r_finish_counts(&s->r, &s->counts);
	rc = build_finish(s->r.b, opts ? opts->progress : NULL, opts ? opts->ud : NULL);
	if (rc)
		return otf2r_build_error(e, rc, path, "matching messages");
	build_destroy(s->r.b);
	s->r.b = NULL;
	*out = t;
	s->r.t = NULL;
	return 0;
}

/* The timeline of the first rank's location at index i or past it (the
 * ranks' locations come in rank order), the timelines' count if none. */
static uint32_t
first_timeline_from(const struct trace *t, size_t i)
{
	for (; i < t->n_locations; i++)
		if (t->locations[i].timeline != TRACE_NONE)
			return t->locations[i].timeline;
	return (uint32_t)t->n_timelines;
}

int
otf2_share_local(struct otf2_share *s, struct trace **t_out, struct build **b_out, uint32_t *tl_lo,
		 uint32_t *tl_hi, struct err *e)
{
	*t_out = NULL;
	*b_out = NULL;
	struct trace *t = s->r.t;
	if (!t || !s->r.b || s->join || s->next_head != s->part + 1)
		return err_set(e, ERR_USAGE, "%s: a share joined or packed already", share_path(s));
	const char *path = share_path(s);
	uint32_t prev = TRACE_NONE;
	for (size_t i = 0; i < t->n_locations; i++) {
		uint32_t tl = t->locations[i].timeline;
		if (tl == TRACE_NONE)
			continue;
		if (prev != TRACE_NONE && tl <= prev)
			return err_set(e, ERR_USAGE, "%s: the MPI ranks' locations are not in rank order "
				       "(location %llu is rank %u, after rank %u): the trace cannot be "
				       "cut into runs of ranks, analyse it on one process", path,
				       (unsigned long long)t->locations[i].id, tl, prev);
		prev = tl;
	}
	int rc = build_join(s->r.b, s->blocks, s->n_blocks);
	s->n_blocks = 0;
	if (rc)
		return otf2r_build_error(e, rc, path, "building the model");
	s->r.e = e;
	otf2r_finish_counts(&s->r, &s->counts);
	if (s->counts.t_begin == UINT64_MAX)
		t->info.t_begin = UINT64_MAX;
	*tl_lo = s->part == 0 ? 0 : first_timeline_from(t, s->lo);
	*tl_hi = s->part + 1 == s->n_parts ? (uint32_t)t->n_timelines : first_timeline_from(t, s->hi);
	*t_out = t;
	*b_out = s->r.b;
	s->r.t = NULL;
	s->r.b = NULL;
	return 0;
}

struct trace *
otf2_share_trace(struct otf2_share *s)
{
	return s->r.t;
}

void
otf2_share_destroy(struct otf2_share *s)
{
	if (!s)
		return;
	for (uint32_t i = 0; i < s->n_blocks; i++)
		build_destroy(s->blocks[i]);
	free(s->blocks);
	if (s->join)
		build_join_end(s->join);
	free(s->sizes);
	free(s->part_blocks);
	build_destroy(s->r.b);
	trace_destroy(s->r.t);
	free(s);
}
