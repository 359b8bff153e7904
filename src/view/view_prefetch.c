/* view_prefetch.c — the table panes' whole-trace tables computed ahead,
 * on a thread of their own (view_impl.h).
 *
 * At 10^7 events opening the profile took 35–50 ms, the wait states 30
 * and lateness per rank 25: more than a key may take (16 ms). Every pane
 * opens on the whole trace, so once the first screen is drawn a thread
 * computes those tables in turn — the profile, the matrix, the wait
 * states sorted, lateness per rank — each with the same code and scope
 * the pane would use, and the pane takes the result when it opens with
 * that scope and no filter (the same table, sooner). A pane that opens
 * while its table is being computed waits for it, one that opens before
 * its job began computes the table itself (the job is dropped); any
 * other scope, a filter, or a job that failed, and the pane computes as
 * it always did. Quitting waits for the job running, if any. Last, the
 * timeline's and the grid's blocks (view_tlblocks.h, view_index.h): the
 * whole trace fitted reads every lop, a first time 19 ms at 10^7 events
 * for the timeline, about as much for the grid's metric; for a Charm++
 * run the PE timeline's lops in time order with their blocks (90 ms).
 */
#include "view_impl.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/profile/profile.h"
#include "base/par.h"

/* A job's state; a pane that opens before its job started computes
 * its table itself (the job is cancelled) rather than wait for the jobs
 * before it. */
enum { PF_QUEUED, PF_RUNNING, PF_DONE, PF_TAKEN, PF_CANCELLED };

struct view_prefetch {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int stop;
	int finished;                /* the thread has gone through every job */
	int joined;                  /* and ended (view_prefetch_wait) */
	const struct trace *t;       /* the view's, never changed */
	uint64_t key[4];
	struct view_job job[PF_COUNT];
	int state[PF_COUNT];
	void *out[PF_COUNT];
};

static void *
prefetch_main(void *arg)
{
	struct view_prefetch *pf = arg;
	for (int i = 0; i < PF_COUNT; i++) {
		pthread_mutex_lock(&pf->mu);
		int go = !pf->stop && pf->job[i].run && pf->state[i] == PF_QUEUED;
		if (go)
			pf->state[i] = PF_RUNNING;
		else if (pf->state[i] == PF_QUEUED)
			pf->state[i] = PF_CANCELLED;
		pthread_mutex_unlock(&pf->mu);
		if (!go) {
			free(pf->job[i].in);       /* a job's input holds no pointer it owns */
			pf->job[i].in = NULL;
			continue;
		}
		void *out = pf->job[i].run(pf->t, pf->job[i].in);
		pf->job[i].in = NULL;            /* run freed it */
		pthread_mutex_lock(&pf->mu);
		pf->out[i] = out;
		pf->state[i] = PF_DONE;
		pthread_cond_broadcast(&pf->cv);
		pthread_mutex_unlock(&pf->mu);
	}
	pthread_mutex_lock(&pf->mu);
	pf->finished = 1;
	pthread_cond_broadcast(&pf->cv);
	pthread_mutex_unlock(&pf->mu);
	return NULL;
}

void
view_prefetch_start(struct view *v)
{
	if (v->pf || !v->t || v->f_ranks || v->f_to || v->solo >= 0)
		return;
	struct view_prefetch *pf = calloc(1, sizeof *pf);
	if (!pf)
		return;
	pf->t = v->t;
	/* the key of the whole trace's scope, which the jobs compute: the
	 * one a pane's view_scope_fill gives while no filter is set */
	struct profile_scope s;
	uint64_t *buf;
	if (view_scope_fill(v, TSCOPE_ALL, &s, &buf, pf->key)) {
		free(pf);
		return;
	}
	free(buf);
	int any = view_profile_job(v, &pf->job[PF_PROFILE]) | view_comm_job(v, &pf->job[PF_COMM]) |
		view_lists_job(v, PF_WAITS, &pf->job[PF_WAITS]) | view_lists_job(v, PF_RANKS, &pf->job[PF_RANKS]) |
		view_timeline_job(v, &pf->job[PF_TIMELINE]) | view_grid_job(v, &pf->job[PF_GRID]) |
		view_pes_job(v, &pf->job[PF_PES]);
	if (!any || pthread_mutex_init(&pf->mu, NULL)) {
		for (int i = 0; i < PF_COUNT; i++)
			free(pf->job[i].in);
		free(pf);
		return;
	}
	if (pthread_cond_init(&pf->cv, NULL) || pthread_create(&pf->th, NULL, prefetch_main, pf)) {
		for (int i = 0; i < PF_COUNT; i++)
			free(pf->job[i].in);
		pthread_mutex_destroy(&pf->mu);
		free(pf);
		return;
	}
	v->pf = pf;
}

