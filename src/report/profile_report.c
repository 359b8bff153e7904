/* profile_report.c — `skein profile` and `skein comm` (profile_report.h,
 * doc/profile.md): text for people, JSON with everything, CSV one
 * rectangular table. */
#include "profile_report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/fmt.h"
#include "base/json.h"
#include "base/text.h"
#include "model/charm.h"
#include "report_util.h"

static const char *
region_name(const struct trace *t, uint32_t r)
{
	uint32_t n;
	const struct trace_region *reg = trace_regions(t, &n);
	return r < n ? trace_str(t, reg[r].name) : "";
}

#define NAME_COLS 32               /* the name column, unless names would show alike */

/* A region's name as text shows it in w columns (text_cut: the cut
 * ends in "…", a place after '@' kept whole). */
static const char *
shown_name(const struct trace *t, uint32_t r, char *buf, size_t n, size_t w)
{
	char safe[256];
	const char *s = text_cut(text_safe(region_name(t, r), safe, sizeof safe), (int)w, buf, n);
	if (s != buf)
		snprintf(buf, n, "%s", s);
	return buf;
}

/* Writes the name in w columns, padded by them. */
static void
put_name(FILE *out, const struct trace *t, uint32_t r, size_t w)
{
	char name[256], pad[512];
	fputs(text_safe_pad(shown_name(t, r, name, sizeof name, w), (int)w, pad, sizeof pad), out);
}

struct shown {
	char *text;                /* as shown */
	const char *name;          /* the name */
};

static int
shown_cmp(const void *p, const void *q)
{
	const struct shown *x = p, *y = q;
	int c = strcmp(x->text, y->text);
	return c ? c : strcmp(x->name, y->name);
}

/* Do two of the profile's distinct names show alike in w columns? */
static int
names_clash(const struct trace *t, const struct profile *p, size_t w, struct shown *v)
{
	char buf[512];
	for (uint32_t i = 0; i < p->n_regions; i++) {
		v[i].name = region_name(t, p->regions[i].region);
		v[i].text = strdup(shown_name(t, p->regions[i].region, buf, sizeof buf, w));
	}
	int clash = 0;
	for (uint32_t i = 0; i < p->n_regions; i++)
		clash |= !v[i].text;
	if (!clash)
		qsort(v, p->n_regions, sizeof *v, shown_cmp);
	for (uint32_t i = 1; i < p->n_regions && !clash; i++)
		clash = !strcmp(v[i].text, v[i - 1].text) && strcmp(v[i].name, v[i - 1].name);
	for (uint32_t i = 0; i < p->n_regions; i++)
		free(v[i].text);
	return clash;
}

/* The name column: the longest name up to NAME_COLS columns, wider
 * while two distinct names would still show alike (at the longest
 * name's width every name is whole; one name of two regions, a kernel
 * and its host stub, shows alike, as it is). */
static size_t
name_cols(const struct trace *t, const struct profile *p)
{
	char safe[256];
	size_t most = 6;
	for (uint32_t i = 0; i < p->n_regions; i++) {
		size_t k = (size_t)text_width(text_safe(region_name(t, p->regions[i].region), safe, sizeof safe));
		most = k > most ? k : most;
	}
	size_t w = most < NAME_COLS ? most : NAME_COLS;
	struct shown *v = w < most ? malloc(((size_t)p->n_regions + 1) * sizeof *v) : NULL;
	while (v && w < most && names_clash(t, p, w, v))
		w = w + 8 < most ? w + 8 : most;
	free(v);
	return w;
}

static int
is_charm(const struct trace *t)
{
	return trace_info(t)->paradigm == PARADIGM_CHARM;
}

