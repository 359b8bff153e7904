/* view_cmd.c — the command line (:) and its commands. */
#include "view_impl.h"
#include "analysis/explain/explain.h"

#include "analysis/core/iterations.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The commands: the help, the man page and Tab completion read this. */
const struct view_cmd_info view_cmds[] = {
	{ "step", " N", "go to global step N (a bare N does too)", NULL },
	{ "rank", " N", "go to rank N", "go to the chare of row N" },
	{ "partition", " N", "go to partition N (numbered from 0 in step order, as analyze does)",
	  "go to phase N (numbered from 0 in step order, as analyze does)" },
	{ "hotspot", " N", "go to the N-th hotspot (largest differential lateness)", NULL },
	{ "problem", " N", "go to the N-th problem (delays, lateness lost, outliers; < and >)", NULL },
	{ "iter", " N", "go to iteration N (numbered from 0, as analyze does)", NULL },
	{ "metric", " NAME", "colour by lateness, diff, global, duration, wait, path, threads (with threads or streams), "
	  "partition or function (delta: skein diff)",
	  "colour by diff-duration, idle, imbalance, path, partition, function, lateness, diff, global or duration" },
	{ "zoom", " N [R]", "N steps per column, R ranks per row", "N steps per column, R chares per row" },
	{ "clusters", " K|off", "rows: ranks in K clusters by lateness (1-20), or ranks again",
	  "rows: chares in K clusters by lateness (1-20), or chares again" },
	{ "ranks", " SET|all", "keep these ranks in every pane: 0-15,32, node:NAME, comm:NAME, cluster:N (all: every rank)",
	  "keep these chares in every pane: 0-15,32 (all: every chare)" },
	{ "window", " T1 T2|off", "keep every pane to this time (seconds from the start: 0.1 0.2, 120ms 125ms)", NULL },
	{ "profile", "", "the profile pane (p): time per region", NULL },
	{ "comm", "", "the communication pane (a): who sends how much to whom", NULL },
	{ "lists", "", "the lists pane (i): problems, hotspots, waits, lateness per rank, warnings",
	  "the lists pane (i): hotspots, lateness per chare, warnings" },
	{ "save", " FILE", "write the view to FILE (~/ is your home); skein --config FILE reopens it", NULL },
	{ "search", " TEXT", "search as / does", NULL },
	{ "help", "", "this help", NULL },
	{ "quit", "", "quit skein", NULL },
};
const size_t view_n_cmds = sizeof view_cmds / sizeof view_cmds[0];

/* Region names for completion, user regions first; NULL when out of
 * memory. The names live as long as the trace. */
static const char **
region_names(struct view *v, size_t *n)
{
	uint32_t nr;
	const struct trace_region *r = trace_regions(v->t, &nr);
	const char **names = malloc((nr ? nr : 1) * sizeof *names);
	if (!names)
		return NULL;
	*n = 0;
	for (int user = 1; user >= 0; user--)
		for (uint32_t i = 0; i < nr; i++)
			if ((r[i].role == ROLE_USER) == user)
				names[(*n)++] = trace_str(v->t, r[i].name);
	return names;
}

/* Tab in a prompt: command names for the first word of a : line, then
 * what the command takes (metric names, off/on, region names); region
 * names in the / prompt; a sample set's own commands and what they take.
 * Several matches are listed above the prompt. */
static void
complete(struct view *v, struct prompt *p)
{
	const char *metrics[METRIC_COUNT], *cl[] = { "off", "on" }, *names[32];
	const char *const *cand = NULL;
	const char **regions = NULL;
	size_t n = 0;
	int space = 0;
	size_t ws = prompt_word_start(p);
	char first[32] = "";
	sscanf(p->buf, "%31s", first);
	if (v->smp) {                 /* a sample set's commands (it has no search) */
		n = view_samples_complete(v, ws == 0 ? NULL : first, names, sizeof names / sizeof names[0], &space);
		cand = n ? names : NULL;
	} else if (v->input == INPUT_SEARCH || (ws > 0 && !strcmp(first, "search"))) {
		cand = regions = region_names(v, &n);
	} else if (ws == 0) {
		for (size_t i = 0; i < view_n_cmds && i < sizeof names / sizeof names[0]; i++)
			names[n++] = view_cmds[i].name;
		cand = names;
		space = 1;
	} else if (!strcmp(first, "metric") || !strcmp(first, "m")) {
		for (int i = 0; i < METRIC_COUNT; i++)
			if (view_metric_usable(v, (enum view_metric)i))
				metrics[n++] = view_metric_name((enum view_metric)i);
		cand = metrics;
	} else if (!strcmp(first, "clusters") || !strcmp(first, "cl")) {
		cand = cl;
		n = 2;
	}
	size_t m = cand ? prompt_complete(p, cand, n, space) : 0;
	if (m == 0) {
		view_set_message(v, 1, cand ? "no completion" : "nothing to complete here");
	} else if (m > 1) {
		/* the matches, as many as a message holds */
		char list[sizeof v->message];
		size_t len = 0, wl = strlen(p->tab_word), shown = 0;
		list[0] = 0;
		for (size_t i = 0; i < n && len + 40 < sizeof list; i++)
			if (!strncasecmp(cand[i], p->tab_word, wl)) {
				int k = snprintf(list + len, sizeof list - len, "%s%s", shown ? "  " : "", cand[i]);
				len += k > 0 ? (size_t)k : 0;
				shown++;
			}
		view_set_message(v, 0, "%zu matches: %s%s", m, list, shown < m ? "  \u2026" : "");
	}
	free(regions);
}

