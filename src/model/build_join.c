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
#ifdef __linux__
#define _GNU_SOURCE     /* mremap */
#endif
#include "build_impl.h"

#include <stdatomic.h>
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
	s->calls = NULL, s->n_calls = s->cap_calls = 0;
	s->rmas = NULL, s->n_rmas = s->cap_rmas = 0;
	s->epochs = NULL, s->n_epochs = s->cap_epochs = 0;
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
	free(b->t->calls);
	free(b->t->rmas);
	free(b->t->epochs);
	free(b->t);
}

struct build_join {
	struct build *b;
	struct build **blk;      /* the blocks in memory, n_mem of them */
	uint32_t n_mem;
	struct build_block_size *base;  /* records before each block; n + 1 */
	uint32_t n, next;        /* blocks in all; the next to unpack */
	int adopted;             /* block 0's arrays became b's */
	atomic_uint *left;       /* per block: the workers still copying it */
};

/* A block's array as it is copied. Its pages go to the destination as
 * they are copied (Linux's mremap moves them, without copying): the copy
 * then writes into pages that are already there, where it would fault
 * in and clear new ones (a quarter of all page faults of reading a
 * trace on two threads). Where pages cannot be moved, they are given
 * back instead (madvise), so that no block counts twice at the peak.
 * Only the whole pages of a worker's own range move, never the array's
 * first page (the allocator's header); moved pages leave fresh, empty
 * ones in the source (MREMAP_DONTUNMAP), which stays mapped until it is
 * freed as a whole. */
struct pages {
	uintptr_t base;   /* the source array */
	uintptr_t next;   /* its first page not yet moved or given back */
};

static uintptr_t page_size;      /* set before the workers start */
static atomic_int can_move = 1;
/* Each move leaves the destination with a mapping of its own, and may
 * split the source's: the moves of a join are bounded, so that the
 * process stays far below the system's limit on its mappings (65530 by
 * default). 4096 moves of COPY_BYTES carry a gigabyte; pages beyond it
 * are given back instead. */
#define MOVES_MAX 4096
static atomic_int moves_left;

static void
pages_init(void)
{
	if (!page_size) {
		long pg = sysconf(_SC_PAGESIZE);
		page_size = pg > 0 ? (uintptr_t)pg : 4096;
	}
	atomic_store(&moves_left, MOVES_MAX);
}

static void
pages_begin(struct pages *p, const void *src, size_t from)
{
	uintptr_t pg = page_size, b = (uintptr_t)src;
	uintptr_t lo = (b + from + pg - 1) & ~(pg - 1), keep = ((b + pg - 1) & ~(pg - 1)) + pg;
	*p = (struct pages){ b, lo > keep ? lo : keep };
}

/* Gives back the source's pages before byte `done`. */
static void
pages_release(struct pages *p, size_t done)
{
	uintptr_t hi = (p->base + done) & ~(page_size - 1);
	if (hi > p->next) {
		madvise((void *)p->next, hi - p->next, MADV_DONTNEED);
		p->next = hi;
	}
}

/* Before bytes [dlo, dhi) of the destination are written: the source's
 * pages copied so far (before byte `done`) become its whole pages. */
static void
pages_move(struct pages *p, size_t done, void *dlo, void *dhi)
{
#if defined(__linux__) && defined(MREMAP_DONTUNMAP)
	uintptr_t pg = page_size, have = (p->base + done) & ~(pg - 1);
	uintptr_t to = ((uintptr_t)dlo + pg - 1) & ~(pg - 1), end = (uintptr_t)dhi & ~(pg - 1);
	if (atomic_load_explicit(&can_move, memory_order_relaxed) && have > p->next && end > to &&
	    atomic_fetch_sub_explicit(&moves_left, 1, memory_order_relaxed) > 0) {
		size_t n = have - p->next < end - to ? have - p->next : end - to;
		if (mremap((void *)p->next, n, n, MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP,
			   (void *)to) != MAP_FAILED) {
			p->next += n;
			return;
		}
		atomic_store_explicit(&can_move, 0, memory_order_relaxed);
	}
#else
	(void)dlo;
	(void)dhi;
#endif
	pages_release(p, done);
}

