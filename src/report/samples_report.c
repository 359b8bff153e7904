/* samples_report.c — `skein samples` in batch: text, JSON, CSV. */
#include "samples_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "base/text.h"
#include "report_util.h"

static const char *const table_names[STAB_COUNT] = {
	"resources", "lines", "symbols", "levels", "windows", "clusters",
};

int
samples_table_parse(const char *name, enum samples_table *t)
{
	for (int i = 0; i < STAB_COUNT; i++)
		if (strcmp(name, table_names[i]) == 0) {
			*t = (enum samples_table)i;
			return 0;
		}
	return ERR_USAGE;
}

const char *samples_table_names(void) { return "resources, lines, symbols, levels, windows or clusters"; }

/* Everything a report shows, computed once. */
struct res {
	const struct mem *m;
	const struct samples *s;
	const struct samples_report *r;
	const struct topo_obj *obj;
	uint32_t n_obj, n_looked;
	const struct bitset *view;        /* selection, else filter, else NULL (all) */
	struct mem_agg agg;
	struct mem_offender *lines, *syms;
	uint32_t n_lines, n_syms;
	struct mem_depth depth;
	struct mem_window *win;
	struct mem_tree *tree;
	struct mem_cluster *cl;
	uint32_t n_cl;
};

static void
res_fini(struct res *x)
{
	mem_agg_fini(&x->agg);
	free(x->lines);
	free(x->syms);
	mem_depth_fini(&x->depth);
	free(x->win);
	mem_tree_destroy(x->tree);
	free(x->cl);
}

static int
compute(struct res *x, struct err *e)
{
	const struct samples_report *r = x->r;
	x->view = r->selection ? r->selection : r->filter;
	x->n_looked = r->filter ? bitset_count(r->filter) : samples_info(x->s)->n;
	int rc = mem_agg_init(x->m, &x->agg);
	if (!rc)
		mem_aggregate(x->m, x->view, &x->agg);
	if (!rc)
		rc = mem_offenders(x->m, MEM_LINES, x->view, &x->lines, &x->n_lines);
	if (!rc)
		rc = mem_offenders(x->m, MEM_SYMBOLS, x->view, &x->syms, &x->n_syms);
	if (rc || r->attr < 0)
		return rc ? err_set(e, rc, "out of memory") : 0;
	if ((rc = mem_depth_init(x->m, r->depth, &x->depth)))
		return err_set(e, rc, "out of memory");
	x->win = calloc(r->windows ? r->windows : 1, sizeof *x->win);
	x->cl = calloc(r->clusters ? r->clusters : 1, sizeof *x->cl);
	if (!x->win || !x->cl)
		return err_set(e, ERR_NOMEM, "out of memory");
	if ((rc = mem_windows(x->m, (uint32_t)r->attr, r->windows, r->metric, &x->depth, r->filter, x->win)))
		return err_set(e, rc, "cannot score windows");
	if ((rc = mem_tree_build(x->m, (uint32_t)r->attr, r->filter, r->window, r->step, r->metric, &x->depth,
				 &x->tree, e)))
		return rc;
	x->n_cl = mem_tree_cut(x->tree, r->clusters, x->cl);
	return 0;
}

/* ---- names ---- */

static const char *
obj_name(const struct res *x, uint32_t i, char *buf, size_t n)
{
	const struct topo_obj *o = &x->obj[i];
	const struct topo *t = samples_topo(x->s);
	switch (o->type) {
	case TOPO_MACHINE: snprintf(buf, n, "Machine%s%s", o->name ? " " : "", topo_str(t, o->name)); break;
	case TOPO_NUMA: snprintf(buf, n, "NUMANode %u", o->os_index); break;
	case TOPO_PU: snprintf(buf, n, "CPU %u", o->os_index); break;
	case TOPO_PACKAGE: snprintf(buf, n, "Package %u", o->os_index); break;
	default: snprintf(buf, n, "%s %u", topo_type_name((enum topo_type)o->type), o->index); break;
	}
	return buf;
}