void *
view_prefetch_take(struct view *v, int what, const uint64_t key[4])
{
	struct view_prefetch *pf = v->pf;
	if (!pf || what < 0 || what >= PF_COUNT || !pf->job[what].run)
		return NULL;
	uint64_t k[4];
	memcpy(k, pf->key, sizeof k);
	k[0] ^= pf->job[what].key_xor;
	if (memcmp(k, key, sizeof k))
		return NULL;
	return view_prefetch_take_any(v, what);
}

void *
view_prefetch_take_any(struct view *v, int what)
{
	struct view_prefetch *pf = v->pf;
	if (!pf || what < 0 || what >= PF_COUNT || !pf->job[what].run)
		return NULL;
	pthread_mutex_lock(&pf->mu);
	if (pf->state[what] == PF_QUEUED)
		pf->state[what] = PF_CANCELLED;     /* not begun: the pane computes now */
	while (pf->state[what] == PF_RUNNING)
		pthread_cond_wait(&pf->cv, &pf->mu);
	void *out = NULL;
	if (pf->state[what] == PF_DONE) {
		out = pf->out[what];
		pf->out[what] = NULL;
		pf->state[what] = PF_TAKEN;
	}
	pthread_mutex_unlock(&pf->mu);
	return out;
}

void
view_prefetch_wait(struct view *v)
{
	struct view_prefetch *pf = v->pf;
	if (!pf)
		return;
	if (pf->joined)
		return;
	pthread_mutex_lock(&pf->mu);
	while (!pf->finished)
		pthread_cond_wait(&pf->cv, &pf->mu);
	pthread_mutex_unlock(&pf->mu);
	/* and gone: a thread on its way out (its pool's workers ending, the
	 * sanitizers' and libc's bookkeeping) may hold locks a child forked
	 * now would wait on forever (view_topo.c forks hwloc's) */
	pthread_join(pf->th, NULL);
	pf->joined = 1;
}

unsigned
view_prefetch_taken(struct view *v)
{
	struct view_prefetch *pf = v->pf;
	unsigned m = 0;
	if (!pf)
		return 0;
	pthread_mutex_lock(&pf->mu);
	for (int i = 0; i < PF_COUNT; i++)
		if (pf->state[i] == PF_TAKEN)
			m |= 1u << i;
	pthread_mutex_unlock(&pf->mu);
	return m;
}

void
view_prefetch_stop(struct view *v)
{
	struct view_prefetch *pf = v->pf;
	if (!pf)
		return;
	pthread_mutex_lock(&pf->mu);
	pf->stop = 1;                  /* the job running ends; no other starts */
	pthread_mutex_unlock(&pf->mu);
	if (!pf->joined)
		pthread_join(pf->th, NULL);
	for (int i = 0; i < PF_COUNT; i++)
		if (pf->out[i] && pf->job[i].drop)
			pf->job[i].drop(pf->out[i]);
	pthread_cond_destroy(&pf->cv);
	pthread_mutex_destroy(&pf->mu);
	free(pf);
	v->pf = NULL;
}

/* The timeline's blocks (view/model/view_tlblocks.h) as a job: the
 * analysis, the index and a kind's rank are all it reads. */
struct tl_job {
	struct tl_blocks b;
	const struct analysis *a;
	const struct view_index *ix;
	int8_t rank_of_kind[8];
};

static void *
tl_job_run(const struct trace *t, void *in)
{
	struct tl_job *j = in;
	(void)t;
	if (tl_blocks_compute(&j->b, j->a, j->ix, j->rank_of_kind, 1)) {
		free(j);
		return NULL;
	}
	return j;
}

