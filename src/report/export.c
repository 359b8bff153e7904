/* export.c — `skein export` writers (export.h). */
#include "export.h"
#include "report_util.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/core/iterations.h"
#include "base/json.h"

const char *const export_columns[] = {
	"op", "rank", "kind", "region", "in", "partition", "step", "local_step", "iteration",
	"enter_s", "exit_s", "duration_s", "lateness_s", "diff_s", "global_s", "cause",
	"cause_rank", "cause_step", "calls",
};
const unsigned export_n_columns = sizeof export_columns / sizeof export_columns[0];

struct row {
	uint32_t rank, part, step, local, iter, cause_rank, cause_step, calls;
	double enter, exit, late, diff, global;
	const char *kind, *region, *in, *cause;
};

static void
row_of(const struct analysis *a, uint32_t l, struct row *r)
{
	const struct trace *t = analysis_trace(a);
	uint32_t from = analysis_lop_cause_lop(a, l), first;
	enum trace_op_kind k = analysis_lop_kind(a, l);
	analysis_lop_ops(a, l, &first, &r->calls);
	if (k == OP_COMPUTE)
		r->calls = 0;
	else
		r->calls = (r->calls + 1) / 2;   /* ops alternate call and computation */
	r->rank = analysis_lop_timeline(a, l);
	r->part = analysis_lop_part(a, l);
	r->step = analysis_lop_step(a, l);
	r->local = analysis_lop_local_step(a, l);
	r->iter = iterations_of_lop(a, l);
	r->cause_rank = from == TRACE_NONE ? TRACE_NONE : analysis_lop_timeline(a, from);
	r->cause_step = from == TRACE_NONE ? TRACE_NONE : analysis_lop_step(a, from);
	r->enter = trace_seconds(t, analysis_lop_enter(a, l));
	r->exit = trace_seconds(t, analysis_lop_exit(a, l));
	r->late = trace_seconds(t, analysis_lop_lateness(a, l));
	r->diff = trace_seconds(t, analysis_lop_diff(a, l));
	r->global = trace_seconds(t, analysis_lop_global_lateness(a, l));
	r->kind = trace_op_kind_name(k);
	r->region = k == OP_COMPUTE ? "" : report_lop_region(a, l);
	r->in = report_lop_in(a, l);
	r->cause = analysis_cause_name(analysis_lop_cause(a, l));
}

static void
csv_row(struct csv_buf *b, void *ctx, uint32_t l)
{
	const struct analysis *a = ctx;
	struct row r;
	row_of(a, l, &r);
	csv_u32(b, 0, l);
	csv_u32(b, ',', r.rank);
	csv_text(b, ',', r.kind);
	csv_str(b, ',', r.region);
	csv_str(b, ',', r.in);
	const uint32_t u[3] = { r.part, r.step, r.local };
	for (int k = 0; k < 3; k++)
		csv_u32(b, ',', u[k]);
	csv_opt(b, ',', r.iter);
	const double d[6] = { r.enter, r.exit, r.exit - r.enter, r.late, r.diff, r.global };
	for (int k = 0; k < 6; k++)
		csv_f9(b, ',', d[k]);
	csv_text(b, ',', r.cause);
	csv_opt(b, ',', r.cause_rank);
	csv_opt(b, ',', r.cause_step);
	csv_u32(b, ',', r.calls);
	csv_char(b, '\n');
}

int
export_csv(const struct analysis *a, FILE *out)
{
	for (unsigned c = 0; c < export_n_columns; c++)
		fprintf(out, "%s%s", c ? "," : "", export_columns[c]);
	fputc('\n', out);
	report_csv_rows(out, analysis_lop_count(a), csv_row, (void *)a);
	return ferror(out) ? ERR_IO : 0;
}

static void
json_opt(struct json *j, uint32_t v)
{
	if (v == TRACE_NONE)
		json_null(j);
	else
		json_uint(j, v);
}

