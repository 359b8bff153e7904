/* info_charm.c — `skein info` for a Charm++ run: the same report as for
 * MPI (summary.h's counts), with chares for ranks and the PEs' records
 * and idle time. The JSON keeps the MPI schema's keys where they mean the
 * same and adds "paradigm", "pes" and per-timeline chare fields. */
#include "info.h"

#include <inttypes.h>

#include "base/json.h"
#include "base/text.h"
#include "model/charm.h"
#include "report_util.h"
#include "summary.h"

struct charm_counts {
	uint64_t kinds[CHARE_KIND_COUNT];
	uint64_t records[CREC_COUNT];
	uint64_t idle, idle_intervals;
	uint64_t broadcast, rerouted, runtime_msgs;
	uint64_t entries_app, entries_runtime;
};

static void
count(const struct trace *t, struct charm_counts *c)
{
	uint32_t n_ch, n_pes, n_idles, n_msgs, n_en;
	const struct trace_chare *ch = trace_chares(t, &n_ch);
	const struct trace_pe *pes = trace_pes(t, &n_pes);
	const struct trace_idle *idles = trace_idles(t, &n_idles);
	const struct trace_msg *msgs = trace_msgs(t, &n_msgs);
	const struct trace_entry *en = trace_entries(t, &n_en);
	for (uint32_t i = 0; i < n_ch; i++)
		c->kinds[ch[i].kind]++;
	for (uint32_t p = 0; p < n_pes; p++)
		for (int k = 0; k < CREC_COUNT; k++)
			c->records[k] += pes[p].records[k];
	for (uint32_t i = 0; i < n_idles; i++)
		c->idle += idles[i].t_end - idles[i].t_begin;
	c->idle_intervals = n_idles;
	for (uint32_t m = 0; m < n_msgs; m++) {
		c->broadcast += (msgs[m].flags & MSGF_BROADCAST) != 0;
		c->rerouted += (msgs[m].flags & MSGF_REROUTED) != 0;
		c->runtime_msgs += (msgs[m].flags & MSGF_RUNTIME) != 0;
	}
	for (uint32_t i = 0; i < n_en; i++) {
		c->entries_runtime += en[i].runtime != 0;
		c->entries_app += en[i].runtime == 0;
	}
}

static uint64_t
pe_idle(const struct trace *t, uint32_t pe)
{
	const struct trace_pe *p = &trace_pes(t, NULL)[pe];
	const struct trace_idle *idles = trace_idles(t, NULL);
	uint64_t s = 0;
	for (uint32_t i = p->idle_first; i < p->idle_first + p->idle_count; i++)
		s += idles[i].t_end - idles[i].t_begin;
	return s;
}

static const char *crec_name(int k) { return trace_crec_name((enum trace_crec)k); }
static const char *kind_name(int k) { return trace_chare_kind_name((enum trace_chare_kind)k); }
static const char *op_name(int k) { return trace_op_kind_name((enum trace_op_kind)k); }