/* "whole trace" or "0.100000 s to 0.200000 s", and the rank set */
static void
scope_text(const struct trace *t, uint64_t from, uint64_t to, const struct profile_report_opts *o,
	   char *buf, size_t n)
{
	const struct trace_info *ti = trace_info(t);
	char a[32], b[32];
	size_t k;
	if (from <= ti->t_begin && to >= ti->t_end)
		k = (size_t)snprintf(buf, n, "whole trace");
	else {
		fmt_times(trace_seconds(t, from), trace_seconds(t, to), a, b, sizeof a);
		k = (size_t)snprintf(buf, n, "%s to %s", a, b);
	}
	if (o->ranks_text && k < n)
		snprintf(buf + k, n - k, ", %s %s", is_charm(t) ? "chares" : "ranks", o->ranks_text);
}

static double
sec(const struct trace *t, uint64_t ticks)
{
	return trace_seconds(t, ticks);
}

/* ---- profile ---- */

/* With one-sided records in the trace: the operations each region's
 * calls issued, and the bytes they moved. */
static void
rma_regions_text(const struct trace *t, const struct profile *p, FILE *out, size_t w)
{
	if (!trace_has_rma(t))
		return;
	char b[32];
	int any = 0;
	for (uint32_t i = 0; i < p->n_regions; i++) {
		const struct profile_region *r = &p->regions[i];
		if (!r->rma_ops)
			continue;
		if (!any)
			fprintf(out, "\none-sided operations by the region that issued them\n"
				"%-*s %10s %10s\n", (int)w, "region", "operations", "bytes");
		any = 1;
		put_name(out, t, r->region, w);
		fprintf(out, " %10" PRIu64 " %10s\n", r->rma_ops, fmt_bytes((double)r->rma_bytes, b, sizeof b));
	}
}

static void
profile_text(const struct trace *t, const struct profile *p, FILE *out,
	     const struct profile_report_opts *o)
{
	char scope[160], b[8][32];
	const char *who = p->by_pe ? "PE" : is_charm(t) ? "chare" : "rank";
	scope_text(t, p->from, p->to, o, scope, sizeof scope);
	uint32_t lanes;
	trace_lanes(t, &lanes);
	fprintf(out, "profile: %s, %u %s%s%s, %s of time in all\n", scope, p->n_ranks, who,
		p->n_ranks == 1 ? "" : "s",
		!lanes ? "" : p->n_ranks == 1 ? " with its threads and GPU streams" : " with their threads and GPU streams",
		fmt_seconds(sec(t, p->total), b[0], sizeof b[0]));
	if (p->misnested || p->unclosed)
		fprintf(out, "the trace closed %" PRIu64 " regions out of order and left %" PRIu64
			" open at its end: each closed where the trace shows it end (a leave of a region "
			"below it, or its rank's or thread's last record)\n", p->misnested, p->unclosed);
	if (p->stray)
		fprintf(out, "the trace left %" PRIu64 " regions that were not open: those leaves "
			"dropped (a region entered on one thread and left on another is one of these "
			"and one left open)\n", p->stray);
	size_t w = name_cols(t, p);
	if (!o->per_rank) {
		fprintf(out, "%-*s %10s %10s %10s %6s %10s %10s %10s %8s %6s\n", (int)w, "region",
			"calls", "inclusive", "exclusive", "share", "min", "mean", "max",
			p->by_pe ? "max PE" : is_charm(t) ? "max at" : "max rank", "imbal.");
		for (uint32_t i = 0; i < p->n_regions; i++) {
			const struct profile_region *r = &p->regions[i];
			put_name(out, t, r->region, w);
			fprintf(out, " %10" PRIu64 " %10s %10s %5.1f%% %10s %10s %10s %8u %6.2f\n",
				r->calls, fmt_seconds(sec(t, r->incl), b[0], 32),
				fmt_seconds(sec(t, r->excl), b[1], 32),
				p->total ? 100.0 * (double)r->excl / (double)p->total : 0.0,
				fmt_seconds(sec(t, r->excl_min), b[2], 32),
				fmt_seconds(r->excl_mean / (double)trace_info(t)->ticks_per_second, b[3], 32),
				fmt_seconds(sec(t, r->excl_max), b[4], 32), r->max_rank,
				profile_imbalance(r));
		}
		rma_regions_text(t, p, out, w);
		return;
	}
	fprintf(out, "%8s %-*s %10s %10s %10s\n", p->by_pe ? "PE" : is_charm(t) ? "chare" : "rank",
		(int)w, "region", "calls", "inclusive", "exclusive");
	for (uint32_t i = 0; i < p->n_rows; i++) {
		const struct profile_row *r = &p->rows[i];
		fprintf(out, "%8u ", r->rank);
		put_name(out, t, r->region, w);
		fprintf(out, " %10" PRIu64 " %10s %10s\n", r->calls, fmt_seconds(sec(t, r->incl), b[0], 32),
			fmt_seconds(sec(t, r->excl), b[1], 32));
	}
}

