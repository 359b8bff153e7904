/* build_pack.c — a builder block as bytes, for moving it between the
 * processes of a distributed read (skein-mpi, doc/distributed.md).
 *
 * Layout (the writer's byte order and struct layout: both ends run the
 * same binary): a header of counts, then the arrays one after another,
 * each padded to 8 bytes.
 *
 *   u64 ops, ends, msgs, frames, recv halves, collective halves, quiet
 *   calls, RMA operations, epochs, timelines
 *   u64 warnings[WARN_COUNT], MPI calls without records
 *   ops (the calls: op ids are implied, trace.h), ends, msgs, frames, recv
 *   halves, collective halves, quiet calls, RMA operations, epochs,
 *   timeline ids (u32), the timelines' records (struct trace_timeline)
 *
 * Ids inside are the block's own (counted from 0): build_join_unpack()
 * renumbers them as it puts the records in place in the joined model.
 */
#include "build_impl.h"

#include <stdlib.h>
#include <string.h>

#include "base/vec.h"

enum { N_OPS, N_ENDS, N_MSGS, N_FRAMES, N_RECVS, N_COLLS, N_CALLS, N_RMAS, N_EPOCHS, N_TLS,
       N_COUNTS };

#define HEADER_WORDS (N_COUNTS + WARN_COUNT + 1)

static size_t
pad8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

static void
counts_of(const struct build *b, uint64_t *n)
{
	const struct trace *s = b->t;
	n[N_OPS] = s->n_oprec, n[N_ENDS] = s->n_ends, n[N_MSGS] = s->n_msgs;
	n[N_FRAMES] = s->n_frames, n[N_RECVS] = b->n_recvs, n[N_COLLS] = b->n_colls;
	n[N_CALLS] = s->n_calls, n[N_RMAS] = s->n_rmas, n[N_EPOCHS] = s->n_epochs;
	n[N_TLS] = b->n_tls;
}

/* The record size of each array, in header order. */
static const size_t rec_size[N_COUNTS] = {
	sizeof(struct trace_oprec), sizeof(struct trace_end), sizeof(struct trace_msg),
	sizeof(struct trace_frame), sizeof(struct recv_half), sizeof(struct coll_half),
	sizeof(struct trace_call), sizeof(struct trace_rma), sizeof(struct trace_epoch),
	sizeof(uint32_t),
};

size_t
build_block_pack_size(const struct build *b)
{
	uint64_t n[N_COUNTS];
	counts_of(b, n);
	size_t size = HEADER_WORDS * sizeof(uint64_t);
	for (int k = 0; k < N_COUNTS; k++)
		size += pad8(n[k] * rec_size[k]);
	return size + pad8(n[N_TLS] * sizeof(struct trace_timeline));
}

/* Copies n bytes of src to *at (padded) and frees src. */
static void
put(char **at, void *src, size_t n)
{
	if (n)
		memcpy(*at, src, n);
	memset(*at + n, 0, pad8(n) - n);
	*at += pad8(n);
	free(src);
}

void
build_block_pack(struct build *b, void *buf)
{
	struct trace *s = b->t;
	uint64_t head[HEADER_WORDS];
	counts_of(b, head);
	memcpy(head + N_COUNTS, s->info.warnings, sizeof s->info.warnings);
	head[N_COUNTS + WARN_COUNT] = s->info.mpi_calls_without_records;
	char *at = buf;
	memcpy(at, head, sizeof head);
	at += sizeof head;
	/* the timelines' records live in the shared trace: after the ids */
	char *tl_at = at;
	for (int k = 0; k < N_COUNTS; k++)
		tl_at += pad8(head[k] * rec_size[k]);
	for (size_t i = 0; i < b->n_tls; i++)
		memcpy(tl_at + i * sizeof(struct trace_timeline), &s->timelines[b->tls[i]],
		       sizeof(struct trace_timeline));
	memset(tl_at + b->n_tls * sizeof(struct trace_timeline), 0,
	       pad8(b->n_tls * sizeof(struct trace_timeline)) - b->n_tls * sizeof(struct trace_timeline));
	void *arrays[N_COUNTS] = { s->oprec, s->ends, s->msgs, s->frames, b->recvs, b->colls,
				   s->calls, s->rmas, s->epochs, b->tls };
	for (int k = 0; k < N_COUNTS; k++)
		put(&at, arrays[k], head[k] * rec_size[k]);
	s->oprec = NULL, s->ends = NULL, s->msgs = NULL, s->frames = NULL, s->calls = NULL;
	s->rmas = NULL, s->epochs = NULL;
	b->recvs = NULL, b->colls = NULL, b->tls = NULL;
	build_destroy(b);
}

int
build_join_unpack(struct build_join *j, const void *buf, size_t len, size_t *used)
{
	uint64_t head[HEADER_WORDS];
	if (len < sizeof head)
		return ERR_FORMAT;
	memcpy(head, buf, sizeof head);
	const char *at = (const char *)buf + sizeof head, *end = (const char *)buf + len;
	const void *arrays[N_COUNTS];
	for (int k = 0; k < N_COUNTS; k++) {
		if (head[k] > VEC_MAX_ID || head[k] * rec_size[k] > (uint64_t)(end - at) ||
		    pad8(head[k] * rec_size[k]) > (size_t)(end - at))
			return ERR_FORMAT;
		arrays[k] = at;
		at += pad8(head[k] * rec_size[k]);
	}
	size_t tl_bytes = head[N_TLS] * sizeof(struct trace_timeline);
	if (pad8(tl_bytes) > (size_t)(end - at))
		return ERR_FORMAT;
	struct build_block_size sz = { head[N_OPS], head[N_ENDS], head[N_MSGS], head[N_FRAMES],
				       head[N_RECVS], head[N_COLLS], head[N_CALLS], head[N_RMAS],
				       head[N_EPOCHS] };
	int rc = build_join_place(j, &sz, arrays, arrays[N_TLS], head[N_TLS], at, head + N_COUNTS,
				  head[N_COUNTS + WARN_COUNT]);
	if (!rc)
		*used = (size_t)(at + pad8(tl_bytes) - (const char *)buf);
	return rc;
}
