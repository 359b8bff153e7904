/* view_cmd.c — the command line (:) and search by region name (/, n, N). */
#include "view_impl.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void
view_input_key(struct view *v, uint32_t key)
{
	if (key == KM_ESC || key == KM_CTRL('c') || key == KM_CTRL('g')) {
		v->input = INPUT_NONE;
		return;
	}
	if (key == KM_ENTER) {
		enum input_mode mode = v->input;
		v->input = INPUT_NONE;
		if (mode == INPUT_COMMAND) {
			view_command(v, v->line);
		} else if (v->line[0]) {
			snprintf(v->search, sizeof v->search, "%s", v->line);
			view_search_step(v, 1);
		} else if (v->search[0]) {
			view_search_step(v, 1);     /* an empty pattern repeats the last one */
		}
		return;
	}
	if (key == KM_BACKSPACE || key == KM_CTRL('h')) {
		if (v->line_len == 0) {
			v->input = INPUT_NONE;    /* backspace on an empty line closes it, as in vi */
			return;
		}
		do
			v->line_len--;
		while (v->line_len > 0 && ((unsigned char)v->line[v->line_len] & 0xc0) == 0x80);
		v->line[v->line_len] = 0;
		return;
	}
	if (key == KM_CTRL('u')) {
		v->line_len = 0;
		v->line[0] = 0;
		return;
	}
	if (key < 0x20 || key >= KM_BASE)
		return;
	char buf[8];
	int n = grid_utf8(key, buf);
	if (v->line_len + (size_t)n >= sizeof v->line)
		return;
	memcpy(v->line + v->line_len, buf, (size_t)n + 1);
	v->line_len += (size_t)n;
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
		view_set_message(v, 1, "rank %u does not exist (ranks 0-%u)", r, nr ? nr - 1 : 0);
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
			view_set_message(v, 0, "rows are ranks");
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
		view_set_message(v, 1, "partition %u does not exist (0-%u)", p, np ? np - 1 : 0);
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
	view_set_message(v, 1, "partition %u has no operations", p);
}

void
view_command(struct view *v, const char *cmd)
{
	char buf[200];
	snprintf(buf, sizeof buf, "%s", cmd);
	char *words[4] = { 0 };
	int n = 0;
	for (char *w = strtok(buf, " \t"); w && n < 4; w = strtok(NULL, " \t"))
		words[n++] = w;
	if (n == 0)
		return;
	int k = 0;
	if (strcmp(words[0], "goto") == 0 || strcmp(words[0], "go") == 0)
		k = 1;
	const char *c = words[k];
	const char *arg = k + 1 < n ? words[k + 1] : NULL;
	const char *arg2 = k + 2 < n ? words[k + 2] : NULL;
	uint32_t x, y;
	if (!c) {
		view_set_message(v, 1, "goto what? (step N, rank N, partition N, hotspot N)");
	} else if (parse_num(c, &x) == 0 && !arg) {
		goto_step(v, x);
	} else if ((!strcmp(c, "step") || !strcmp(c, "s")) && arg && !parse_num(arg, &x) && !arg2) {
		goto_step(v, x);
	} else if ((!strcmp(c, "rank") || !strcmp(c, "r")) && arg && !parse_num(arg, &x) && !arg2) {
		goto_rank(v, x);
	} else if ((!strcmp(c, "partition") || !strcmp(c, "part") || !strcmp(c, "p")) && arg &&
		   !parse_num(arg, &x) && !arg2) {
		goto_partition(v, x);
	} else if ((!strcmp(c, "hotspot") || !strcmp(c, "hot")) && arg && !parse_num(arg, &x) && !arg2) {
		uint32_t nh;
		analysis_hotspots_startup(v->a, view_index_startup(v->ix), &nh);
		if (x < 1 || x > nh) {
			view_set_message(v, 1, "hotspot %u does not exist (1-%u)", x, nh);
		} else {
			v->hot_idx = (int)x - 2;
			view_action(v, ACT_NEXT_HOTSPOT);
		}
	} else if ((!strcmp(c, "iter") || !strcmp(c, "iteration") || !strcmp(c, "i")) && arg &&
		   !parse_num(arg, &x) && !arg2) {
		view_iter_goto(v, x);
	} else if (!strcmp(c, "metric") || !strcmp(c, "m")) {
		enum view_metric m = arg && !arg2 ? view_metric_find(arg) : METRIC_COUNT;
		if (m == METRIC_DELTA && !v->diff) {
			view_set_message(v, 1, "delta compares two runs: open them with skein diff BEFORE AFTER");
		} else if (m == METRIC_COUNT) {
			view_set_message(v, 1, "metric: lateness, diff, global, duration, partition, function%s",
					 v->diff ? " or delta" : "");
		} else {
			v->metric = m;
			view_select_update(v);
		}
	} else if (!strcmp(c, "zoom") || !strcmp(c, "z")) {
		if (arg && !parse_num(arg, &x) && x >= 1 && (!arg2 || (!parse_num(arg2, &y) && y >= 1)))
			view_set_zoom(v, x, arg2 ? y : v->zr);
		else
			view_set_message(v, 1, "zoom N [R]: N steps per column, R ranks per row (both >= 1)");
	} else if ((!strcmp(c, "clusters") || !strcmp(c, "cluster") || !strcmp(c, "cl")) && !arg2) {
		clusters_command(v, arg);
	} else if (!strcmp(c, "save") && arg && !arg2) {
		struct view_state st;
		struct err e = { 0 };
		view_get_state(v, &st);
		if (!v->save)
			view_set_message(v, 1, "saving views is not available here");
		else if (v->save(v->save_ud, &st, arg, &e))
			view_set_message(v, 1, "%s", e.msg[0] ? e.msg : "cannot save the view");
		else
			view_set_message(v, 0, "view saved to %s", arg);
	} else if (!strcmp(c, "search") && arg) {
		snprintf(v->search, sizeof v->search, "%s", arg);
		view_search_step(v, 1);
	} else if ((!strcmp(c, "q") || !strcmp(c, "quit")) && !arg) {
		v->quit = 1;
	} else if (!strcmp(c, "help") && !arg) {
		view_action(v, ACT_HELP);
	} else {
		view_set_message(v, 1, "unknown command '%s' (step N, rank N, partition N, hotspot N, "
				 "iter N, metric NAME, zoom N [R], clusters K|off, save FILE, quit)", cmd);
	}
}

