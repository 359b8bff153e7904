#include "summary.h"

#include <inttypes.h>

#include "base/json.h"
#include "base/sat.h"
#include "base/text.h"
#include "model/charm.h"

#include <stdlib.h>
#include <string.h>

int
summary_compute(const struct trace *t, struct summary *s)
{
	memset(s, 0, sizeof *s);
	uint32_t n_tl, n_ops, n_msgs, n_colls, n_regions, n_locs;
	const struct trace_timeline *tls = trace_timelines(t, &n_tl);
	struct trace_opv ops = trace_ops(t, &n_ops);
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
		struct trace_op o = trace_op_get(&ops, i);
		s->ops[o.kind]++;
		s->timelines[o.timeline].ops[o.kind]++;
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
			s->timelines[trace_op_get(&ops, members[colls[i].member_first + k]).timeline].colls++;
	}
	for (uint32_t i = 0; i < n_regions; i++)
		s->regions[regions[i].role]++;
	uint32_t n_lanes;
	const struct trace_lane *lanes = trace_lanes(t, &n_lanes);
	if (!(s->is_lane = calloc(n_locs ? n_locs : 1, 1))) {
		summary_fini(s);
		return ERR_NOMEM;
	}
	for (uint32_t i = 0; i < n_lanes; i++) {
		s->is_lane[lanes[i].location] = 1;
		s->lanes[lanes[i].kind]++;
		s->lane_frames += lanes[i].frame_count;
	}
	for (uint32_t i = 0; i < n_locs; i++)
		if (locs[i].timeline == TRACE_NONE && !s->is_lane[i])
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
	free(s->is_lane);
	s->is_lane = NULL;
}

void
summary_list_counts(FILE *out, const uint64_t *v, int n, const char *(*name)(int))
{
	int any = 0;
	for (int i = 0; i < n; i++) {
		if (!v[i])
			continue;
		fprintf(out, "%s %s %" PRIu64, any ? "," : "", name(i), v[i]);
		any = 1;
	}
	fprintf(out, "%s\n", any ? "" : " none");
}

uint64_t
summary_sum(const uint64_t *v, int n)
{
	uint64_t s = 0;
	for (int i = 0; i < n; i++)
		s += v[i];
	return s;
}

void
summary_json_counts(struct json *j, const char *key, const uint64_t *v, int n, const char *(*name)(int))
{
	json_key(j, key);
	json_begin_object(j);
	for (int i = 0; i < n; i++) {
		if (!v[i])
			continue;
		json_key(j, name(i));
		json_uint(j, v[i]);
	}
	json_end_object(j);
}

void
summary_warnings_text(FILE *out, const struct trace *t)
{
	const struct trace_info *info = trace_info(t);
	char b[256];
	for (int w = 0; w < WARN_COUNT; w++)
		if (info->warnings[w])
			fprintf(out, "warning       %" PRIu64 " %s%s%s\n", info->warnings[w],
				trace_warning_count_text(t, (enum trace_warning)w, info->warnings[w]),
				w == WARN_NO_LOCAL_DEFS && info->no_local_defs ? ", e.g. " : "",
				w == WARN_NO_LOCAL_DEFS && info->no_local_defs
				? text_safe(trace_str(t, info->no_local_defs), b, sizeof b) : "");
}

void
summary_json_warnings(struct json *j, const struct trace_info *info)
{
	json_key(j, "warnings");
	json_begin_object(j);
	for (int w = 0; w < WARN_COUNT; w++) {
		if (!info->warnings[w])
			continue;
		json_key(j, trace_warning_name((enum trace_warning)w));
		json_uint(j, info->warnings[w]);
	}
	json_end_object(j);
}

void
summary_json_message_counts(struct json *j, const struct summary *s)
{
	json_key(j, "total"); json_uint(j, s->msgs);
	json_key(j, "matched"); json_uint(j, s->msgs_matched);
	json_key(j, "unmatched_sends"); json_uint(j, s->msgs_unmatched_send);
	json_key(j, "unmatched_receives"); json_uint(j, s->msgs_unmatched_recv);
}
