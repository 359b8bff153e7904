/* test_corpus.c — skein's analysis against the expected-structure files of
 * the project's own corpus (traces/corpus/<name>/expected.txt; the format
 * is described in traces/apps/README.md).
 *
 * For every section (option set) of a file, the test writes the same
 * lines from skein's analysis and compares: every line exactly, except
 * that `late` lines form a set and a `bd` case accepts b or d.
 *
 *   test_corpus                       every traces/corpus/NAME
 *   test_corpus DIR EXPECTED [SECTION]  one trace (a fresh run of an app,
 *                                     traces/apps/loop.sh) against a file,
 *                                     every section or the one named */
#include "testutil.h"

#include <glob.h>
#include <string.h>

#include "analysis/core/analysis.h"
#include "analysis/run/run.h"

#define MAXL 4096

struct lines {
	char **v;
	int n, cap;
};

static void
add(struct lines *L, const char *s)
{
	if (L->n == L->cap) {
		L->cap = L->cap ? 2 * L->cap : 64;
		L->v = realloc(L->v, (size_t)L->cap * sizeof *L->v);
	}
	L->v[L->n++] = strdup(s);
}

static void
clear(struct lines *L)
{
	for (int i = 0; i < L->n; i++)
		free(L->v[i]);
	free(L->v);
	memset(L, 0, sizeof *L);
}

/* strips comments and surrounding blanks; collapses runs of spaces */
static void
clean(char *s)
{
	char *h = strchr(s, '#');
	if (h)
		*h = '\0';
	char *w = s;
	int space = 1;
	for (char *r = s; *r; r++) {
		if (*r == ' ' || *r == '\t' || *r == '\n' || *r == '\r') {
			if (!space)
				*w++ = ' ';
			space = 1;
		} else {
			*w++ = *r;
			space = 0;
		}
	}
	if (w > s && w[-1] == ' ')
		w--;
	*w = '\0';
}

static int
has_prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

/* ---- naming operations as the format does ---- */

struct namer {
	const struct analysis *a;
	const struct trace *t;
	uint32_t iter_region;
};

/* the enclosing "iteration" frame's index on its rank, or -1 */
static int
iteration_of(const struct namer *nm, uint32_t lop)
{
	const struct trace_frame *frames = trace_frames(nm->t, NULL);
	const struct trace_timeline *tls = trace_timelines(nm->t, NULL);
	uint32_t first, count;
	analysis_lop_ops(nm->a, lop, &first, &count);
	uint32_t f = trace_op(nm->t, first).frame;
	while (f != TRACE_NONE && frames[f].region != nm->iter_region)
		f = frames[f].parent;
	if (f == TRACE_NONE)
		return -1;
	/* count earlier iteration frames of the rank */
	int k = 0;
	uint32_t tl = frames[f].timeline;
	for (uint32_t g = tls[tl].frame_first; g < f; g++)
		k += frames[g].region == nm->iter_region;
	return k;
}

/* "RANK ITER OP WHAT" of a lop (an aggregate is named by the comm op after it) */
static void
name_lop(const struct namer *nm, uint32_t lop, char *buf, size_t n)
{
	const struct analysis *a = nm->a;
	int agg = analysis_lop_kind(a, lop) == OP_COMPUTE;
	uint32_t c = agg ? lop + 1 : lop;
	uint32_t tl = analysis_lop_timeline(a, c), first, count;
	int iter = iteration_of(nm, c);
	analysis_timeline_lops(a, tl, &first, &count);
	int op = 0;
	for (uint32_t l = first; l < c; l++)
		if (analysis_lop_kind(a, l) != OP_COMPUTE && iteration_of(nm, l) == iter)
			op++;
	uint32_t of, oc;
	analysis_lop_ops(a, c, &of, &oc);
	const char *what = agg ? "agg" : trace_str(nm->t, trace_regions(nm->t, NULL)[trace_op(nm->t, of).region].name);
	snprintf(buf, n, "%u %d %d %s", tl, iter, op, what);
}