/* bytes copied between moves */
#define COPY_BYTES ((size_t)256 << 10)
/* What a block's ids become in the joined model: the records of each
 * kind before it (two op ids per stored call, trace.h). */
struct shift {
	uint32_t op, end, msg, frame, recv, coll, call, rma, epoch;
};

static struct shift
shift_of(const struct build_join *j, uint32_t k)
{
	const struct build_block_size *o = &j->base[k];
	return (struct shift){ (uint32_t)(2 * o->ops), (uint32_t)o->ends, (uint32_t)o->msgs,
			       (uint32_t)o->frames, (uint32_t)o->recvs, (uint32_t)o->colls,
			       (uint32_t)o->calls, (uint32_t)o->rmas, (uint32_t)o->epochs };
}

/* Each array's records [i0, i1) from src (a block's array, or packed
 * bytes: read with memcpy, as packed bytes need not be aligned) to
 * dst[at + i], renumbered. The destination is indexed, never offset: an
 * empty array is NULL. */
static void
shift_ops(struct trace_oprec *dst, size_t at, const void *src, size_t i0, size_t i1,
	  const struct shift *d)
{
	for (size_t i = i0; i < i1; i++) {
		struct trace_oprec x;
		memcpy(&x, (const char *)src + i * sizeof x, sizeof x);
		x.end_first += d->end;
		if (x.frame != TRACE_NONE)
			x.frame += d->frame;
		dst[at + i] = x;
	}
}

static void
shift_ends(struct trace_end *dst, size_t at, const void *src, size_t i0, size_t i1,
	   const struct shift *d)
{
	for (size_t i = i0; i < i1; i++) {
		struct trace_end x;
		memcpy(&x, (const char *)src + i * sizeof x, sizeof x);
		x.id += x.role == END_RECV ? d->recv : x.role == END_COLL ? d->coll : d->msg;
		dst[at + i] = x;
	}
}

static void
shift_msgs(struct trace_msg *dst, size_t at, const void *src, size_t i0, size_t i1,
	   const struct shift *d)
{
	for (size_t i = i0; i < i1; i++) {
		struct trace_msg x;
		memcpy(&x, (const char *)src + i * sizeof x, sizeof x);
		x.send_op += d->op;
		if (x.send_done_op != TRACE_NONE)
			x.send_done_op += d->op;
		dst[at + i] = x;
	}
}

static void
shift_frames(struct trace_frame *dst, size_t at, const void *src, size_t i0, size_t i1,
	     const struct shift *d)
{
	for (size_t i = i0; i < i1; i++) {
		struct trace_frame x;
		memcpy(&x, (const char *)src + i * sizeof x, sizeof x);
		if (x.parent != TRACE_NONE)
			x.parent += d->frame;
		dst[at + i] = x;
	}
}

/* Quiet calls name nothing: copied as they are. */
static void
shift_calls(struct trace_call *dst, size_t at, const void *src, size_t i0, size_t i1,
	    const struct shift *d)
{
	(void)d;
	if (i1 > i0)
		memcpy(dst + at + i0, (const char *)src + i0 * sizeof *dst, (i1 - i0) * sizeof *dst);
}

static inline uint32_t
shift_op(uint32_t op, const struct shift *d)
{
	return op == TRACE_NONE ? op : op + d->op;
}

static void
shift_rmas(struct trace_rma *dst, size_t at, const void *src, size_t i0, size_t i1,
	   const struct shift *d)
{
	for (size_t i = i0; i < i1; i++) {
		struct trace_rma x;
		memcpy(&x, (const char *)src + i * sizeof x, sizeof x);
		x.op = shift_op(x.op, d);
		x.done_op = shift_op(x.done_op, d);
		dst[at + i] = x;
	}
}

