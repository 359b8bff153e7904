/* analysis.h — logical structure and lateness (seed 000, sections 3 and 4).
 *
 * An analysis is computed from a loaded trace in one call and is read-only
 * afterwards. It works on *logical operations* (lops): one per trace op,
 * except that a run of neighbouring MPI_Isend calls is one lop when Isend
 * coalescing is on (section 3.3). Lops of a timeline are contiguous and
 * alternate computation and communication, like trace ops.
 *
 *   analysis_run (run/run.h) → getters… → analysis_destroy
 *
 * Every stage is a function from arrays to arrays (see analysis_impl.h),
 * so it can later run over blocks of timelines. doc/analysis.md says how
 * each choice the paper leaves open was made.
 */
#ifndef SKEIN_ANALYSIS_H
#define SKEIN_ANALYSIS_H

#include <stdint.h>

#include "base/err.h"
#include "model/trace.h"

/* User-defined phases: every Enter of a region whose name matches starts
 * a new phase on that timeline (the pattern is an fnmatch(3) glob; an
 * exact name is a glob without wildcards). Phases replace the detected
 * partitions; messages and collectives that cross phases still keep their
 * ends in one partition. */
struct analysis_phase_rule {
	const char *region_glob;
};

/* Whether glob is a pattern fnmatch(3) reads as written: NULL if so, else
 * what is wrong ("'[' is never closed", "ends in a lone '\\'"). Phase
 * patterns are checked with it where they are given (command line,
 * configuration) and again by analysis_run. */
const char *analysis_glob_problem(const char *glob);

struct analysis_opts {
	int coalesce_isends;      /* section 3.3; default on */
	int waitall_merge;        /* merge ops completed by one Waitall; default on */
	int leap_merge;           /* Algorithm 1; default off */
	double leap_factor;       /* backward merge when incoming * factor < outgoing; 10 */
	int leap_force;           /* force-merge incomplete leaps; default off */
	int global_step_merge;    /* merge partitions that share global steps; default off */
	int auto_merge;           /* merge partitions that share global steps and make
				   * the same calls (one phase split over disjoint
				   * ranks); default on, off for the paper's pipeline */
	int sender_progress;      /* a receive that completed only once its sender was
				   * inside the call completing a non-blocking send also
				   * follows the computation before that call; default
				   * on, off for the paper's pipeline */
	int startup;              /* rank start-up (before its first communication)
				   * counts for hotspots; default off */
	int caller_merge;         /* Ravel's caller merge: consecutive ops under one
				   * call of the nearest caller whose function issued
				   * more than one communication; default off */
	int match_size;           /* ignore messages whose ends disagree on bytes; off */
	const struct analysis_phase_rule *phases;  /* NULL: detect partitions */
	uint32_t n_phases;
	uint32_t hotspots;        /* how many to rank; default 20 */
	/* Reordering by idealised forward replay (seed 004 §3.2.1): receives
	 * in the order their dependencies allow rather than the order they
	 * ran, sends kept in place (MPI; default off) */
	int reorder;
	/* Charm++ (seed 004): a chare's serial blocks by forward replay
	 * rather than physical time (§3.2.1), and the structure stages
	 * (§3.1); all on by default */
	int charm_reorder;
	int charm_sdag;           /* serial n before serial n+1 on a chare (§2.1) */
	int charm_repair;         /* serial block repair (Alg. 2) */
	int charm_infer;          /* dependencies inferred from sources (Alg. 3) */
	int charm_leap_merge;     /* merge by leap (Alg. 4) */
	uint32_t clusters;        /* group each partition's ranks into at most this
				   * many clusters (1..20); 0, the default: don't */
	int iter_find;            /* enum analysis_iter_find (iterations.h); default auto */
	const char *iter_region;  /* a glob: the Enters of the user region it matches
				   * start the iterations; NULL: find them */
};

/* How iterations are found (iterations.h): from user regions checked
 * against the structure, else the structure's period; the structure
 * alone; or not at all. */
enum analysis_iter_find { ITER_FIND_AUTO, ITER_FIND_STRUCTURE, ITER_FIND_OFF };

/* Fills o with the documented defaults. */
void analysis_opts_default(struct analysis_opts *o);
/* The defaults without skein's automatic choices: the paper's pipeline
 * exactly (no automatic merge, no sender progress, start-up counted). */
void analysis_opts_paper(struct analysis_opts *o);

