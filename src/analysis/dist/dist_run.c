/* dist_run.c — the distributed analysis, stage after stage (dist_run.h,
 * doc/distributed.md). */
#include "dist_run.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/core/analysis_impl.h"
#include "analysis/mpi/stages.h"
#include "base/hmap.h"
#include "base/vec.h"
#include "dist.h"
#include "dist_leap.h"
#include "dist_merge.h"
#include "dist_metrics.h"
#include "dist_steps.h"
#include "dist_verify.h"
#include "dsaved.h"
#include "model/build.h"
#include "model/dmodel.h"
#include "model/trace_impl.h"
#include "otf2/otf2_read.h"

static double
now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A message end's partner: the lop at its other end. */
struct partner {
	uint32_t msg, lop, op, pad;
};

/* The partner record of message msg among n sorted by message, or NULL. */
static const struct partner *
partner_of(const struct partner *p, size_t n, uint32_t msg)
{
	size_t i = vec_find_u32(p, n, sizeof *p, msg);
	return i < n ? &p[i] : NULL;
}

struct run {
	struct dcomm *c;
	const struct analysis_opts *o;
	struct dmodel d;
	struct analysis *la;
	struct dslice lops;
	uint32_t *part_first;
	uint32_t *tl_first;
	/* each message the analysis steps by: its receiver's lop (the rank's
	 * sends), its sender's lop (the rank's receives) */
	struct partner *to_recv, *to_send;
	size_t n_to_recv, n_to_send;
	struct dmet_out m;
	uint64_t step_batch;
};

/* Every rank's first timeline. */
static int
tl_table(struct run *r)
{
	struct dcomm *c = r->c;
	r->tl_first = calloc(c->size + 1, sizeof *r->tl_first);
	int rc = dcomm_agree(c, r->tl_first ? 0 : ERR_NOMEM);
	if (!rc)
		rc = dcomm_firsts(c, r->d.tl_lo, (uint32_t)r->d.t->n_timelines, r->tl_first);
	return rc;
}

/* The lops at both ends of each message the analysis steps by: the
 * sender's rank tells the receiver's, which answers. */
static int
partners(struct run *r)
{
	struct dcomm *c = r->c;
	const struct dmodel *d = &r->d;
	const struct analysis *a = r->la;
	const struct trace_msg *msgs = d->t->msgs;
	struct partner *s = malloc(((size_t)d->sends.n + 1) * sizeof *s);
	uint32_t *to = malloc(((size_t)d->sends.n + 1) * sizeof *to);
	int rc = dcomm_agree(c, s && to ? 0 : ERR_NOMEM);
	size_t k = 0;
	for (uint32_t i = 0; i < d->sends.n && !rc; i++) {
		const struct trace_msg *m = &msgs[i];
		if (m->recv_op == TRACE_NONE || (a->opts.match_size && (m->flags & MSGF_SIZE_MISMATCH)))
			continue;
		uint32_t l = op_lop_of(a, dmodel_op_local(d, m->send_op));
		s[k] = (struct partner){ d->sends.off + i, r->lops.off + l, m->recv_op, c->rank };
		to[k++] = dmodel_rank_of(r->tl_first, c->size, m->receiver);
	}
	void *got = NULL;
	size_t n = 0;
	if (!rc)
		rc = dcomm_exchange(c, s, k, sizeof *s, to, &got, &n);
	free(s);
	free(to);
	/* the receiver's side: each received message's sender lop; the
	 * answer is its own lop */
	struct partner *g = got;
	struct partner *ans = rc ? NULL : malloc((n + 1) * sizeof *ans);
	uint32_t *back = rc ? NULL : malloc((n + 1) * sizeof *back);
	rc = rc ? rc : dcomm_agree(c, ans && back ? 0 : ERR_NOMEM);
	for (size_t i = 0; i < n && !rc; i++) {
		uint32_t op = dmodel_op_local(d, g[i].op);
		if (op == TRACE_NONE) {
			rc = ERR_FORMAT;
			break;
		}
		ans[i] = (struct partner){ g[i].msg, r->lops.off + op_lop_of(a, op), g[i].op, 0 };
		back[i] = g[i].pad;          /* the asking rank */
	}
	rc = dcomm_agree(c, rc);
	void *got2 = NULL;
	size_t n2 = 0;
	if (!rc)
		rc = dcomm_exchange(c, ans, n, sizeof *ans, back, &got2, &n2);
	free(ans);
	free(back);
	if (rc) {
		free(got);
		free(got2);
		return rc;
	}
	r->to_send = g;
	r->n_to_send = n;
	r->to_recv = got2;
	r->n_to_recv = n2;
	qsort(r->to_send, n, sizeof *r->to_send, vec_cmp_u32);
	qsort(r->to_recv, n2, sizeof *r->to_recv, vec_cmp_u32);
	return 0;
}

