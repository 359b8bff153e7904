/* leap.h — the leap merge (leap.c) over what it reads of the partitions:
 * each partition's presence on each timeline and the partition graph's
 * edges. The serial analysis builds them from its partitions
 * (partition_leap_merge); a distributed one from each rank's timelines,
 * gathered on rank 0 (dist_leap.c). Internal to src/analysis.
 */
#ifndef SKEIN_LEAP_H
#define SKEIN_LEAP_H

#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"

/* tl of a leap_rec: set when a communication lop is among its lops */
#define LEAP_COMM 0x80000000u

/* A partition on one timeline: the leap merge's whole view of its lops
 * there. Records of one partition come in any order. */
struct leap_rec {
	uint32_t part;          /* the partition, as on entry */
	uint32_t tl;            /* its timeline, | LEAP_COMM */
	uint32_t lo, hi;        /* its least and greatest lop on tl */
	/* the communication lop before lo (before lo + 1, when lo is a
	 * computation) and the one after hi: their partitions (TRACE_NONE
	 * when none) and the gaps, enter minus exit, 0 when negative */
	uint32_t in_part, out_part;
	uint64_t in_gap, out_gap;
};

/* A partition graph edge, src -> dst: key is the first lop of src whose
 * next communication lop on its timeline is in dst. */
struct leap_edge {
	uint32_t src, dst;
	uint32_t key;
};

struct leap_in {
	uint32_t n_parts, n_timelines;
	uint32_t n_active;              /* timelines with communication */
	const uint32_t *rec_first;      /* n_parts + 1: partition p's records */
	const struct leap_rec *recs;    /* grouped by partition */
	const struct leap_edge *edges;  /* grouped by src in partition order, each
					 * src's by key; no duplicate (src, dst) */
	uint32_t n_edges;
	double factor;
	int force;
	trace_progress_fn progress;     /* may be NULL */
	void *ud;
};

struct leap_out {
	uint32_t *root;         /* n_parts, caller's: each partition's merged set,
				 * named by its least member */
	uint32_t merged;        /* unions made */
	uint32_t leaps;         /* of the final graph */
	uint32_t incomplete;    /* leaps accepted incomplete */
};

/* Algorithm 1 over in; 0, ERR_NOMEM or ERR_CANCELLED (the progress
 * callback said stop). */
int leap_run(const struct leap_in *in, struct leap_out *out);

/* The records of a's partitions on a's timelines (every lop with a
 * partition), lops named lop_off + their local id: *out (malloc'd, the
 * caller's) holds *n of them, in timeline order. stamp and slot are
 * scratch of a->n_parts entries. 0 or ERR_NOMEM. */
struct analysis;
int leap_records(const struct analysis *a, uint32_t lop_off, uint32_t *stamp, uint32_t *slot,
		 struct leap_rec **out, size_t *n);

/* How many of a's timelines have a communication lop (n_active). */
uint32_t leap_active(const struct analysis *a);

/* recs grouped by partition: a new array (*out, malloc'd) and rec_first
 * (*first, n_parts + 1, malloc'd); recs is freed in every case. */
int leap_group(struct leap_rec *recs, size_t n, uint32_t n_parts, struct leap_rec **out,
	       uint32_t **first);

#endif
