/* info.c — `skein info` in text and JSON, both from struct summary. */
#include "info.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/fmt.h"
#include "base/json.h"
#include "base/sat.h"
#include "base/text.h"
#include "model/charm.h"
#include "report_util.h"
#include "summary.h"

static const char *op_name(int k) { return trace_op_kind_name((enum trace_op_kind)k); }
static const char *coll_name(int k) { return trace_coll_type_name((enum trace_coll_type)k); }
static const char *role_name(int k) { return trace_role_name((enum trace_role)k); }
static const char *rec_name(int k) { return trace_rec_name((enum trace_rec)k); }
static const char *loc_name(int k) { return trace_loc_type_name((enum trace_loc_type)k); }

/* A string on one line, as it may be shown: line breaks (a creator's build
 * details) become " / ", so each field keeps its line, and the rest goes
 * through text_safe; written into buf (n > 0 bytes, truncated if need be). */
static const char *
one_line(const char *s, char *buf, size_t n)
{
	char joined[1024];
	size_t o = 0;
	for (const char *p = s; *p && o + 4 < sizeof joined; p++) {
		if (*p == '\r' || *p == '\n') {
			while (p[1] == '\r' || p[1] == '\n')
				p++;
			if (p[1]) {
				memcpy(joined + o, " / ", 3);
				o += 3;
			}
		} else {
			joined[o++] = *p;
		}
	}
	joined[o] = '\0';
	const char *safe = text_safe(joined, buf, n);
	if (safe == joined) {       /* clean: copied whole characters into buf */
		o = o < n ? o : n - 1;
		while (o > 0 && ((unsigned char)joined[o] & 0xc0) == 0x80)
			o--;
		memcpy(buf, joined, o);
		buf[o] = '\0';
	}
	return buf;
}

/* One-sided communication and non-blocking collectives, counted from
 * the model (doc/model.md): said only for a trace that has them. */
struct onesided {
	uint64_t ops[RMA_KIND_COUNT], device, bytes_put, bytes_got, unfinished;
	uint64_t win_colls, nbc;
	uint32_t wins, epochs;
};

static void
onesided_of(const struct trace *t, struct onesided *o)
{
	uint32_t n, nc;
	const struct trace_rma *r = trace_rmas(t, &n);
	memset(o, 0, sizeof *o);
	for (uint32_t i = 0; i < n; i++) {
		o->ops[r[i].kind < RMA_KIND_COUNT ? r[i].kind : RMA_ATOMIC]++;
		o->device += r[i].target == TRACE_NONE;
		o->bytes_put += r[i].bytes_sent;
		o->bytes_got += r[i].bytes_recv;
		o->unfinished += r[i].done == RMA_DONE_NONE;
	}
	const struct trace_coll *c = trace_colls(t, &nc);
	for (uint32_t i = 0; i < nc; i++) {
		o->win_colls += (c[i].flags & COLLF_RMA) != 0;
		o->nbc += (c[i].flags & COLLF_NONBLOCKING) != 0;
	}
	trace_wins(t, &o->wins);
	trace_epochs(t, &o->epochs);
}

static void
onesided_text(const struct trace *t, FILE *out)
{
	struct onesided o;
	onesided_of(t, &o);
	char b1[32], b2[32];
	if (trace_has_rma(t))
		fprintf(out, "one-sided     %" PRIu64 " operations (%" PRIu64 " put, %" PRIu64 " get, %"
			PRIu64 " atomic; %" PRIu64 " to no rank, %" PRIu64 " never completed), %s put, "
			"%s got; %u windows, %" PRIu64 " window collectives, %u passive-target epochs\n",
			o.ops[RMA_PUT] + o.ops[RMA_GET] + o.ops[RMA_ATOMIC], o.ops[RMA_PUT], o.ops[RMA_GET],
			o.ops[RMA_ATOMIC], o.device, o.unfinished, fmt_bytes((double)o.bytes_put, b1, 32),
			fmt_bytes((double)o.bytes_got, b2, 32), o.wins, o.win_colls, o.epochs);
	if (o.nbc)
		fprintf(out, "note          %" PRIu64 " collectives were non-blocking or persistent: "
			"their members are the calls that completed them\n", o.nbc);
}

