/* summary.h — what is in a trace, counted once for every report.
 *
 * summary_compute() walks the model and counts operations, messages and
 * collectives per kind; report writers (info.c) and tests use the same
 * numbers, so what `skein info` prints is what the tests assert.
 */
#ifndef SKEIN_SUMMARY_H
#define SKEIN_SUMMARY_H

#include <stdint.h>
#include <stdio.h>

#include "model/trace.h"

struct summary_timeline {
	uint64_t ops[OP_KIND_COUNT];
	uint64_t sent, received;       /* messages */
	uint64_t colls;                /* collective memberships */
};

struct summary {
	uint64_t ops[OP_KIND_COUNT];
	uint64_t msgs, msgs_matched, msgs_unmatched_send, msgs_unmatched_recv;
	uint64_t msg_bytes;
	uint64_t colls[COLL_TYPE_COUNT];
	uint64_t colls_total, colls_incomplete;
	uint64_t regions[ROLE_COUNT];
	uint64_t locations[LOC_OTHER + 1];   /* locations neither rank nor lane, by type */
	uint64_t lanes[LANE_GPU + 1];        /* lanes by kind */
	uint64_t lane_frames;
	uint8_t *is_lane;                    /* per location */
	uint64_t warnings_total;
	uint32_t n_timelines;
	struct summary_timeline *timelines;  /* n_timelines entries */
};

/* Fills s (caller-owned) for t; free with summary_fini. Returns 0 or ERR_NOMEM. */
int summary_compute(const struct trace *t, struct summary *s);
void summary_fini(struct summary *s);

/* Text helpers shared by the info writers: " name n, name n ..." for
 * the nonzero counts (" none" if all are zero) and a newline; the sum of
 * n counts. */
void summary_list_counts(FILE *out, const uint64_t *v, int n, const char *(*name)(int));
uint64_t summary_sum(const uint64_t *v, int n);
/* "warning       N what" for each warning the trace's reading counted. */
void summary_warnings_text(FILE *out, const struct trace *t);

/* JSON helpers shared by the info writers: key: {name: n, ...} for the
 * nonzero counts; "warnings": {name: n, ...}. */
struct json;
void summary_json_counts(struct json *j, const char *key, const uint64_t *v, int n,
			 const char *(*name)(int));
void summary_json_warnings(struct json *j, const struct trace_info *info);
/* "total", "matched", "unmatched_sends", "unmatched_receives" of the
 * messages, into the JSON object the caller has open. */
void summary_json_message_counts(struct json *j, const struct summary *s);

#endif
