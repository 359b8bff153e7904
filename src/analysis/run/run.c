/* run.c — the analysis of a trace: its stages in order, by paradigm
 * (seed 000's for MPI, seed 004's for Charm++), then the shared
 * metrics, iterations and clusters. */
#include "run.h"

#include "analysis/charm/charm_impl.h"
#include "analysis/core/analysis_impl.h"
#include "analysis/core/cluster.h"
#include "analysis/explain/explain.h"
#include "analysis/mpi/stages.h"
#include "base/recycle.h"
#include "model/trace_impl.h"

#include <stdlib.h>
#include <time.h>

static double
now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int
stage(struct analysis *a, trace_progress_fn progress, void *ud, const char *name)
{
	return progress && progress(ud, name, 0, a->n_lops) ? ERR_CANCELLED : 0;
}

int
analysis_run(const struct trace *t, const struct analysis_opts *opts,
	     trace_progress_fn progress, void *ud, struct analysis **out, struct err *e)
{
	struct analysis *a;
	/* a model mapped from a saved file has its indices checked, not
	 * the links the stages follow (model/trace_check.c) */
	int rc = t->mapped ? trace_check(t, e) : 0;
	if (rc)
		return rc;
	rc = analysis_new(t, opts, &a, e);
	if (rc)
		return rc;
	a->progress = progress;
	a->ud = ud;
	const struct analysis_opts o = a->opts;
	/* phase rules are borrowed from the caller; they are only used here */
	struct analysis_stats *st = &a->stats;
	double t0 = now(), t1;
	/* Charm++ (seed 004): its own structure stages over the same arrays;
	 * no Isend coalescing, no user phases (they name MPI regions) */
	int charm = trace_info(t)->paradigm == PARADIGM_CHARM;
	a->charm = charm;
	a->unused_opts = analysis_opts_unused(&o, charm);
	if (charm) {
		a->opts.coalesce_isends = 0;
		a->opts.n_phases = 0;
		a->opts.phases = NULL;
	}
	rc = stage(a, progress, ud, "partitioning");
	if (!rc)
		rc = lops_build(a);
	t1 = now();
	st->t_lops = t1 - t0;
	if (!rc && charm)
		rc = charm_structure(a);
	else if (!rc)
		rc = partition_build(a);
	a->opts.phases = NULL;
	t0 = now();
	st->t_partition = t0 - t1;
	if (!rc && !charm && o.leap_merge && !o.n_phases)
		rc = partition_leap_merge(a);
	st->partitions_leap = a->n_parts;
	t1 = now();
	st->t_leap = t1 - t0;
	if (!rc)
		rc = stage(a, progress, ud, "stepping");
	if (!rc && !charm && o.reorder)
		rc = reorder_mpi(a);
	st->partitions_steps = a->n_parts;
	/* the paper's global-step merge merges every overlap; the automatic
	 * one only partitions that make the same calls (doc/analysis.md);
	 * Charm++ phases are seed 004's, not merged by step. The merge steps
	 * the partitions first. */
	if (!rc && !charm && (o.global_step_merge || (o.auto_merge && !o.n_phases)))
		rc = steps_global_merge(a, !o.global_step_merge);
	else if (!rc && !charm)
		rc = steps_assign(a, NULL);
	if (!rc && !charm && !o.global_step_merge && o.auto_merge)
		st->auto_merged = st->partitions_steps - a->n_parts;
	if (!rc)
		rc = partition_renumber(a);
	/* no stage writes op_lop from here: an index reads it back */
	if (!rc && !charm)
		rc = lops_index_ops(a);
	st->partitions = a->n_parts;
	t0 = now();
	st->t_steps = t0 - t1;
	if (!rc)
		rc = stage(a, progress, ud, "metrics");
	if (!rc) {
		verify_run(a);
		if (charm)
			rc = charm_metrics_compute(a);
		if (!rc)
			rc = metrics_compute(a);
	}
	if (!rc)
		rc = iterations_detect(a);
	a->opts.iter_region = NULL;
	if (!rc)
		rc = explain_run(a);
	if (!rc && o.clusters) {
		a->clusters = calloc(a->n_parts + 1, sizeof *a->clusters);
		rc = a->clusters ? 0 : ERR_NOMEM;
		for (uint32_t p = 0; p < a->n_parts && !rc; p++)
			rc = cluster_partition(a, p, o.clusters, &a->clusters[p]);
	}
	st->t_metrics = now() - t0;
	/* what the stages freed and none took (recycle.h) */
	recycle_drain();
	if (rc) {
		analysis_destroy(a);
		return err_set(e, rc, "analysis: %s", err_name(rc));
	}
	*out = a;
	return 0;
}
