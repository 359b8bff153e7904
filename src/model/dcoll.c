/* dcoll.c — the distributed match's collectives (dmatch.c).
 *
 * match.c's rule: the k-th call a timeline starts on a communicator (or
 * window: a key) is the key's k-th invocation; key c's invocations take
 * ids from the sum of the earlier keys' counts, where a count is the
 * most calls any timeline made on it; calls on self communicators are
 * one-member invocations after all those, in global call order. A
 * timeline's calls are all on its rank, so a rank numbers its own given
 * each communicator's count (reduce MAX) and the self calls of the ranks
 * before it (the counts' table). Every rank then holds every collective:
 * members and bytes summed over the ranks, the communicator, type and
 * root of its first member in global order, which is the first member
 * of the lowest rank that has one (the one with no members before it:
 * an exscan of the members each rank has), and its own members with the
 * bytes each sent, at their place in the global list.
 */
#include "dmatch_impl.h"

#include <string.h>

#include "base/hmap.h"
#include "base/sat.h"

/* m->coll_of: each half's global collective id; *total the collectives. */
static int
number_calls(struct dm *m, uint64_t *total)
{
	struct trace *t = m->t;
	const struct build *b = m->b;
	size_t n_keys = t->n_comms + t->n_wins;
	uint64_t *first;          /* per key: invocations, then the first's id */
	struct hmap seen = { 0 }; /* (key, timeline) -> calls so far */
	int rc = dm_alloc(&first, n_keys, sizeof *first);
	if (!rc) {
		memset(first, 0, n_keys * sizeof *first);
		uint32_t n_self = 0;
		for (size_t h = 0; h < b->n_colls && !rc; h++) {
			const struct coll_half *x = &b->colls[h];
			if (t->comms[x->comm].is_self) {
				m->coll_of[h] = n_self++;
				continue;
			}
			uint32_t seq = x->pos;
			if (seq == TRACE_NONE) {
				uint32_t *k = hmap_get(&seen, x->key, x->timeline);
				seq = k ? (*k)++ : 0;
				if (!k && hmap_put(&seen, x->key, x->timeline, 1))
					rc = ERR_NOMEM;
			}
			m->coll_of[h] = seq;
			if (seq + 1ull > first[x->key])
				first[x->key] = seq + 1ull;
		}
	}
	hmap_fini(&seen);
	if ((rc = dcomm_agree(m->c, rc)) || (rc = dcomm_reduce(m->c, first, n_keys, DCOMM_MAX))) {
		free(first);
		return rc;
	}
	uint64_t n = 0;
	for (size_t c = 0; c < n_keys; c++) {
		uint64_t k = first[c];
		first[c] = n;
		n += k;
	}
	uint64_t self_base = n + m->off[K_SELF];
	n += m->all[K_SELF];
	if (n >= TRACE_NONE) {
		free(first);
		return ERR_LIMIT;     /* the same on every rank */
	}
	for (size_t h = 0; h < b->n_colls; h++) {
		const struct coll_half *x = &b->colls[h];
		m->coll_of[h] += (uint32_t)(t->comms[x->comm].is_self ? self_base : first[x->key]);
	}
	free(first);
	*total = n;
	return 0;
}

int
dmatch_collectives(struct dm *m)
{
	struct trace *t = m->t;
	const struct build *b = m->b;
	struct dmodel *d = m->d;
	size_t n = b->n_colls;
	uint64_t total = 0, *v = NULL, *at = NULL;
	int rc = number_calls(m, &total);
	if (rc)
		return rc;
	/* v: per collective its members, bytes sent, bytes received,
	 * communicator and root, type; at: members before, then where the
	 * next member goes */
	if (!(rc = dm_alloc(&v, 5 * total, sizeof *v)) && !(rc = dm_alloc(&at, total, sizeof *at)) &&
	    !(rc = dm_alloc(&d->coll_first, total + 1, sizeof *d->coll_first)) &&
	    !(rc = dm_alloc(&d->member_before, total + 1, sizeof *d->member_before)) &&
	    !(rc = dm_alloc(&t->coll_members, n + 1, sizeof *t->coll_members)) &&
	    !(rc = dm_alloc(&t->coll_sent, n + 1, sizeof *t->coll_sent)) &&
	    !(t->colls = calloc(total + 1, sizeof *t->colls)))
		rc = ERR_NOMEM;
	if ((rc = dcomm_agree(m->c, rc)))
		goto out;
	uint64_t *cnt = v, *sent = v + total, *recvd = v + 2 * total, *attr = v + 3 * total;
	uint64_t *type = v + 4 * total;
	memset(v, 0, 5 * total * sizeof *v);
	for (size_t h = 0; h < n; h++) {
		const struct coll_half *x = &b->colls[h];
		uint32_t k = m->coll_of[h];
		cnt[k]++;
		sent[k] = sat_add(sent[k], x->sent);
		recvd[k] = sat_add(recvd[k], x->received);
	}
	uint32_t mine = 0;
	for (uint64_t k = 0; k < total; k++) {
		d->coll_first[k] = mine;
		mine += (uint32_t)cnt[k];
		at[k] = cnt[k];
	}
	d->coll_first[total] = mine;
	if ((rc = dcomm_exscan(m->c, at, total)))
		goto out;
	uint32_t op_off = (uint32_t)(2 * m->off[K_OPS]);
	for (uint64_t k = 0; k < total; k++) {
		d->member_before[k] = (uint32_t)at[k];
		at[k] = d->coll_first[k];
	}
	for (size_t h = 0; h < n; h++) {
		const struct coll_half *x = &b->colls[h];
		uint32_t k = m->coll_of[h];
		if (at[k] == d->coll_first[k] && d->member_before[k] == 0) {
			attr[k] = (uint64_t)x->comm << 32 | x->root;
			type[k] = x->type | (uint64_t)x->flags << 8;
		}
		t->coll_sent[at[k]] = x->sent;
		t->coll_members[at[k]++] = x->op + op_off;
	}
	if ((rc = dcomm_reduce(m->c, v, 5 * total, DCOMM_SUM)))
		goto out;
	uint32_t first = 0;
	t->info.warnings[WARN_INCOMPLETE_COLL] = 0;
	for (uint64_t k = 0; k < total; k++) {
		struct trace_coll *x = &t->colls[k];
		uint32_t comm = (uint32_t)(attr[k] >> 32);
		*x = (struct trace_coll){
			.comm = comm, .root = (uint32_t)attr[k], .member_first = first,
			.member_count = (uint32_t)cnt[k], .type = (uint8_t)type[k],
			.flags = (uint8_t)(type[k] >> 8),
			.bytes_sent = sent[k], .bytes_recv = recvd[k],
		};
		if (cnt[k])
			x->expected = t->comms[comm].is_self ? 1 : t->comms[comm].size;
		first += x->member_count;
		t->info.warnings[WARN_INCOMPLETE_COLL] += x->member_count != x->expected;
	}
	t->n_colls = t->cap_colls = total;
	t->n_coll_members = t->cap_coll_members = n;
	t->n_coll_sent = t->cap_coll_sent = n;
out:
	free(v);
	free(at);
	return rc;
}