static void
profile_json(const struct trace *t, const struct profile *p, FILE *out,
	     const struct profile_report_opts *o)
{
	struct json j;
	json_init(&j, out, 1);
	json_begin_object(&j);
	json_key(&j, "from_s"); json_double(&j, sec(t, p->from));
	json_key(&j, "to_s"); json_double(&j, sec(t, p->to));
	json_key(&j, "ranks"); json_uint(&j, p->n_ranks);
	json_key(&j, "rank_set");
	if (o->ranks_text)
		json_string(&j, o->ranks_text);
	else
		json_null(&j);
	json_key(&j, "total_s"); json_double(&j, sec(t, p->total));
	json_key(&j, "regions_closed_out_of_order"); json_uint(&j, p->misnested);
	json_key(&j, "regions_left_open"); json_uint(&j, p->unclosed);
	json_key(&j, "leaves_of_regions_not_open"); json_uint(&j, p->stray);
	json_key(&j, "regions");
	json_begin_array(&j);
	uint32_t nreg;
	const struct trace_region *reg = trace_regions(t, &nreg);
	for (uint32_t i = 0; i < p->n_regions; i++) {
		const struct profile_region *r = &p->regions[i];
		json_begin_object(&j);
		json_key(&j, "region"); json_string(&j, region_name(t, r->region));
		json_key(&j, "role"); json_string(&j, trace_role_name((enum trace_role)reg[r->region].role));
		json_key(&j, "calls"); json_uint(&j, r->calls);
		json_key(&j, "inclusive_s"); json_double(&j, sec(t, r->incl));
		json_key(&j, "exclusive_s"); json_double(&j, sec(t, r->excl));
		json_key(&j, "share"); json_double(&j, p->total ? (double)r->excl / (double)p->total : 0);
		json_key(&j, "min_s"); json_double(&j, sec(t, r->excl_min));
		json_key(&j, "mean_s");
		json_double(&j, r->excl_mean / (double)trace_info(t)->ticks_per_second);
		json_key(&j, "max_s"); json_double(&j, sec(t, r->excl_max));
		json_key(&j, "max_rank"); json_uint(&j, r->max_rank);
		json_key(&j, "imbalance"); json_double(&j, profile_imbalance(r));
		json_key(&j, "ranks_entering"); json_uint(&j, r->ranks);
		json_key(&j, "largest_s"); json_double(&j, sec(t, r->largest));
		json_key(&j, "largest_rank"); json_uint(&j, r->largest_tl);
		json_key(&j, "largest_enter_s"); json_double(&j, sec(t, r->largest_enter));
		if (trace_has_rma(t)) {
			json_key(&j, "rma_operations"); json_uint(&j, r->rma_ops);
			json_key(&j, "rma_bytes"); json_uint(&j, r->rma_bytes);
		}
		json_end_object(&j);
	}
	json_end_array(&j);
	if (o->per_rank) {
		json_key(&j, "rows");
		json_begin_array(&j);
		for (uint32_t i = 0; i < p->n_rows; i++) {
			const struct profile_row *r = &p->rows[i];
			json_begin_object(&j);
			json_key(&j, "rank"); json_uint(&j, r->rank);
			json_key(&j, "region"); json_string(&j, region_name(t, r->region));
			json_key(&j, "calls"); json_uint(&j, r->calls);
			json_key(&j, "inclusive_s"); json_double(&j, sec(t, r->incl));
			json_key(&j, "exclusive_s"); json_double(&j, sec(t, r->excl));
			json_end_object(&j);
		}
		json_end_array(&j);
	}
	json_end_object(&j);
	json_finish(&j);
}

