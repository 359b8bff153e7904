/* charm.h — the Charm++ side of the trace model (doc/model.md, doc/charm.md).
 *
 * A Charm++ trace (trace_info()->paradigm == PARADIGM_CHARM) uses the same
 * arrays as an MPI trace, read differently:
 *
 *   timeline  a chare: an application chare (array element by index, group
 *             member per PE, a singleton chare such as the main chare), or
 *             all runtime chares of one PE together (trace_chares())
 *   region    an entry method, named "Chare::entry" (trace_entries())
 *   op        an entry-method execution, or a piece of one: an execution
 *             is split after each message it creates, so every op but the
 *             last of an execution ends at a send. Ops of one serial block
 *             (an execution and the SDAG continuations that ran right after
 *             it on the same chare and PE) are contiguous on their timeline
 *             and flagged OPF_BLOCK_CONT after the first; pieces of one
 *             execution after the first are flagged OPF_EXEC_CONT.
 *   msg       one invocation: from the op that created it to the op whose
 *             execution it started. A broadcast creation gives one message
 *             per execution it started (MSGF_BROADCAST).
 *
 * Beside them, arrays that exist only for Charm++ traces (empty, and NULL
 * pointers, for MPI): the PE of every op, the PEs with their record counts
 * and idle intervals, per-timeline chare metadata and per-region entry
 * metadata. All are plain arrays indexed by 32-bit ids, like the rest of
 * the model. Lifetime: until trace_destroy().
 */
#ifndef SKEIN_CHARM_H
#define SKEIN_CHARM_H

#include <stddef.h>
#include <stdint.h>

#include "trace.h"

/* Projections log record types, as counted while reading (the names are
 * Projections' own: CREATION, BEGIN_PROCESSING, ...). */
enum trace_crec {
	CREC_CREATION, CREC_BEGIN_PROCESSING, CREC_END_PROCESSING, CREC_ENQUEUE,
	CREC_DEQUEUE, CREC_BEGIN_COMPUTATION, CREC_END_COMPUTATION,
	CREC_BEGIN_INTERRUPT, CREC_END_INTERRUPT, CREC_MESSAGE_RECV,
	CREC_BEGIN_TRACE, CREC_END_TRACE, CREC_USER_EVENT, CREC_BEGIN_IDLE,
	CREC_END_IDLE, CREC_BEGIN_PACK, CREC_END_PACK, CREC_BEGIN_UNPACK,
	CREC_END_UNPACK, CREC_CREATION_BCAST, CREC_CREATION_MULTICAST,
	CREC_MEMORY_MALLOC, CREC_MEMORY_FREE, CREC_USER_SUPPLIED,
	CREC_MEMORY_USAGE_CURRENT, CREC_USER_SUPPLIED_NOTE,
	CREC_USER_SUPPLIED_BRACKETED_NOTE, CREC_END_PHASE, CREC_SURROGATE_BLOCK,
	CREC_USER_STAT, CREC_BEGIN_USER_EVENT_PAIR, CREC_END_USER_EVENT_PAIR,
	CREC_USER_EVENT_PAIR, CREC_OTHER,
	CREC_COUNT
};

/* One processing element (a Charm++ worker thread). */
struct trace_pe {
	uint64_t t_begin, t_end;        /* BEGIN/END_COMPUTATION, else first/last record */
	uint64_t records[CREC_COUNT];   /* records of each type in its log */
	uint32_t idle_first, idle_count;   /* its idle intervals in trace_idles() */
	uint32_t runtime;               /* timeline of its runtime chares, or TRACE_NONE */
	uint32_t ops;                   /* ops that ran on it */
};

/* One idle interval of a PE (BEGIN_IDLE .. END_IDLE). */
struct trace_idle {
	uint64_t t_begin, t_end;
};

enum trace_chare_kind {
	CHARE_ARRAY,       /* an array element, named by its index */
	CHARE_GROUP,       /* a group (or node group) member, or a chare type whose
	                    * instances the log does not tell apart: one per PE */
	CHARE_SINGLE,      /* a singleton chare type seen on one PE only (Main) */
	CHARE_RUNTIME,     /* all runtime chares of one PE */
	CHARE_KIND_COUNT
};

#define TRACE_CHARE_DIMS 6

/* What a timeline of a Charm++ trace is. */
struct trace_chare {
	uint32_t type;          /* chare type name (interned); "runtime" for CHARE_RUNTIME */
	uint32_t sts_id;        /* chare id in the .sts; TRACE_NONE for CHARE_RUNTIME */
	uint32_t pe;            /* PE of its first execution (its PE for groups, runtime) */
	uint32_t pes;           /* how many PEs it ran on (more than one: it migrated) */
	int32_t index[TRACE_CHARE_DIMS];   /* array index, ndims values */
	uint8_t ndims;
	uint8_t kind;           /* enum trace_chare_kind */
	uint8_t runtime;        /* a runtime timeline */
};

/* Chare and entry ids of a .sts are at most this (projections/prj_sts.c
 * refuses others; tables are indexed by them). */
#define TRACE_STS_ID_MAX 10000000u

/* What a region of a Charm++ trace is. */
struct trace_entry {
	uint32_t ep;            /* entry id in the .sts */
	uint32_t sts_chare;     /* its chare's id in the .sts */
	uint32_t signature;     /* the full name the .sts gives (interned) */
	uint8_t sdag;           /* an SDAG serial block (generated entry, no parameters) */
	uint8_t runtime;        /* its chare type counts as runtime, or the runtime invokes
	                         * it (a reduction target) */
};

/* Charm++ arrays of t (NULL and *n = 0 for MPI traces). */
const struct trace_pe *trace_pes(const struct trace *t, uint32_t *n);
const struct trace_idle *trace_idles(const struct trace *t, uint32_t *n);
/* One per timeline. */
const struct trace_chare *trace_chares(const struct trace *t, uint32_t *n);
/* One per region. */
const struct trace_entry *trace_entries(const struct trace *t, uint32_t *n);
/* One per op: the PE it ran on. */
const uint32_t *trace_op_pes(const struct trace *t);

/* The PE op ran on: for MPI traces its timeline (a rank is its own
 * processor). */
uint32_t trace_op_pe(const struct trace *t, uint32_t op);
/* Processors: PEs for Charm++, ranks for MPI. */
uint32_t trace_pe_count(const struct trace *t);

/* "CREATION", "BEGIN_PROCESSING", ... */
const char *trace_crec_name(enum trace_crec r);
/* "array", "group", "single", "runtime" */
const char *trace_chare_kind_name(enum trace_chare_kind k);

/* A chare's label into buf: "Jacobi(1,2)", "Main", "Btest[PE 3]",
 * "runtime[PE 0]". Returns buf. */
const char *trace_chare_label(const struct trace *t, uint32_t timeline, char *buf, size_t n);
/* A warning as a sentence about trace t: a Charm++ run says executions
 * and creations where an MPI trace says receives, sends and regions
 * (trace_warning_name otherwise, which is also the machine name). */
const char *trace_warning_text(const struct trace *t, enum trace_warning w);
/* The same for a count of them: the singular for one ("1 leave of a
 * region that was not entered"), trace_warning_text otherwise. */
const char *trace_warning_count_text(const struct trace *t, enum trace_warning w, uint64_t n);

/* The timeline whose label is `label`, or TRACE_NONE. */
uint32_t trace_chare_find(const struct trace *t, const char *label);

#endif