/* The options o changes from the defaults that cannot apply to a trace
 * of one paradigm (charm 1: a Charm++ run, whose structure is seed 004's;
 * 0: an MPI trace, which has no Charm++ stages), as AOPT_* bits;
 * analysis_run records them (analysis_unused_opts) so that reports and
 * the command line say so instead of ignoring them. */
enum {
	AOPT_COALESCE = 1u << 0, AOPT_WAITALL = 1u << 1, AOPT_LEAP = 1u << 2,
	AOPT_GSTEP = 1u << 3, AOPT_AUTO = 1u << 4, AOPT_PROGRESS = 1u << 5,
	AOPT_MATCH = 1u << 6, AOPT_CALLER = 1u << 7, AOPT_PHASES = 1u << 8,
	AOPT_CHARM = 1u << 9,
};
uint32_t analysis_opts_unused(const struct analysis_opts *o, int charm);
/* Those bits as one sentence into buf ("--startup (structure.include_startup),
 * ...: seed 000's MPI rules, which do not apply to a Charm++ run ...");
 * "" for none. Returns buf. */
const char *analysis_opts_unused_text(uint32_t unused, int charm, char *buf, size_t n);
/* One AOPT_* bit as "--no-auto-merge (structure.auto_merge)" into buf. */
const char *analysis_opt_name(uint32_t bit, char *buf, size_t n);

/* Why an operation is late: the four cases of the paper's Fig. 7. */
enum analysis_cause {
	CAUSE_NONE,               /* not late */
	CAUSE_COMPUTE,            /* (a) created here, not receiving: computation or the call itself */
	CAUSE_TIMELINE,           /* (b) propagated from the previous op on this timeline */
	CAUSE_IN_FLIGHT,          /* (c) created at a receive whose sender was not late */
	CAUSE_MESSAGE,            /* (d) propagated from a late sender */
	CAUSE_RMA,                /* (a) in a one-sided call (OP_RMA): the call, not
	                           * computation. Never stored: analysis_lop_cause
	                           * gives it for such a lop's case (a) */
	CAUSE_COUNT
};

struct analysis_part {
	uint32_t merged_from;     /* partitions the global-step merge joined into it (1: none) */
	uint32_t step_first;      /* global step span [step_first, step_first + step_count) */
	uint32_t step_count;
	uint32_t lop_count;       /* communication and computation lops */
	uint32_t comm_count;      /* communication lops */
	uint32_t ranks;           /* timelines taking part */
	uint32_t leap;            /* depth in the partition DAG (longest path from a source) */
	uint32_t phase;           /* user phase index, or TRACE_NONE when detected */
	uint32_t phase_region;    /* region that starts the user phase, or TRACE_NONE */
	uint8_t runtime;          /* Charm++: a runtime phase (seed 004 §3.1): it has
	                           * dependencies between application and runtime chares
	                           * or among runtime chares; 0: an application phase */
};

struct analysis_verify {
	uint64_t messages_checked;
	uint64_t message_order;       /* send step >= receive step (exchanges: >) */
	uint64_t timeline_order;      /* steps not strictly increasing on a timeline */
	uint64_t collective_split;    /* members of one collective on different steps */
	uint64_t partition_overlap;   /* DAG-ordered partitions sharing steps */
	uint64_t cross_partition;     /* message or collective ends in two partitions */
	uint64_t relaxed;             /* orderings the stepper had to break (cycles) */
	uint64_t block_order;         /* Charm++: ops of a serial block out of order */
};

struct analysis_stats {
	uint32_t partitions_initial;  /* after message/collective merges */
	uint32_t partitions_waitall;  /* after the Waitall merge */
	uint32_t partitions_scc;      /* after merging cycles */
	uint32_t partitions_leap;     /* after leap merge (== scc when off) */
	uint32_t partitions;          /* final */
	uint32_t leaps;
	uint32_t incomplete_leaps;
	uint32_t partitions_steps;    /* before the global-step merge (explicit or automatic) */
	uint32_t auto_merged;         /* partitions the automatic merge joined into others */
	uint32_t coalesced_isends;    /* Isend calls folded into another lop */
	uint32_t size_mismatches;     /* messages unmatched by match_size */
	uint32_t progress_receives;   /* receives whose sender's progress was their latest
				       * predecessor (sender_progress) */
	uint32_t startup_lops;        /* start-up computations (one per rank that communicates) */
	uint32_t startup_max_lop;     /* the latest of them, or TRACE_NONE */
	uint32_t startup_hidden;      /* start-up lops with differential lateness kept out of
				       * the hotspots (startup off) */
	/* Charm++: partitions after each stage of seed 004 §3.1 */
	uint32_t charm_initial;       /* serial blocks split at app/runtime boundaries */
	uint32_t charm_dependency;    /* after the dependency merge (Alg. 1) and cycles */
	uint32_t charm_repair;        /* after serial block repair (Alg. 2) */
	uint32_t charm_infer;         /* after inferred dependencies (Alg. 3) */
	uint32_t charm_leap;          /* after merge by leap (Alg. 4) */
	uint32_t charm_edges;         /* phase dependencies added for the DAG properties */
	uint32_t reordered;           /* lops whose logical place differs from their time order */
	/* wall-clock seconds per stage, for benchmarks */
	double t_lops, t_partition, t_leap, t_steps, t_metrics;
};