void
view_input_key(struct view *v, uint32_t key)
{
	struct prompt *p = v->input == INPUT_COMMAND ? &v->cmd_prompt : &v->search_prompt;
	v->message[0] = 0;
	switch (prompt_key(p, key)) {
	case PROMPT_CANCEL:
		v->input = INPUT_NONE;
		return;
	case PROMPT_COMPLETE:
		complete(v, p);
		return;
	case PROMPT_EDITED:
		return;
	case PROMPT_SUBMIT:
		break;
	}
	enum input_mode mode = v->input;
	v->input = INPUT_NONE;
	prompt_history_add(p, p->buf);
	v->history_changed = 1;
	if (mode == INPUT_COMMAND) {
		view_command(v, p->buf);
	} else if (p->buf[0]) {
		snprintf(v->search, sizeof v->search, "%s", p->buf);
		view_search_step(v, 1);
	} else if (v->search[0]) {
		view_search_step(v, 1);     /* an empty pattern repeats the last one */
	}
}

void
view_history_add(struct view *v, const char *line)
{
	if (line[0] == ':' || line[0] == '/')
		prompt_history_add(line[0] == ':' ? &v->cmd_prompt : &v->search_prompt, line + 1);
}

const char *
view_history_line(const struct view *v, size_t i, char *buf, size_t n)
{
	const struct prompt *c = &v->cmd_prompt, *s = &v->search_prompt;
	if (i < c->n_hist)
		snprintf(buf, n, ":%s", c->hist[i]);
	else if (i - c->n_hist < s->n_hist)
		snprintf(buf, n, "/%s", s->hist[i - c->n_hist]);
	else
		return NULL;
	return buf;
}

int
view_history_changed(const struct view *v)
{
	return v->history_changed;
}

static int
parse_num(const char *s, uint32_t *out)
{
	char *end;
	errno = 0;
	unsigned long x = strtoul(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || x > UINT32_MAX)
		return -1;
	*out = (uint32_t)x;
	return 0;
}

static void
goto_step(struct view *v, uint32_t s)
{
	uint32_t ns = view_index_steps(v->ix);
	if (s >= ns) {
		view_set_message(v, 1, "step %u is past the last step (%u)", s, ns ? ns - 1 : 0);
		return;
	}
	v->sel_step = s;
	v->pinned = 0;
	view_select_update(v);
	view_scroll_to_selection(v, 1);
}

static void
goto_rank(struct view *v, uint32_t r)
{
	uint32_t nr = view_index_ranks(v->ix);
	if (r >= nr) {
		view_set_message(v, 1, "rank %u does not exist (%s 0-%u)", r, view_is_charm(v) ? "chare rows" : "ranks",
				 nr ? nr - 1 : 0);
		return;
	}
	view_select_rank(v, r);
	v->pinned = 0;
	v->gc_valid = 0;
	view_select_update(v);
	view_scroll_to_selection(v, 1);
}

/* clusters [K|off|on]: clustered rows with K clusters (1-20). */
static void
clusters_command(struct view *v, const char *arg)
{
	uint32_t k;
	if (!arg || !strcmp(arg, "on")) {
		view_clusters_on(v, v->clustered ? view_cluster_level(v->vc) : v->cl_start);
	} else if (!strcmp(arg, "off")) {
		if (v->clustered)
			view_clusters_off(v);
		else
			view_set_message(v, 0, "rows are %ss", view_row_noun(v));
	} else if (!parse_num(arg, &k) && k >= 1 && k <= CLUSTER_MAX_K) {
		v->cl_start = k;
		view_clusters_on(v, k);
	} else {
		view_set_message(v, 1, "clusters K (1-%d), clusters off", CLUSTER_MAX_K);
	}
}