static void
profile_csv(const struct trace *t, const struct profile *p, FILE *out,
	    const struct profile_report_opts *o)
{
	if (o->per_rank) {
		fprintf(out, "rank,region,calls,inclusive_s,exclusive_s\n");
		for (uint32_t i = 0; i < p->n_rows; i++) {
			const struct profile_row *r = &p->rows[i];
			fprintf(out, "%u,", r->rank);
			report_csv_str(out, region_name(t, r->region));
			fprintf(out, ",%" PRIu64 ",%.9f,%.9f\n", r->calls, sec(t, r->incl), sec(t, r->excl));
		}
		return;
	}
	fprintf(out, "region,calls,inclusive_s,exclusive_s,min_s,mean_s,max_s,max_rank,imbalance,share\n");
	for (uint32_t i = 0; i < p->n_regions; i++) {
		const struct profile_region *r = &p->regions[i];
		report_csv_str(out, region_name(t, r->region));
		fprintf(out, ",%" PRIu64 ",%.9f,%.9f,%.9f,%.9f,%.9f,%u,%.4f,%.6f\n", r->calls,
			sec(t, r->incl), sec(t, r->excl), sec(t, r->excl_min),
			r->excl_mean / (double)trace_info(t)->ticks_per_second, sec(t, r->excl_max),
			r->max_rank, profile_imbalance(r),
			p->total ? (double)r->excl / (double)p->total : 0.0);
	}
}

int
profile_report_write(const struct trace *t, const struct profile *p, FILE *out,
		     const struct profile_report_opts *o)
{
	if (o->fmt == REPORT_JSON)
		profile_json(t, p, out, o);
	else if (o->fmt == REPORT_CSV)
		profile_csv(t, p, out, o);
	else
		profile_text(t, p, out, o);
	return ferror(out) ? ERR_IO : 0;
}

/* ---- communication ---- */

/* The matrix as ASCII shades, blocks of ranks where they do not fit. */
static void
matrix_text(const struct trace *t, const struct comm *c, FILE *out)
{
	static const char shade[] = " .:-=+*#";
	uint32_t n;
	trace_timelines(t, &n);
	if (!n || !c->n_pairs)
		return;
	uint32_t per = (n + 63) / 64, cells = (n + per - 1) / per;
	uint64_t *v = malloc((size_t)cells * cells * sizeof *v);
	if (!v)
		return;
	comm_blocks(c, 0, per, 0, per, cells, cells, 1, v);
	uint64_t max = 0;
	for (size_t i = 0; i < (size_t)cells * cells; i++)
		max = v[i] > max ? v[i] : max;
	char b[32];
	fprintf(out, "\nbytes sent (rows: senders, columns: receivers%s)\n",
		per > 1 ? "; a cell is a block of ranks" : "");
	for (uint32_t r = 0; r < cells; r++) {
		fprintf(out, "%6u |", r * per);
		for (uint32_t k = 0; k < cells; k++) {
			uint64_t x = v[(size_t)r * cells + k];
			int lvl = x == 0 || !max ? 0 : 1 + (int)((double)x / (double)max * 6.999);
			fputc(shade[lvl], out);
		}
		fputs("|\n", out);
	}
	fprintf(out, "scale: ' ' none, then . : - = + * # for each seventh of the largest ('.' up to 1/7, "
		"'#' over 6/7): %s%s\n", fmt_bytes((double)max, b, sizeof b), per > 1 ? " per block" : "");
	free(v);
}

static int
pair_bytes_cmp(const void *p, const void *q)
{
	const struct comm_pair *x = *(const struct comm_pair *const *)p;
	const struct comm_pair *y = *(const struct comm_pair *const *)q;
	if (x->bytes != y->bytes)
		return x->bytes > y->bytes ? -1 : 1;
	if (x->sender != y->sender)
		return x->sender < y->sender ? -1 : 1;
	return x->receiver < y->receiver ? -1 : x->receiver > y->receiver;
}