static void
shift_epochs(struct trace_epoch *dst, size_t at, const void *src, size_t i0, size_t i1,
	     const struct shift *d)
{
	for (size_t i = i0; i < i1; i++) {
		struct trace_epoch x;
		memcpy(&x, (const char *)src + i * sizeof x, sizeof x);
		x.op_begin = shift_op(x.op_begin, d);
		x.op_end = shift_op(x.op_end, d);
		dst[at + i] = x;
	}
}

static void
shift_recvs(struct recv_half *dst, size_t at, const void *src, size_t i0, size_t i1,
	    const struct shift *d)
{
	for (size_t i = i0; i < i1; i++) {
		struct recv_half x;
		memcpy(&x, (const char *)src + i * sizeof x, sizeof x);
		x.op += d->op;
		dst[at + i] = x;
	}
}

static void
shift_colls(struct coll_half *dst, size_t at, const void *src, size_t i0, size_t i1,
	    const struct shift *d)
{
	for (size_t i = i0; i < i1; i++) {
		struct coll_half x;
		memcpy(&x, (const char *)src + i * sizeof x, sizeof x);
		x.op += d->op;
		dst[at + i] = x;
	}
}

/* Copies records [i0, i1) of an array in chunks, each written into the
 * pages of the source copied before it (struct pages). */
#define COPY_MOVING(shift_fn, dst, at, src, i0, i1, d) do { \
		const size_t sz_ = sizeof *(src), step_ = COPY_BYTES / sz_; \
		struct pages pg_; \
		pages_begin(&pg_, (src), (i0) * sz_); \
		for (size_t c0_ = (i0); c0_ < (i1); c0_ += step_) { \
			size_t c1_ = (i1) - c0_ < step_ ? (i1) : c0_ + step_; \
			pages_move(&pg_, c0_ * sz_, (dst) + (at) + c0_, (dst) + (at) + c1_); \
			shift_fn((dst), (at), (src), c0_, c1_, (d)); \
		} \
		pages_release(&pg_, (i1) * sz_); \
	} while (0)

/* Worker w's share of the records of every array of the blocks being
 * copied: each array is cut evenly, so that the workers finish together
 * however unequal the blocks are. */
static int
join_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct build_join *j = ctx;
	struct trace *t = j->b->t;
	for (uint32_t k = j->adopted ? 1 : 0; k < j->n_mem; k++) {
		struct build *bk = j->blk[k];
		const struct trace *s = bk->t;
		const struct build_block_size *o = &j->base[k];
		struct shift d = shift_of(j, k);
		uint32_t i0, i1;
#define SHARE(n) par_share((uint32_t)(n), w, nw, &i0, &i1)
		SHARE(s->n_oprec);
		COPY_MOVING(shift_ops, t->oprec, o->ops, s->oprec, i0, i1, &d);
		SHARE(s->n_ends);
		COPY_MOVING(shift_ends, t->ends, o->ends, s->ends, i0, i1, &d);
		SHARE(s->n_msgs);
		COPY_MOVING(shift_msgs, t->msgs, o->msgs, s->msgs, i0, i1, &d);
		SHARE(s->n_frames);
		shift_frames(t->frames, o->frames, s->frames, i0, i1, &d);
		SHARE(s->n_calls);
		COPY_MOVING(shift_calls, t->calls, o->calls, s->calls, i0, i1, &d);
		SHARE(bk->n_recvs);
		COPY_MOVING(shift_recvs, j->b->recvs, o->recvs, bk->recvs, i0, i1, &d);
		SHARE(bk->n_colls);
		shift_colls(j->b->colls, o->colls, bk->colls, i0, i1, &d);
		SHARE(s->n_rmas);
		shift_rmas(t->rmas, o->rmas, s->rmas, i0, i1, &d);
		SHARE(s->n_epochs);
		shift_epochs(t->epochs, o->epochs, s->epochs, i0, i1, &d);
#undef SHARE
		/* the last worker done with a block frees it */
		if (atomic_fetch_sub_explicit(&j->left[k], 1, memory_order_acq_rel) == 1) {
			for (size_t i = 0; i < bk->n_tls; i++) {
				t->timelines[bk->tls[i]].op_first += d.op;
				t->timelines[bk->tls[i]].frame_first += d.frame;
				t->timelines[bk->tls[i]].call_first += d.call;
			}
			build_destroy(bk);
			j->blk[k] = NULL;
		}
	}
	return 0;
}