struct analysis;

void analysis_destroy(struct analysis *a);

const struct trace *analysis_trace(const struct analysis *a);
const struct analysis_opts *analysis_options(const struct analysis *a);
/* The options given that did not apply (analysis_opts_unused at the
 * run, or as analysis_note_unused_opts recorded them). */
uint32_t analysis_unused_opts(const struct analysis *a);
/* Records which of the options o (given for an analysis mapped from a
 * saved file, which keeps its own) do not apply to its trace. */
void analysis_note_unused_opts(struct analysis *a, const struct analysis_opts *o);
const struct analysis_stats *analysis_stats(const struct analysis *a);
const struct analysis_verify *analysis_verify(const struct analysis *a);
/* 1 when the verifier found no violation. */
int analysis_verified(const struct analysis *a);

uint32_t analysis_lop_count(const struct analysis *a);
uint32_t analysis_step_count(const struct analysis *a);
/* Lops of timeline tl: [first, first + count). */
void analysis_timeline_lops(const struct analysis *a, uint32_t tl, uint32_t *first, uint32_t *count);
/* The trace ops a lop covers: [first, first + count). */
void analysis_lop_ops(const struct analysis *a, uint32_t lop, uint32_t *first, uint32_t *count);
/* The lop holding trace op `op`. */
uint32_t analysis_op_lop(const struct analysis *a, uint32_t op);

/* The region a lop shows as, everywhere a lop is named (reports, panes,
 * histograms, search): its first MPI call, or for computation the
 * innermost user region it ran in; TRACE_NONE when there is none. */
uint32_t analysis_lop_region(const struct analysis *a, uint32_t lop);
/* Asks the processor for what the lop's getters read (its timeline,
 * step, kind and op index; `near`: its op's record, the index read),
 * for a report reading lops out of order: the far part a few dozen lops
 * ahead, the near part a few. Changes nothing. */
void analysis_lop_prefetch(const struct analysis *a, uint32_t lop, int near);
/* The innermost user frame around a lop (where its first op began), or
 * TRACE_NONE. */
uint32_t analysis_lop_frame(const struct analysis *a, uint32_t lop);

uint32_t analysis_lop_timeline(const struct analysis *a, uint32_t lop);
enum trace_op_kind analysis_lop_kind(const struct analysis *a, uint32_t lop);
uint64_t analysis_lop_enter(const struct analysis *a, uint32_t lop);
uint64_t analysis_lop_exit(const struct analysis *a, uint32_t lop);
/* exit - enter, or 0 when the clock runs backwards */
uint64_t analysis_lop_duration(const struct analysis *a, uint32_t lop);
uint32_t analysis_lop_part(const struct analysis *a, uint32_t lop);
uint32_t analysis_lop_step(const struct analysis *a, uint32_t lop);        /* global */
uint32_t analysis_lop_local_step(const struct analysis *a, uint32_t lop);  /* TRACE_NONE: none */
uint64_t analysis_lop_lateness(const struct analysis *a, uint32_t lop);    /* ticks */
uint64_t analysis_lop_diff(const struct analysis *a, uint32_t lop);        /* ticks */
uint64_t analysis_lop_global_lateness(const struct analysis *a, uint32_t lop);
enum analysis_cause analysis_lop_cause(const struct analysis *a, uint32_t lop);
/* The lop the lateness came from (cases b and d), or TRACE_NONE. */
uint32_t analysis_lop_cause_lop(const struct analysis *a, uint32_t lop);
/* 1 for a rank's start-up: the computation before its first communication
 * (MPI_Init, set-up, and the ranks' unsynchronised start). Its metrics are
 * computed as for any lop; unless opts.startup, it is left out of the
 * hotspots (and views leave it out of scales and time axes). */
int analysis_lop_startup(const struct analysis *a, uint32_t lop);
/* 1 when lop's lateness came from a start-up: its cause (b or d), and its
 * cause's cause..., lead back to a start-up lop (as the first sends of
 * ranks that started late). Views leave these out of their scales too. */
