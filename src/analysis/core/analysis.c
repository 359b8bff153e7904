/* analysis.c — the options, an analysis's life (run/run.c fills it), and
 * the getters. */
#include "analysis_impl.h"

#include "base/par.h"
#include "cluster.h"
#include "model/charm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
analysis_opts_default(struct analysis_opts *o)
{
	memset(o, 0, sizeof *o);
	o->coalesce_isends = 1;
	o->waitall_merge = 1;
	o->leap_merge = 0;
	o->leap_factor = 10.0;
	o->leap_force = 0;
	o->global_step_merge = 0;
	o->auto_merge = 1;
	o->sender_progress = 1;
	o->startup = 0;
	o->caller_merge = 0;
	o->match_size = 0;
	o->hotspots = 20;
	o->reorder = 0;
	o->charm_reorder = 1;
	o->charm_sdag = 1;
	o->charm_repair = 1;
	o->charm_infer = 1;
	o->charm_leap_merge = 1;
}

/* The options that do not apply to one paradigm: what each bit means
 * on the command line and in the configuration. */
static const struct {
	uint32_t bit;
	const char *flag, *key;
} unused_names[] = {
	{ AOPT_COALESCE, "--no-coalesce", "structure.coalesce" },
	{ AOPT_WAITALL, "--no-waitall-merge", "structure.waitall_merge" },
	{ AOPT_LEAP, "--leap-merge", "structure.leap_merge" },
	{ AOPT_GSTEP, "--global-step-merge", "structure.global_step_merge" },
	{ AOPT_AUTO, "--no-auto-merge", "structure.auto_merge" },
	{ AOPT_PROGRESS, "--no-sender-progress", "structure.sender_progress" },
	{ AOPT_MATCH, "--match-size", "structure.match_size" },
	{ AOPT_CALLER, "--caller-merge", "structure.caller_merge" },
	{ AOPT_PHASES, "--phase", "phases.split_at" },
	{ AOPT_CHARM, "charm.sdag, charm.repair, charm.infer, charm.leap_merge", NULL },
};

uint32_t
analysis_opts_unused(const struct analysis_opts *o, int charm)
{
	struct analysis_opts d;
	analysis_opts_default(&d);
	uint32_t m = 0;
	if (!charm) {
		/* seed 004's stages: --physical-order sets reorder as well,
		 * which MPI reads, so only the charm section counts */
		if (o->charm_sdag != d.charm_sdag || o->charm_repair != d.charm_repair ||
		    o->charm_infer != d.charm_infer || o->charm_leap_merge != d.charm_leap_merge)
			m |= AOPT_CHARM;
		return m;
	}
	if (o->coalesce_isends != d.coalesce_isends)
		m |= AOPT_COALESCE;
	if (o->waitall_merge != d.waitall_merge)
		m |= AOPT_WAITALL;
	if (o->leap_merge != d.leap_merge || o->leap_force != d.leap_force ||
	    o->leap_factor != d.leap_factor)
		m |= AOPT_LEAP;
	if (o->global_step_merge != d.global_step_merge)
		m |= AOPT_GSTEP;
	if (o->auto_merge != d.auto_merge)
		m |= AOPT_AUTO;
	if (o->sender_progress != d.sender_progress)
		m |= AOPT_PROGRESS;
	if (o->match_size != d.match_size)
		m |= AOPT_MATCH;
	if (o->caller_merge != d.caller_merge)
		m |= AOPT_CALLER;
	if (o->n_phases)
		m |= AOPT_PHASES;
	return m;
}

const char *
analysis_opt_name(uint32_t bit, char *buf, size_t n)
{
	buf[0] = 0;
	for (size_t i = 0; i < sizeof unused_names / sizeof unused_names[0]; i++)
		if (unused_names[i].bit == bit)
			snprintf(buf, n, unused_names[i].key ? "%s (%s)" : "%s", unused_names[i].flag,
				 unused_names[i].key);
	return buf;
}

const char *
analysis_opts_unused_text(uint32_t unused, int charm, char *buf, size_t n)
{
	size_t k = 0;
	if (!n)
		return buf;
	buf[0] = 0;
	for (size_t i = 0; i < sizeof unused_names / sizeof unused_names[0]; i++) {
		if (!(unused & unused_names[i].bit))
			continue;
		char name[96];
		int w = snprintf(buf + k, n - k, "%s%s", k ? ", " : "",
				 analysis_opt_name(unused_names[i].bit, name, sizeof name));
		if (w < 0 || (size_t)w >= n - k)
			return buf;
		k += (size_t)w;
	}
	if (k)
		snprintf(buf + k, n - k, charm ? ": rules of the MPI structure, which do not apply to a "
			 "Charm++ run (its stages are charm.*)"
			 : ": Charm++ stages, which do not apply to an MPI trace");
	return buf;
}

