/* build_join.c — building timelines in blocks and joining the blocks.
 *
 * Each block builds into arrays of its own, with ids counted from 0. The
 * join appends block k's records after those of blocks 0..k-1, adding to
 * every id the number of records of its kind before the block: op ids
 * (in messages, halves and timelines), end, message, frame and half ids.
 * That is exactly the numbering one builder reading the blocks' timelines
 * in the same order gives, so the model does not depend on how the
 * timelines were spread over threads.
 *
 * The first block's arrays become the trace's when the trace is still
 * empty (grown in place, not copied); the others are copied into place
 * in parallel, each freed as soon as it is copied.
 */
#include "build_impl.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/par.h"
#include "base/vec.h"

struct build *
build_block_create(struct trace *t)
{
	struct trace *s = malloc(sizeof *s);
	if (!s)
		return NULL;
	*s = *t;
	s->oprec = NULL, s->n_oprec = s->cap_oprec = 0;
	s->ends = NULL, s->n_ends = s->cap_ends = 0;
	s->msgs = NULL, s->n_msgs = s->cap_msgs = 0;
	s->frames = NULL, s->n_frames = s->cap_frames = 0;
	memset(s->info.warnings, 0, sizeof s->info.warnings);
	s->info.mpi_calls_without_records = 0;
	struct build *b = build_create(s);
	if (!b) {
		free(s);
		return NULL;
	}
	b->is_block = 1;
	return b;
}

void
build_block_free_shell(struct build *b)
{
	free(b->t->oprec);
	free(b->t->ends);
	free(b->t->msgs);
	free(b->t->frames);
	free(b->t);
}

/* Records of each kind before a block (ops: stored calls). */
struct base {
	size_t ops, ends, msgs, frames, recvs, colls;
};

struct join {
	struct build *b;
	struct build **blk;
	struct base *base;       /* n + 1 */
	uint32_t n;
	uint32_t cut[PAR_MAX + 1];
	int adopted;             /* block 0's arrays became b's */
};

/* Gives back the pages of the first `done` bytes of a large array that
 * was copied (freed as a whole right after): without it, every block
 * being copied counts twice at the peak. The array's first page, which
 * holds the allocator's header, is kept. */
