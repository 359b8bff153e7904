/* dist_metrics_impl.h — what dist_metrics.c and dist_startup.c share. */
#ifndef SKEIN_DIST_METRICS_IMPL_H
#define SKEIN_DIST_METRICS_IMPL_H

#include "dist_metrics.h"

/* What a receive needs from its message's sender (metrics.c: struct
 * sent), worked out on the sender's rank. */
struct dsent {
	uint32_t msg;
	uint32_t sender;       /* global lop holding the send */
	uint32_t prog_lop;     /* the computation before the completing call, or TRACE_NONE */
	uint32_t self;         /* the receive is in the sender lop */
	uint64_t late, prog;   /* their lateness */
};

struct dmet {
	struct dcomm *c;
	const struct dmet_in *in;
	struct dmet_out *out;
	const struct dmodel *d;
	const struct analysis *a;
	uint32_t *tl_first;           /* size + 1: every rank's first timeline */
	uint32_t *op_first;           /* size + 1: every rank's first op (global) */
	uint64_t *late;               /* per local lop */
	struct dsent *sent;           /* the rank's receives' senders, by message */
	size_t n_sent;
	struct sort_kv *h, *h_all;
	uint32_t n_h, n_h_all;
};

/* The rank holding global op `op`. */
uint32_t dmet_rank_of_op(const struct dmet *g, uint32_t op);
/* The lop the cause byte's src names among receive lop l's ends
 * (metrics.c: src_lop), global. */
uint32_t dmet_src_lop(const struct dmet *g, uint32_t l, uint32_t src);

/* dist_startup.c: hotspots merged on rank 0 (and the counts summed),
 * start-up counts, start-up lateness followed. */
int dmet_hotspots(struct dmet *g);
int dmet_startups(struct dmet *g);
int dmet_trace_startup(struct dmet *g);

#endif