static void
onesided_json(const struct trace *t, struct json *j)
{
	struct onesided o;
	onesided_of(t, &o);
	if (o.nbc) {
		json_key(j, "nonblocking_collectives");
		json_uint(j, o.nbc);
	}
	if (!trace_has_rma(t))
		return;
	json_key(j, "one_sided");
	json_begin_object(j);
	for (int k = 0; k < RMA_KIND_COUNT; k++) {
		char key[16];
		snprintf(key, sizeof key, "%ss", trace_rma_kind_name((enum trace_rma_kind)k));
		json_key(j, key); json_uint(j, o.ops[k]);
	}
	json_key(j, "to_no_rank"); json_uint(j, o.device);
	json_key(j, "never_completed"); json_uint(j, o.unfinished);
	json_key(j, "bytes_put"); json_uint(j, o.bytes_put);
	json_key(j, "bytes_got"); json_uint(j, o.bytes_got);
	json_key(j, "windows"); json_uint(j, o.wins);
	json_key(j, "window_collectives"); json_uint(j, o.win_colls);
	json_key(j, "epochs"); json_uint(j, o.epochs);
	json_end_object(j);
}

static int
by_lock(const void *p, const void *q)
{
	uint64_t a = *(const uint64_t *)p, b = *(const uint64_t *)q;
	return a < b ? -1 : a > b;
}

/* The threads' locks: how many distinct (paradigm, lock id) pairs their
 * holds name; 0 without holds (or memory). */
static uint32_t
lock_ids(const struct trace *t)
{
	uint32_t n, ids = 0;
	const struct trace_hold *h = trace_holds(t, &n);
	uint64_t *k = n ? malloc(n * sizeof *k) : NULL;
	if (!k)
		return 0;
	for (uint32_t i = 0; i < n; i++)
		k[i] = (uint64_t)h[i].model << 32 | h[i].lock;
	qsort(k, n, sizeof *k, by_lock);
	for (uint32_t i = 0; i < n; i++)
		ids += !i || k[i] != k[i - 1];
	free(k);
	return ids;
}

/* The name of the node rank tl ran on, "-" when none is known. */
static const char *
rank_node(const struct trace *t, const struct trace_timeline *tl)
{
	return tl->node == TRACE_NONE ? "-" : trace_str(t, trace_nodes(t, NULL)[tl->node].name);
}