/* Moves block 0's arrays into b when b has none yet. */
#define ADOPT(dst, src, name) do { \
		free((dst)->name); \
		(dst)->name = (src)->name, (dst)->n_##name = (src)->n_##name; \
		(dst)->cap_##name = (src)->cap_##name; \
		(src)->name = NULL, (src)->n_##name = (src)->cap_##name = 0; \
	} while (0)

static int
reserve_all(struct build *b, const struct build_block_size *total)
{
	struct trace *t = b->t;
	if (vec_reserve((void **)&t->oprec, &t->cap_oprec, total->ops, sizeof *t->oprec) ||
	    vec_reserve((void **)&t->ends, &t->cap_ends, total->ends, sizeof *t->ends) ||
	    vec_reserve((void **)&t->msgs, &t->cap_msgs, total->msgs, sizeof *t->msgs) ||
	    vec_reserve((void **)&t->frames, &t->cap_frames, total->frames, sizeof *t->frames) ||
	    vec_reserve((void **)&b->recvs, &b->cap_recvs, total->recvs, sizeof *b->recvs) ||
	    vec_reserve((void **)&b->colls, &b->cap_colls, total->colls, sizeof *b->colls) ||
	    vec_reserve((void **)&t->calls, &t->cap_calls, total->calls, sizeof *t->calls) ||
	    vec_reserve((void **)&t->rmas, &t->cap_rmas, total->rmas, sizeof *t->rmas) ||
	    vec_reserve((void **)&t->epochs, &t->cap_epochs, total->epochs, sizeof *t->epochs))
		return ERR_NOMEM;
	t->n_oprec = total->ops, t->n_ends = total->ends, t->n_msgs = total->msgs;
	t->n_frames = total->frames, b->n_recvs = total->recvs, b->n_colls = total->colls;
	t->n_calls = total->calls, t->n_rmas = total->rmas, t->n_epochs = total->epochs;
	return 0;
}

void
build_block_size(const struct build *blk, struct build_block_size *sz)
{
	const struct trace *s = blk->t;
	*sz = (struct build_block_size){ s->n_oprec, s->n_ends, s->n_msgs, s->n_frames,
					 blk->n_recvs, blk->n_colls, s->n_calls, s->n_rmas,
					 s->n_epochs };
}

/* Block 0's arrays become the trace's when the trace has none yet. */
static void
adopt_first(struct build_join *j)
{
	struct build *b = j->b;
	struct trace *t = b->t;
	if (!j->n_mem || t->n_oprec || t->n_ends || t->n_msgs || t->n_frames || b->n_recvs ||
	    b->n_colls || t->n_calls || t->n_rmas || t->n_epochs)
		return;
	struct trace *s = j->blk[0]->t;
	ADOPT(t, s, oprec);
	ADOPT(t, s, ends);
	ADOPT(t, s, msgs);
	ADOPT(t, s, frames);
	ADOPT(t, s, calls);
	ADOPT(t, s, rmas);
	ADOPT(t, s, epochs);
	ADOPT(b, j->blk[0], recvs);
	ADOPT(b, j->blk[0], colls);
	j->adopted = 1;
}

/* The records before each block, from the blocks in memory and the
 * sizes of the rest; ERR_LIMIT past what the ids name. */
