/* saved_impl.h — the saved-analysis file's layout (doc/format.md), shared
 * by saved.c (checksums, the arrays, reading) and saved_write.c. */
#ifndef SKEIN_SAVED_IMPL_H
#define SKEIN_SAVED_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "analysis/core/analysis_impl.h"
#include "analysis/explain/explain.h"
#include "model/charm.h"
#include "model/trace_impl.h"

#define SAVED_MAGIC "SKEINSAV"     /* 8 bytes, no terminator in the file */
#define BYTE_ORDER_MARK 0x01020304u
#define ALIGN 64

struct header {
	char magic[8];
	uint32_t version;
	uint32_t byte_order;     /* BYTE_ORDER_MARK as the writer stored it */
	uint32_t n_sections;
	uint32_t header_size;    /* sizeof (struct header) */
	uint64_t file_size;
	uint64_t table_sum;      /* checksum of the section table */
	uint64_t header_sum;     /* checksum of this header with header_sum 0 */
	uint64_t reserved[2];
};
_Static_assert(sizeof(struct header) == 64, "header is 64 bytes");

struct section {
	uint32_t id;
	uint32_t elem_size;
	uint64_t count;
	uint64_t offset;
	uint64_t bytes;          /* count * elem_size */
	uint64_t sum;
	uint64_t reserved;
};
_Static_assert(sizeof(struct section) == 48, "section entry is 48 bytes");

/* The options that are flags, in the order the meta section keeps them. */
#define SAVED_FLAGS(X) X(coalesce_isends) X(waitall_merge) X(leap_merge) X(leap_force) \
	X(global_step_merge) X(auto_merge) X(sender_progress) X(startup) X(caller_merge) \
	X(match_size) X(iter_find) X(reorder) X(charm_reorder) X(charm_sdag) X(charm_repair) \
	X(charm_infer) X(charm_leap_merge)

/* Scalars of the model and the analysis, and where they came from. */
struct meta {
	/* the trace's identity: its anchor file and definitions file */
	uint64_t anchor_size, anchor_mtime_ns, defs_size, defs_mtime_ns;
	uint32_t version[3];
	uint32_t no_local_defs;  /* string id: the first location read without local definitions */
	uint64_t ticks_per_second, global_offset, t_begin, t_end, events;
	uint64_t records[REC_COUNT];
	uint64_t warnings[WARN_COUNT];
	uint64_t mpi_calls_without_records;
	/* the analysis options (phases: their globs are section PHASES; the
	 * iterations' region glob is section ITER_REGION) */
	uint32_t coalesce_isends, waitall_merge, leap_merge, leap_force;
	uint32_t global_step_merge, auto_merge, sender_progress, startup;
	uint32_t caller_merge, match_size, iter_find, n_phases, hotspots, has_iter_region;
	double leap_factor;
	/* the analysis's counts */
	uint32_t n_lops, n_parts, n_steps, n_hot, n_hot_all, has_phases;
	struct analysis_stats stats;
	struct analysis_verify verify;
	/* the iterations (iterations.h): their starts and the runs of lops
	 * in one iteration are sections ITER_STARTS and ITER_RUNS */
	uint32_t iter_count, iter_source, iter_region, iter_period_parts;
	uint32_t iter_period_steps, iter_irregular, n_iter_runs;
	/* the paradigm (enum trace_paradigm) and, for Charm++ runs and for
	 * reordered MPI traces, the options and which optional arrays the
	 * analysis has: lops in logical order (sections OP_OF_LOP,
	 * OP_LAST_OF_LOP) and seed 004's metrics (IDLE_EXP .. PART_REGION) */
	uint32_t paradigm;
	uint32_t reorder, charm_reorder, charm_sdag, charm_repair, charm_infer, charm_leap_merge;
	uint32_t has_op_of_lop, has_op_last_of_lop, has_charm_metrics;
	/* the explanations are saved (sections WAITS .. PROBLEMS): 1, or 0
	 * (a Charm++ run, a distributed analysis's file) */
	uint32_t has_explain;
};
_Static_assert(sizeof(struct meta) == 920, "doc/format.md: the meta section is 920 bytes");
_Static_assert(offsetof(struct meta, stats) == 656, "tests/savedcmp.py masks the timings at 656 + 88");
_Static_assert(sizeof(struct trace_hold) == 32, "doc/format.md: a lock hold is 32 bytes");
_Static_assert(sizeof(struct trace_tag) == 24, "doc/format.md: a team tag is 24 bytes");
_Static_assert(sizeof(struct trace_lane) == 20, "doc/format.md: a lane is 20 bytes");