static void
write_text(const struct trace *t, const struct summary *s, const struct charm_counts *c,
	   FILE *out, int per_rank)
{
	const struct trace_info *info = trace_info(t);
	uint32_t n_pes;
	const struct trace_pe *pes = trace_pes(t, &n_pes);
	char safe[256];
	fprintf(out, "trace         %s\n", text_safe(info->path, safe, sizeof safe));
	fprintf(out, "creator       %s (Projections format %u.%u)\n",
		text_safe(info->creator ? info->creator : "?", safe, sizeof safe), info->version[0],
		info->version[1]);
	fprintf(out, "time span     %.6f s (resolution 1 us)\n",
		trace_seconds(t, info->t_end - info->t_begin));
	fprintf(out, "timelines     %u chares:", s->n_timelines);
	summary_list_counts(out, c->kinds, CHARE_KIND_COUNT, kind_name);
	fprintf(out, "PEs           %u, idle %.6f s in %" PRIu64 " intervals\n", n_pes,
		trace_seconds(t, c->idle), c->idle_intervals);
	fprintf(out, "entry methods %" PRIu64 ": application %" PRIu64 ", runtime %" PRIu64 "\n",
		c->entries_app + c->entries_runtime, c->entries_app, c->entries_runtime);
	fprintf(out, "records       %" PRIu64 ":", info->events);
	summary_list_counts(out, c->records, CREC_COUNT, crec_name);
	fprintf(out, "operations    %" PRIu64 ":", summary_sum(s->ops, OP_KIND_COUNT));
	summary_list_counts(out, s->ops, OP_KIND_COUNT, op_name);
	fprintf(out, "messages      %" PRIu64 " (%" PRIu64 " matched, %" PRIu64
		" sends unmatched, %" PRIu64 " receives unmatched; %" PRIu64 " broadcast, %" PRIu64
		" runtime, %" PRIu64 " rerouted), %" PRIu64 " bytes\n", s->msgs, s->msgs_matched,
		s->msgs_unmatched_send, s->msgs_unmatched_recv, c->broadcast, c->runtime_msgs,
		c->rerouted, s->msg_bytes);
	for (int w = 0; w < WARN_COUNT; w++)
		if (info->warnings[w])
			fprintf(out, "warning       %" PRIu64 " %s\n", info->warnings[w],
				trace_warning_count_text(t, (enum trace_warning)w, info->warnings[w]));
	if (!per_rank)
		return;
	fprintf(out, "\n%-4s %10s %10s %8s %12s\n", "PE", "records", "ops", "idles", "idle");
	for (uint32_t p = 0; p < n_pes; p++)
		fprintf(out, "%-4u %10" PRIu64 " %10u %8u %10.6f s\n", p, summary_sum(pes[p].records, CREC_COUNT),
			pes[p].ops, pes[p].idle_count, trace_seconds(t, pe_idle(t, p)));
	const struct trace_chare *ch = trace_chares(t, NULL);
	char label[96];
	/* the names' column as wide as the longest needs, 24 to 40 */
	int cw = 24;
	for (uint32_t i = 0; i < s->n_timelines; i++)
		cw = report_col_grow(cw, trace_chare_label(t, i, label, sizeof label), 40);
	fprintf(out, "\n%-6s %s %-8s %5s %8s %8s %8s\n", "chare", text_safe_pad("name", cw, safe, sizeof safe),
		"kind", "PE", "ops", "sent", "recv");
	for (uint32_t i = 0; i < s->n_timelines; i++) {
		const struct summary_timeline *st = &s->timelines[i];
		fprintf(out, "%-6u %s %-8s %5u %8" PRIu64 " %8" PRIu64 " %8" PRIu64 "\n", i,
			text_fit(trace_chare_label(t, i, label, sizeof label), cw, safe, sizeof safe),
			trace_chare_kind_name((enum trace_chare_kind)ch[i].kind), ch[i].pe,
			summary_sum(st->ops, OP_KIND_COUNT), st->sent, st->received);
	}
}