static char
case_letter(enum analysis_cause c)
{
	switch (c) {
	case CAUSE_COMPUTE: return 'a';
	case CAUSE_TIMELINE: return 'b';
	case CAUSE_IN_FLIGHT: return 'c';
	case CAUSE_MESSAGE: return 'd';
	default: return '-';
	}
}

static char
kind_letter(enum trace_op_kind k)
{
	switch (k) {
	case OP_SEND: return 's';
	case OP_RECV: return 'r';
	case OP_SENDRECV: return 'x';
	case OP_COLLECTIVE: return 'c';
	case OP_WAIT: return 'w';
	default: return '?';
	}
}

/* "0-3", "0,2", "0-1,3" */
static void
rank_list(const uint8_t *in, uint32_t n, char *buf, size_t len)
{
	buf[0] = '\0';
	for (uint32_t r = 0; r < n; r++) {
		if (!in[r])
			continue;
		uint32_t e = r;
		while (e + 1 < n && in[e + 1])
			e++;
		size_t at = strlen(buf);
		if (e > r)
			snprintf(buf + at, len - at, "%s%u-%u", at ? "," : "", r, e);
		else
			snprintf(buf + at, len - at, "%s%u", at ? "," : "", r);
		r = e;
	}
}

/* The lines of one section from skein's analysis. */
static void
section_lines(const struct analysis *a, uint64_t threshold_ticks, int delayed, struct lines *out)
{
	const struct trace *t = analysis_trace(a);
	struct namer nm = { .a = a, .t = t, .iter_region = TRACE_NONE };
	uint32_t n_regions, n_tl, np;
	const struct trace_region *regions = trace_regions(t, &n_regions);
	trace_timelines(t, &n_tl);
	for (uint32_t r = 0; r < n_regions; r++)
		if (strcmp(trace_str(t, regions[r].name), "iteration") == 0)
			nm.iter_region = r;
	char line[MAXL], name[256];
	uint32_t comm = 0;
	for (uint32_t l = 0; l < analysis_lop_count(a); l++)
		comm += analysis_lop_kind(a, l) != OP_COMPUTE;
	snprintf(line, sizeof line, "operations %u", comm);
	add(out, line);
	const struct analysis_part *parts = analysis_parts(a, &np);
	snprintf(line, sizeof line, "partitions %u", np);
	add(out, line);
	snprintf(line, sizeof line, "comm_steps_total %u", analysis_step_count(a) / 2);
	add(out, line);
	snprintf(line, sizeof line, "global_steps_total %u", analysis_step_count(a));
	add(out, line);
	/* partitions are numbered by first step; ties by lowest rank */
	uint8_t *in = calloc(n_tl + 1, 1);
	for (uint32_t p = 0; p < np; p++) {
		memset(in, 0, n_tl);
		uint32_t ops = 0;
		for (uint32_t l = 0; l < analysis_lop_count(a); l++)
			if (analysis_lop_part(a, l) == p && analysis_lop_kind(a, l) != OP_COMPUTE) {
				in[analysis_lop_timeline(a, l)] = 1;
				ops++;
			}
		char ranks[512];
		rank_list(in, n_tl, ranks, sizeof ranks);
		snprintf(line, sizeof line, "partition %u %u %s %u", parts[p].step_first / 2,
			 parts[p].step_count / 2, ranks, ops);
		add(out, line);
	}
	free(in);
	for (uint32_t r = 0; r < n_tl; r++) {
		uint32_t first, count;
		analysis_timeline_lops(a, r, &first, &count);
		int at = snprintf(line, sizeof line, "timeline %u", r);
		for (uint32_t l = first; l < first + count && at < MAXL - 16; l++)
			if (analysis_lop_kind(a, l) != OP_COMPUTE)
				at += snprintf(line + at, sizeof line - (size_t)at, " %c%u",
					       kind_letter(analysis_lop_kind(a, l)), analysis_lop_step(a, l) / 2);
		add(out, line);
	}
	if (!delayed)
		return;
	uint32_t late = 0;
	for (uint32_t l = 0; l < analysis_lop_count(a); l++) {
		/* the format has no operation before a rank's first
		 * communication: that is its start-up (README, "Operations") */
		if (analysis_lop_lateness(a, l) < threshold_ticks || analysis_lop_startup(a, l))
			continue;
		late++;
		uint32_t c = analysis_lop_kind(a, l) == OP_COMPUTE ? l + 1 : l;
		name_lop(&nm, l, name, sizeof name);
		snprintf(line, sizeof line, "late %s %u %c", name, analysis_lop_step(a, c) / 2,
			 case_letter(analysis_lop_cause(a, l)));
		add(out, line);
	}
	snprintf(line, sizeof line, "late_count %u", late);
	add(out, line);
	uint32_t nh;
	const uint32_t *hot = analysis_hotspots(a, &nh);
	if (nh && analysis_lop_diff(a, hot[0]) >= threshold_ticks) {
		name_lop(&nm, hot[0], name, sizeof name);
		snprintf(line, sizeof line, "hotspot %s %c", name, case_letter(analysis_lop_cause(a, hot[0])));
	} else {
		snprintf(line, sizeof line, "hotspot none");
	}
	add(out, line);
}