/* The rank's lops and their ends as dist_steps takes them (malloc'd,
 * in->consume set: dist_steps frees them), each rank owning an equal run
 * of the partitions (*own, the caller's to free). */
static int
step_input(struct run *r, struct dstep_in *in, uint32_t **own)
{
	struct dcomm *c = r->c;
	struct analysis *a = r->la;
	uint32_t n = a->n_lops;
	struct dstep_lop *lops = malloc(((size_t)n + 1) * sizeof *lops);
	uint32_t *end_first = malloc(((size_t)n + 2) * sizeof *end_first);
	struct dstep_end *ends = malloc(((size_t)a->n_ends + 1) * sizeof *ends);
	*own = malloc(((size_t)c->size + 1) * sizeof **own);
	int rc = dcomm_agree(c, lops && end_first && ends && *own ? 0 : ERR_NOMEM);
	if (rc) {
		free(lops);
		free(end_first);
		free(ends);
		return rc;
	}
	size_t k = 0;
	for (uint32_t l = 0; l < n; l++) {
		lops[l] = (struct dstep_lop){ lop_enter(a, l), a->lop_tl[l], a->lop_part[l],
					      a->lop_kind[l] };
		end_first[l] = (uint32_t)k;
		uint32_t ne;
		const struct trace_end *e = lop_ends(a, l, &ne);
		for (uint32_t i = 0; i < ne; i++) {
			const struct partner *p = NULL;
			if (e[i].role == END_SEND)
				p = partner_of(r->to_recv, r->n_to_recv, e[i].id);
			else if (e[i].role == END_RECV)
				p = partner_of(r->to_send, r->n_to_send, e[i].id);
			else if (e[i].role != END_COLL)
				continue;
			else if (r->d.t->colls[e[i].id].flags & COLLF_NONBLOCKING)
				continue;        /* no rendezvous (coll_meets) */
			if (e[i].role != END_COLL && !p)
				continue;        /* a message the analysis does not step by */
			ends[k++] = (struct dstep_end){ e[i].id, p ? p->lop : TRACE_NONE,
							(uint8_t)e[i].role };
		}
	}
	end_first[n] = (uint32_t)k;
	/* each rank steps an equal run of the partitions: by their first lops
	 * (dist_structure's part_first), rank 0 would step every partition
	 * that spans all ranks, most of the trace in a stencil */
	for (uint32_t q = 0; q <= c->size; q++)
		(*own)[q] = (uint32_t)((uint64_t)a->n_parts * q / c->size);
	*in = (struct dstep_in){ r->lops.off, n, lops, end_first, ends,
				 (uint32_t)r->d.t->n_timelines, a->n_parts, *own, a->part_order,
				 a->dag_first, a->dag_succ, 1, 0, r->step_batch };
	return 0;
}

/* Stepping (dist_steps) from the rank's lops and their partners. */
static int
steps(struct run *r)
{
	struct dcomm *c = r->c;
	struct analysis *a = r->la;
	uint32_t n = a->n_lops, *own = NULL;
	uint32_t *step = malloc(((size_t)n + 1) * sizeof *step);
	uint32_t *sf = malloc(((size_t)a->n_parts + 1) * sizeof *sf);
	uint32_t *sc = malloc(((size_t)a->n_parts + 1) * sizeof *sc);
	int rc = dcomm_agree(c, step && sf && sc ? 0 : ERR_NOMEM);
	struct dstep_in in;
	if (!rc)
		rc = step_input(r, &in, &own);
	struct dstep_out out = { step, 0, 0, sf, sc, NULL, NULL, 0 };
	if (!rc)
		rc = dist_steps(c, &in, &out);
	if (!rc) {
		free(a->lop_step);
		a->lop_step = step;
		step = NULL;
		a->n_steps = out.n_steps;
		a->verify.relaxed = out.relaxed;
		for (uint32_t p = 0; p < a->n_parts; p++) {
			a->parts[p].step_first = sf[p];
			a->parts[p].step_count = sc[p];
		}
	}
	free(own);
	free(step);
	free(sf);
	free(sc);
	return rc;
}