static void
write_json(const struct trace *t, const struct summary *s, const struct charm_counts *c, FILE *out)
{
	const struct trace_info *info = trace_info(t);
	uint32_t n_pes;
	const struct trace_pe *pes = trace_pes(t, &n_pes);
	const struct trace_chare *ch = trace_chares(t, NULL);
	const struct trace_timeline *tls = trace_timelines(t, NULL);
	struct json j;
	json_init(&j, out, 1);
	json_begin_object(&j);
	json_key(&j, "trace"); json_string(&j, info->path);
	json_key(&j, "paradigm"); json_string(&j, trace_info_paradigm_name(PARADIGM_CHARM));
	json_key(&j, "creator"); json_string(&j, info->creator);
	json_key(&j, "format_version");
	json_begin_array(&j);
	json_uint(&j, info->version[0]);
	json_uint(&j, info->version[1]);
	json_end_array(&j);
	json_key(&j, "ticks_per_second"); json_uint(&j, info->ticks_per_second);
	json_key(&j, "time_begin_s"); json_double(&j, trace_seconds(t, info->t_begin));
	json_key(&j, "time_end_s"); json_double(&j, trace_seconds(t, info->t_end));
	json_key(&j, "events"); json_uint(&j, info->events);
	summary_json_counts(&j, "records", c->records, CREC_COUNT, crec_name);
	json_key(&j, "entries");
	json_begin_object(&j);
	json_key(&j, "application"); json_uint(&j, c->entries_app);
	json_key(&j, "runtime"); json_uint(&j, c->entries_runtime);
	json_end_object(&j);
	summary_json_counts(&j, "chares", c->kinds, CHARE_KIND_COUNT, kind_name);
	summary_json_counts(&j, "operations", s->ops, OP_KIND_COUNT, op_name);
	json_key(&j, "messages");
	json_begin_object(&j);
	summary_json_message_counts(&j, s);
	json_key(&j, "broadcast"); json_uint(&j, c->broadcast);
	json_key(&j, "runtime"); json_uint(&j, c->runtime_msgs);
	json_key(&j, "rerouted"); json_uint(&j, c->rerouted);
	json_key(&j, "bytes"); json_uint(&j, s->msg_bytes);
	json_end_object(&j);
	json_key(&j, "idle_s"); json_double(&j, trace_seconds(t, c->idle));
	summary_json_warnings(&j, info);
	json_key(&j, "pes");
	json_begin_array(&j);
	for (uint32_t p = 0; p < n_pes; p++) {
		json_begin_object(&j);
		json_key(&j, "pe"); json_uint(&j, p);
		json_key(&j, "time_begin_s"); json_double(&j, trace_seconds(t, pes[p].t_begin));
		json_key(&j, "time_end_s"); json_double(&j, trace_seconds(t, pes[p].t_end));
		summary_json_counts(&j, "records", pes[p].records, CREC_COUNT, crec_name);
		json_key(&j, "operations"); json_uint(&j, pes[p].ops);
		json_key(&j, "idle_intervals"); json_uint(&j, pes[p].idle_count);
		json_key(&j, "idle_s"); json_double(&j, trace_seconds(t, pe_idle(t, p)));
		json_end_object(&j);
	}
	json_end_array(&j);
	json_key(&j, "timelines");
	json_begin_array(&j);
	for (uint32_t i = 0; i < s->n_timelines; i++) {
		const struct summary_timeline *st = &s->timelines[i];
		json_begin_object(&j);
		json_key(&j, "rank"); json_uint(&j, i);
		json_key(&j, "name"); json_string(&j, trace_str(t, tls[i].name));
		json_key(&j, "chare"); json_string(&j, trace_str(t, ch[i].type));
		json_key(&j, "kind"); json_string(&j, trace_chare_kind_name((enum trace_chare_kind)ch[i].kind));
		json_key(&j, "index");
		json_begin_array(&j);
		for (uint32_t d = 0; d < ch[i].ndims; d++)
			json_int(&j, ch[i].index[d]);
		json_end_array(&j);
		json_key(&j, "pe"); json_uint(&j, ch[i].pe);
		json_key(&j, "pes"); json_uint(&j, ch[i].pes);
		summary_json_counts(&j, "operations", st->ops, OP_KIND_COUNT, op_name);
		json_key(&j, "sent"); json_uint(&j, st->sent);
		json_key(&j, "received"); json_uint(&j, st->received);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_end_object(&j);
	json_finish(&j);
}

int
info_write_charm(const struct trace *t, const struct summary *s, FILE *out, enum info_format fmt,
		 int per_rank)
{
	struct charm_counts c = { 0 };
	count(t, &c);
	if (fmt == INFO_JSON)
		write_json(t, s, &c, out);
	else
		write_text(t, s, &c, out, per_rank);
	return 0;
}