/* The records saved as they are in memory, at the sizes doc/format.md
 * gives: a change in any of them is a new format version. */
_Static_assert(sizeof(struct trace_timeline) == 56 && sizeof(struct trace_call) == 16 && sizeof(struct trace_location) == 40 &&
	       sizeof(struct trace_region) == 8 && sizeof(struct trace_comm) == 20 &&
	       sizeof(struct trace_node) == 12 && sizeof(struct trace_oprec) == 32 &&
	       sizeof(struct trace_end) == 4 && sizeof(struct trace_msg) == 56 &&
	       sizeof(struct trace_coll) == 40 && sizeof(struct trace_frame) == 32 &&
	       sizeof(struct analysis_part) == 40 && sizeof(struct analysis_stats) == 128 &&
	       sizeof(struct analysis_verify) == 64 && sizeof(struct trace_pe) == 304 &&
	       sizeof(struct iter_run) == 8 && sizeof(struct lop_big) == 16 &&
	       sizeof(struct lop_far) == 8 &&
	       sizeof(struct trace_idle) == 16 && sizeof(struct trace_chare) == 44 &&
	       sizeof(struct trace_entry) == 16 && sizeof(struct trace_win) == 12 &&
	       sizeof(struct trace_rma) == 56 && sizeof(struct trace_epoch) == 40 &&
	       sizeof(struct analysis_wait) == 24 && sizeof(struct analysis_delay) == 24 &&
	       sizeof(struct analysis_outlier) == 24 && sizeof(struct analysis_problem) == 24,
	       "doc/format.md: a saved record changed size");

enum sec {
	S_META = 1, S_STRINGS, S_PATH, S_CREATOR, S_PHASES, S_ITER_REGION,
	S_TIMELINES = 16, S_LOCATIONS, S_REGIONS, S_COMMS, S_COMM_MEMBERS, S_NODES, S_OPS,
	S_ENDS, S_MSGS, S_COLLS, S_COLL_MEMBERS, S_FRAMES, S_PES, S_IDLES, S_CHARES, S_ENTRIES,
	S_OP_PE, S_CALLS, S_WINS, S_RMAS, S_EPOCHS, S_LANES, S_LANE_FRAMES, S_LANE_BYTES, S_HOLDS, S_TAGS,
	S_COLL_SENT,
	S_LOP_OP = 48, S_OP_LOP, S_TL_LOP, S_LOP_TL, S_LOP_KIND, S_LOP_PART, S_PARTS,
	S_PART_LOP_FIRST, S_PART_LOPS, S_DAG_FIRST, S_DAG_SUCC, S_PART_ORDER, S_LOP_PHASE,
	S_LOP_PHASE_REGION, S_LOP_STEP, S_PMIN, S_PMIN_FIRST, S_GMIN, S_CAUSE, S_DIFF, S_HOT,
	S_HOT_ALL, S_ITER_STARTS = 71, S_ITER_RUNS, S_OP_OF_LOP, S_OP_LAST_OF_LOP,
	S_IDLE_EXP, S_DUR_DIFF, S_IMBALANCE, S_PART_IMBALANCE, S_PART_REGION,
	S_DIFF_BIG, S_CAUSE_FAR, S_WAITS, S_DELAYS, S_OUTLIERS, S_PROBLEMS,
	S_END
};


/* Sections a file may leave out when empty (the lanes: a file from
 * before them has none) and that are written only when they hold
 * something, so that a file without them is the same file as before. */
static inline int
saved_optional(uint32_t id)
{
	return id == S_LANES || id == S_LANE_FRAMES || id == S_LANE_BYTES || id == S_HOLDS || id == S_TAGS ||
	       id == S_COLL_SENT;
}

struct array {
	enum sec id;
	uint32_t elem;
	void **ptr;              /* where the array pointer lives */
	uint64_t count;          /* elements (writing), expected (reading; see below) */
};

/* Which optional arrays an analysis has (the meta section says). */
struct has {
	int phases, op_of_lop, op_last_of_lop, charm_metrics, explain;
};

#define MAX_ARRAYS 64

/* Checksums by blocks of SUM_BLOCK bytes (doc/format.md): 64-bit words
 * mixed by multiplication on four independent lanes (so that a core sums
 * several gigabytes a second), the tail bytes and the length folded in.
 * A block's sum is saved_sum_lanes, saved_sum_stride over each 32 bytes,
 * then saved_sum_end over the rest: saved_check.c folds its checks into
 * the same loop. */