/* --reorder (reorder_mpi): each partition's owner replays it in a model
 * of its own and sends each lop's clock back; each rank orders its
 * timelines by them. Once any lop moved anywhere, every rank maps its
 * lops to ops through arrays, as the serial analysis then does; the
 * message partners are found again for the new lop ids. */
static int
reorder(struct run *r)
{
	struct dcomm *c = r->c;
	struct analysis *a = r->la;
	uint32_t n = a->n_lops, *own = NULL;
	uint32_t *w = malloc(((size_t)n + 1) * sizeof *w);
	uint32_t *from = malloc(((size_t)n + 1) * sizeof *from);
	int rc = dcomm_agree(c, w && from ? 0 : ERR_NOMEM);
	struct dstep_in in;
	if (!rc)
		rc = step_input(r, &in, &own);
	in.reorder = 1;
	struct dstep_out out = { .lop_w = w, .lop_from = from };
	if (!rc)
		rc = dist_steps(c, &in, &out);
	free(own);
	if (!rc)
		rc = dcomm_agree(c, reorder_apply(a, w, from));
	free(w);
	free(from);
	uint64_t moved = a->stats.reordered;
	if (!rc)
		rc = dcomm_reduce(c, &moved, 1, DCOMM_SUM);
	if (!rc && moved && !a->op_of_lop) {
		uint32_t *same = malloc(((size_t)n + 1) * sizeof *same);
		for (uint32_t l = 0; same && l < n; l++)
			same[l] = l;
		rc = same ? lops_permute(a, same) : ERR_NOMEM;
		free(same);
	}
	rc = dcomm_agree(c, rc);
	uint64_t multi = a->op_last_of_lop != NULL;   /* some lop is several ops */
	if (!rc && moved)
		rc = dcomm_reduce(c, &multi, 1, DCOMM_MAX);
	if (!rc && multi && !a->op_last_of_lop) {
		/* every lop of this rank's is one op; another rank's are not */
		a->op_last_of_lop = malloc(((size_t)n + 1) * sizeof *a->op_last_of_lop);
		if (a->op_last_of_lop)
			memcpy(a->op_last_of_lop, a->op_of_lop, (size_t)n * sizeof *a->op_of_lop);
		rc = a->op_last_of_lop ? 0 : ERR_NOMEM;
	}
	rc = dcomm_agree(c, rc);
	a->stats.reordered = (uint32_t)moved;
	if (!rc && moved) {
		free(r->to_send);
		free(r->to_recv);
		r->to_send = r->to_recv = NULL;
		rc = partners(r);
	}
	return rc;
}

static int
metrics(struct run *r)
{
	struct analysis *a = r->la;
	uint32_t *sf = malloc(((size_t)a->n_parts + 1) * sizeof *sf);
	uint32_t *sc = malloc(((size_t)a->n_parts + 1) * sizeof *sc);
	r->m.diff = malloc(((size_t)a->n_lops + 1) * sizeof *r->m.diff);
	r->m.cause = malloc((size_t)a->n_lops + 1);
	int rc = dcomm_agree(r->c, sf && sc && r->m.diff && r->m.cause ? 0 : ERR_NOMEM);
	for (uint32_t p = 0; p < a->n_parts && !rc; p++) {
		sf[p] = a->parts[p].step_first;
		sc[p] = a->parts[p].step_count;
	}
	struct dmet_in in = { &r->d, a, r->lops.off, a->n_parts, a->n_steps, sf, sc };
	if (!rc)
		rc = dist_metrics(r->c, &in, &r->m);
	if (!rc) {
		a->stats.progress_receives = r->m.progress_receives;
		a->stats.startup_hidden = r->m.startup_hidden;
		a->stats.startup_lops = r->m.startup_lops;
		a->stats.startup_max_lop = r->m.startup_max_lop;
	}
	free(sf);
	free(sc);
	return rc;
}

/* The saved file: the head from an analysis holding the scalars, the
 * model and the analysis from every rank's share. */
