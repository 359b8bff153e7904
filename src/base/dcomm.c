/* dcomm.c — what is built on the collectives (dcomm.h). */
#include "dcomm.h"

#include <stdlib.h>
#include <string.h>

#include "err.h"

int
dcomm_send_packed(struct dcomm *c, int rc, const void *send, const uint64_t *count,
		  uint64_t *rcount, size_t size, void **recv, size_t *n_recv)
{
	rc = dcomm_agree(c, rc);
	if (!rc)
		rc = dcomm_alltoallv(c, send, count, recv, rcount);
	uint64_t got = 0;
	for (uint32_t r = 0; r < c->size && !rc; r++)
		got += rcount[r];
	if (!rc)
		*n_recv = (size_t)(got / size);
	return rc;
}

int
dcomm_exchange(struct dcomm *c, const void *recs, size_t n, size_t size, const uint32_t *dest,
	       void **recv, size_t *n_recv)
{
	uint32_t nr = c->size;
	*recv = NULL;
	*n_recv = 0;
	uint64_t *count = calloc(nr, sizeof *count), *rcount = calloc(nr, sizeof *rcount);
	uint64_t *at = calloc(nr + 1, sizeof *at);
	char *buf = malloc(n * size + 1);
	int rc = count && rcount && at && buf ? 0 : ERR_NOMEM;
	for (size_t i = 0; i < n && !rc; i++)
		count[dest[i]] += size;
	for (uint32_t r = 0; r < nr && !rc; r++)
		at[r + 1] = at[r] + count[r];
	for (size_t i = 0; i < n && !rc; i++) {
		memcpy(buf + at[dest[i]], (const char *)recs + i * size, size);
		at[dest[i]] += size;
	}
	rc = dcomm_send_packed(c, rc, buf, count, rcount, size, recv, n_recv);
	free(count);
	free(rcount);
	free(at);
	free(buf);
	return rc;
}

int
dcomm_exchange_unordered(struct dcomm *c, void *recs, size_t n, size_t size, uint32_t *dest,
			 void **recv, size_t *n_recv)
{
	uint32_t nr = c->size;
	*recv = NULL;
	*n_recv = 0;
	uint64_t *count = calloc(nr, sizeof *count), *rcount = calloc(nr, sizeof *rcount);
	uint64_t *next = calloc(nr + 1, sizeof *next), *end = calloc(nr + 1, sizeof *end);
	char *tmp = malloc(size + 1), *b = recs;
	int rc = count && rcount && next && end && tmp ? 0 : ERR_NOMEM;
	for (size_t i = 0; i < n && !rc; i++)
		count[dest[i]]++;
	for (uint32_t r = 0; r < nr && !rc; r++) {
		next[r + 1] = end[r] = next[r] + count[r];
		count[r] *= size;
	}
	/* each record swapped into its destination's run until the run
	 * under the cursor is full (an American flag sort's pass) */
	for (uint32_t r = 0; r < nr && !rc; r++) {
		while (next[r] < end[r]) {
			uint64_t i = next[r];
			uint32_t d = dest[i];
			if (d == r) {
				next[r]++;
				continue;
			}
			uint64_t j = next[d]++;
			memcpy(tmp, b + i * size, size);
			memcpy(b + i * size, b + j * size, size);
			memcpy(b + j * size, tmp, size);
			dest[i] = dest[j];
			dest[j] = d;
		}
	}
	rc = dcomm_send_packed(c, rc, recs, count, rcount, size, recv, n_recv);
	free(count);
	free(rcount);
	free(next);
	free(end);
	free(tmp);
	return rc;
}

int
dcomm_agree_err(struct dcomm *c, int rc, struct err *e)
{
	int all = dcomm_agree(c, rc);
	if (!all)
		return 0;
	/* the failing ranks' messages, the others' empty */
	const char *mine = rc && e ? e->msg : "";
	size_t len = rc && e ? strnlen(e->msg, sizeof e->msg - 1) + 1 : 0;
	uint64_t *rcount = malloc((c->size ? c->size : 1) * sizeof *rcount);
	char *got = NULL;
	if (dcomm_agree(c, rcount ? 0 : ERR_NOMEM) ||
	    dcomm_allgatherv(c, mine, len, (void **)&got, rcount)) {
		free(rcount);
		return all;
	}
	const char *at = got;
	for (uint32_t r = 0; r < c->size; r++) {
		if (rcount[r] && e) {
			e->code = all;
			memcpy(e->msg, at, rcount[r] < sizeof e->msg ? rcount[r] : sizeof e->msg);
			e->msg[sizeof e->msg - 1] = '\0';
			break;
		}
		at += rcount[r];
	}
	free(got);
	free(rcount);
	return all;
}

int
dcomm_firsts(struct dcomm *c, uint32_t mine, uint32_t last, uint32_t *out)
{
	uint64_t *v = calloc(c->size, sizeof *v);
	int rc = dcomm_agree(c, v ? 0 : ERR_NOMEM);
	if (!rc) {
		v[c->rank] = mine;
		rc = dcomm_reduce(c, v, c->size, DCOMM_SUM);
	}
	for (uint32_t r = 0; r < c->size && !rc; r++)
		out[r] = (uint32_t)v[r];
	if (!rc)
		out[c->size] = last;
	free(v);
	return rc;
}

int
dcomm_gather_runs(struct dcomm *c, const void *mine, size_t n_mine, size_t size, void *out,
		  size_t n_all)
{
	uint64_t *count = malloc(c->size * sizeof *count);
	void *all = NULL;
	int rc = dcomm_agree(c, count ? 0 : ERR_NOMEM);
	if (!rc)
		rc = dcomm_allgatherv(c, mine, (uint64_t)n_mine * size, &all, count);
	uint64_t got = 0;
	for (uint32_t r = 0; r < c->size && !rc; r++)
		got += count[r];
	if (!rc && got != (uint64_t)n_all * size)
		rc = ERR_USAGE;          /* the same on every rank: all saw the counts */
	if (!rc && n_all)
		memcpy(out, all, n_all * size);
	free(all);
	free(count);
	return rc;
}