void
analysis_opts_paper(struct analysis_opts *o)
{
	analysis_opts_default(o);
	o->auto_merge = 0;
	o->sender_progress = 0;
	o->startup = 1;
}

void
analysis_destroy(struct analysis *a)
{
	if (!a)
		return;
	if (a->mapped)
		goto common;
	free(a->lop_op);
	free(a->op_lop);
	free(a->op_begins);
	free(a->op_begins_before);
	free(a->tl_lop);
	free(a->lop_tl);
	free(a->lop_kind);
	free(a->lop_part);
	free(a->parts);
	free(a->part_lop_first);
	free(a->part_lops);
	free(a->dag_first);
	free(a->dag_succ);
	free(a->part_order);
	free(a->lop_phase);
	free(a->lop_phase_region);
	free(a->lop_step);
	free(a->pmin_first);
	free(a->pmin);
	free(a->gmin);
	free(a->diff);
	free(a->diff_big);
	free(a->cause_far);
	free(a->cause);
	free(a->hot);
	free(a->hot_all);
	free(a->iter_starts);
	free(a->part_isig);
	free(a->iter_runs);
	free(a->op_of_lop);
	free(a->op_last_of_lop);
	free(a->idle_exp);
	free(a->dur_diff);
	free(a->imbalance);
	free(a->part_imbalance);
	free(a->part_region);
	free(a->pe_first);
	free(a->pe_lops);
common:
	if (!a->explain_mapped) {
		free(a->waits);
		free(a->delays);
		free(a->outliers);
		free(a->problems);
	}
	if (a->clusters)
		for (uint32_t p = 0; p < a->n_parts; p++)
			cluster_fini(&a->clusters[p]);
	free(a->clusters);
	free(a);
}

const char *
analysis_glob_problem(const char *glob)
{
	for (const char *p = glob; *p; p++) {
		if (*p == '\\') {
			if (!*++p)
				return "ends in a lone '\\'";
			continue;
		}
		if (*p != '[')
			continue;
		/* a bracket expression: ']' right after '[', '[!' or '[^' is a
		 * member; classes such as [:alpha:] end with ":]" */
		const char *q = p + 1;
		if (*q == '!' || *q == '^')
			q++;
		if (*q == ']')
			q++;
		while (*q && *q != ']') {
			if (q[0] == '[' && (q[1] == ':' || q[1] == '.' || q[1] == '=')) {
				char end = q[1];
				const char *c = q + 2;
				while (*c && !(c[0] == end && c[1] == ']'))
					c++;
				if (!*c)
					return "a character class is never closed";
				q = c + 2;
				continue;
			}
			q++;
		}
		if (!*q)
			return "'[' is never closed";
		p = q;
	}
	return NULL;
}

int
analysis_new(const struct trace *t, const struct analysis_opts *opts, struct analysis **out,
	     struct err *e)
{
	*out = NULL;
	struct analysis_opts o;
	if (opts)
		o = *opts;
	else
		analysis_opts_default(&o);
	if (!(o.leap_factor > 0) || o.leap_factor > 1e9)
		return err_set(e, ERR_USAGE, "leap factor must be positive and finite (got %g)",
			       o.leap_factor);
	if (o.clusters > CLUSTER_MAX_K)
		return err_set(e, ERR_USAGE, "clusters must be at most %d (got %u)", CLUSTER_MAX_K,
			       o.clusters);
	if (o.n_phases && !o.phases)
		return err_set(e, ERR_USAGE, "phase rules missing");
	for (uint32_t i = 0; i < o.n_phases; i++) {
		const char *g = o.phases[i].region_glob;
		if (!g || !g[0])
			return err_set(e, ERR_USAGE, "phase rule %u has no region pattern", i + 1);
		if (analysis_glob_problem(g))
			return err_set(e, ERR_USAGE, "phase pattern '%s': %s", g, analysis_glob_problem(g));
	}
	struct analysis *a = calloc(1, sizeof *a);
	if (!a)
		return err_set(e, ERR_NOMEM, "out of memory");
	a->t = t;
	a->ops = trace_ops(t, &a->n_ops);
	a->msgs = trace_msgs(t, NULL);
	a->ends = trace_ends(t, &a->n_ends);
	a->opts = o;
	*out = a;
	return 0;
}

const struct trace *analysis_trace(const struct analysis *a) { return a->t; }
const struct analysis_opts *analysis_options(const struct analysis *a) { return &a->opts; }
const struct analysis_stats *analysis_stats(const struct analysis *a) { return &a->stats; }
uint32_t analysis_unused_opts(const struct analysis *a) { return a->unused_opts; }