static void
json_row(struct json *j, void *ctx, uint32_t l)
{
	const struct analysis *a = ctx;
	struct row r;
	row_of(a, l, &r);
	json_begin_object(j);
	json_key(j, "op"); json_uint(j, l);
	json_key(j, "rank"); json_uint(j, r.rank);
	json_key(j, "kind"); json_string(j, r.kind);
	json_key(j, "region"); json_string(j, r.region);
	json_key(j, "in"); json_string(j, r.in);
	json_key(j, "partition"); json_uint(j, r.part);
	json_key(j, "step"); json_uint(j, r.step);
	json_key(j, "local_step"); json_uint(j, r.local);
	json_key(j, "iteration"); json_opt(j, r.iter);
	json_key(j, "enter_s"); json_double(j, r.enter);
	json_key(j, "exit_s"); json_double(j, r.exit);
	json_key(j, "duration_s"); json_double(j, r.exit - r.enter);
	json_key(j, "lateness_s"); json_double(j, r.late);
	json_key(j, "diff_s"); json_double(j, r.diff);
	json_key(j, "global_s"); json_double(j, r.global);
	json_key(j, "cause"); json_string(j, r.cause);
	json_key(j, "cause_rank"); json_opt(j, r.cause_rank);
	json_key(j, "cause_step"); json_opt(j, r.cause_step);
	json_key(j, "calls"); json_uint(j, r.calls);
	json_end_object(j);
}

int
export_json(const struct analysis *a, FILE *out)
{
	struct json j;
	const struct trace *t = analysis_trace(a);
	json_init(&j, out, 0);
	json_begin_object(&j);
	json_key(&j, "trace"); json_string(&j, trace_info(t)->path);
	json_key(&j, "columns");
	json_begin_array(&j);
	for (unsigned c = 0; c < export_n_columns; c++)
		json_string(&j, export_columns[c]);
	json_end_array(&j);
	json_key(&j, "operations");
	json_begin_array(&j);
	report_json_items(&j, analysis_lop_count(a), json_row, (void *)a);
	json_end_array(&j);
	json_end_object(&j);
	json_finish(&j);
	return ferror(out) ? ERR_IO : 0;
}

int
export_otf2(const struct analysis *a, const char *dir, const char *creator, trace_progress_fn progress,
	    void *ud, struct otf2_write_stats *st, struct err *e)
{
	const struct trace *t = analysis_trace(a);
	/* the copy is of the trace's own OTF2 archive */
	if (trace_info(t)->paradigm != PARADIGM_MPI)
		return err_set(e, ERR_USAGE, "%s: a Charm++ run has no OTF2 archive to copy; "
			       "export it with --csv or --json", trace_info(t)->path);
	uint32_t n_ops;
	struct trace_opv ops = trace_ops(t, &n_ops);
	struct otf2_write_op *v = calloc((size_t)n_ops + 1, sizeof *v);
	if (!v)
		return err_set(e, ERR_NOMEM, "out of memory");
	for (uint32_t o = 0; o < n_ops; o++) {
		uint32_t l = analysis_op_lop(a, o);
		v[o] = (struct otf2_write_op){
			.part = analysis_lop_part(a, l), .step = analysis_lop_step(a, l),
			.local_step = analysis_lop_local_step(a, l),
			.iteration = iterations_of_lop(a, l),
			.lateness = trace_seconds(t, analysis_lop_lateness(a, l)),
			.diff = trace_seconds(t, analysis_lop_diff(a, l)),
			.global = trace_seconds(t, analysis_lop_global_lateness(a, l)),
			.cause = analysis_lop_cause(a, l),
		};
		/* computation inside a coalesced send is no operation of its own */
		if (trace_op_get(&ops, o).kind == OP_COMPUTE && analysis_lop_kind(a, l) != OP_COMPUTE)
			v[o].part = TRACE_NONE;
	}
	const char *causes[CAUSE_COUNT];
	for (int c = 0; c < CAUSE_COUNT; c++)
		causes[c] = analysis_cause_name((enum analysis_cause)c);
	struct otf2_write_opts o = {
		.t = t, .ops = v, .cause_names = causes,
		/* created-rma only where there is RMA: other archives unchanged */
		.n_causes = trace_has_rma(t) ? CAUSE_COUNT : CAUSE_RMA, .creator = creator,
		.progress = progress, .ud = ud,
	};
	int rc = otf2_write_annotated(dir, &o, st, e);
	free(v);
	return rc;
}