static void
release(const void *base, size_t done)
{
	static long page;
	if (!page)
		page = sysconf(_SC_PAGESIZE);
	if (page <= 0 || done < (size_t)(4 * page))
		return;
	uintptr_t lo = ((uintptr_t)base + 2 * (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
	uintptr_t hi = ((uintptr_t)base + done) & ~((uintptr_t)page - 1);
	if (hi > lo)
		madvise((void *)lo, hi - lo, MADV_DONTNEED);
}

/* records copied between releases */
#define COPY_CHUNK ((size_t)1 << 16)

static void
copy_block(struct join *j, uint32_t k)
{
	struct trace *t = j->b->t;
	struct build *bk = j->blk[k];
	const struct trace *s = bk->t;
	const struct base *o = &j->base[k];
	/* op ids: two per stored call (trace.h) */
	uint32_t op = (uint32_t)(2 * o->ops), end = (uint32_t)o->ends, msg = (uint32_t)o->msgs;
	uint32_t frame = (uint32_t)o->frames, recv = (uint32_t)o->recvs, coll = (uint32_t)o->colls;
	if (k > 0 || !j->adopted) {
		/* destinations indexed, never offset: an empty array is NULL */
		for (size_t i = 0; i < s->n_oprec; i++) {
			struct trace_oprec x = s->oprec[i];
			x.end_first += end;
			if (x.frame != TRACE_NONE)
				x.frame += frame;
			t->oprec[o->ops + i] = x;
			if ((i + 1) % COPY_CHUNK == 0)
				release(s->oprec, (i + 1) * sizeof *s->oprec);
		}
		for (size_t i = 0; i < s->n_ends; i++) {
			struct trace_end x = s->ends[i];
			x.id += x.role == END_RECV ? recv : x.role == END_COLL ? coll : msg;
			t->ends[o->ends + i] = x;
			if ((i + 1) % COPY_CHUNK == 0)
				release(s->ends, (i + 1) * sizeof *s->ends);
		}
		for (size_t i = 0; i < s->n_msgs; i++) {
			struct trace_msg x = s->msgs[i];
			x.send_op += op;
			if (x.send_done_op != TRACE_NONE)
				x.send_done_op += op;
			t->msgs[o->msgs + i] = x;
			if ((i + 1) % COPY_CHUNK == 0)
				release(s->msgs, (i + 1) * sizeof *s->msgs);
		}
		for (size_t i = 0; i < s->n_frames; i++) {
			struct trace_frame x = s->frames[i];
			if (x.parent != TRACE_NONE)
				x.parent += frame;
			t->frames[o->frames + i] = x;
		}
		for (size_t i = 0; i < bk->n_recvs; i++) {
			struct recv_half *dr = &j->b->recvs[o->recvs + i];
			*dr = bk->recvs[i];
			dr->op += op;
			if ((i + 1) % COPY_CHUNK == 0)
				release(bk->recvs, (i + 1) * sizeof *bk->recvs);
		}
		for (size_t i = 0; i < bk->n_colls; i++) {
			struct coll_half *dc = &j->b->colls[o->colls + i];
			*dc = bk->colls[i];
			dc->op += op;
		}
		for (size_t i = 0; i < bk->n_tls; i++) {
			t->timelines[bk->tls[i]].op_first += op;
			t->timelines[bk->tls[i]].frame_first += frame;
		}
	}
	build_destroy(bk);
	j->blk[k] = NULL;
}

static int
join_worker(void *ctx, uint32_t i, uint32_t n)
{
	(void)n;
	struct join *j = ctx;
	for (uint32_t k = j->cut[i]; k < j->cut[i + 1]; k++)
		copy_block(j, k);
	return 0;
}

static uint64_t
block_weight(const void *ctx, uint32_t k)
{
	const struct join *j = ctx;
	const struct trace *s = j->blk[k]->t;
	return k == 0 && j->adopted ? 1 : s->n_oprec + s->n_ends + s->n_msgs + 1;
}

/* Moves block 0's arrays into b when b has none yet. */
#define ADOPT(dst, src, name) do { \
		free((dst)->name); \
		(dst)->name = (src)->name, (dst)->n_##name = (src)->n_##name; \
		(dst)->cap_##name = (src)->cap_##name; \
		(src)->name = NULL, (src)->n_##name = (src)->cap_##name = 0; \
	} while (0)

static int
reserve_all(struct build *b, const struct base *total)
{
	struct trace *t = b->t;
	if (vec_reserve((void **)&t->oprec, &t->cap_oprec, total->ops, sizeof *t->oprec) ||
	    vec_reserve((void **)&t->ends, &t->cap_ends, total->ends, sizeof *t->ends) ||
	    vec_reserve((void **)&t->msgs, &t->cap_msgs, total->msgs, sizeof *t->msgs) ||
	    vec_reserve((void **)&t->frames, &t->cap_frames, total->frames, sizeof *t->frames) ||
	    vec_reserve((void **)&b->recvs, &b->cap_recvs, total->recvs, sizeof *b->recvs) ||
	    vec_reserve((void **)&b->colls, &b->cap_colls, total->colls, sizeof *b->colls))
		return ERR_NOMEM;
	t->n_oprec = total->ops, t->n_ends = total->ends, t->n_msgs = total->msgs;
	t->n_frames = total->frames, b->n_recvs = total->recvs, b->n_colls = total->colls;
	return 0;
}

int
build_join(struct build *b, struct build **blk, uint32_t n)
{
	struct trace *t = b->t;
	struct join j = { .b = b, .blk = blk, .n = n };
	int rc = 0;
	j.base = malloc(((size_t)n + 1) * sizeof *j.base);
	if (!j.base)
		rc = ERR_NOMEM;
	for (uint32_t k = 0; k < n && !rc; k++)
		if (blk[k]->tl != TRACE_NONE)
			rc = ERR_USAGE;
	if (rc)
		goto out;
	j.base[0] = (struct base){ t->n_oprec, t->n_ends, t->n_msgs, t->n_frames, b->n_recvs, b->n_colls };
	for (uint32_t k = 0; k < n; k++) {
		const struct build *bk = blk[k];
		const struct trace *s = bk->t;
		struct base x = j.base[k];
		x.ops += s->n_oprec, x.ends += s->n_ends, x.msgs += s->n_msgs;
		x.frames += s->n_frames, x.recvs += bk->n_recvs, x.colls += bk->n_colls;
		j.base[k + 1] = x;
		for (int w = 0; w < WARN_COUNT; w++)
			t->info.warnings[w] += s->info.warnings[w];
		t->info.mpi_calls_without_records += s->info.mpi_calls_without_records;
	}
	const struct base *total = &j.base[n];
	/* two op ids per call; message, receive and collective ids in ends */
	if (total->ops > VEC_MAX_ID / 2 || total->ends > VEC_MAX_ID ||
	    total->msgs > TRACE_END_ID_MAX + 1 || total->frames > VEC_MAX_ID ||
	    total->recvs > TRACE_END_ID_MAX + 1 || total->colls > TRACE_END_ID_MAX + 1) {
		rc = ERR_LIMIT;
		goto out;
	}
	if (n && !t->n_oprec && !t->n_ends && !t->n_msgs && !t->n_frames && !b->n_recvs &&
	    !b->n_colls) {
		struct trace *s = blk[0]->t;
		ADOPT(t, s, oprec);
		ADOPT(t, s, ends);
		ADOPT(t, s, msgs);
		ADOPT(t, s, frames);
		ADOPT(b, blk[0], recvs);
		ADOPT(b, blk[0], colls);
		j.adopted = 1;
	}
	if ((rc = reserve_all(b, total)))
		goto out;
	uint32_t nw = par_workers();
	if (nw > n)
		nw = n ? n : 1;
	par_split(n, nw, block_weight, &j, j.cut);
	rc = par_run(nw, join_worker, &j);
out:
	for (uint32_t k = 0; k < n; k++)
		if (blk[k]) {
			build_destroy(blk[k]);
			blk[k] = NULL;
		}
	free(j.base);
	return rc;
}