void
analysis_note_unused_opts(struct analysis *a, const struct analysis_opts *o)
{
	a->unused_opts = analysis_opts_unused(o, trace_info(a->t)->paradigm == PARADIGM_CHARM);
}
const struct analysis_verify *analysis_verify(const struct analysis *a) { return &a->verify; }
uint32_t analysis_lop_count(const struct analysis *a) { return a->n_lops; }
uint32_t analysis_step_count(const struct analysis *a) { return a->n_steps; }

void
analysis_timeline_lops(const struct analysis *a, uint32_t tl, uint32_t *first, uint32_t *count)
{
	*first = a->tl_lop[tl];
	*count = a->tl_lop[tl + 1] - a->tl_lop[tl];
}

void
analysis_lop_ops(const struct analysis *a, uint32_t lop, uint32_t *first, uint32_t *count)
{
	*first = lop_first_op(a, lop);
	*count = lop_last_op(a, lop) + 1 - *first;
}

uint32_t analysis_op_lop(const struct analysis *a, uint32_t op) { return op_lop_of(a, op); }

uint32_t
analysis_lop_frame(const struct analysis *a, uint32_t lop)
{
	return trace_op_get(&a->ops, lop_first_op(a, lop)).frame;
}

uint32_t
analysis_lop_region(const struct analysis *a, uint32_t lop)
{
	const struct trace_op op = trace_op_get(&a->ops, lop_first_op(a, lop));
	if (op.region != TRACE_NONE)
		return op.region;
	return op.frame != TRACE_NONE ? trace_frames(a->t, NULL)[op.frame].region : TRACE_NONE;
}

void
analysis_lop_prefetch(const struct analysis *a, uint32_t lop, int near)
{
	if (lop >= a->n_lops)
		return;
	if (!near) {
		__builtin_prefetch(&a->lop_tl[lop]);
		__builtin_prefetch(&a->lop_step[lop]);
		__builtin_prefetch(&a->lop_kind[lop]);
		__builtin_prefetch(a->op_of_lop ? &a->op_of_lop[lop] : &a->lop_op[lop]);
		return;
	}
	uint32_t op = lop_first_op(a, lop);
	__builtin_prefetch(&a->ops.rec[a->ops.implied ? op >> 1 : op]);
}

uint32_t analysis_lop_timeline(const struct analysis *a, uint32_t lop) { return a->lop_tl[lop]; }
enum trace_op_kind analysis_lop_kind(const struct analysis *a, uint32_t lop) { return a->lop_kind[lop]; }

uint64_t analysis_lop_enter(const struct analysis *a, uint32_t lop) { return lop_enter(a, lop); }
uint64_t analysis_lop_exit(const struct analysis *a, uint32_t lop) { return lop_exit(a, lop); }
uint64_t analysis_lop_duration(const struct analysis *a, uint32_t lop) { return lop_duration(a, lop); }

uint32_t analysis_lop_part(const struct analysis *a, uint32_t lop) { return a->lop_part[lop]; }
uint32_t analysis_lop_step(const struct analysis *a, uint32_t lop) { return a->lop_step[lop]; }

uint32_t
analysis_lop_local_step(const struct analysis *a, uint32_t lop)
{
	/* a lop without a partition (a timeline of computation alone) has
	 * no step in one */
	uint32_t p = a->lop_part[lop], s = a->lop_step[lop];
	return p == TRACE_NONE || s == TRACE_NONE ? TRACE_NONE : s - a->parts[p].step_first;
}

uint64_t analysis_lop_lateness(const struct analysis *a, uint32_t lop) { return lop_late(a, lop); }
uint64_t analysis_lop_diff(const struct analysis *a, uint32_t lop) { return lop_diff(a, lop); }
uint64_t analysis_lop_global_lateness(const struct analysis *a, uint32_t lop) { return lop_glate(a, lop); }
uint32_t
lop_lost_before(const struct analysis *a, uint32_t l, uint64_t *sum, uint32_t *from)
{
	uint32_t first = a->tl_lop[a->lop_tl[l]], culprit = TRACE_NONE;
	uint64_t longest = 0;
	*sum = 0;
	*from = l;
	for (uint32_t k = l, n = 0; k > first && n < LOST_MAX_LOPS; n++) {
		uint32_t p = k - 1;
		if (lop_late(a, p) > 0 || analysis_lop_startup(a, p) || a->lop_kind[p] == OP_COLLECTIVE)
			break;          /* a collective synchronised every member */
		k = p;
		uint64_t d = lop_duration(a, p);
		*sum += d;
		if (d > longest) {
			longest = d;
			culprit = p;
		}
		*from = p;
	}
	return culprit;
}