static uint64_t
rma_ops_all(const struct comm *c)
{
	uint64_t n = c->device_ops;
	for (int k = 0; k < RMA_KIND_COUNT; k++)
		n += c->rma_ops[k];
	return n;
}

static uint64_t
rma_pair_ops(const struct comm_rma_pair *p)
{
	uint64_t n = 0;
	for (int k = 0; k < RMA_KIND_COUNT; k++)
		n += p->ops[k];
	return n;
}

static int
rma_pair_bytes_cmp(const void *p, const void *q)
{
	const struct comm_rma_pair *x = *(const struct comm_rma_pair *const *)p;
	const struct comm_rma_pair *y = *(const struct comm_rma_pair *const *)q;
	uint64_t a = x->bytes_put + x->bytes_got, b = y->bytes_put + y->bytes_got;
	if (a != b)
		return a > b ? -1 : 1;
	if (x->origin != y->origin)
		return x->origin < y->origin ? -1 : 1;
	return x->target < y->target ? -1 : x->target > y->target;
}

/* One-sided communication, apart from the messages: only for a trace
 * that recorded some (other traces' reports are as they were). */
static void
rma_text(const struct trace *t, const struct comm *c, FILE *out)
{
	char b[4][32];
	int colls = 0;
	for (int k = 0; k < COLL_TYPE_COUNT; k++)
		colls |= c->win_colls[k].count != 0;
	if (!rma_ops_all(c) && !colls && !trace_has_rma(t))
		return;
	fprintf(out, "\none-sided (RMA, not counted among the messages)\n");
	fprintf(out, "%" PRIu64 " operations (%" PRIu64 " put, %" PRIu64 " get, %" PRIu64
		" atomic), %s put and %s got, between %u pairs\n",
		c->rma_ops[RMA_PUT] + c->rma_ops[RMA_GET] + c->rma_ops[RMA_ATOMIC], c->rma_ops[RMA_PUT],
		c->rma_ops[RMA_GET], c->rma_ops[RMA_ATOMIC], fmt_bytes((double)c->rma_bytes_put, b[0], 32),
		fmt_bytes((double)c->rma_bytes_got, b[1], 32), c->n_rma_pairs);
	if (c->device_ops) {
		fprintf(out, "%" PRIu64 " to targets that are no rank (device copies), %s\n", c->device_ops,
			fmt_bytes((double)c->device_bytes, b[0], 32));
		fprintf(out, "device copies by rank\n%8s %10s %12s %12s\n", "rank", "copies", "to device",
			"to host");
		for (uint32_t r = 0; r < c->n_device; r++)
			if (c->device[r].ops)
				fprintf(out, "%8u %10" PRIu64 " %12s %12s\n", r, c->device[r].ops,
					fmt_bytes((double)c->device[r].to_device, b[0], 32),
					fmt_bytes((double)c->device[r].to_host, b[1], 32));
	}
	if (c->n_rma_pairs) {
		const struct comm_rma_pair **by = malloc(c->n_rma_pairs * sizeof *by);
		if (by) {
			for (uint32_t i = 0; i < c->n_rma_pairs; i++)
				by[i] = &c->rma_pairs[i];
			qsort(by, c->n_rma_pairs, sizeof *by, rma_pair_bytes_cmp);
			uint32_t shown = c->n_rma_pairs < 20 ? c->n_rma_pairs : 20;
			fprintf(out, "%s origin -> target pairs by bytes\n%8s %8s %10s %10s %10s\n",
				shown < c->n_rma_pairs ? "the 20 largest" : "all", "origin", "target",
				"operations", "put", "got");
			for (uint32_t i = 0; i < shown; i++)
				fprintf(out, "%8u %8u %10" PRIu64 " %10s %10s\n", by[i]->origin, by[i]->target,
					rma_pair_ops(by[i]), fmt_bytes((double)by[i]->bytes_put, b[0], 32),
					fmt_bytes((double)by[i]->bytes_got, b[1], 32));
			free(by);
		}
	}
	if (colls) {
		fprintf(out, "window collectives (a fence is a barrier of the window's group)\n"
			"%-30s %10s %10s %12s\n", "type", "count", "bytes", "time");
		for (int k = 0; k < COLL_TYPE_COUNT; k++)
			if (c->win_colls[k].count)
				fprintf(out, "%-30s %10" PRIu64 " %10s %12s\n",
					trace_coll_type_name((enum trace_coll_type)k), c->win_colls[k].count,
					fmt_bytes((double)c->win_colls[k].bytes, b[0], 32),
					fmt_seconds(sec(t, c->win_colls[k].time), b[1], 32));
	}
}