/* Does skein's line `got` stand for the file's `want`? (bd accepts b, d) */
static int
same(const char *want, const char *got)
{
	size_t n = strlen(want);
	if (n > 3 && strcmp(want + n - 3, " bd") == 0)
		return strncmp(want, got, n - 2) == 0 && strlen(got) == n - 1 &&
		       (got[n - 2] == 'b' || got[n - 2] == 'd');
	return strcmp(want, got) == 0;
}

static int
compare(const char *trace, const char *section, struct lines *want, struct lines *got)
{
	int bad = 0;
	for (int i = 0; i < want->n; i++) {
		int found = 0;
		for (int j = 0; j < got->n && !found; j++)
			if (got->v[j] && same(want->v[i], got->v[j])) {
				free(got->v[j]);
				got->v[j] = NULL;
				found = 1;
			}
		if (!found) {
			print_error("%s [%s]: expected line not produced: %s\n", trace, section, want->v[i]);
			bad++;
		}
	}
	for (int j = 0; j < got->n; j++)
		if (got->v[j]) {
			print_error("%s [%s]: skein produced an unexpected line: %s\n", trace, section, got->v[j]);
			bad++;
		}
	return bad;
}

static int
parse_options(const char *line, struct analysis_opts *o)
{
	analysis_opts_default(o);
	char buf[MAXL];
	snprintf(buf, sizeof buf, "%s", line + strlen("options "));
	for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
		char *eq = strchr(tok, '=');
		if (!eq)
			return -1;
		*eq = '\0';
		const char *v = eq + 1;
		int on = strcmp(v, "on") == 0;
		if (strcmp(tok, "coalesce") == 0) o->coalesce_isends = on;
		else if (strcmp(tok, "waitall-merge") == 0) o->waitall_merge = on;
		else if (strcmp(tok, "leap-merge") == 0) o->leap_merge = on;
		else if (strcmp(tok, "leap-factor") == 0) o->leap_factor = atof(v);
		else if (strcmp(tok, "force") == 0) o->leap_force = on;
		else if (strcmp(tok, "global-merge") == 0) o->global_step_merge = on;
		else if (strcmp(tok, "auto-merge") == 0) o->auto_merge = on;
		else if (strcmp(tok, "sender-progress") == 0) o->sender_progress = on;
		else if (strcmp(tok, "caller-merge") == 0) o->caller_merge = on;
		else return -1;
	}
	return 0;
}

/* argv mode: the expected file for the one trace given, and the section */
static const char *expected_arg, *section_arg;