/* Case (a) of a one-sided call is created-rma; so is a computation's when
 * what it created beyond its own duration was lost in a one-sided call
 * alone at its step before it (an RMA call no other rank's operation
 * measured: the computation merely ends the stretch where lateness shows
 * again), so that time in RMA calls never reads as computation. */
enum analysis_cause
analysis_lop_cause(const struct analysis *a, uint32_t lop)
{
	enum analysis_cause c = lop_cause(a, lop);
	if (c != CAUSE_COMPUTE)
		return c;
	if (a->lop_kind[lop] == OP_RMA)
		return CAUSE_RMA;
	if (a->lop_kind[lop] != OP_COMPUTE || !trace_has_rma(a->t))
		return c;
	uint64_t created = lop_diff(a, lop), dur = lop_duration(a, lop), sum;
	uint32_t from, culprit = created > dur ? lop_lost_before(a, lop, &sum, &from) : TRACE_NONE;
	return culprit != TRACE_NONE && a->lop_kind[culprit] == OP_RMA && 2 * (created - dur) >= created
		? CAUSE_RMA : c;
}

uint32_t analysis_lop_cause_lop(const struct analysis *a, uint32_t lop) { return lop_cause_lop(a, lop); }

int
analysis_lop_startup(const struct analysis *a, uint32_t lop)
{
	if (a->charm)
		return 0;      /* chares have no start-up: they run when invoked */
	uint32_t tl = a->lop_tl[lop];
	return a->lop_kind[lop] == OP_COMPUTE && lop == a->tl_lop[tl] && lop + 1 < a->tl_lop[tl + 1];
}

/* Is region r a constructor: an entry named as its chare type
 * ("Jacobi::Jacobi", the migration constructor too)? */
static int
constructor(const struct trace *t, uint32_t r)
{
	const char *name = trace_str(t, trace_regions(t, NULL)[r].name);
	const char *sep = NULL;
	for (const char *p = name; (p = strstr(p, "::")); p += 2)
		sep = p;
	if (!sep)
		return 0;
	/* the chare type: what comes before "::", after any namespace */
	const char *type = name;
	for (const char *p = name; p < sep; p++)
		if (p[0] == ':' && p[1] == ':')
			type = p + 2;
	size_t n = (size_t)(sep - type);
	return n && strlen(sep + 2) == n && !strncmp(type, sep + 2, n);
}

/* analysis_lop_charm_setup, with each region's constructor() in ctor
 * (1 + whether it is one; 0: not worked out yet) when not NULL */
static int
charm_setup(const struct analysis *a, uint32_t lop, uint8_t *ctor)
{
	uint32_t r = analysis_lop_region(a, lop), p = a->lop_part[lop];
	if (r == TRACE_NONE)
		return 1;         /* a creation outside any execution: the runtime's */
	if (trace_regions(a->t, NULL)[r].role != ROLE_USER)
		return 1;         /* an entry of a runtime chare type */
	if (p != TRACE_NONE && p < a->n_parts && !a->parts[p].comm_count)
		return 1;         /* the leading phase: before the chare's first message */
	if (!ctor)
		return constructor(a->t, r);
	if (!ctor[r])
		ctor[r] = (uint8_t)(1 + constructor(a->t, r));
	return ctor[r] - 1;
}

int
analysis_lop_charm_setup(const struct analysis *a, uint32_t lop)
{
	return a->charm ? charm_setup(a, lop, NULL) : 0;
}

int
analysis_lop_charm_setup_memo(const struct analysis *a, uint32_t lop, uint8_t *ctor)
{
	return a->charm ? charm_setup(a, lop, ctor) : 0;
}

struct setup_count {
	const struct analysis *a;
	uint8_t *ctor;
	uint32_t n[PAR_MAX];
};

static int
setup_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct setup_count *g = ctx;
	uint32_t l0, l1, n = 0;
	par_share(g->a->n_lops, w, nw, &l0, &l1);
	for (uint32_t l = l0; l < l1; l++)
		n += (uint32_t)charm_setup(g->a, l, g->ctor);
	g->n[w] = n;
	return 0;
}