/* Partition numbers are the analysis's, 0-based, as analyze shows them. */
static void
goto_partition(struct view *v, uint32_t p)
{
	uint32_t np;
	const struct analysis_part *parts = analysis_parts(v->a, &np);
	if (p >= np) {
		view_set_message(v, 1, "partition %u does not exist (%s 0-%u)", p, view_is_charm(v) ? "phases" : "partitions",
				 np ? np - 1 : 0);
		return;
	}
	/* its first lop on the selected rank, else on the first rank taking part */
	uint32_t nr = view_index_ranks(v->ix);
	for (uint32_t k = 0; k < nr; k++) {
		uint32_t r = (v->sel_rank + k) % nr;
		uint32_t first, end;
		view_index_rank_lops(v->ix, r, &first, &end);
		for (uint32_t i = view_index_lower(v->ix, r, parts[p].step_first);
		     i < end && analysis_lop_step(v->a, i) < parts[p].step_first + parts[p].step_count; i++)
			if (analysis_lop_part(v->a, i) == p) {
				view_jump_lop(v, i);
				return;
			}
	}
	view_set_message(v, 1, "%s %u has no operations", view_is_charm(v) ? "phase" : "partition", p);
}

/* The command called name: its name, an alias (s, r, p, hot, i, m, z,
 * cl, q) or an unambiguous prefix; -1 when none is. */
static int
find_command(const char *name)
{
	static const struct { const char *alias, *cmd; } aliases[] = {
		{ "s", "step" }, { "r", "rank" }, { "p", "partition" }, { "part", "partition" },
		{ "hot", "hotspot" }, { "m", "metric" }, { "z", "zoom" }, { "cl", "clusters" },
		{ "cluster", "clusters" }, { "q", "quit" }, { "i", "iter" }, { "iteration", "iter" },
	};
	for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
		if (!strcmp(name, aliases[i].alias))
			name = aliases[i].cmd;
	int found = -1;
	size_t n = strlen(name);
	for (size_t i = 0; i < view_n_cmds; i++) {
		if (!strcmp(name, view_cmds[i].name))
			return (int)i;
		if (!strncmp(name, view_cmds[i].name, n))
			found = found == -1 ? (int)i : -2;
	}
	return found >= 0 ? found : -1;
}

const char *
view_cmd_help(const struct view_cmd_info *c, int charm)
{
	return charm && c->charm ? c->charm : c->help;
}

static void
usage(struct view *v, int c, const char *why)
{
	view_set_message(v, 1, "%s%s%s%s: %s", why ? why : "", why ? " \u2014 " : "", view_cmds[c].name,
			 view_cmds[c].args, view_cmd_help(&view_cmds[c], view_is_charm(v)));
}

/* The one number a step, rank, partition or hotspot command takes, in
 * [lo, hi]; what is wrong with it goes to the message ("rank takes a
 * number from 0 to 3, not '-1'"). Out of range is the caller's to say. */
static int
one_number(struct view *v, int c, const char *arg, const char *more, uint32_t lo, uint32_t hi,
	   uint32_t *x)
{
	const char *cn = view_cmds[c].name;
	if (!arg)
		view_set_message(v, 1, "%s takes a number from %u to %u", cn, lo, hi);
	else if (more)
		view_set_message(v, 1, "%s takes one number, not '%s %s'", cn, arg, more);
	else if (parse_num(arg, x))
		view_set_message(v, 1, "%s takes a number from %u to %u, not '%s'", cn, lo, hi, arg);
	else
		return 0;
	return -1;
}

int
view_words(const char *cmd, char *buf, size_t size, char **words, int max)
{
	snprintf(buf, size, "%s", cmd);
	char *save = NULL;
	int n = 0;
	for (int i = 0; i < max; i++)
		words[i] = NULL;
	for (char *w = strtok_r(buf, " \t", &save); w && n < max; w = strtok_r(NULL, " \t", &save))
		words[n++] = w;
	return n;
}

