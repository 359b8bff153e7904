/* view_rma.h — a rank's one-sided records found by time and by call,
 * for an operation's details, without walking the rank's every record
 * (NWChem's ranks issue 312,000 one-sided operations each: the walks
 * took 4-10 ms a redraw).
 *
 *   view_rma_create → view_rma_issued | view_rma_completed |
 *   view_rma_next_epoch … → view_rma_destroy
 *
 * The answers are indices into trace_rmas and trace_epochs; they live
 * as long as the trace.
 */
#ifndef SKEIN_VIEW_RMA_H
#define SKEIN_VIEW_RMA_H

#include <stdint.h>

#include "model/trace.h"

struct view_rma;

/* Indexes t's one-sided records (O(records)); t is borrowed and must
 * outlive the index. Returns 0 or ERR_NOMEM. */
int view_rma_create(const struct trace *t, struct view_rma **out);
void view_rma_destroy(struct view_rma *vr);

/* The operations timeline tl issued at times in [t0, t1]: indices
 * [*first, *first + return) of trace_rmas, by a binary search (a
 * timeline's are in the order issued). */
uint32_t view_rma_issued(const struct view_rma *vr, uint32_t tl, uint64_t t0, uint64_t t1, uint32_t *first);

/* The operations the calls [op0, op1) completed, in the order of the
 * completing call: *ids (borrowed) holds return indices of trace_rmas. */
uint32_t view_rma_completed(const struct view_rma *vr, uint32_t op0, uint32_t op1, const uint32_t **ids);

/* The next passive-target epoch of timeline tl after index `after`
 * (TRACE_NONE: from the first) that covers [t0, t1] (it began by t1 and
 * ended at t0 or later), in the order they began; TRACE_NONE when none
 * is left. Epochs that ended long before are skipped 64 at a time. */
uint32_t view_rma_next_epoch(const struct view_rma *vr, uint32_t tl, uint64_t t0, uint64_t t1, uint32_t after);

#endif