static int
plan(struct build_join *j, const struct build_block_size *rest)
{
	const struct build *b = j->b;
	const struct trace *t = b->t;
	j->base[0] = (struct build_block_size){ t->n_oprec, t->n_ends, t->n_msgs, t->n_frames,
						b->n_recvs, b->n_colls, t->n_calls, t->n_rmas,
						t->n_epochs };
	for (uint32_t k = 0; k < j->n; k++) {
		struct build_block_size z, x = j->base[k];
		if (k < j->n_mem)
			build_block_size(j->blk[k], &z);
		else
			z = rest[k - j->n_mem];
		x.ops += z.ops, x.ends += z.ends, x.msgs += z.msgs;
		x.frames += z.frames, x.recvs += z.recvs, x.colls += z.colls;
		x.calls += z.calls, x.rmas += z.rmas, x.epochs += z.epochs;
		j->base[k + 1] = x;
		/* checked as it goes, so that no sum wraps */
		if (x.ops > VEC_MAX_ID / 2 || x.ends > VEC_MAX_ID || x.msgs > TRACE_END_ID_MAX + 1 ||
		    x.frames > VEC_MAX_ID || x.recvs > TRACE_END_ID_MAX + 1 || x.calls > VEC_MAX_ID ||
		    x.colls > TRACE_END_ID_MAX + 1 || x.rmas > VEC_MAX_ID || x.epochs > VEC_MAX_ID)
			return ERR_LIMIT;
	}
	return 0;
}

static void
add_warnings(struct trace *t, const uint64_t *warnings, uint64_t calls_without_records)
{
	for (int w = 0; w < WARN_COUNT; w++)
		t->info.warnings[w] += warnings[w];
	t->info.mpi_calls_without_records += calls_without_records;
}

/* The timelines a block began, as b's own (read with memcpy: packed
 * bytes need not be aligned). */
static int
add_begun(struct build *b, const void *tls, size_t n)
{
	if (vec_reserve((void **)&b->tls, &b->cap_tls, b->n_tls + n, sizeof *b->tls))
		return ERR_NOMEM;
	if (n)
		memcpy(b->tls + b->n_tls, tls, n * sizeof *b->tls);
	b->n_tls += n;
	return 0;
}

int
build_join_begin(struct build *b, struct build **blocks, uint32_t n_mem,
		 const struct build_block_size *rest, uint32_t n_rest, struct build_join **out)
{
	*out = NULL;
	struct build_join *j = calloc(1, sizeof *j);
	int rc = 0;
	if (!j || (uint64_t)n_mem + n_rest > VEC_MAX_ID) {
		rc = j ? ERR_LIMIT : ERR_NOMEM;
		goto fail;
	}
	*j = (struct build_join){ .b = b, .blk = blocks, .n_mem = n_mem, .n = n_mem + n_rest,
				  .next = n_mem };
	j->base = malloc(((size_t)j->n + 1) * sizeof *j->base);
	if (!j->base) {
		rc = ERR_NOMEM;
		goto fail;
	}
	for (uint32_t k = 0; k < n_mem; k++)
		if (blocks[k]->tl != TRACE_NONE)
			rc = ERR_USAGE;
	if (rc || (rc = plan(j, rest)))
		goto fail;
	for (uint32_t k = 0; k < n_mem && !rc; k++)
		rc = add_begun(b, blocks[k]->tls, blocks[k]->n_tls);
	if (rc)
		goto fail;
	for (uint32_t k = 0; k < n_mem; k++)
		add_warnings(b->t, blocks[k]->t->info.warnings,
			     blocks[k]->t->info.mpi_calls_without_records);
	adopt_first(j);
	if ((rc = reserve_all(b, &j->base[j->n])))
		goto fail;
	uint32_t nw = par_workers();
	j->left = malloc(((size_t)n_mem + 1) * sizeof *j->left);
	if (!j->left) {
		rc = ERR_NOMEM;
		goto fail;
	}
	for (uint32_t k = 0; k < n_mem; k++)
		atomic_init(&j->left[k], nw);
	if (j->adopted) {          /* an empty shell now */
		build_destroy(blocks[0]);
		blocks[0] = NULL;
	}
	pages_init();
	rc = par_run(nw, join_worker, j);
	free(j->left);
	j->left = NULL;
	if (rc)
		goto fail;
	*out = j;
	return 0;
fail:
	for (uint32_t k = 0; k < n_mem; k++)
		if (blocks[k]) {
			build_destroy(blocks[k]);
			blocks[k] = NULL;
		}
	if (j)
		free(j->base);
	free(j);
	return rc;
}

