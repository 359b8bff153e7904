/* dsaved.c — one saved-analysis file written by every rank (dsaved.h). */
#include "dsaved.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/saved/saved.h"
#include "analysis/saved/saved_impl.h"

struct dsaved {
	struct dcomm *c;
	int fd;
	char *path, *tmp;
	uint64_t off;                 /* where the next section may start */
	struct section sec[S_END];
	uint32_t n;
	int failed;                   /* a write on this rank did not go through */
	int err_no;
};

/* A piece of a section on its way to the owner of its blocks. */
struct piece {
	uint64_t at, len;             /* bytes [at, at + len) of the section */
};

/* The first block rank r owns, of nb (r = size: nb). */
static uint64_t
block0(uint64_t nb, uint32_t r, uint32_t size)
{
	return nb * r / size;
}

/* The rank owning the block of byte `at`: the last whose first block is
 * at or before it (ranks own none when blocks are fewer than ranks). */
static uint32_t
owner_at(uint64_t at, uint64_t nb, uint32_t size)
{
	uint64_t b = at / SUM_BLOCK;
	uint32_t lo = 0, hi = size;    /* block0(lo) <= b < block0(hi) */
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (block0(nb, mid, size) <= b)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* A section's blocks are written in rounds: in round k each owner takes
 * at most ROUND_BLOCKS of its blocks, from the k-th run of them on, so
 * a rank holds one round's pieces at a time, not its whole share. */
#define ROUND_BLOCKS 8u

/* A section being written. */
struct layout {
	uint32_t id, e;               /* e: record size (1 for strings) */
	uint64_t off;                 /* where it starts in the file */
	uint64_t bytes, nb;           /* its bytes and blocks */
	uint32_t size;
	const struct drun *runs;      /* the rank's */
	size_t n_runs;
	uint64_t round;               /* the round being written */
};

/* Owner o's blocks in the round: [*bf, *bt). */
static void
round_blocks(const struct layout *l, uint32_t o, uint64_t *bf, uint64_t *bt)
{
	uint64_t b0 = block0(l->nb, o, l->size), b1 = block0(l->nb, o + 1, l->size);
	uint64_t f = b0 + l->round * ROUND_BLOCKS, t = f + ROUND_BLOCKS;
	*bf = f < b1 ? f : b1;
	*bt = t < b1 ? t : b1;
}

/* Their bytes: [*lo, *hi). */
static void
round_span(const struct layout *l, uint32_t o, uint64_t *lo, uint64_t *hi)
{
	uint64_t f, t;
	round_blocks(l, o, &f, &t);
	*lo = f * SUM_BLOCK < l->bytes ? f * SUM_BLOCK : l->bytes;
	*hi = t * SUM_BLOCK < l->bytes ? t * SUM_BLOCK : l->bytes;
}

/* Calls fn for each piece of run [lo, hi) (bytes) that one owner takes
 * in the round. */
static void
cut(uint64_t lo, uint64_t hi, const struct layout *l,
    void (*fn)(void *ctx, uint32_t owner, uint64_t at, uint64_t len), void *ctx)
{
	while (lo < hi) {
		uint32_t o = owner_at(lo, l->nb, l->size);
		uint64_t end = o + 1 < l->size ? block0(l->nb, o + 1, l->size) * SUM_BLOCK : l->bytes;
		uint64_t f, t;
		round_span(l, o, &f, &t);
		if (f < lo)
			f = lo;
		if (t > hi)
			t = hi;
		if (f < t)
			fn(ctx, o, f, t - f);
		lo = end > lo ? end : hi;
	}
}

struct packing {
	uint64_t *count, *at;
	char *buf;
	const char *data;             /* the run's bytes, from its start */
	uint64_t run_at;              /* the run's first byte in the section */
};

static void
count_piece(void *ctx, uint32_t owner, uint64_t at, uint64_t len)
{
	(void)at;
	((struct packing *)ctx)->count[owner] += sizeof(struct piece) + len;
}

static void
pack_piece(void *ctx, uint32_t owner, uint64_t at, uint64_t len)
{
	struct packing *g = ctx;
	struct piece p = { at, len };
	memcpy(g->buf + g->at[owner], &p, sizeof p);
	memcpy(g->buf + g->at[owner] + sizeof p, g->data + (at - g->run_at), len);
	g->at[owner] += sizeof p + len;
}

/* One round of a section: the pieces to their owners, each owner's
 * blocks of the round put together, summed into sums (the owner's
 * blocks from its first) and written where they go. */
static int
put_round(struct dsaved *w, const struct layout *l, uint64_t *sums, struct packing *g,
	  uint64_t *rcount)
{
	struct dcomm *c = w->c;
	uint32_t size = c->size, me = c->rank, e = l->e;
	const struct drun *runs = l->runs;
	size_t n_runs = l->n_runs;
	memset(g->count, 0, size * sizeof *g->count);
	for (size_t i = 0; i < n_runs; i++)
		cut(runs[i].first * e, (runs[i].first + runs[i].count) * e, l, count_piece, g);
	uint64_t total = 0;
	for (uint32_t r = 0; r < size; r++) {
		g->at[r] = total;
		total += g->count[r];
	}
	g->buf = malloc(total ? total : 1);
	int rc = dcomm_agree(c, g->buf ? 0 : ERR_NOMEM);
	for (size_t i = 0; i < n_runs && !rc; i++) {
		g->data = runs[i].data;
		g->run_at = runs[i].first * e;
		cut(g->run_at, g->run_at + runs[i].count * e, l, pack_piece, g);
	}
	void *recv = NULL;
	if (!rc)
		rc = dcomm_alltoallv(c, g->buf, g->count, &recv, rcount);
	free(g->buf);
	g->buf = NULL;
	/* this rank's blocks of the round, put together from the pieces */
	uint64_t lo, hi;
	round_span(l, me, &lo, &hi);
	unsigned char *mine = NULL;
	uint64_t got = 0, filled = 0;
	if (!rc) {
		mine = malloc(hi - lo ? hi - lo : 1);
		rc = mine ? 0 : ERR_NOMEM;
	}
	for (uint32_t r = 0; r < size && !rc; r++)
		got += rcount[r];
	for (uint64_t k = 0; !rc && k < got;) {
		struct piece p;
		memcpy(&p, (char *)recv + k, sizeof p);
		k += sizeof p;
		if (p.at < lo || p.at + p.len > hi) {
			rc = ERR_USAGE;
			break;
		}
		memcpy(mine + (p.at - lo), (char *)recv + k, p.len);
		k += p.len;
		filled += p.len;
	}
	free(recv);
	if (!rc && filled != hi - lo)
		rc = ERR_USAGE;          /* the runs do not cover the section once */
	if (!rc && saved_has_padding(l->id))
		saved_zero_padding(l->id, e, mine, lo, hi - lo);
	uint64_t b0 = block0(l->nb, me, size), bf, bt;
	round_blocks(l, me, &bf, &bt);
	for (uint64_t b = bf; b < bt && !rc; b++) {
		uint64_t s = b * SUM_BLOCK, t = s + SUM_BLOCK < l->bytes ? s + SUM_BLOCK : l->bytes;
		sums[b - b0] = saved_block_sum(mine + (s - lo), t - s);
	}
	if (!rc && hi > lo && pwrite(w->fd, mine, hi - lo, (off_t)(l->off + lo)) != (ssize_t)(hi - lo)) {
		w->failed = 1;
		w->err_no = errno;
	}
	free(mine);
	return dcomm_agree(c, rc);
}

int
dsaved_put(struct dsaved *w, uint32_t id, uint32_t elem, uint64_t all, const struct drun *runs,
	   size_t n_runs)
{
	struct dcomm *c = w->c;
	uint32_t size = c->size, me = c->rank;
	uint64_t off = (w->off + ALIGN - 1) / ALIGN * ALIGN;
	uint64_t bytes = all * (elem ? elem : 1);
	uint64_t nb = bytes ? (bytes + SUM_BLOCK - 1) / SUM_BLOCK : 1;
	struct layout l = { id, elem ? elem : 1, off, bytes, nb, size, runs, n_runs, 0 };
	uint64_t *count = calloc(size, sizeof *count), *rcount = calloc(size, sizeof *rcount);
	uint64_t *at = calloc(size + 1, sizeof *at);
	uint64_t b0 = block0(nb, me, size), b1 = block0(nb, me + 1, size);
	uint64_t *sums = malloc((b1 - b0 + 1) * sizeof *sums);
	struct packing g = { count, at, NULL, NULL, 0 };
	int rc = count && rcount && at && sums ? 0 : ERR_NOMEM;
	for (size_t i = 0; i < n_runs && !rc; i++)
		if (runs[i].first > all || runs[i].count > all - runs[i].first)
			rc = ERR_USAGE;          /* past the section's end */
	rc = dcomm_agree(c, rc);
	/* as many rounds as the largest owner's blocks need */
	uint64_t most = (nb + size - 1) / size, rounds = (most + ROUND_BLOCKS - 1) / ROUND_BLOCKS;
	for (l.round = 0; l.round < rounds && !rc; l.round++)
		rc = put_round(w, &l, sums, &g, rcount);
	void *all_sums = NULL;
	if (!rc)
		rc = dcomm_allgatherv(c, sums, (b1 - b0) * sizeof *sums, &all_sums, rcount);
	free(sums);
	if (!rc) {
		uint64_t acc = saved_sum_start(bytes);
		const uint64_t *s = all_sums;
		for (uint64_t b = 0; b < nb; b++)
			acc = saved_combine(acc, s[b]);
		w->sec[w->n++] = (struct section){ .id = id, .elem_size = elem, .count = all,
						   .offset = off, .bytes = bytes, .sum = acc };
		w->off = off + bytes;
	}
	free(all_sums);
	free(count);
	free(rcount);
	free(at);
	return rc;
}

void
dsaved_last_is_strings(struct dsaved *w, uint64_t n)
{
	w->sec[w->n - 1].count = n;
	w->sec[w->n - 1].elem_size = 0;
}

int
dsaved_open(struct dcomm *c, const char *path, struct dsaved **out, struct err *e)
{
	*out = NULL;
	struct dsaved *w = calloc(1, sizeof *w);
	size_t plen = strlen(path);
	uint64_t pid = c->rank == 0 ? (uint64_t)getpid() : 0;
	int rc = w ? 0 : err_set(e, ERR_NOMEM, "%s: out of memory", path);
	if (w) {
		w->c = c;
		w->fd = -1;
		w->path = strdup(path);
		w->tmp = malloc(plen + 32);
		if (!w->path || !w->tmp)
			rc = err_set(e, ERR_NOMEM, "%s: out of memory", path);
	}
	if (!rc && c->rank == 0)
		rc = saved_may_replace(path, e);
	rc = dcomm_agree(c, rc);
	if (!rc)
		rc = dcomm_reduce(c, &pid, 1, DCOMM_SUM);    /* rank 0's */
	if (!rc) {
		snprintf(w->tmp, plen + 32, "%s.tmp%llu", path, (unsigned long long)pid);
		/* a new file of our own: never through a link or a FIFO left there */
		if (c->rank == 0 &&
		    (w->fd = open(w->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666)) < 0)
			rc = err_set(e, ERR_IO, "%s: %s", w->tmp, strerror(errno));
		rc = dcomm_agree(c, rc);
	}
	if (!rc) {
		if (c->rank != 0 && (w->fd = open(w->tmp, O_WRONLY | O_CLOEXEC)) < 0)
			rc = err_set(e, ERR_IO, "%s: %s on rank %u (the file must be where every "
				     "rank sees it)", w->tmp, strerror(errno), c->rank);
		rc = dcomm_agree(c, rc);
	}
	if (rc) {
		if (w && w->fd >= 0) {
			close(w->fd);
			if (c->rank == 0)
				unlink(w->tmp);
		}
		if (w) {
			free(w->path);
			free(w->tmp);
		}
		free(w);
		return rc;
	}
	/* room for the header and the table, written last */
	w->off = sizeof(struct header) + sizeof w->sec;
	*out = w;
	return 0;
}

int
dsaved_close(struct dsaved *w, int rc, struct err *e)
{
	struct dcomm *c = w->c;
	if (!rc && w->failed)
		rc = err_set(e, ERR_IO, "%s: cannot write (%s)", w->path, strerror(w->err_no));
	rc = dcomm_agree(c, rc);
	if (c->rank != 0 && close(w->fd) && !rc)
		rc = err_set(e, ERR_IO, "%s: cannot write (%s)", w->path, strerror(errno));
	rc = dcomm_agree(c, rc);
	if (c->rank == 0) {
		struct header h = { .version = SAVED_VERSION, .byte_order = BYTE_ORDER_MARK,
				    .header_size = sizeof h, .n_sections = w->n,
				    .file_size = w->off };
		memcpy(h.magic, SAVED_MAGIC, sizeof h.magic);
		h.table_sum = saved_checksum(w->sec, sizeof w->sec);
		h.header_sum = saved_checksum(&h, sizeof h);
		if (!rc && (ftruncate(w->fd, (off_t)w->off) ||
			    pwrite(w->fd, &h, sizeof h, 0) != (ssize_t)sizeof h ||
			    pwrite(w->fd, w->sec, sizeof w->sec, sizeof h) != (ssize_t)sizeof w->sec))
			rc = err_set(e, ERR_IO, "%s: cannot write (%s)", w->path, strerror(errno));
		if (close(w->fd) && !rc)
			rc = err_set(e, ERR_IO, "%s: cannot write (%s)", w->path, strerror(errno));
		if (!rc && rename(w->tmp, w->path))
			rc = err_set(e, ERR_IO, "%s: %s", w->path, strerror(errno));
		if (rc)
			unlink(w->tmp);
	}
	rc = dcomm_agree(c, rc);
	free(w->path);
	free(w->tmp);
	free(w);
	return rc;
}
