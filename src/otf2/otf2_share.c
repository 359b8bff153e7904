/* otf2_share.c — a distributed read's shares as bytes, and their join.
 *
 * A packed share is a run of pieces: a head (part, its locations [lo,
 * hi), its blocks, the events' counts, then the events read on each of
 * its locations), then its blocks one by one as build_block_pack() writes
 * them. The pieces can travel one at a time, so that neither end holds a
 * second copy of the share. Part 0 adds the others' shares in part
 * order, so its blocks end up in location order, and build_join()
 * numbers every id as one reader would.
 */
#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "otf2_impl.h"
#include "otf2_read.h"

#define SHARE_MAGIC 0x31524148534e4b53ull   /* "SKNSHAR1" */

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
		return sizeof(struct share_head) + events_bytes(s);
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
		return;
	}
	build_block_pack(s->blocks[i - 1], buf);
	s->blocks[i - 1] = NULL;
}

size_t
otf2_share_pack_size(const struct otf2_share *s)
{
	size_t n = 0;
	for (uint32_t i = 0; i < otf2_share_pieces(s); i++)
		n += otf2_share_piece_size(s, i);
	return n;
}

void
otf2_share_pack(struct otf2_share *s, void *buf)
{
	char *at = buf;
	uint32_t n = otf2_share_pieces(s);
	for (uint32_t i = 0; i < n; i++) {
		size_t len = otf2_share_piece_size(s, i);
		otf2_share_pack_piece(s, i, at);
		at += len;
	}
	s->n_blocks = 0;
}

static const char *
share_path(const struct otf2_share *s)
{
	return s->r.t->path ? s->r.t->path : "trace";
}

/* The next part's head: its locations' events and counts; *used: its
 * bytes. */
static int
add_head(struct otf2_share *s, const char *buf, size_t len, size_t *used, struct err *e)
{
	struct trace *t = s->r.t;
	struct share_head h;
	if (len < sizeof h)
		return err_set(e, ERR_FORMAT, "%s: a share of %zu bytes", share_path(s), len);
	memcpy(&h, buf, sizeof h);
	if (h.magic != SHARE_MAGIC || h.part != s->next_part || h.locations != t->n_locations ||
	    h.lo > h.hi || h.hi > t->n_locations || h.n_blocks > VEC_MAX_ID ||
	    (h.hi - h.lo) * sizeof(uint64_t) > len - sizeof h)
		return err_set(e, ERR_FORMAT, "%s: part %u's share is not the one expected "
			       "(another archive, or out of order)", share_path(s), s->next_part);
	const char *at = buf + sizeof h;
	for (uint64_t i = h.lo; i < h.hi; i++, at += sizeof(uint64_t))
		memcpy(&t->locations[i].events, at, sizeof(uint64_t));
	if (vec_reserve((void **)&s->blocks, &s->cap_blocks, s->n_blocks + h.n_blocks,
			sizeof *s->blocks))
		return err_set(e, ERR_NOMEM, "%s: out of memory", share_path(s));
	const struct otf2r_counts *c = &h.counts;
	for (int j = 0; j < REC_COUNT; j++)
		s->counts.records[j] += c->records[j];
	s->counts.nonrank_mpi += c->nonrank_mpi;
	s->counts.bad_refs += c->bad_refs;
	if (c->t_begin < s->counts.t_begin)
		s->counts.t_begin = c->t_begin;
	if (c->t_end > s->counts.t_end)
		s->counts.t_end = c->t_end;
	s->blocks_due = (uint32_t)h.n_blocks;
	*used = (size_t)(at - buf);
	return 0;
}

/* One block of the part being added. */
static int
add_block(struct otf2_share *s, const char *buf, size_t len, size_t *used, struct err *e)
{
	int rc = build_block_unpack(s->r.t, buf, len, &s->blocks[s->n_blocks], used);
	if (rc)
		return err_set(e, rc, "%s: part %u's share: %s", share_path(s), s->next_part,
			       rc == ERR_NOMEM ? "out of memory" : "corrupt");
	s->n_blocks++;
	s->blocks_due--;
	return 0;
}

/* The next piece of the part being added, from bytes that may hold more
 * (*used: what it took); the part is complete when no block is due. */
static int
add_piece(struct otf2_share *s, const char *buf, size_t len, size_t *used, struct err *e)
{
	int rc = s->in_part ? add_block(s, buf, len, used, e) : add_head(s, buf, len, used, e);
	if (rc)
		return rc;
	s->in_part = 1;
	if (s->blocks_due == 0) {
		s->in_part = 0;
		s->next_part++;
	}
	return 0;
}

int
otf2_share_add_piece(struct otf2_share *s, const void *buf, size_t len, struct err *e)
{
	size_t used = 0;
	int rc = add_piece(s, buf, len, &used, e);
	if (!rc && used != len)
		rc = err_set(e, ERR_FORMAT, "%s: part %u's share has bytes past its end",
			     share_path(s), s->next_part - !s->in_part);
	return rc;
}

int
otf2_share_add(struct otf2_share *s, const void *buf, size_t len, struct err *e)
{
	const char *at = buf, *end = at + len;
	uint32_t part = s->next_part;
	do {
		size_t used = 0;
		int rc = add_piece(s, at, (size_t)(end - at), &used, e);
		if (rc)
			return rc;
		at += used;
	} while (s->next_part == part && at < end);
	if (s->next_part == part)
		return err_set(e, ERR_FORMAT, "%s: part %u's share is cut short", share_path(s), part);
	if (at != end)
		return err_set(e, ERR_FORMAT, "%s: part %u's share has bytes past its end",
			       share_path(s), part);
	return 0;
}

uint32_t
otf2_share_next_part(const struct otf2_share *s)
{
	return s->next_part;
}

int
otf2_share_finish(struct otf2_share *s, const struct otf2_read_opts *opts, struct trace **out,
		  struct err *e)
{
	*out = NULL;
	struct trace *t = s->r.t;
	const char *path = t->path ? t->path : "trace";
	if (s->part != 0 || s->next_part != s->n_parts)
		return err_set(e, ERR_USAGE, "%s: %u of %u shares joined", path, s->next_part, s->n_parts);
	int rc = build_join(s->r.b, s->blocks, s->n_blocks);
	s->n_blocks = 0;
	if (rc)
		return otf2r_build_error(e, rc, path, "building the model");
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

void
otf2_share_destroy(struct otf2_share *s)
{
	if (!s)
		return;
	for (uint32_t i = 0; i < s->n_blocks; i++)
		build_destroy(s->blocks[i]);
	free(s->blocks);
	build_destroy(s->r.b);
	trace_destroy(s->r.t);
	free(s);
}