int
build_join_end(struct build_join *j)
{
	int rc = j->next == j->n ? 0 : ERR_FORMAT;
	free(j->base);
	free(j);
	return rc;
}

int
build_join(struct build *b, struct build **blk, uint32_t n)
{
	struct build_join *j;
	int rc = build_join_begin(b, blk, n, NULL, 0, &j);
	return rc ? rc : build_join_end(j);
}

/* The packed block's arrays (build_pack.c): placed where block j->next
 * goes, renumbered. */
int
build_join_place(struct build_join *j, const struct build_block_size *sz, const void *const *arrays,
		 const void *tl_ids, size_t n_tls, const void *tl_records,
		 const uint64_t *warnings, uint64_t calls_without_records)
{
	const char *tls = tl_ids;
	if (j->next >= j->n)
		return ERR_FORMAT;
	uint32_t k = j->next;
	const struct build_block_size *o = &j->base[k], *o1 = &j->base[k + 1];
	if (sz->ops != o1->ops - o->ops || sz->ends != o1->ends - o->ends ||
	    sz->msgs != o1->msgs - o->msgs || sz->frames != o1->frames - o->frames ||
	    sz->recvs != o1->recvs - o->recvs || sz->colls != o1->colls - o->colls ||
	    sz->calls != o1->calls - o->calls || sz->rmas != o1->rmas - o->rmas ||
	    sz->epochs != o1->epochs - o->epochs)
		return ERR_FORMAT;
	struct build *b = j->b;
	struct trace *t = b->t;
	for (size_t i = 0; i < n_tls; i++) {
		uint32_t tl;
		memcpy(&tl, tls + i * sizeof tl, sizeof tl);
		if (tl >= t->n_timelines)
			return ERR_FORMAT;
	}
	if (add_begun(b, tl_ids, n_tls))
		return ERR_NOMEM;
	struct shift d = shift_of(j, k);
	shift_ops(t->oprec, o->ops, arrays[0], 0, sz->ops, &d);
	shift_ends(t->ends, o->ends, arrays[1], 0, sz->ends, &d);
	shift_msgs(t->msgs, o->msgs, arrays[2], 0, sz->msgs, &d);
	shift_frames(t->frames, o->frames, arrays[3], 0, sz->frames, &d);
	shift_recvs(b->recvs, o->recvs, arrays[4], 0, sz->recvs, &d);
	shift_colls(b->colls, o->colls, arrays[5], 0, sz->colls, &d);
	shift_calls(t->calls, o->calls, arrays[6], 0, sz->calls, &d);
	shift_rmas(t->rmas, o->rmas, arrays[7], 0, sz->rmas, &d);
	shift_epochs(t->epochs, o->epochs, arrays[8], 0, sz->epochs, &d);
	for (size_t i = 0; i < n_tls; i++) {
		uint32_t id;
		memcpy(&id, tls + i * sizeof id, sizeof id);
		struct trace_timeline *tl = &t->timelines[id];
		memcpy(tl, (const char *)tl_records + i * sizeof *tl, sizeof *tl);
		tl->op_first += d.op;
		tl->frame_first += d.frame;
		tl->call_first += d.call;
	}
	add_warnings(t, warnings, calls_without_records);
	j->next++;
	return 0;
}
