/* diff.h — two runs of one program compared step by step.
 *
 * The seed paper's AMG2013 study (§5.3, Fig. 14 against Fig. 16) compares
 * a run with a run after a change. diff_run aligns the two analyses:
 *
 *  1. partitions, by their signature (signature.h) — ranks, calls,
 *     message pattern — in the order of their first step. The two
 *     sequences are aligned as a longest common subsequence, so runs of
 *     different length (more iterations in one) align on what they share.
 *     Partitions the alignment leaves side by side but with different
 *     signatures are *changed* (the structure itself differs: an extra
 *     message, another call); the others are only in one run.
 *  2. operations within alike partitions: rank by rank, in order; within
 *     changed ones, from either end of a rank's calls while both runs made
 *     the same. Between two alike partitions, the changed and one-sided
 *     ones are one stretch of the program in both runs: an AFTER operation
 *     there that nothing paired is compared with the most lateness its
 *     rank's same call created in the BEFORE run's stretch (unpaired),
 *     and a BEFORE one likewise with the AFTER run's (unpaired_better).
 *
 * When the rank counts differ, partitions align by their shape (the set
 * of calls alone) and only per-partition aggregates are compared; no
 * operation is paired (same_ranks is 0).
 *
 * Differences are AFTER minus BEFORE, in seconds (the runs may have
 * different clock rates). Lifetime: the diff borrows both analyses and
 * must be destroyed before them.
 *
 * Two Charm++ runs (charm 1) are compared by seed 004's metrics: what got
 * worse or better is ranked by the change of differential duration (the
 * time an execution took beyond its peers at its step: where a delay is
 * injected), and the runtime's entries, constructors and the leading
 * phase are left out of that ranking as they are of the hotspots
 * (analysis_lop_charm_setup) unless the AFTER analysis counts them
 * (opts.startup). Regions are entry methods, computation included.
 */
#ifndef SKEIN_DIFF_H
#define SKEIN_DIFF_H

#include <stdint.h>

#include "analysis/core/analysis.h"
#include "base/err.h"

enum diff_part_kind {
	DIFF_ALIKE,        /* same signature: operations are paired */
	DIFF_CHANGED,      /* side by side in the alignment, different structure */
	DIFF_ONLY_BEFORE,
	DIFF_ONLY_AFTER,
};

struct diff_side {
	double late, diff, duration;   /* totals over the partition's lops, seconds */
	double ddur, idle;             /* Charm++: differential duration, idle experienced */
	uint32_t ops;                  /* communication lops */
	uint32_t messages;
};

struct diff_part {
	enum diff_part_kind kind;
	uint32_t before, after;        /* partition ids, TRACE_NONE on the missing side */
	struct diff_side b, a;
};

struct diff_op {
	uint32_t before, after;        /* lops */
	double d_late, d_diff, d_duration;   /* after - before, seconds */
	double d_ddur, d_idle;         /* Charm++: differential duration, idle experienced */
};

/* A structural difference inside a changed partition: a message one run
 * has and the other lacks, or a call one rank made in only one run. */
struct diff_change {
	uint32_t part;                 /* index into parts */
	uint8_t in_after;              /* 1: only in AFTER; 0: only in BEFORE */
	uint8_t is_message;            /* 1: message sender->receiver tag; 0: call on rank */
	uint32_t sender, receiver, tag;   /* message; for a call: rank, kind, region */
	uint32_t count;                /* how many such */
};

struct diff_region {
	const char *name;              /* borrowed from one of the traces */
	int computation;               /* 1: computation inside that user region (MPI) */
	double dur_before, dur_after, late_before, late_after;
	double ddur_before, ddur_after;   /* Charm++: differential duration */
	double change;                 /* what orders them: |Δ duration| + |Δ lateness|
				        * (Charm++: + |Δ differential duration| instead) */
	uint32_t n_before, n_after;
};

struct diff {
	const struct analysis *before, *after;
	int charm;                     /* both runs are Charm++ runs: seed 004's metrics */
	int same_ranks;
	uint32_t ranks_before, ranks_after;
	struct diff_part *parts;
	uint32_t n_parts, n_alike, n_changed, n_only_before, n_only_after;
	struct diff_op *ops;           /* aligned operations */
	uint32_t n_ops;
	uint32_t *worse;               /* ops by d_diff (Charm++: d_ddur), largest increase
				        * first (> 0) */
	uint32_t n_worse;
	uint32_t *better;              /* largest decrease first (< 0) */
	uint32_t n_better;
	struct diff_op *unpaired;      /* MPI: AFTER lops of a stretch of changed and
				        * one-sided partitions that nothing paired, each
				        * against the BEFORE lop of its rank, kind and
				        * region that created the most lateness anywhere in
				        * that stretch (before), where it created more
				        * (d_diff > 0: the excess), largest first */
	uint32_t n_unpaired;
	struct diff_op *unpaired_better;   /* the way back: BEFORE lops of such a stretch
				        * nothing paired, each against the AFTER lop of
				        * its rank, kind and region that created the most
				        * there (after), where they created more (d_diff
				        * < 0), largest decrease first */
	uint32_t n_unpaired_better;
	uint32_t n_setup;              /* Charm++: paired ops left out of worse and better
				        * (the runtime's and the set-up's) */
	struct diff_change *changes;
	uint32_t n_changes;
	struct diff_region *regions;   /* by total |change|, largest first */
	uint32_t n_regions;
	double late_before, late_after, diff_before, diff_after;   /* totals, seconds */
	double ddur_before, ddur_after, idle_before, idle_after;   /* Charm++ totals */
	uint32_t *after_op;            /* per AFTER lop: index into ops, or TRACE_NONE */
	uint32_t *after_part;          /* per AFTER partition: index into parts */
	uint32_t *root;                /* per AFTER lop: the lop its lateness was created at */
};

/* Compares two analyses. Returns 0 and *out (free with diff_destroy),
 * ERR_USAGE (a Charm++ run against an MPI trace), or ERR_NOMEM. */
int diff_run(const struct analysis *before, const struct analysis *after, struct diff **out,
	     struct err *e);
void diff_destroy(struct diff *d);

/* The AFTER lops whose lateness came from lop `from` (their causes lead
 * back to it) and grew by at least min_d_late seconds (lops without a
 * partner count their whole lateness), in lop order, into a malloc'd
 * array (*n of them; NULL when none). Returns 0 or ERR_NOMEM. */
int diff_propagation(const struct diff *d, uint32_t from, double min_d_late, uint32_t **out,
		     uint32_t *n);

const char *diff_part_kind_name(enum diff_part_kind k);

/* The largest change either way, the one skein diff names first: the
 * largest of worse[0], better[0], unpaired[0] and unpaired_better[0] by
 * the size of d_diff (the first of a tie); NULL when no operation
 * changed. */
const struct diff_op *diff_largest(const struct diff *d);
/* Is op one of d->unpaired (1: an AFTER operation nothing paired), of
 * d->unpaired_better (2: a BEFORE one, the way back), or paired (0)? */
int diff_op_unpaired(const struct diff *d, const struct diff_op *op);

#endif