static void
tl_job_drop(void *out)
{
	struct tl_job *j = out;
	tl_blocks_free(&j->b);
	free(j);
}

static void
kind_ranks(int8_t *r)
{
	for (int k = 0; k < 8; k++)
		r[k] = (int8_t)view_kind_rank(k);
}

int
view_timeline_job(struct view *v, struct view_job *j)
{
	if (view_is_charm(v) || v->tlb.blk)
		return 0;
	struct tl_job *in = calloc(1, sizeof *in);
	if (!in)
		return 0;
	in->b.size = v->tlb.size;
	in->a = v->a;
	in->ix = v->ix;
	kind_ranks(in->rank_of_kind);
	*j = (struct view_job){ tl_job_run, tl_job_drop, in, 0 };
	return 1;
}

/* The PE timeline's index as a job: the analysis and a block size. */
struct pes_job {
	const struct analysis *a;
	const struct view_index *ix;
	uint32_t B;
};

static void *
pes_job_run(const struct trace *t, void *in)
{
	struct pes_job *j = in;
	(void)t;
	struct view_pes *p = view_pes_build(j->a, j->ix, j->B, 1);
	free(j);
	return p;
}

static void
pes_job_drop(void *out)
{
	view_pes_destroy(out);
}

int
view_pes_job(struct view *v, struct view_job *j)
{
	if (!view_is_charm(v) || v->pes)
		return 0;
	struct pes_job *in = calloc(1, sizeof *in);
	if (!in)
		return 0;
	in->a = v->a;
	in->ix = v->ix;
	in->B = v->tlb.size;
	*j = (struct view_job){ pes_job_run, pes_job_drop, in, 0 };
	return 1;
}

int
view_tl_blocks(struct view *v)
{
	if (v->tlb.blk || v->tl_blk_failed)
		return v->tlb.blk != NULL;
	struct tl_job *j = view_prefetch_take_any(v, PF_TIMELINE);
	if (j && j->b.size == v->tlb.size) {
		v->tlb = j->b;
		free(j);
	} else {
		if (j)
			tl_job_drop(j);
		int8_t r[8];
		kind_ranks(r);
		tl_blocks_compute(&v->tlb, v->a, v->ix, r, par_workers());
	}
	v->tl_blk_failed = !v->tlb.blk;
	return v->tlb.blk != NULL;
}

/* The grid's blocks of lops for the view's metric (view_index.h), as a
 * job: those metrics' values read the analysis alone. */
struct grid_job {
	const struct view_index *ix;
	enum view_metric m;
	int startup;
	struct ix_block *b;
};

static void *
grid_job_run(const struct trace *t, void *in)
{
	struct grid_job *j = in;
	(void)t;
	j->b = view_index_blocks_ahead(j->ix, j->m, j->startup);
	if (!j->b) {
		free(j);
		return NULL;
	}
	return j;
}

static void
grid_job_drop(void *out)
{
	struct grid_job *j = out;
	free(j->b);
	free(j);
}

int
view_grid_job(struct view *v, struct view_job *j)
{
	if (!view_metric_numeric(v->metric) || v->metric == METRIC_PATH || v->metric == METRIC_DELTA)
		return 0;
	struct grid_job *in = calloc(1, sizeof *in);
	if (!in)
		return 0;
	*in = (struct grid_job){ v->ix, v->metric, view_index_startup(v->ix), NULL };
	*j = (struct view_job){ grid_job_run, grid_job_drop, in, 0 };
	return 1;
}

int
view_grid_blocks(struct view *v)
{
	/* a cell reads blocks only when it spans two: a column of more
	 * steps than that (a rank has one lop a step at most) */
	if (v->zs < 2 * view_index_block_size(v->ix))
		return 0;
	struct grid_job *j = view_prefetch_take_any(v, PF_GRID);
	if (j) {
		if (j->m == v->metric)
			view_index_adopt_blocks(v->ix, j->m, j->startup, j->b);
		else
			free(j->b);
		free(j);
	}
	return view_index_prepare_blocks(v->ix, v->metric);
}