/* Every region's constructor() first, then the lops a share each. */
uint32_t
analysis_charm_setup_count(const struct analysis *a)
{
	if (!a->charm)
		return 0;
	uint32_t n_regions;
	trace_regions(a->t, &n_regions);
	struct setup_count g = { .a = a, .ctor = calloc((size_t)n_regions + 1, 1) };
	uint32_t nw = g.ctor ? par_workers() : 1;    /* no memory: name by name, one core */
	for (uint32_t r = 0; g.ctor && r < n_regions; r++)
		g.ctor[r] = (uint8_t)(1 + constructor(a->t, r));
	par_run(nw, setup_worker, &g);
	free(g.ctor);
	uint32_t n = 0;
	for (uint32_t w = 0; w < nw; w++)
		n += g.n[w];
	return n;
}

int
analysis_lop_from_startup(const struct analysis *a, uint32_t lop)
{
	return (a->cause[lop] & CAUSE_FROM_STARTUP) != 0;
}

uint64_t
analysis_startup_end(const struct analysis *a)
{
	if (a->charm)
		return 0;
	uint32_t n_tl;
	trace_timelines(a->t, &n_tl);
	uint64_t end = 0;
	for (uint32_t tl = 0; tl < n_tl; tl++)
		for (uint32_t l = a->tl_lop[tl]; l < a->tl_lop[tl + 1]; l++)
			if (a->lop_kind[l] != OP_COMPUTE) {
				if (lop_enter(a, l) > end)
					end = lop_enter(a, l);
				break;
			}
	return end;
}

const struct analysis_part *
analysis_parts(const struct analysis *a, uint32_t *n)
{
	if (n)
		*n = a->n_parts;
	return a->parts;
}

const uint32_t *
analysis_part_succ(const struct analysis *a, uint32_t p, uint32_t *n)
{
	*n = a->dag_first[p + 1] - a->dag_first[p];
	return a->dag_succ + a->dag_first[p];
}

const struct clustering *
analysis_clustering(const struct analysis *a, uint32_t p)
{
	return a->clusters && p < a->n_parts ? &a->clusters[p] : NULL;
}

const uint32_t *
analysis_hotspots(const struct analysis *a, uint32_t *n)
{
	*n = a->n_hot;
	return a->hot;
}

const uint32_t *
analysis_hotspots_startup(const struct analysis *a, int startup, uint32_t *n)
{
	*n = startup ? a->n_hot_all : a->n_hot;
	return startup ? a->hot_all : a->hot;
}

uint64_t
analysis_lop_idle_experienced(const struct analysis *a, uint32_t lop)
{
	return a->idle_exp ? a->idle_exp[lop] : 0;
}

uint64_t
analysis_lop_diff_duration(const struct analysis *a, uint32_t lop)
{
	return a->dur_diff ? a->dur_diff[lop] : 0;
}

uint64_t
analysis_lop_imbalance(const struct analysis *a, uint32_t lop)
{
	return a->imbalance ? a->imbalance[lop] : 0;
}

uint64_t
analysis_part_imbalance(const struct analysis *a, uint32_t p)
{
	return a->part_imbalance && p < a->n_parts ? a->part_imbalance[p] : 0;
}

uint32_t
analysis_lop_pe(const struct analysis *a, uint32_t lop)
{
	return trace_op_pe(a->t, lop_first_op(a, lop));
}

void
analysis_lops_span(const struct analysis *a, uint32_t l0, uint32_t l1, uint64_t *t0, uint64_t *t1)
{
	uint64_t lo = *t0, hi = *t1;
	for (uint32_t l = l0; l < l1; l++) {
		uint64_t en = lop_enter(a, l), ex = lop_exit(a, l);
		lo = en < lo ? en : lo;
		hi = ex > hi ? ex : hi;
	}
	*t0 = lo;
	*t1 = hi;
}

const uint32_t *
analysis_pe_lops(const struct analysis *a, const uint32_t **first)
{
	*first = a->pe_first;
	return a->pe_lops;
}

const char *
analysis_hotspot_metric(const struct analysis *a)
{
	return a->dur_diff ? "differential duration" : "differential lateness";
}

const char *
analysis_cause_name(enum analysis_cause c)
{
	static const char *const names[CAUSE_COUNT] = {
		"none", "created-compute", "propagated-timeline", "created-in-flight",
		"propagated-message", "created-rma",
	};
	return (unsigned)c < CAUSE_COUNT ? names[c] : "?";
}

const char *
analysis_cause_text(enum analysis_cause c)
{
	static const char *const text[CAUSE_COUNT] = {
		"not late",
		"lateness created here (computation or the call itself), not inherited",
		"lateness propagated along the timeline from the previous operation",
		"lateness created at this receive: the message was late in flight or slow to receive",
		"lateness propagated across timelines from a late sender",
		"lateness created in a one-sided (RMA) call, not in computation, not inherited",
	};
	return (unsigned)c < CAUSE_COUNT ? text[c] : "?";
}
