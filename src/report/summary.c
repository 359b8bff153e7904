#include "summary.h"

#include "base/sat.h"

#include <stdlib.h>
#include <string.h>

int
summary_compute(const struct trace *t, struct summary *s)
{
	memset(s, 0, sizeof *s);
	uint32_t n_tl, n_ops, n_msgs, n_colls, n_regions, n_locs;
	const struct trace_timeline *tls = trace_timelines(t, &n_tl);
	const struct trace_op *ops = trace_ops(t, &n_ops);
	const struct trace_msg *msgs = trace_msgs(t, &n_msgs);
	const struct trace_coll *colls = trace_colls(t, &n_colls);
	const struct trace_region *regions = trace_regions(t, &n_regions);
	const struct trace_location *locs = trace_locations(t, &n_locs);
	(void)tls;
	s->n_timelines = n_tl;
	s->timelines = calloc(n_tl ? n_tl : 1, sizeof *s->timelines);
	if (!s->timelines)
		return ERR_NOMEM;
	for (uint32_t i = 0; i < n_ops; i++) {
		s->ops[ops[i].kind]++;
		s->timelines[ops[i].timeline].ops[ops[i].kind]++;
	}
	for (uint32_t i = 0; i < n_msgs; i++) {
		const struct trace_msg *m = &msgs[i];
		s->msgs++;
		s->msg_bytes = sat_add(s->msg_bytes, m->bytes);
		if (m->send_op != TRACE_NONE && m->recv_op != TRACE_NONE)
			s->msgs_matched++;
		else if (m->recv_op == TRACE_NONE)
			s->msgs_unmatched_send++;
		else
			s->msgs_unmatched_recv++;
		if (m->send_op != TRACE_NONE)
			s->timelines[m->sender].sent++;
		if (m->recv_op != TRACE_NONE)
			s->timelines[m->receiver].received++;
	}
	const uint32_t *members = trace_coll_members(t);
	for (uint32_t i = 0; i < n_colls; i++) {
		s->colls[colls[i].type]++;
		s->colls_total++;
		s->colls_incomplete += colls[i].member_count != colls[i].expected;
		for (uint32_t k = 0; k < colls[i].member_count; k++)
			s->timelines[ops[members[colls[i].member_first + k]].timeline].colls++;
	}
	for (uint32_t i = 0; i < n_regions; i++)
		s->regions[regions[i].role]++;
	for (uint32_t i = 0; i < n_locs; i++)
		if (locs[i].timeline == TRACE_NONE)
			s->locations[locs[i].type]++;
	const struct trace_info *info = trace_info(t);
	for (int w = 0; w < WARN_COUNT; w++)
		s->warnings_total += info->warnings[w];
	return 0;
}

void
summary_fini(struct summary *s)
{
	free(s->timelines);
	s->timelines = NULL;
}
