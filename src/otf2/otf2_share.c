/* otf2_share.c — a distributed read's shares as bytes, and their join.
 *
 * A packed share: a header (part, its locations [lo, hi), its blocks,
 * the events' counts), the events read on each of its locations, then its
 * blocks one after another as build_block_pack() writes them. Part 0
 * adds the others' shares in part order, so its blocks end up in
 * location order, and build_join() numbers every id as one reader would.
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
otf2_share_pack_size(const struct otf2_share *s)
{
	size_t n = sizeof(struct share_head) + events_bytes(s);
	for (uint32_t i = 0; i < s->n_blocks; i++)
		n += build_block_pack_size(s->blocks[i]);
	return n;
}

uint64_t
otf2_share_events(const struct otf2_share *s)
{
	uint64_t n = 0;
	for (uint32_t i = s->lo; i < s->hi; i++)
		n += s->r.t->locations[i].events;
	return n;
}

void
otf2_share_pack(struct otf2_share *s, void *buf)
{
	struct share_head h = { SHARE_MAGIC, s->part, s->lo, s->hi, s->n_blocks,
				s->r.t->n_locations, s->counts };
	char *at = buf;
	memcpy(at, &h, sizeof h);
	at += sizeof h;
	for (uint32_t i = s->lo; i < s->hi; i++, at += sizeof(uint64_t))
		memcpy(at, &s->r.t->locations[i].events, sizeof(uint64_t));
	for (uint32_t i = 0; i < s->n_blocks; i++) {
		size_t n = build_block_pack_size(s->blocks[i]);
		build_block_pack(s->blocks[i], at);
		s->blocks[i] = NULL;
		at += n;
	}
	s->n_blocks = 0;
}

int
otf2_share_add(struct otf2_share *s, const void *buf, size_t len, struct err *e)
{
	struct trace *t = s->r.t;
	const char *path = t->path ? t->path : "trace";
	struct share_head h;
	if (len < sizeof h)
		return err_set(e, ERR_FORMAT, "%s: a share of %zu bytes", path, len);
	memcpy(&h, buf, sizeof h);
	if (h.magic != SHARE_MAGIC || h.part != s->next_part || h.locations != t->n_locations ||
	    h.lo > h.hi || h.hi > t->n_locations || h.n_blocks > VEC_MAX_ID ||
	    (h.hi - h.lo) * sizeof(uint64_t) > len - sizeof h)
		return err_set(e, ERR_FORMAT, "%s: part %u's share is not the one expected "
			       "(another archive, or out of order)", path, s->next_part);
	const char *at = (const char *)buf + sizeof h, *end = (const char *)buf + len;
	for (uint64_t i = h.lo; i < h.hi; i++, at += sizeof(uint64_t))
		memcpy(&t->locations[i].events, at, sizeof(uint64_t));
	if (vec_reserve((void **)&s->blocks, &s->cap_blocks, s->n_blocks + h.n_blocks,
			sizeof *s->blocks))
		return err_set(e, ERR_NOMEM, "%s: out of memory", path);
	for (uint64_t k = 0; k < h.n_blocks; k++) {
		size_t used = 0;
		int rc = build_block_unpack(t, at, (size_t)(end - at), &s->blocks[s->n_blocks], &used);
		if (rc)
			return err_set(e, rc, "%s: part %u's share: %s", path, s->next_part,
				       rc == ERR_NOMEM ? "out of memory" : "corrupt");
		s->n_blocks++;
		at += used;
	}
	if (at != end)
		return err_set(e, ERR_FORMAT, "%s: part %u's share has bytes past its end", path,
			       s->next_part);
	const struct otf2r_counts *c = &h.counts;
	for (int j = 0; j < REC_COUNT; j++)
		s->counts.records[j] += c->records[j];
	s->counts.nonrank_mpi += c->nonrank_mpi;
	s->counts.bad_refs += c->bad_refs;
	if (c->t_begin < s->counts.t_begin)
		s->counts.t_begin = c->t_begin;
	if (c->t_end > s->counts.t_end)
		s->counts.t_end = c->t_end;
	s->next_part++;
	return 0;
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
		return err_set(e, rc, "%s: %s while building the model", path, err_name(rc));
	s->r.e = e;
	otf2r_finish_counts(&s->r, &s->counts);
	rc = build_finish(s->r.b, opts ? opts->progress : NULL, opts ? opts->ud : NULL);
	if (rc)
		return err_set(e, rc, "%s: %s while matching messages", path, err_name(rc));
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