static void
write_text(const struct trace *t, const struct summary *s, FILE *out, int per_rank)
{
	const struct trace_info *info = trace_info(t);
	uint32_t n_nodes, n_regions;
	trace_nodes(t, &n_nodes);
	trace_regions(t, &n_regions);
	double span = trace_seconds(t, info->t_end - info->t_begin);
	/* every name comes from the archive: shown as text_put makes it safe */
	char b1[256], b2[256];
	fprintf(out, "trace         %s\n", text_safe(info->path, b1, sizeof b1));
	fprintf(out, "creator       %s (OTF2 %u.%u.%u)\n",
		one_line(info->creator ? info->creator : "?", b1, sizeof b1),
		info->version[0], info->version[1], info->version[2]);
	fprintf(out, "time span     %.6f s (resolution %.3g ns)\n", span,
		1e9 / (double)info->ticks_per_second);
	if (info->warnings[WARN_NO_MPI_RANKS] && s->n_timelines)
		fprintf(out, "timelines     %u process%s without MPI, each its first thread's\n",
			s->n_timelines, s->n_timelines == 1 ? "" : "es");
	else
		fprintf(out, "timelines     %u MPI ranks\n", s->n_timelines);
	if (s->lanes[LANE_THREAD] + s->lanes[LANE_GPU])
		fprintf(out, "lanes         %" PRIu64 " under their ranks (threads %" PRIu64
			", gpu streams %" PRIu64 "), %" PRIu64 " regions and copies\n",
			s->lanes[LANE_THREAD] + s->lanes[LANE_GPU], s->lanes[LANE_THREAD],
			s->lanes[LANE_GPU], s->lane_frames);
	uint32_t n_holds;
	trace_holds(t, &n_holds);
	if (n_holds) {
		uint32_t ids = lock_ids(t);
		fprintf(out, "locks         %u acquisition%s of %u lock%s by the threads\n", n_holds,
			n_holds == 1 ? "" : "s", ids, ids == 1 ? "" : "s");
	}
	uint64_t others = summary_sum(s->locations, LOC_OTHER + 1);
	fprintf(out, "other locs    %" PRIu64, others);
	if (others) {
		fputs(" (", out);
		int any = 0;
		for (int k = 0; k <= LOC_OTHER; k++)
			if (s->locations[k]) {
				fprintf(out, "%s%s %" PRIu64, any ? ", " : "", loc_name(k), s->locations[k]);
				any = 1;
			}
		fputs("; not analysed)", out);
		/* name them, so nothing is silently lost: the first few in full */
		uint32_t n_locs, shown = 0;
		const struct trace_location *locs = trace_locations(t, &n_locs);
		for (uint32_t i = 0; i < n_locs; i++) {
			if (locs[i].timeline != TRACE_NONE || s->is_lane[i])
				continue;
			if (shown == 6) {
				fprintf(out, ", and %" PRIu64 " more", others - shown);
				break;
			}
			const char *name = trace_str(t, locs[i].name);
			fprintf(out, "%s%s [%s]", shown ? ", " : ": ",
				name[0] ? text_safe(name, b1, sizeof b1) : "(unnamed)",
				text_safe(trace_str(t, locs[i].group_name), b2, sizeof b2));
			shown++;
		}
	}
	fputc('\n', out);
	fprintf(out, "regions       %u:", n_regions);
	summary_list_counts(out, s->regions, ROLE_COUNT, role_name);
	fprintf(out, "events        %" PRIu64 ":", info->events);
	summary_list_counts(out, info->records, REC_COUNT, rec_name);
	fprintf(out, "operations    %" PRIu64 ":", summary_sum(s->ops, OP_KIND_COUNT));
	summary_list_counts(out, s->ops, OP_KIND_COUNT, op_name);
	fprintf(out, "messages      %" PRIu64 " (%" PRIu64 " matched, %" PRIu64
		" sends unmatched, %" PRIu64 " receives unmatched), %s%" PRIu64 " bytes\n",
		s->msgs, s->msgs_matched, s->msgs_unmatched_send, s->msgs_unmatched_recv,
		sat_overflowed(s->msg_bytes) ? "at least " : "", s->msg_bytes);
	fprintf(out, "collectives   %" PRIu64 " (%" PRIu64 " incomplete):", s->colls_total,
		s->colls_incomplete);
	summary_list_counts(out, s->colls, COLL_TYPE_COUNT, coll_name);
	onesided_text(t, out);
	if (info->mpi_calls_without_records)
		fprintf(out, "note          %" PRIu64 " communication calls carried no message or "
			"collective records and are not operations (tests that completed nothing, "
			"non-blocking collectives, waits on them)\n",
			info->mpi_calls_without_records);
	summary_warnings_text(out, t);
	if (!per_rank)
		return;
	uint32_t n_tl;
	const struct trace_timeline *tls = trace_timelines(t, &n_tl);
	/* names and nodes in columns as wide as the longest needs, 20 and
	 * 16 to 32, a longer one cut (it pushed the rest of its row out) */
	int name_w = 20, node_w = 16;
	for (uint32_t i = 0; i < n_tl; i++) {
		name_w = report_col_grow(name_w, trace_str(t, tls[i].name), 32);
		node_w = report_col_grow(node_w, rank_node(t, &tls[i]), 32);
	}
	fprintf(out, "\n%-6s %s %s %10s %8s %8s %8s %8s %6s\n", "rank",
		text_safe_pad("name", name_w, b1, sizeof b1), text_safe_pad("node", node_w, b2, sizeof b2),
		"events", "ops", "comm", "sent", "recv", "coll");
	for (uint32_t i = 0; i < n_tl; i++) {
		const struct summary_timeline *st = &s->timelines[i];
		uint64_t ops = summary_sum(st->ops, OP_KIND_COUNT);
		fprintf(out, "%-6u %s %s %10" PRIu64 " %8" PRIu64 " %8" PRIu64 " %8" PRIu64
			" %8" PRIu64 " %6" PRIu64 "\n", i, text_fit(trace_str(t, tls[i].name), name_w, b1, sizeof b1),
			text_fit(rank_node(t, &tls[i]), node_w, b2, sizeof b2),
			tls[i].events, ops, ops - st->ops[OP_COMPUTE], st->sent, st->received, st->colls);
	}
}