static int
save(struct run *r, const char *path, struct err *e)
{
	struct dcomm *c = r->c;
	struct analysis *a = r->la;
	uint64_t runs = a->iters.count ? a->n_iter_runs : 0;
	int rc = dcomm_reduce(c, &runs, 1, DCOMM_SUM);
	struct analysis head = *a;       /* the scalars: counts of the whole */
	head.n_lops = r->lops.all;
	head.n_hot = r->m.n_hot;
	head.n_hot_all = r->m.n_hot_all;
	head.n_iter_runs = (uint32_t)runs;
	struct dsaved *w = NULL;
	if (!rc)
		rc = dsaved_open(c, path, &w, e);
	if (rc)
		return rc;
	rc = dsaved_put_head(w, c, &head, r->o);
	if (!rc)
		rc = dsaved_put_model(w, c, &r->d);
	struct dsave_lops x = { &r->d, a, r->lops.off, r->lops.all, a->n_parts, a->n_steps,
				a->parts, a->dag_first, a->dag_succ, a->part_order, &r->m };
	if (!rc)
		rc = dsaved_put_analysis(w, c, &x);
	return dsaved_close(w, rc, e);
}

/* The global-step merge (alike: the automatic one): steps_global_merge,
 * each pass's pairs found the same on every rank, the partitions they
 * join numbered by their least (first-lop) id, the partitions made again
 * (dist_refinalize) and stepped again, until no pass finds a pair. Then
 * each partition's merged_from: the partitions of before whose first
 * communication lop it holds. */
static int
global_merge(struct run *r, int alike)
{
	struct dcomm *c = r->c;
	struct analysis *a = r->la;
	uint32_t n0 = a->n_parts;
	uint64_t *first = malloc(((size_t)n0 + 1) * sizeof *first);
	int rc = dcomm_agree(c, first ? 0 : ERR_NOMEM);
	for (uint32_t p = 0; p < n0 && !rc; p++)
		first[p] = TRACE_NONE;
	for (uint32_t l = 0; l < a->n_lops && !rc; l++) {
		uint32_t p = a->lop_part[l];
		if (p != TRACE_NONE && a->lop_kind[l] != OP_COMPUTE && r->lops.off + l < first[p])
			first[p] = r->lops.off + l;
	}
	if (!rc)
		rc = dcomm_reduce(c, first, n0, DCOMM_MIN);
	struct merge_pair *pairs = NULL;
	size_t n_pairs = 0, cap = 0;
	while (!rc) {
		if ((rc = dist_merge_pairs(c, a, alike, &pairs, &n_pairs, &cap)) || !n_pairs)
			break;
		/* the pairs name partitions by their first lops */
		uint32_t np = a->n_parts;
		struct hmap of = { 0 };
		struct uf u = { 0 };
		uint32_t *group = malloc(((size_t)np + 1) * sizeof *group);
		rc = group && !uf_init(&u, np) ? 0 : ERR_NOMEM;
		/* the rank's first communication lop of each partition */
		uint32_t *lf = rc ? NULL : malloc(((size_t)np + 1) * sizeof *lf);
		rc = rc ? rc : lf ? 0 : ERR_NOMEM;
		for (uint32_t p = 0; p < np && !rc; p++)
			lf[p] = TRACE_NONE;
		for (uint32_t l = 0; l < a->n_lops && !rc; l++) {
			uint32_t p = a->lop_part[l];
			if (p != TRACE_NONE && a->lop_kind[l] != OP_COMPUTE && lf[p] == TRACE_NONE)
				lf[p] = r->lops.off + l;
		}
		for (uint32_t p = 0; p < np && !rc; p++)
			if (lf[p] != TRACE_NONE)
				rc = hmap_put(&of, lf[p], 0, p);
		free(lf);
		rc = dcomm_agree(c, rc);
		/* each pair's partitions: the rank holding a first lop knows its
		 * partition; every rank learns them by a reduction */
		uint64_t *pp = rc ? NULL : malloc((2 * n_pairs + 1) * sizeof *pp);
		rc = rc ? rc : dcomm_agree(c, pp ? 0 : ERR_NOMEM);
		for (size_t i = 0; i < n_pairs && !rc; i++) {
			const uint32_t *x = hmap_get(&of, pairs[i].x, 0), *y = hmap_get(&of, pairs[i].y, 0);
			pp[2 * i] = x ? *x : TRACE_NONE;
			pp[2 * i + 1] = y ? *y : TRACE_NONE;
		}
		if (!rc)
			rc = dcomm_reduce(c, pp, 2 * n_pairs, DCOMM_MIN);
		for (size_t i = 0; i < n_pairs && !rc; i++)
			uf_union(&u, (uint32_t)pp[2 * i], (uint32_t)pp[2 * i + 1]);
		/* sets numbered by their least partition: their first lop's */
		uint32_t ng = 0;
		for (uint32_t p = 0; p < np && !rc; p++)
			group[p] = TRACE_NONE;
		for (uint32_t p = 0; p < np && !rc; p++) {
			uint32_t root = uf_find(&u, p);
			if (group[root] == TRACE_NONE)
				group[root] = ng++;
			group[p] = group[root];
		}
		for (uint32_t l = 0; l < a->n_lops && !rc; l++)
			if (a->lop_kind[l] != OP_COMPUTE && a->lop_part[l] != TRACE_NONE)
				a->lop_part[l] = group[a->lop_part[l]];
		free(pp);
		free(group);
		uf_fini(&u);
		hmap_fini(&of);
		if (!rc)
			rc = dist_refinalize(c, &r->d, a, r->lops.off, ng, r->part_first);
		if (!rc)
			rc = steps(r);
	}
	free(pairs);
	/* merged_from: the partitions of before, by their first lops */
	uint64_t *count = rc ? NULL : calloc((size_t)a->n_parts + 1, sizeof *count);
	rc = rc ? rc : dcomm_agree(c, count ? 0 : ERR_NOMEM);
	for (uint32_t q = 0; q < n0 && !rc; q++)
		if (first[q] != TRACE_NONE && first[q] >= r->lops.off &&
		    first[q] - r->lops.off < a->n_lops)
			count[a->lop_part[first[q] - r->lops.off]]++;
	if (!rc)
		rc = dcomm_reduce(c, count, a->n_parts, DCOMM_SUM);
	for (uint32_t p = 0; p < a->n_parts && !rc; p++)
		a->parts[p].merged_from = (uint32_t)count[p];
	free(count);
	free(first);
	return rc;
}