int analysis_lop_from_startup(const struct analysis *a, uint32_t lop);
/* Charm++: 1 when a lop is not the application's own work — an entry of
 * one of the runtime's chare types (SDAG_RTS, CkLocMgr::...), a creation
 * outside any execution, a constructor (an entry named as its chare
 * type), or work of the leading phase (before the chare's first
 * message). Charm++'s counterpart of a rank's start-up: unless
 * opts.startup it is left out of the hotspots. 0 for MPI. */
int analysis_lop_charm_setup(const struct analysis *a, uint32_t lop);
/* The same, each region's name read once: ctor holds a byte per region,
 * zeroed before the first call and kept between calls; it is filled as
 * regions are met, so one thread uses it at a time. */
int analysis_lop_charm_setup_memo(const struct analysis *a, uint32_t lop, uint8_t *ctor);
/* How many lops analysis_lop_charm_setup counts (each region's name
 * read once); 0 for MPI. */
uint32_t analysis_charm_setup_count(const struct analysis *a);
/* The latest enter of any rank's first communication: from there on no
 * rank is in its start-up (ticks; 0 without communication). */
uint64_t analysis_startup_end(const struct analysis *a);

const struct analysis_part *analysis_parts(const struct analysis *a, uint32_t *n);
/* Successors of partition p in the partition DAG. */
const uint32_t *analysis_part_succ(const struct analysis *a, uint32_t p, uint32_t *n);

/* The clustering of partition p's ranks (see cluster.h), or NULL when
 * opts.clusters is 0. Lives as long as a. */
struct clustering;
const struct clustering *analysis_clustering(const struct analysis *a, uint32_t p);

/* Hotspots: lops with the largest differential lateness, largest first
 * (ties: the smaller lop first); start-up lops only with opts.startup. */
const uint32_t *analysis_hotspots(const struct analysis *a, uint32_t *n);
/* The same with start-up counted (startup 1) or not (0), whatever the
 * options said: for a view that switches start-up in and out. */
const uint32_t *analysis_hotspots_startup(const struct analysis *a, int startup, uint32_t *n);

/* Charm++ metrics (seed 004 §4), in ticks; 0 for MPI traces, which have
 * no idle records and where they are not computed. */
uint64_t analysis_lop_idle_experienced(const struct analysis *a, uint32_t lop);
/* Duration beyond the shortest lop of its phase and step. */
uint64_t analysis_lop_diff_duration(const struct analysis *a, uint32_t lop);
/* Its PE's work in its phase beyond the least loaded PE's. */
uint64_t analysis_lop_imbalance(const struct analysis *a, uint32_t lop);
/* A phase's imbalance: the most loaded PE's work minus the least's. */
uint64_t analysis_part_imbalance(const struct analysis *a, uint32_t p);
/* Each PE's work in phase p (the durations of its lops there) into
 * work[0..n_pes). */
void analysis_part_pe_work(const struct analysis *a, uint32_t p, uint64_t *work, uint32_t n_pes);
/* The entry method (region) most of a Charm++ phase's events ran, its
 * name in reports; TRACE_NONE for MPI and for phases without events. */
uint32_t analysis_part_region(const struct analysis *a, uint32_t p);
/* The processor a lop ran on: its PE (Charm++), its rank (MPI). */
uint32_t analysis_lop_pe(const struct analysis *a, uint32_t lop);
/* The earliest enter and the last exit of lops [l0, l1) into *t0, *t1,
 * folded into what they hold (UINT64_MAX and 0 to start): one call for
 * a range where a call a lop cost more than the reads (the explorer's
 * whole-run span, millions of lops). */
void analysis_lops_span(const struct analysis *a, uint32_t l0, uint32_t l1, uint64_t *t0, uint64_t *t1);
/* Each PE's lops in time order (by enter, equal enters by lop id), PE
 * after PE: PE pe's are [first[pe], first[pe + 1]) for pe below
 * trace_pe_count. NULL when the analysis does not hold them (an MPI
 * trace, an analysis read from a saved file): sort them then. */
const uint32_t *analysis_pe_lops(const struct analysis *a, const uint32_t **first);
/* What the hotspots are ranked by: "differential lateness" (MPI) or
 * "differential duration" (Charm++). */
const char *analysis_hotspot_metric(const struct analysis *a);

const char *analysis_cause_name(enum analysis_cause c);       /* "created-compute" ... */
const char *analysis_cause_text(enum analysis_cause c);       /* a sentence */

#endif