static const char *
line_name(const struct res *x, uint32_t id, char *buf, size_t n)
{
	const struct samples_codeline *cl = samples_codelines(x->s, NULL);
	snprintf(buf, n, "%s:%u", samples_category(x->s, (uint32_t)samples_info(x->s)->a_file, cl[id].file),
		 cl[id].line);
	return buf;
}

static const char *
sym_name(const struct res *x, uint32_t id)
{
	return samples_category(x->s, (uint32_t)samples_info(x->s)->a_symbol, id);
}

static const char *
attr_name(const struct res *x)
{
	return x->r->attr >= 0 ? samples_attr(x->s, (uint32_t)x->r->attr)->name : "";
}

/* A number with prec digits (conv 'g') or decimals ('f'), or none where
 * there is none (NAN: the score of a window or cluster without a sample
 * at the depth, as every window but the first of a range of one value;
 * the ends of windows along an attribute without a value): "-" in text,
 * an empty field in CSV (JSON writes null). */
static const char *
num_text(double v, char conv, int prec, const char *none, char *buf, size_t n)
{
	if (isnan(v))
		snprintf(buf, n, "%s", none);
	else if (conv == 'g')
		snprintf(buf, n, "%.*g", prec, v);
	else
		snprintf(buf, n, "%.*f", prec, v);
	return buf;
}

/* A value of the attribute: its category name, or the number. */
static const char *
value_text(const struct res *x, double v, char *buf, size_t n)
{
	const struct samples_attr *a = samples_attr(x->s, (uint32_t)x->r->attr);
	if (isnan(v))
		snprintf(buf, n, "-");
	else if (a->kind == SAMPLES_CATEGORY && v >= 0 && v == floor(v))
		snprintf(buf, n, "%s", samples_category(x->s, (uint32_t)x->r->attr, (uint32_t)v));
	else
		snprintf(buf, n, "%.10g", v);
	return buf;
}

static double
mean(uint64_t c, uint64_t s)
{
	return s ? (double)c / (double)s : 0;
}

/* ---- text ---- */