static int
stage(trace_progress_fn progress, void *ud, const struct dcomm *c, const char *name)
{
	return progress && c->rank == 0 && progress(ud, name, 0, 0) ? ERR_CANCELLED : 0;
}

int
dist_run(struct dcomm *c, const char *trace, const struct analysis_opts *o, const char *save_path,
	 struct dist_hooks *h, struct err *e)
{
	trace_progress_fn progress = h ? h->progress : NULL;
	void *ud = h ? h->progress_ud : NULL;
	struct run r = { .c = c, .o = o, .step_batch = h ? h->step_batch : 0 };
	struct otf2_read_opts ro = { c->rank == 0 ? progress : NULL, ud };
	struct otf2_share *s = NULL;
	struct trace *t = NULL;
	struct build *b = NULL;
	uint32_t tl_lo = 0, tl_hi = 0;
	double t0 = now(), t1;
	int rc = otf2_share_read(trace, &ro, c->rank, c->size, &s, e);
	if (!rc)
		rc = otf2_share_local(s, &t, &b, &tl_lo, &tl_hi, e);
	otf2_share_destroy(s);
	rc = dcomm_agree_err(c, rc, e);
	if (rc) {
		build_destroy(b);
		trace_destroy(t);
		if (rc == ERR_USAGE && h)
			h->serial_only = 1;
		return rc;
	}
	/* every lane's frames on every rank (the saved file's, rank 0's) */
	rc = trace_lanes_gather(c, t);
	if (rc) {
		build_destroy(b);
		trace_destroy(t);
		return dcomm_agree_err(c, err_set(e, rc, "%s: %s gathering the threads and streams", trace,
						  err_name(rc)), e);
	}
	rc = dmodel_finish(c, t, b, tl_lo, tl_hi, &r.d, c->rank == 0 ? progress : NULL, ud);
	if (rc == ERR_USAGE && h)
		h->serial_only = 1;
	if (rc)
		return dcomm_agree_err(c, err_set(e, rc, "%s: %s while matching messages", trace,
						  err_name(rc)), e);
	if (c->rank == 0 && h && h->loaded && h->loaded(h->ud, r.d.t))
		rc = ERR_CANCELLED;
	rc = dcomm_agree(c, rc);
	/* a trace without MPI communication has no structure to save, unless
	 * its processes have threads or streams (trace_require_communication) */
	uint64_t comm = r.d.t->n_msgs || r.d.t->n_colls || (r.d.t->n_lanes && r.d.t->n_timelines);
	if (!rc)
		rc = dcomm_reduce(c, &comm, 1, DCOMM_MAX);
	if (!rc && !comm) {
		rc = c->rank == 0 ? trace_require_communication(r.d.t, e) : ERR_FORMAT;
		rc = dcomm_agree_err(c, rc ? rc : ERR_FORMAT, e);
		if (h)
			h->no_comm = 1;
	}
	if (!rc && c->rank == 0 && h && h->checked && h->checked(h->ud, r.d.t))
		rc = ERR_CANCELLED;
	rc = dcomm_agree(c, rc);
	if (!rc)
		rc = stage(progress, ud, c, "partitioning");
	if (!rc)
		rc = tl_table(&r);
	if (!rc) {
		r.part_first = calloc(c->size + 1, sizeof *r.part_first);
		rc = dcomm_agree_err(c, r.part_first ? 0 : err_set(e, ERR_NOMEM, "out of memory"), e);
	}
	t1 = now();
	if (!rc)
		rc = dist_structure(c, &r.d, o, &r.la, &r.lops, r.part_first, e);
	struct analysis *a = r.la;
	if (!rc) {
		a->stats.t_lops = t1 - t0;
		t0 = now();
		a->stats.t_partition = t0 - t1;
		if (o->leap_merge && !o->n_phases)
			rc = dist_leap_merge(c, &r.d, a, r.lops.off, r.part_first,
					     c->rank == 0 ? progress : NULL, ud);
		a->stats.partitions_leap = a->n_parts;
		a->stats.t_leap = now() - t0;
	}
	if (!rc) {
		a->dc = c;
		a->dm = &r.d;
		a->lop_off = r.lops.off;
		a->lops_all = r.lops.all;
		rc = stage(progress, ud, c, "stepping");
	}
	t0 = now();
	if (!rc)
		rc = partners(&r);
	if (!rc && o->reorder)
		rc = reorder(&r);
	if (!rc)
		rc = steps(&r);
	if (!rc) {
		a->stats.partitions_steps = a->n_parts;
			/* the paper's global-step merge merges every overlap; the
		 * automatic one only partitions that make the same calls */
		if (o->global_step_merge || (o->auto_merge && !o->n_phases))
			rc = global_merge(&r, !o->global_step_merge);
		if (!rc && !o->global_step_merge && o->auto_merge)
			a->stats.auto_merged = a->stats.partitions_steps - a->n_parts;
	}
	if (!rc) {
		rc = dcomm_agree(c, dist_renumber(a, a->lop_part, a->n_lops));
		a->stats.partitions = a->n_parts;
		a->stats.t_steps = now() - t0;
	}
	t0 = now();
	if (!rc)
		rc = stage(progress, ud, c, "metrics");
	if (!rc) {
		struct dver_in vi = { &r.d, a, r.lops.off, a->n_parts, a->dag_first, a->dag_succ,
				      NULL, NULL };
		uint32_t *sf = malloc(((size_t)a->n_parts + 1) * sizeof *sf);
		uint32_t *sc = malloc(((size_t)a->n_parts + 1) * sizeof *sc);
		rc = dcomm_agree(c, sf && sc ? 0 : ERR_NOMEM);
		for (uint32_t p = 0; p < a->n_parts && !rc; p++) {
			sf[p] = a->parts[p].step_first;
			sc[p] = a->parts[p].step_count;
		}
		vi.step_first = sf;
		vi.step_count = sc;
		uint64_t relaxed = a->verify.relaxed;
		if (!rc)
			rc = dist_verify(c, &vi, &a->verify);
		a->verify.relaxed = relaxed;
		free(sf);
		free(sc);
	}
	if (!rc)
		rc = metrics(&r);
	if (!rc)
		rc = iterations_detect(a);
	if (!rc)
		a->stats.t_metrics = now() - t0;
	if (!rc)
		rc = save(&r, save_path, e);
	if (rc && !e->msg[0])
		err_set(e, rc, "%s: %s", trace, err_name(rc));
	rc = dcomm_agree_err(c, rc, e);
	dmet_out_free(&r.m);
	free(r.m.diff);
	free(r.m.cause);
	free(r.to_send);
	free(r.to_recv);
	free(r.part_first);
	free(r.tl_first);
	if (a) {
		a->dc = NULL;
		analysis_destroy(a);
	}
	dmodel_free(&r.d);
	return rc;
}