static void
rma_json(const struct trace *t, const struct comm *c, struct json *j)
{
	if (!trace_has_rma(t))
		return;
	json_key(j, "rma");
	json_begin_object(j);
	for (int k = 0; k < RMA_KIND_COUNT; k++) {
		char key[16];
		snprintf(key, sizeof key, "%ss", trace_rma_kind_name((enum trace_rma_kind)k));
		json_key(j, key); json_uint(j, c->rma_ops[k]);
	}
	json_key(j, "bytes_put"); json_uint(j, c->rma_bytes_put);
	json_key(j, "bytes_got"); json_uint(j, c->rma_bytes_got);
	json_key(j, "device_operations"); json_uint(j, c->device_ops);
	json_key(j, "device_bytes"); json_uint(j, c->device_bytes);
	json_key(j, "device_by_rank");
	json_begin_array(j);
	for (uint32_t r = 0; r < c->n_device; r++) {
		if (!c->device[r].ops)
			continue;
		json_begin_object(j);
		json_key(j, "rank"); json_uint(j, r);
		json_key(j, "copies"); json_uint(j, c->device[r].ops);
		json_key(j, "bytes_to_device"); json_uint(j, c->device[r].to_device);
		json_key(j, "bytes_to_host"); json_uint(j, c->device[r].to_host);
		json_end_object(j);
	}
	json_end_array(j);
	json_key(j, "pairs");
	json_begin_array(j);
	for (uint32_t i = 0; i < c->n_rma_pairs; i++) {
		const struct comm_rma_pair *p = &c->rma_pairs[i];
		json_begin_object(j);
		json_key(j, "origin"); json_uint(j, p->origin);
		json_key(j, "target"); json_uint(j, p->target);
		for (int k = 0; k < RMA_KIND_COUNT; k++) {
			char key[16];
			snprintf(key, sizeof key, "%ss", trace_rma_kind_name((enum trace_rma_kind)k));
			json_key(j, key); json_uint(j, p->ops[k]);
		}
		json_key(j, "bytes_put"); json_uint(j, p->bytes_put);
		json_key(j, "bytes_got"); json_uint(j, p->bytes_got);
		json_end_object(j);
	}
	json_end_array(j);
	json_key(j, "window_collectives");
	json_begin_array(j);
	for (int k = 0; k < COLL_TYPE_COUNT; k++) {
		if (!c->win_colls[k].count)
			continue;
		json_begin_object(j);
		json_key(j, "type"); json_string(j, trace_coll_type_name((enum trace_coll_type)k));
		json_key(j, "count"); json_uint(j, c->win_colls[k].count);
		json_key(j, "bytes"); json_uint(j, c->win_colls[k].bytes);
		json_key(j, "time_s"); json_double(j, sec(t, c->win_colls[k].time));
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

/* The CSV's rows: one per pair that communicated; with one-sided
 * communication in the trace, the columns of its operations and bytes
 * too, over the pairs of either kind. */
static void
comm_csv(const struct trace *t, const struct comm *c, FILE *out)
{
	if (!trace_has_rma(t)) {
		fprintf(out, "sender,receiver,messages,bytes\n");
		for (uint32_t i = 0; i < c->n_pairs; i++)
			fprintf(out, "%u,%u,%" PRIu64 ",%" PRIu64 "\n", c->pairs[i].sender,
				c->pairs[i].receiver, c->pairs[i].messages, c->pairs[i].bytes);
		return;
	}
	fprintf(out, "sender,receiver,messages,bytes,rma_operations,rma_bytes_put,rma_bytes_got\n");
	uint32_t i = 0, k = 0;
	while (i < c->n_pairs || k < c->n_rma_pairs) {
		const struct comm_pair *p = i < c->n_pairs ? &c->pairs[i] : NULL;
		const struct comm_rma_pair *r = k < c->n_rma_pairs ? &c->rma_pairs[k] : NULL;
		int pk = p && r ? (p->sender != r->origin ? (p->sender < r->origin ? -1 : 1)
				   : p->receiver != r->target ? (p->receiver < r->target ? -1 : 1) : 0)
			: p ? -1 : 1;
		uint32_t s = pk <= 0 ? p->sender : r->origin, d = pk <= 0 ? p->receiver : r->target;
		fprintf(out, "%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", s, d,
			pk <= 0 ? p->messages : 0, pk <= 0 ? p->bytes : 0, pk >= 0 ? rma_pair_ops(r) : 0,
			pk >= 0 ? r->bytes_put : 0, pk >= 0 ? r->bytes_got : 0);
		i += pk <= 0;
		k += pk >= 0;
	}
}

static void
comm_text(const struct trace *t, const struct comm *c, FILE *out, const struct profile_report_opts *o)
{
	char scope[160], b[4][32];
	scope_text(t, c->from, c->to, o, scope, sizeof scope);
	fprintf(out, "communication: %s\n", scope);
	fprintf(out, "%" PRIu64 " messages, %s, between %u pairs\n", c->messages,
		fmt_bytes((double)c->bytes, b[0], 32), c->n_pairs);
	matrix_text(t, c, out);
	if (c->n_pairs) {
		const struct comm_pair **by = malloc(c->n_pairs * sizeof *by);
		if (by) {
			for (uint32_t i = 0; i < c->n_pairs; i++)
				by[i] = &c->pairs[i];
			qsort(by, c->n_pairs, sizeof *by, pair_bytes_cmp);
			uint32_t shown = c->n_pairs < 20 ? c->n_pairs : 20;
			fprintf(out, "\n%s pairs by bytes\n%8s %8s %10s %10s %14s\n",
				shown < c->n_pairs ? "the 20 largest" : "all", "sender", "receiver",
				"messages", "bytes", "mean transfer");
			for (uint32_t i = 0; i < shown; i++)
				fprintf(out, "%8u %8u %10" PRIu64 " %10s %14s\n", by[i]->sender,
					by[i]->receiver, by[i]->messages,
					fmt_bytes((double)by[i]->bytes, b[0], 32),
					fmt_seconds(sec(t, by[i]->transfer) / (double)by[i]->messages, b[1], 32));
			free(by);
		}
	}
	int any = 0;
	for (int k = 0; k < COMM_SIZE_BINS; k++)
		any |= c->size_bins[k] != 0;
	if (any) {
		fprintf(out, "\nmessage sizes\n");
		for (int k = 0; k < COMM_SIZE_BINS; k++) {
			if (!c->size_bins[k])
				continue;
			if (k == 0)
				fprintf(out, "%21s %10" PRIu64 "\n", "0 B", c->size_bins[k]);
			else
				fprintf(out, "%9s to < %-7s %10" PRIu64 "\n",
					fmt_bytes((double)((uint64_t)1 << (k - 1)), b[0], 32),
					fmt_bytes((double)((uint64_t)1 << k), b[1], 32), c->size_bins[k]);
		}
	}
	any = 0;
	for (int k = 0; k < COLL_TYPE_COUNT; k++)
		any |= c->colls[k].count != 0;
	if (any) {
		fprintf(out, "\ncollectives\n%-24s %10s %10s %12s\n", "type", "count", "bytes", "time");
		for (int k = 0; k < COLL_TYPE_COUNT; k++)
			if (c->colls[k].count)
				fprintf(out, "%-24s %10" PRIu64 " %10s %12s\n",
					trace_coll_type_name((enum trace_coll_type)k), c->colls[k].count,
					fmt_bytes((double)c->colls[k].bytes, b[0], 32),
					fmt_seconds(sec(t, c->colls[k].time), b[1], 32));
	}
	rma_text(t, c, out);
}

static void
comm_json(const struct trace *t, const struct comm *c, FILE *out, const struct profile_report_opts *o)
{
	struct json j;
	json_init(&j, out, 1);
	json_begin_object(&j);
	json_key(&j, "from_s"); json_double(&j, sec(t, c->from));
	json_key(&j, "to_s"); json_double(&j, sec(t, c->to));
	json_key(&j, "rank_set");
	if (o->ranks_text)
		json_string(&j, o->ranks_text);
	else
		json_null(&j);
	json_key(&j, "messages"); json_uint(&j, c->messages);
	json_key(&j, "bytes"); json_uint(&j, c->bytes);
	json_key(&j, "pairs");
	json_begin_array(&j);
	for (uint32_t i = 0; i < c->n_pairs; i++) {
		const struct comm_pair *p = &c->pairs[i];
		json_begin_object(&j);
		json_key(&j, "sender"); json_uint(&j, p->sender);
		json_key(&j, "receiver"); json_uint(&j, p->receiver);
		json_key(&j, "messages"); json_uint(&j, p->messages);
		json_key(&j, "bytes"); json_uint(&j, p->bytes);
		json_key(&j, "transfer_s"); json_double(&j, sec(t, p->transfer));
		json_end_object(&j);
	}
	json_end_array(&j);
	json_key(&j, "size_histogram");
	json_begin_array(&j);
	for (int k = 0; k < COMM_SIZE_BINS; k++) {
		if (!c->size_bins[k])
			continue;
		json_begin_object(&j);
		json_key(&j, "from_bytes"); json_uint(&j, k ? (uint64_t)1 << (k - 1) : 0);
		json_key(&j, "to_bytes"); json_uint(&j, k ? (uint64_t)1 << k : 1);
		json_key(&j, "messages"); json_uint(&j, c->size_bins[k]);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_key(&j, "over_time");
	json_begin_array(&j);
	for (int k = 0; k < COMM_TIME_BINS; k++) {
		json_begin_object(&j);
		uint64_t span = c->to - c->from;
		json_key(&j, "from_s");
		json_double(&j, sec(t, c->from + (uint64_t)((double)span * k / COMM_TIME_BINS)));
		json_key(&j, "messages"); json_uint(&j, c->time_msgs[k]);
		json_key(&j, "bytes"); json_uint(&j, c->time_bytes[k]);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_key(&j, "collectives");
	json_begin_array(&j);
	for (int k = 0; k < COLL_TYPE_COUNT; k++) {
		if (!c->colls[k].count)
			continue;
		json_begin_object(&j);
		json_key(&j, "type"); json_string(&j, trace_coll_type_name((enum trace_coll_type)k));
		json_key(&j, "count"); json_uint(&j, c->colls[k].count);
		json_key(&j, "bytes"); json_uint(&j, c->colls[k].bytes);
		json_key(&j, "time_s"); json_double(&j, sec(t, c->colls[k].time));
		json_end_object(&j);
	}
	json_end_array(&j);
	rma_json(t, c, &j);
	json_end_object(&j);
	json_finish(&j);
}

int
comm_report_write(const struct trace *t, const struct comm *c, FILE *out,
		  const struct profile_report_opts *o)
{
	if (o->fmt == REPORT_JSON) {
		comm_json(t, c, out, o);
	} else if (o->fmt == REPORT_CSV) {
		comm_csv(t, c, out);
	} else {
		comm_text(t, c, out, o);
	}
	return ferror(out) ? ERR_IO : 0;
}