static void
write_text(const struct res *x, FILE *out)
{
	const struct samples_info *in = samples_info(x->s);
	const struct samples_report *r = x->r;
	const struct topo *t = samples_topo(x->s);
	/* names from the files (paths, the machine, symbols, source files,
	 * attributes and their values) are shown as text_safe makes them */
	char a[256], b[64], c[256], pad[320];
	fprintf(out, "samples       %u in %s (%s)\n", in->n, in->data_path ? text_safe(in->data_path, c, sizeof c) : "-",
		samples_encoding_name(in->encoding));
	fprintf(out, "hardware      %s (%s):", in->hardware_path ? text_safe(in->hardware_path, c, sizeof c) : "-",
		in->hardware_format ? in->hardware_format : "-");
	static const enum topo_type shown[] = { TOPO_PACKAGE, TOPO_NUMA, TOPO_L3, TOPO_L2, TOPO_L1, TOPO_CORE, TOPO_PU };
	for (size_t i = 0, k = 0; i < sizeof shown / sizeof shown[0]; i++)
		if (topo_count(t, shown[i]))
			fprintf(out, "%s %u %s", k++ ? "," : "", topo_count(t, shown[i]),
				shown[i] == TOPO_PU ? "CPUs" : shown[i] == TOPO_NUMA ? "NUMA" : topo_type_name(shown[i]));
	fputc('\n', out);
	if (in->unmapped)
		fprintf(out, "unmapped      %u samples on CPUs the hardware does not have\n", in->unmapped);
	if (r->filter)
		fprintf(out, "filter        %u of %u samples\n", x->n_looked, in->n);
	if (r->selection)
		fprintf(out, "selection     %u samples (the hardware and the offenders below are of them)\n",
			bitset_count(r->selection));
	fprintf(out, "cycles        %llu, %.1f per sample\n", (unsigned long long)x->agg.cycles,
		mean(x->agg.cycles, x->agg.samples));
	fputs("levels        samples (mean cycles):", out);
	for (int l = 0, k = 0; l < SL_COUNT; l++)
		if (x->agg.level_samples[l])
			fprintf(out, "%s %s %llu (%.1f)", k++ ? "," : "", samples_level_name((enum samples_level)l),
				(unsigned long long)x->agg.level_samples[l],
				mean(x->agg.level_cycles[l], x->agg.level_samples[l]));
	fputs("\n\nhardware (issued: by the CPUs below; served: here; link: transactions to the parent)\n", out);
	/* the objects' column as wide as the rows need (their names indented
	 * by depth), 28 to 48 columns: a longer one is cut */
	int ow = 28;
	for (uint32_t i = 0; i < x->n_obj; i++) {
		snprintf(a, sizeof a, "%*s%s", 2 * x->obj[i].depth, "", obj_name(x, i, c, sizeof c));
		ow = report_col_grow(ow, a, 48);
	}
	fprintf(out, "  %s %9s %10s %8s %10s %8s\n", text_safe_pad("object", ow, pad, sizeof pad), "issued", "cycles",
		"served", "cycles", "link");
	for (uint32_t i = 0; i < x->n_obj; i++) {
		snprintf(a, sizeof a, "%*s%s", 2 * x->obj[i].depth, "", text_safe(obj_name(x, i, c, sizeof c), b, sizeof b));
		fprintf(out, "  %s %9llu %10llu %8llu %10llu %8llu\n", text_fit(a, ow, pad, sizeof pad),
			(unsigned long long)x->agg.below_samples[i], (unsigned long long)x->agg.below_cycles[i],
			(unsigned long long)x->agg.served_samples[i], (unsigned long long)x->agg.served_cycles[i],
			(unsigned long long)x->agg.link[i]);
	}
	for (int k = 0; k < 2; k++) {
		const struct mem_offender *o = k ? x->syms : x->lines;
		uint32_t n = k ? x->n_syms : x->n_lines;
		fprintf(out, "\ntop %s (by total latency)\n", k ? "data symbols" : "code lines");
		if (n == 0) {
			fprintf(out, "  none (no %s column)\n", k ? "variable" : "source");
			continue;
		}
		fprintf(out, "  %3s %10s %8s %7s  %s\n", "#", "cycles", "samples", "mean", k ? "symbol" : "line");
		for (uint32_t i = 0; i < n && i < r->top; i++)
			fprintf(out, "  %3u %10llu %8llu %7.1f  %s\n", i + 1, (unsigned long long)o[i].cycles,
				(unsigned long long)o[i].samples, mean(o[i].cycles, o[i].samples),
				text_safe(k ? sym_name(x, o[i].id) : line_name(x, o[i].id, a, sizeof a), c, sizeof c));
		if (n > r->top)
			fprintf(out, "  ... %u more\n", n - r->top);
	}
	if (r->attr < 0)
		return;
	fprintf(out, "\nscores        %s at %s (%u resources), %u windows along %s\n", mem_metric_name(r->metric),
		mem_depth_name(r->depth), x->depth.n, r->windows, text_safe(attr_name(x), c, sizeof c));
	if (r->metric == MEM_LATENCY)
		fprintf(out, "              L_d: the mean cycles per sample over %s\n",
			mem_get_ld(x->m) == MEM_LD_ALL ? "every resource, those without samples as 0 (the paper's "
			"equation 1; samples.latency_mean: all)" : "the resources with samples (samples.latency_mean: "
			"all for the paper's equation 1)");
	fprintf(out, "  %3s %17s %17s %8s %8s\n", "#", "from", "to", "samples", "score");
	char sc[32], wlo[32], whi[32];
	for (uint32_t w = 0; w < r->windows; w++)
		fprintf(out, "  %3u %17s %17s %8u %8s\n", w + 1, num_text(x->win[w].lo, 'g', 10, "-", wlo, sizeof wlo),
			num_text(x->win[w].hi, 'g', 10, "-", whi, sizeof whi), x->win[w].samples,
			num_text(x->win[w].score, 'f', 3, "-", sc, sizeof sc));
	fprintf(out, "\nclusters      %u along %s: windows of %u samples every %u (%u leaves), %s at %s\n", x->n_cl,
		text_safe(attr_name(x), c, sizeof c), r->window, r->step, mem_tree_leaves(x->tree), mem_metric_name(r->metric),
		mem_depth_name(r->depth));
	fprintf(out, "  %3s %17s %17s %8s %8s %17s\n", "#", "from", "to", "samples", "score", "boundary");
	for (uint32_t i = 0; i < x->n_cl; i++) {
		char lo[64], hi[64], bd[64] = "", v1[64], v2[64], v3[64];
		if (i + 1 < x->n_cl)
			value_text(x, mem_tree_boundary(x->tree, &x->cl[i], &x->cl[i + 1]), bd, sizeof bd);
		fprintf(out, "  %3u %17s %17s %8u %8s %17s\n", i + 1,
			text_safe(value_text(x, x->cl[i].lo, lo, sizeof lo), v1, sizeof v1),
			text_safe(value_text(x, x->cl[i].hi, hi, sizeof hi), v2, sizeof v2), x->cl[i].samples,
			num_text(x->cl[i].score, 'f', 3, "-", sc, sizeof sc), text_safe(bd, v3, sizeof v3));
	}
}

