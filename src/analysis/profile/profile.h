/* profile.h — where the time goes and who talks to whom, over any set of
 * ranks and any window of time (DESIGN.md §9; doc/profile.md).
 *
 * Both are computed from the model alone (the frames, the ops, the quiet
 * calls and the messages: trace.h), so a saved analysis answers them as
 * the trace does, and a view restricted to a window or to some ranks
 * never copies the model. Each call computes afresh; the results are the
 * caller's to free.
 *
 *   scope (all, or ranks and a window) → profile_compute / comm_compute
 *   → read the arrays → profile_free / comm_free
 */
#ifndef SKEIN_PROFILE_H
#define SKEIN_PROFILE_H

#include <stdint.h>

#include "base/err.h"
#include "model/trace.h"

/* What a profile or a communication summary covers. */
struct profile_scope {
	const uint8_t *ranks;      /* per timeline, nonzero: kept; NULL: every timeline */
	uint64_t from, to;         /* ticks, [from, to); 0 and UINT64_MAX: the whole trace */
	/* per timeline windows instead of [from, to) (the steps in view, a
	 * partition, an iteration: each rank's span of them); NULL: none */
	const uint64_t *tl_from, *tl_to;
	/* per timeline lists of spans instead (the critical path's stretches
	 * on each timeline): span_lo[k], span_hi[k] for k in [span_first[tl],
	 * span_first[tl + 1]), disjoint and in time order; only time inside
	 * them counts, and an instance is a call when some of its time does.
	 * NULL: none */
	const uint32_t *span_first;
	const uint64_t *span_lo, *span_hi;
	/* with spans: each span's weight (the time inside it counts that
	 * many times: the critical path's blame, a delay's cost spread over
	 * its time); gaps in measurement then count too. NULL: 1 */
	const double *span_w;
	int by_pe;                 /* Charm++: per-rank rows are PEs, not chares */
	/* a rank's threads and GPU streams (trace.h's lanes) count with it:
	 * their regions' time adds to its rows and their time to the total
	 * (as Scalasca sums a process's threads). profile_scope_all sets it;
	 * ignored with spans (the critical path's own: each lane has its). */
	int lanes;
};

/* The whole trace, every timeline. */
void profile_scope_all(struct profile_scope *s);

/* One region over the scope. Times are ticks; exclusive time is the
 * inclusive time less the regions entered inside it (nesting as the
 * trace has it), both without the spans where measurement was off. */
struct profile_region {
	uint32_t region;
	uint32_t ranks;            /* timelines (PEs) that entered it */
	uint32_t max_rank;         /* the timeline (PE) with the most exclusive time */
	uint32_t largest_tl;       /* its longest instance: timeline, enter, length */
	uint64_t largest_enter, largest;
	uint64_t calls;
	uint64_t incl, excl;       /* summed over the scope's timelines */
	uint64_t excl_min, excl_max;   /* per timeline (PE) in scope, 0 for one that never entered it */
	double excl_mean;
	/* the one-sided operations its calls issued in scope (as comm counts
	 * them, by origin), and their bytes put and got */
	uint64_t rma_ops, rma_bytes;
};

/* One region on one timeline (or PE). */
struct profile_row {
	uint32_t rank, region;     /* rank: timeline, or PE (by_pe) */
	uint64_t calls, incl, excl;
	uint64_t largest, largest_enter;
};

struct profile {
	struct profile_region *regions;   /* by exclusive time, largest first */
	uint32_t n_regions;
	struct profile_row *rows;         /* by rank, then region id */
	uint32_t n_rows;
	uint32_t n_ranks;          /* timelines (PEs) in scope: the mean's divisor */
	uint64_t total;            /* the scope's time summed over its timelines (PEs) */
	int by_pe;                 /* rows, ranks and totals are PEs' (Charm++, by_pe) */
	uint64_t from, to;         /* the window, within the trace's span */
	/* the trace's regions closed out of order, left open, and its leaves
	 * of regions not open (dropped), on its ranks and lanes */
	uint64_t misnested, unclosed, stray;
};

/* Computes the flat profile of t over s (NULL: all). Returns 0 or
 * ERR_NOMEM (e set); *out is the caller's (profile_free). */
int profile_compute(const struct trace *t, const struct profile_scope *s, struct profile *out,
		    struct err *e);
void profile_free(struct profile *p);

/* imbalance: max / mean of the exclusive time (1 when even, 0 for none) */
double profile_imbalance(const struct profile_region *r);

/* ---- communication (comm.c) ---- */

/* One sender -> receiver pair (world ranks; timelines for Charm++). */
struct comm_pair {
	uint32_t sender, receiver;
	uint64_t messages, bytes;
	uint64_t transfer;         /* ticks from send to receive, summed (messages with both ends) */
};

/* One type of collective. */
struct comm_coll {
	uint8_t type;              /* enum trace_coll_type */
	uint64_t count;            /* invocations with a member counted */
	uint64_t bytes;            /* sent by the members counted */
	uint64_t time;             /* their calls in the window, summed, ticks */
};