void
view_command(struct view *v, const char *cmd)
{
	if (v->smp) {
		view_samples_command(v, cmd);
		return;
	}
	char buf[200];
	char *words[4];
	int n = view_words(cmd, buf, sizeof buf, words, 4);
	if (n == 0)
		return;
	int k = 0;
	if (strcmp(words[0], "goto") == 0 || strcmp(words[0], "go") == 0)
		k = 1;
	const char *name = words[k];
	const char *arg = k + 1 < n ? words[k + 1] : NULL;
	const char *arg2 = k + 2 < n ? words[k + 2] : NULL;
	/* save and search take the rest of the line, spaces and all */
	const char *rest = NULL;
	if (arg) {
		rest = cmd + (arg - buf);
		while (*rest == ' ' || *rest == '\t')
			rest++;
	}
	uint32_t x, y, np, nh;
	uint32_t ns = view_index_steps(v->ix), nr = view_index_ranks(v->ix);
	uint32_t nit = iterations_get(v->a)->count;
	analysis_parts(v->a, &np);
	analysis_hotspots_startup(v->a, view_index_startup(v->ix), &nh);
	if (!name) {
		view_set_message(v, 1, "goto what? (step N, rank N, partition N, hotspot N)");
		return;
	}
	if (!arg && parse_num(name, &x) == 0) {
		goto_step(v, x);
		return;
	}
	int c = find_command(name);
	if (c < 0) {
		view_set_message(v, 1, "unknown command '%s' (Tab completes; ? lists the commands)", name);
		return;
	}
	const char *cn = view_cmds[c].name;
	if (!strcmp(cn, "step")) {
		if (!one_number(v, c, arg, arg2, 0, ns ? ns - 1 : 0, &x))
			goto_step(v, x);
	} else if (!strcmp(cn, "rank")) {
		if (!one_number(v, c, arg, arg2, 0, nr ? nr - 1 : 0, &x))
			goto_rank(v, x);
	} else if (!strcmp(cn, "partition")) {
		if (!one_number(v, c, arg, arg2, 0, np ? np - 1 : 0, &x))
			goto_partition(v, x);
	} else if (!strcmp(cn, "hotspot")) {
		if (one_number(v, c, arg, arg2, 1, nh, &x)) {
			/* said */
		} else if (x < 1 || x > nh) {
			view_set_message(v, 1, "hotspot %u does not exist (1-%u)", x, nh);
		} else {
			view_goto_hotspot(v, x - 1);
		}
	} else if (!strcmp(cn, "problem")) {
		uint32_t npr;
		analysis_problems(v->a, &npr);
		if (one_number(v, c, arg, arg2, 1, npr, &x)) {
			/* said */
		} else if (x < 1 || x > npr) {
			view_set_message(v, 1, npr ? "problem %u does not exist (1-%u)" : "no problem was found", x, npr);
		} else {
			v->hot_idx = (int)x - 2;
			view_action(v, ACT_NEXT_HOTSPOT);
		}
	} else if (!strcmp(cn, "iter")) {
		/* view_iter_goto says when there are none or k is past the last */
		if (!one_number(v, c, arg, arg2, 0, nit ? nit - 1 : 0, &x))
			view_iter_goto(v, x);
	} else if (!strcmp(cn, "metric")) {
		enum view_metric m = arg && !arg2 ? view_metric_find(arg) : METRIC_COUNT;
		if (m == METRIC_DELTA && !v->diff) {
			view_set_message(v, 1, "delta compares two runs: open them with skein diff BEFORE AFTER");
		} else if (m == METRIC_COUNT) {
			usage(v, c, arg ? "no such metric" : NULL);
		} else if (!view_metric_usable(v, m)) {
			view_set_message(v, 1, "metric %s: for %s only", arg,
					 m == METRIC_WAIT ? "MPI traces" : m == METRIC_LANES
					 ? "traces with threads or GPU streams" : "Charm++ traces");
		} else {
			v->metric = m;
			view_select_update(v);
		}
	} else if (!strcmp(cn, "zoom")) {
		if (arg && !parse_num(arg, &x) && x >= 1 && (!arg2 || (!parse_num(arg2, &y) && y >= 1)))
			view_set_zoom(v, x, arg2 ? y : v->zr);
		else
			usage(v, c, "both numbers are 1 or more");
	} else if (!strcmp(cn, "clusters")) {
		if (arg2)
			usage(v, c, NULL);
		else
			clusters_command(v, arg);
	} else if (!strcmp(cn, "ranks")) {
		view_filter_ranks(v, rest);
	} else if (!strcmp(cn, "window")) {
		if (n > k + 3)
			usage(v, c, "two times at most");
		else
			view_filter_window(v, arg, arg2);
	} else if (!strcmp(cn, "profile") || !strcmp(cn, "comm") || !strcmp(cn, "lists")) {
		int id = !strcmp(cn, "profile") ? PANE_PROFILE : !strcmp(cn, "comm") ? PANE_COMM : PANE_LISTS;
		if (v->big != id)
			view_big_toggle(v, id);
	} else if (!strcmp(cn, "save")) {
		struct view_state st;
		struct err e = { 0 };
		view_get_state(v, &st);
		if (!rest)
			usage(v, c, "a file name is missing");
		else if (!v->save)
			view_set_message(v, 1, "saving views is not available here");
		else if (v->save(v->save_ud, &st, rest, &e))
			view_set_message(v, 1, "%s", e.msg[0] ? e.msg : "cannot save the view");
		else
			view_set_message(v, 0, "view saved to %s", rest);
	} else if (!strcmp(cn, "search")) {
		if (!rest) {
			usage(v, c, NULL);
			return;
		}
		snprintf(v->search, sizeof v->search, "%s", rest);
		view_search_step(v, 1);
	} else if (arg) {
		usage(v, c, "no argument");
	} else if (!strcmp(cn, "quit")) {
		v->quit = 1;
	} else {
		view_action(v, ACT_HELP);
	}
}