/* ---- JSON ---- */

static void
json_offenders(struct json *j, const struct res *x, int syms)
{
	const struct mem_offender *o = syms ? x->syms : x->lines;
	uint32_t n = syms ? x->n_syms : x->n_lines;
	char buf[256];
	json_key(j, syms ? "symbols" : "lines");
	json_begin_array(j);
	for (uint32_t i = 0; i < n; i++) {
		json_begin_object(j);
		json_key(j, syms ? "symbol" : "line");
		json_string(j, syms ? sym_name(x, o[i].id) : line_name(x, o[i].id, buf, sizeof buf));
		json_key(j, "samples");
		json_uint(j, o[i].samples);
		json_key(j, "cycles");
		json_uint(j, o[i].cycles);
		json_end_object(j);
	}
	json_end_array(j);
}

static void
write_json(const struct res *x, FILE *out)
{
	const struct samples_info *in = samples_info(x->s);
	const struct samples_report *r = x->r;
	struct json j;
	char buf[128];
	json_init(&j, out, 1);
	json_begin_object(&j);
	json_key(&j, "samples");
	json_uint(&j, in->n);
	json_key(&j, "data");
	json_string(&j, in->data_path ? in->data_path : "");
	json_key(&j, "encoding");
	json_string(&j, samples_encoding_name(in->encoding));
	json_key(&j, "hardware");
	json_string(&j, in->hardware_format ? in->hardware_format : "");
	json_key(&j, "unmapped");
	json_uint(&j, in->unmapped);
	json_key(&j, "looked_at");
	json_uint(&j, x->n_looked);
	json_key(&j, "selected");
	if (r->selection)
		json_uint(&j, bitset_count(r->selection));
	else
		json_null(&j);
	json_key(&j, "cycles");
	json_uint(&j, x->agg.cycles);
	json_key(&j, "levels");
	json_begin_object(&j);
	for (int l = 0; l < SL_COUNT; l++) {
		json_key(&j, samples_level_name((enum samples_level)l));
		json_begin_object(&j);
		json_key(&j, "samples");
		json_uint(&j, x->agg.level_samples[l]);
		json_key(&j, "cycles");
		json_uint(&j, x->agg.level_cycles[l]);
		json_end_object(&j);
	}
	json_end_object(&j);
	json_key(&j, "resources");
	json_begin_array(&j);
	for (uint32_t i = 0; i < x->n_obj; i++) {
		const struct topo_obj *o = &x->obj[i];
		json_begin_object(&j);
		json_key(&j, "object");
		json_uint(&j, i);
		json_key(&j, "name");
		json_string(&j, obj_name(x, i, buf, sizeof buf));
		json_key(&j, "type");
		json_string(&j, topo_type_name((enum topo_type)o->type));
		json_key(&j, "os_index");
		json_uint(&j, o->os_index);
		json_key(&j, "parent");
		if (o->parent == TRACE_NONE)
			json_null(&j);
		else
			json_uint(&j, o->parent);
		json_key(&j, "issued_samples");
		json_uint(&j, x->agg.below_samples[i]);
		json_key(&j, "issued_cycles");
		json_uint(&j, x->agg.below_cycles[i]);
		json_key(&j, "served_samples");
		json_uint(&j, x->agg.served_samples[i]);
		json_key(&j, "served_cycles");
		json_uint(&j, x->agg.served_cycles[i]);
		json_key(&j, "link");
		json_uint(&j, x->agg.link[i]);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_offenders(&j, x, 0);
	json_offenders(&j, x, 1);
	if (r->attr >= 0) {
		json_key(&j, "scores");
		json_begin_object(&j);
		json_key(&j, "attribute");
		json_string(&j, attr_name(x));
		json_key(&j, "metric");
		json_string(&j, mem_metric_name(r->metric));
		json_key(&j, "latency_mean");
		json_string(&j, mem_ld_name(mem_get_ld(x->m)));
		json_key(&j, "depth");
		json_string(&j, mem_depth_name(r->depth));
		json_key(&j, "resources");
		json_uint(&j, x->depth.n);
		json_key(&j, "windows");
		json_begin_array(&j);
		for (uint32_t w = 0; w < r->windows; w++) {
			json_begin_object(&j);
			json_key(&j, "from");
			json_double(&j, x->win[w].lo);
			json_key(&j, "to");
			json_double(&j, x->win[w].hi);
			json_key(&j, "samples");
			json_uint(&j, x->win[w].samples);
			json_key(&j, "score");
			json_double(&j, x->win[w].score);
			json_end_object(&j);
		}
		json_end_array(&j);
		json_end_object(&j);
		json_key(&j, "clusters");
		json_begin_object(&j);
		json_key(&j, "window");
		json_uint(&j, r->window);
		json_key(&j, "step");
		json_uint(&j, r->step);
		json_key(&j, "leaves");
		json_uint(&j, mem_tree_leaves(x->tree));
		json_key(&j, "list");
		json_begin_array(&j);
		for (uint32_t i = 0; i < x->n_cl; i++) {
			json_begin_object(&j);
			json_key(&j, "from");
			json_double(&j, x->cl[i].lo);
			json_key(&j, "to");
			json_double(&j, x->cl[i].hi);
			json_key(&j, "samples");
			json_uint(&j, x->cl[i].samples);
			json_key(&j, "score");
			json_double(&j, x->cl[i].score);
			json_key(&j, "boundary");
			if (i + 1 < x->n_cl)
				json_double(&j, mem_tree_boundary(x->tree, &x->cl[i], &x->cl[i + 1]));
			else
				json_null(&j);
			json_end_object(&j);
		}
		json_end_array(&j);
		json_end_object(&j);
	}
	json_end_object(&j);
	json_finish(&j);
}

/* ---- CSV ---- */

static void
write_csv(const struct res *x, FILE *out)
{
	char buf[256], hi[32], sc[32];
	switch (x->r->table) {
	case STAB_RESOURCES:
		fputs("object,parent,type,os_index,name,issued_samples,issued_cycles,served_samples,served_cycles,link\n", out);
		for (uint32_t i = 0; i < x->n_obj; i++) {
			const struct topo_obj *o = &x->obj[i];
			fprintf(out, "%u,%s%u,%s,%u,", i, o->parent == TRACE_NONE ? "-" : "",
				o->parent == TRACE_NONE ? 0 : o->parent, topo_type_name((enum topo_type)o->type), o->os_index);
			report_csv_str(out, obj_name(x, i, buf, sizeof buf));
			fprintf(out, ",%llu,%llu,%llu,%llu,%llu\n", (unsigned long long)x->agg.below_samples[i],
				(unsigned long long)x->agg.below_cycles[i], (unsigned long long)x->agg.served_samples[i],
				(unsigned long long)x->agg.served_cycles[i], (unsigned long long)x->agg.link[i]);
		}
		break;
	case STAB_LINES:
	case STAB_SYMBOLS: {
		int syms = x->r->table == STAB_SYMBOLS;
		const struct mem_offender *o = syms ? x->syms : x->lines;
		uint32_t n = syms ? x->n_syms : x->n_lines;
		fprintf(out, "rank,%s,samples,cycles\n", syms ? "symbol" : "line");
		for (uint32_t i = 0; i < n; i++) {
			fprintf(out, "%u,", i + 1);
			report_csv_str(out, syms ? sym_name(x, o[i].id) : line_name(x, o[i].id, buf, sizeof buf));
			fprintf(out, ",%llu,%llu\n", (unsigned long long)o[i].samples, (unsigned long long)o[i].cycles);
		}
		break;
	}
	case STAB_LEVELS:
		fputs("level,samples,cycles\n", out);
		for (int l = 0; l < SL_COUNT; l++) {
			report_csv_str(out, samples_level_name((enum samples_level)l));
			fprintf(out, ",%llu,%llu\n", (unsigned long long)x->agg.level_samples[l],
				(unsigned long long)x->agg.level_cycles[l]);
		}
		break;
	case STAB_WINDOWS:
		fputs("window,from,to,samples,score\n", out);
		for (uint32_t w = 0; x->win && w < x->r->windows; w++)
			fprintf(out, "%u,%s,%s,%u,%s\n", w + 1, num_text(x->win[w].lo, 'g', 10, "", buf, sizeof buf),
				num_text(x->win[w].hi, 'g', 10, "", hi, sizeof hi), x->win[w].samples,
				num_text(x->win[w].score, 'f', 6, "", sc, sizeof sc));
		break;
	default:
		fputs("cluster,from,to,samples,score,boundary\n", out);
		for (uint32_t i = 0; i < x->n_cl; i++) {
			double bd = i + 1 < x->n_cl ? mem_tree_boundary(x->tree, &x->cl[i], &x->cl[i + 1]) : NAN;
			fprintf(out, "%u,%s,%s,%u,%s,", i + 1, num_text(x->cl[i].lo, 'g', 10, "", buf, sizeof buf),
				num_text(x->cl[i].hi, 'g', 10, "", hi, sizeof hi), x->cl[i].samples,
				num_text(x->cl[i].score, 'f', 6, "", sc, sizeof sc));
			fprintf(out, "%s\n", num_text(bd, 'g', 10, "", buf, sizeof buf));
		}
		break;
	}
}

int
samples_report_write(const struct mem *m, const struct samples_report *r, FILE *out, struct err *e)
{
	struct res x = { .m = m, .s = mem_samples(m), .r = r };
	x.obj = topo_objs(samples_topo(x.s), &x.n_obj);
	int rc = compute(&x, e);
	if (!rc) {
		if (r->fmt == REPORT_JSON)
			write_json(&x, out);
		else if (r->fmt == REPORT_CSV)
			write_csv(&x, out);
		else
			write_text(&x, out);
		if (fflush(out) || ferror(out))
			rc = err_set(e, ERR_IO, "cannot write the report");
	}
	res_fini(&x);
	return rc;
}