static void
corpus_trace(void **state)
{
	const char *dir = *state;
	char path[1200], name[256];
	snprintf(path, sizeof path, "%s/traces.otf2", dir);
	snprintf(name, sizeof name, "%s", strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir);
	struct trace *t = tu_load(path);
	snprintf(path, sizeof path, "%s/expected.txt", dir);
	FILE *f = fopen(expected_arg ? expected_arg : path, "r");
	assert_non_null(f);
	char line[MAXL], section[64] = "";
	struct lines want = { 0 };
	struct analysis_opts o;
	uint64_t threshold = 0;
	int delayed = 0, sections = 0, bad = 0;
	uint64_t tps = trace_info(t)->ticks_per_second;
	while (fgets(line, sizeof line, f)) {
		clean(line);
		if (!line[0])
			continue;
		if (has_prefix(line, "late_threshold_us ")) {
			threshold = strtoull(line + 18, NULL, 10) * tps / 1000000;
			delayed = 1;
		} else if (has_prefix(line, "ranks ")) {
			uint32_t n;
			trace_timelines(t, &n);
			assert_int_equal(n, strtoul(line + 6, NULL, 10));
		} else if (has_prefix(line, "section ")) {
			snprintf(section, sizeof section, "%.63s", line + 8);
			clear(&want);
		} else if (has_prefix(line, "options ")) {
			assert_int_equal(parse_options(line, &o), 0);
		} else if (strcmp(line, "end") == 0 && section_arg && strcmp(section, section_arg)) {
			clear(&want);
			section[0] = '\0';
		} else if (strcmp(line, "end") == 0) {
			struct analysis *a = NULL;
			struct err e = { 0 };
			assert_int_equal(analysis_run(t, &o, NULL, NULL, &a, &e), 0);
			assert_true(analysis_verified(a));
			struct lines got = { 0 };
			section_lines(a, threshold, delayed, &got);
			bad += compare(name, section, &want, &got);
			clear(&got);
			clear(&want);
			analysis_destroy(a);
			sections++;
		} else if (section[0]) {
			add(&want, line);
		}
	}
	fclose(f);
	clear(&want);
	trace_destroy(t);
	assert_true(sections >= 1);
	assert_int_equal(bad, 0);
}

int
main(int argc, char **argv)
{
	char pat[1024];
	glob_t g;
	if (argc == 3 || argc == 4) {
		expected_arg = argv[2];
		section_arg = argc == 4 ? argv[3] : NULL;
		struct CMUnitTest one = { .name = argv[1], .test_func = corpus_trace,
					  .initial_state = argv[1] };
		return _cmocka_run_group_tests("expected structure", &one, 1, NULL, NULL);
	}
	if (argc != 1) {
		fprintf(stderr, "usage: test_corpus [TRACE_DIR EXPECTED [SECTION]]\n");
		return 2;
	}
	PROJECT_PATH(pat, "traces/corpus/*/expected.txt");
	if (glob(pat, 0, NULL, &g) != 0 || g.gl_pathc == 0) {
		fprintf(stderr, "test_corpus: no traces/corpus/*/expected.txt found\n");
		return 1;
	}
	struct CMUnitTest *tests = calloc(g.gl_pathc, sizeof *tests);
	char **dirs = calloc(g.gl_pathc, sizeof *dirs);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		dirs[i] = strdup(g.gl_pathv[i]);
		*strrchr(dirs[i], '/') = '\0';
		tests[i] = (struct CMUnitTest){ .name = strrchr(dirs[i], '/') + 1,
						.test_func = corpus_trace, .initial_state = dirs[i] };
	}
	int rc = _cmocka_run_group_tests("corpus expected structure", tests, g.gl_pathc, NULL, NULL);
	for (size_t i = 0; i < g.gl_pathc; i++)
		free(dirs[i]);
	free(dirs);
	free(tests);
	globfree(&g);
	return rc;
}