/* Regions whose name holds the pattern (case-insensitive), or matches
 * it as a glob when it has wildcards. Returns how many matched. */
static uint32_t
compile_search(struct view *v)
{
	uint32_t n, hits = 0;
	const struct trace_region *r = trace_regions(v->t, &n);
	int glob = strpbrk(v->search, "*?[") != NULL;
	for (uint32_t i = 0; i < n; i++) {
		const char *name = trace_str(v->t, r[i].name);
		int m;
		if (glob) {
			m = fnmatch(v->search, name, 0) == 0;
		} else {
			m = 0;
			size_t pl = strlen(v->search);
			for (const char *p = name; *p && !m; p++)
				m = strncasecmp(p, v->search, pl) == 0;
		}
		v->search_match[i] = (uint8_t)m;
		hits += (uint32_t)m;
	}
	return hits;
}

static int
lop_matches(const struct view *v, uint32_t lop)
{
	uint32_t r = analysis_lop_region(v->a, lop);
	return r != TRACE_NONE && v->search_match[r];
}

/* The first match after (step, rank) in step-major order, dir 1, or the
 * last before it, dir -1; TRACE_NONE if none. */
static uint32_t
search_from(struct view *v, long step, long rank, int dir)
{
	uint32_t nr = view_index_ranks(v->ix), best = TRACE_NONE;
	long best_step = dir > 0 ? (long)UINT32_MAX + 1 : -1;
	for (uint32_t r = 0; r < nr; r++) {
		uint32_t first, end;
		view_index_rank_lops(v->ix, r, &first, &end);
		if (dir > 0) {
			long s = (long)r <= rank ? step + 1 : step;
			if (s < 0)
				s = 0;
			for (uint32_t i = view_index_lower(v->ix, r, (uint32_t)(s > UINT32_MAX ? UINT32_MAX : s)); i < end; i++) {
				long st = analysis_lop_step(v->a, i);
				if (st >= best_step)
					break;
				if (lop_matches(v, i)) {
					best = i;
					best_step = st;
					break;
				}
			}
		} else {
			long s = (long)r >= rank ? step : step + 1;   /* lops with step < s */
			if (s <= 0)
				continue;
			uint32_t i = view_index_lower(v->ix, r, (uint32_t)(s > UINT32_MAX ? UINT32_MAX : s));
			while (i > first) {
				i--;
				long st = analysis_lop_step(v->a, i);
				if (st < best_step)
					break;
				if (lop_matches(v, i)) {
					best = i;
					best_step = st;
					break;
				}
			}
		}
	}
	return best;
}

void
view_search_step(struct view *v, int dir)
{
	if (!v->search[0]) {
		view_set_message(v, 1, "no search yet: / starts one");
		return;
	}
	if (compile_search(v) == 0) {
		view_set_message(v, 1, "no region matches '%s'", v->search);
		return;
	}
	uint32_t lop = search_from(v, v->sel_step, v->sel_rank, dir);
	int wrapped = 0;
	if (lop == TRACE_NONE) {
		long far = dir > 0 ? -1 : (long)UINT32_MAX;
		lop = search_from(v, far, dir > 0 ? (long)UINT32_MAX : -1, dir);
		wrapped = 1;
	}
	if (lop == TRACE_NONE) {
		view_set_message(v, 1, "no operation in a region matching '%s'", v->search);
		return;
	}
	view_jump_lop(v, lop);
	view_set_message(v, 0, "/%s: %s at rank %u step %u%s", v->search,
			 view_region_name(v, analysis_lop_region(v->a, lop)), v->sel_rank, v->sel_step,
			 wrapped ? dir > 0 ? " (wrapped to the start)" : " (wrapped to the end)" : "");
}