#define SUM_BLOCK (1u << 20)

static inline uint64_t
saved_mix(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 31);
}

static inline void
saved_sum_lanes(uint64_t h[4], size_t n)
{
	h[0] = 0x736b65696e736176ull ^ n;
	h[1] = 0x6d6f64656c616e61ull;
	h[2] = 0x6c79736973736176ull;
	h[3] = 0x6564736563746e73ull;
}

static inline void
saved_sum_stride(uint64_t h[4], const unsigned char *p)
{
	for (int k = 0; k < 4; k++) {
		uint64_t w;
		memcpy(&w, p + 8 * k, 8);
		h[k] = saved_mix(h[k], w);
	}
}

/* The last rest (< 32) bytes at p, and the lanes together. */
static inline uint64_t
saved_sum_end(uint64_t h[4], const unsigned char *p, size_t rest)
{
	uint64_t tail[4] = { 0 };
	if (rest)
		memcpy(tail, p, rest);
	for (int k = 0; k < 4; k++)
		h[k] = saved_mix(h[k], tail[k]);
	return saved_mix(saved_mix(saved_mix(h[0], h[1]), h[2]), h[3]);
}

uint64_t saved_block_sum(const unsigned char *b, size_t n);
uint64_t saved_combine(uint64_t acc, uint64_t block);
/* a sum over n bytes starts here, then takes each block in turn */
uint64_t saved_sum_start(uint64_t n);
uint64_t saved_checksum(const void *p, size_t n);
/* Sections whose records have padding (written as zeros): whether
 * section id has any, and zeroing it in buf, which holds bytes [off, off
 * + k) of such a section of elem-byte records (saved_write.c). */
int saved_has_padding(uint32_t id);
void saved_zero_padding(uint32_t id, uint32_t elem, unsigned char *buf, uint64_t off, size_t k);

/* The meta section of analysis a run with options ran (saved_write.c;
 * a distributed analysis gives an analysis holding its scalars). */
void saved_fill_meta(struct meta *m, const struct analysis *a, const struct analysis_opts *ran);

/* Which optional arrays a has; the arrays of t and a, with their
 * counts as they are in memory. */
struct has saved_has_of(const struct analysis *a);
uint32_t saved_arrays(struct trace *t, struct analysis *a, struct has h, struct array *out);
/* The trace's identity: its anchor's (or .sts') size and modification
 * time, and its definitions' (or logs'). */
void saved_stat_identity(const char *anchor, uint64_t *asz, uint64_t *amt, uint64_t *dsz, uint64_t *dmt);

/* Opening a file (saved.c), and checking every index in it
 * (saved_check.c). Sections are summed and checked in blocks of
 * SUM_BLOCK bytes, dealt to the workers in turn: each block's records
 * (those starting in it) are checked while the block is in the cache. */
struct block_ref {
	uint32_t id;
	uint64_t off;            /* within the section */
	uint64_t sum;            /* the block's checksum */
	uint64_t bad;            /* the first record starting in it found wrong, or UINT64_MAX */
	uint32_t n_big, n_far;   /* its DIFF_BIG differential latenesses, its far causes */
};

struct opener {
	const unsigned char *base;
	size_t len;
	const char *name;
	struct err *e;
	const struct section *sec[S_END];
	struct block_ref *blocks;
	size_t n_blocks;
	/* the model and the analysis mapped, once their sections have the
	 * counts the meta section and each other give (NULL before, or when
	 * they do not: then the blocks are summed only) */
	const struct trace *t;
	const struct analysis *a;
};

/* The sum of block b of k bytes (b->sum), and with o->t and o->a set the
 * records of its section starting in it checked against what they index
 * (b->bad, n_big, n_far); the largest sections in the loop that sums. */
void saved_sum_check(const struct opener *o, struct block_ref *b, uint64_t k);
/* What the blocks cannot check alone, once every block passed: the ends
 * of the index arrays, orders and permutations, the lists of large
 * differential lateness and far causes against their counts, the
 * iterations, the options; 0 or ERR_FORMAT naming the section. */
int saved_check_rest(struct opener *o, uint32_t n_big, uint32_t n_far);
/* "lop -> partition": section id as doc/format.md names it. */
const char *saved_section_name(uint32_t id);

#endif