static void
write_json(const struct trace *t, const struct summary *s, FILE *out)
{
	const struct trace_info *info = trace_info(t);
	uint32_t n_tl, n_locs;
	const struct trace_timeline *tls = trace_timelines(t, &n_tl);
	const struct trace_location *locs = trace_locations(t, &n_locs);
	struct json j;
	json_init(&j, out, 1);
	json_begin_object(&j);
	json_key(&j, "trace"); json_string(&j, info->path);
	json_key(&j, "creator"); json_string(&j, info->creator);
	json_key(&j, "otf2_version");
	json_begin_array(&j);
	for (int i = 0; i < 3; i++)
		json_uint(&j, info->version[i]);
	json_end_array(&j);
	json_key(&j, "ticks_per_second"); json_uint(&j, info->ticks_per_second);
	json_key(&j, "time_begin_s"); json_double(&j, trace_seconds(t, info->t_begin));
	json_key(&j, "time_end_s"); json_double(&j, trace_seconds(t, info->t_end));
	json_key(&j, "events"); json_uint(&j, info->events);
	summary_json_counts(&j, "records", info->records, REC_COUNT, rec_name);
	summary_json_counts(&j, "regions", s->regions, ROLE_COUNT, role_name);
	summary_json_counts(&j, "operations", s->ops, OP_KIND_COUNT, op_name);
	json_key(&j, "messages");
	json_begin_object(&j);
	summary_json_message_counts(&j, s);
	json_key(&j, "bytes"); json_uint(&j, s->msg_bytes);
	if (sat_overflowed(s->msg_bytes)) {
		json_key(&j, "bytes_overflow");
		json_bool(&j, 1);
	}
	json_end_object(&j);
	json_key(&j, "collectives");
	json_begin_object(&j);
	json_key(&j, "total"); json_uint(&j, s->colls_total);
	json_key(&j, "incomplete"); json_uint(&j, s->colls_incomplete);
	summary_json_counts(&j, "by_type", s->colls, COLL_TYPE_COUNT, coll_name);
	json_end_object(&j);
	onesided_json(t, &j);
	json_key(&j, "calls_without_records"); json_uint(&j, info->mpi_calls_without_records);
	summary_json_warnings(&j, info);
	if (info->no_local_defs) {
		json_key(&j, "no_local_defs_file");
		json_string(&j, trace_str(t, info->no_local_defs));
	}
	json_key(&j, "timelines");
	json_begin_array(&j);
	for (uint32_t i = 0; i < n_tl; i++) {
		const struct summary_timeline *st = &s->timelines[i];
		json_begin_object(&j);
		json_key(&j, "rank"); json_uint(&j, i);
		json_key(&j, "name"); json_string(&j, trace_str(t, tls[i].name));
		json_key(&j, "node");
		if (tls[i].node == TRACE_NONE)
			json_null(&j);
		else
			json_string(&j, trace_str(t, trace_nodes(t, NULL)[tls[i].node].name));
		json_key(&j, "events"); json_uint(&j, tls[i].events);
		summary_json_counts(&j, "operations", st->ops, OP_KIND_COUNT, op_name);
		json_key(&j, "sent"); json_uint(&j, st->sent);
		json_key(&j, "received"); json_uint(&j, st->received);
		json_key(&j, "collectives"); json_uint(&j, st->colls);
		json_end_object(&j);
	}
	json_end_array(&j);
	uint32_t n_lanes;
	const struct trace_lane *lanes = trace_lanes(t, &n_lanes);
	json_key(&j, "lanes");
	json_begin_array(&j);
	for (uint32_t i = 0; i < n_lanes; i++) {
		const struct trace_location *L = &locs[lanes[i].location];
		json_begin_object(&j);
		json_key(&j, "id"); json_uint(&j, L->id);
		json_key(&j, "name"); json_string(&j, trace_str(t, L->name));
		json_key(&j, "rank"); json_uint(&j, lanes[i].timeline);
		json_key(&j, "kind"); json_string(&j, lanes[i].kind == LANE_GPU ? "gpu" : "thread");
		json_key(&j, "events"); json_uint(&j, L->events);
		json_key(&j, "regions"); json_uint(&j, lanes[i].frame_count);
		json_end_object(&j);
	}
	json_end_array(&j);
	uint32_t n_holds;
	trace_holds(t, &n_holds);
	json_key(&j, "lock_holds"); json_uint(&j, n_holds);
	json_key(&j, "other_locations");
	json_begin_array(&j);
	for (uint32_t i = 0; i < n_locs; i++) {
		if (locs[i].timeline != TRACE_NONE || s->is_lane[i])
			continue;
		json_begin_object(&j);
		json_key(&j, "id"); json_uint(&j, locs[i].id);
		json_key(&j, "name"); json_string(&j, trace_str(t, locs[i].name));
		json_key(&j, "group"); json_string(&j, trace_str(t, locs[i].group_name));
		json_key(&j, "type"); json_string(&j, loc_name(locs[i].type));
		json_key(&j, "events"); json_uint(&j, locs[i].events);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_end_object(&j);
	json_finish(&j);
}

int
info_write(const struct trace *t, FILE *out, enum info_format fmt, int per_rank)
{
	struct summary s;
	if (summary_compute(t, &s))
		return ERR_NOMEM;
	if (trace_info(t)->paradigm == PARADIGM_CHARM)
		info_write_charm(t, &s, out, fmt, per_rank);
	else if (fmt == INFO_JSON)
		write_json(t, &s, out);
	else
		write_text(t, &s, out, per_rank);
	summary_fini(&s);
	return ferror(out) ? ERR_IO : 0;
}