/* One origin -> target pair of one-sided operations (world ranks): the
 * operations of each kind, the bytes they put (origin to target: puts,
 * atomics' operands) and got (target to origin: gets, fetching atomics'
 * results). */
struct comm_rma_pair {
	uint32_t origin, target;
	uint64_t ops[RMA_KIND_COUNT];
	uint64_t bytes_put, bytes_got;
};

#define COMM_SIZE_BINS 48          /* message sizes: bin k holds [2^(k-1), 2^k) bytes, bin 0 holds 0 */
#define COMM_TIME_BINS 64

/* A rank's copies between host and device (its GPU streams' copies, its
 * RMA operations to a target that is no rank: an offload's): how many,
 * and the bytes each way. */
struct comm_device {
	uint64_t ops, to_device, to_host;
};

struct comm {
	struct comm_pair *pairs;   /* by sender, then receiver */
	uint32_t n_pairs;
	uint64_t messages, bytes;
	uint64_t max_messages, max_bytes;   /* of one pair */
	uint64_t size_bins[COMM_SIZE_BINS];
	uint64_t time_bytes[COMM_TIME_BINS];   /* bytes sent in each slice of [from, to) */
	uint64_t time_msgs[COMM_TIME_BINS];
	struct comm_coll colls[COLL_TYPE_COUNT];       /* MPI's, blocking or not */
	uint64_t from, to;
	/* one-sided communication, apart from the messages: RMA operations
	 * by origin and target, their totals (those to a target that is no
	 * rank, and the copies on a rank's GPU streams, Score-P's device
	 * copies, in device_*), and the windows' collectives (fence:
	 * barrier; create, free) */
	struct comm_rma_pair *rma_pairs;    /* by origin, then target */
	uint32_t n_rma_pairs;
	uint64_t rma_ops[RMA_KIND_COUNT], rma_bytes_put, rma_bytes_got;
	uint64_t device_ops, device_bytes;
	struct comm_device *device;         /* per rank, NULL when none */
	uint32_t n_device;                  /* the ranks, when device */
	struct comm_coll win_colls[COLL_TYPE_COUNT];
};

/* Who sent how much to whom in scope s (NULL: all): a message counts
 * when its sender and receiver are both kept and it was sent in the
 * window (received in it, when its send is missing); an RMA operation
 * when its origin and target are kept (its origin, for a device's) and
 * it was issued in the window (its origin's); a collective member's call
 * as the profile counts a call (kept, overlapping the window, its time
 * clipped), with the bytes it sent. Returns 0 or ERR_NOMEM (e set). */
int comm_compute(const struct trace *t, const struct profile_scope *s, struct comm *out,
		 struct err *e);
void comm_free(struct comm *c);

/* The matrix in blocks (the comm pane and the text report draw it):
 * senders from s0, s_per per row, receivers from r0, r_per per column,
 * rows x cols cells into cells (zeroed here), each the sum of its pairs'
 * bytes (by_bytes) or messages. */
void comm_blocks(const struct comm *c, uint32_t s0, uint32_t s_per, uint32_t r0, uint32_t r_per,
		 uint32_t rows, uint32_t cols, int by_bytes, uint64_t *cells);

/* A block's device copies: ranks [r0, r0 + per) summed (ops and bytes
 * each way; zeros without any). */
struct comm_device comm_device_block(const struct comm *c, uint32_t r0, uint32_t per);

/* The same for the one-sided operations: each cell the bytes its pairs
 * put and got (by_bytes) or their operations. */
void comm_rma_blocks(const struct comm *c, uint32_t s0, uint32_t s_per, uint32_t r0, uint32_t r_per,
		     uint32_t rows, uint32_t cols, int by_bytes, uint64_t *cells);

/* The messages in scope from senders [s0, s1) to receivers [r0, r1),
 * in id order (a sender's in send order): message ids into *ids
 * (malloc'd, the caller frees), their count in *n. 0 or ERR_NOMEM. */
int comm_block_msgs(const struct trace *t, const struct profile_scope *s, uint32_t s0, uint32_t s1,
		    uint32_t r0, uint32_t r1, uint32_t **ids, uint32_t *n);

/* ---- scopes from text (scope.c) ---- */

/* A rank set: "0-15,32", "node:NAME" (glob), "comm:NAME" (a
 * communicator's members), "all"; sets kept[tl] (n_timelines bytes,
 * zeroed here). Returns 0, or ERR_USAGE with what is wrong in e. */
int profile_parse_ranks(const struct trace *t, const char *spec, uint8_t *kept, struct err *e);
/* A time from the trace's start: seconds ("1.5", "1.5s"), or with a
 * unit (ms, us, ns, min); into ticks. 0 or ERR_USAGE. */
int profile_parse_time(const struct trace *t, const char *s, uint64_t *ticks, struct err *e);
/* --from and --to (either NULL: *from or *to as it is): a window that
 * begins within the trace and ends after it begins. 0 or ERR_USAGE. */
int profile_parse_window(const struct trace *t, const char *from, const char *to, uint64_t *a, uint64_t *b,
			 struct err *e);

#endif
