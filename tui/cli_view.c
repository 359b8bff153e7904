/* cli_view.c — `skein explore` and `skein render`: options from the
 * configuration and the command line, key bindings, saved views, loading
 * with progress, and handing over to the explorer or the renderer. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "view/surface/action.h"
#include "view/surface/keymap.h"
#include "topo/topo.h"
#include "view/view.h"
#include "view/view_keys.h"
#include "analysis/compare/diff.h"
#include "cli.h"
#include "explore.h"
#include "load.h"
#include "screen.h"

/* Phase patterns from the files must name regions the trace has. */
int
cli_check_regions(const struct cli *c, const struct trace *t)
{
	struct err e = { 0 };
	if (c->given & G_PHASES) {
		/* --phase replaces the files' rules: check those instead */
		const char *globs[MAX_PHASES];
		for (uint32_t i = 0; i < c->aopts.n_phases; i++)
			globs[i] = c->phases[i].region_glob;
		if (config_check_phase_globs("--phase", globs, c->aopts.n_phases, t, &e)) {
			cli_error("%s", e.msg);
			return e.code == ERR_NOMEM ? EXIT_FAIL : EXIT_USAGE;
		}
		return EXIT_OK;
	}
	if (config_check_regions(&c->cfg, t, &e)) {
		cli_error("%s", e.msg);
		return e.code == ERR_NOMEM ? EXIT_FAIL : EXIT_USAGE;
	}
	return EXIT_OK;
}

const char **
cli_phase_names(const struct cli *c, const struct analysis *a, uint8_t *keep, struct err *e)
{
	uint32_t np;
	analysis_parts(a, &np);
	uint32_t *label = malloc(((size_t)np + 1) * sizeof *label);
	const char **names = malloc(((size_t)np + 1) * sizeof *names);
	if (!label || !names || config_part_phases(&c->cfg, a, label, keep, e)) {
		if (!e->msg[0])
			err_set(e, ERR_NOMEM, "out of memory");
		free(label);
		free(names);
		return NULL;
	}
	for (uint32_t k = 0; k < np; k++)
		names[k] = label[k] == CONFIG_NO_PHASE ? NULL : c->cfg.phases.named[label[k]].name;
	free(label);
	return names;
}

/* "~/x" and "~" as a shell expands them: $HOME, else the password
 * database; "~user/x" for another user. Returns path itself otherwise,
 * or NULL when the home directory is unknown. */
static const char *
expand_home(const char *path, char *buf, size_t n)
{
	if (path[0] != '~')
		return path;
	const char *slash = strchr(path, '/');
	size_t ul = slash ? (size_t)(slash - path - 1) : strlen(path + 1);
	const char *home = NULL;
	if (ul == 0) {
		home = getenv("HOME");
		if (!home || !*home) {
			struct passwd *pw = getpwuid(getuid());
			home = pw ? pw->pw_dir : NULL;
		}
	} else {
		char user[256];
		snprintf(user, sizeof user, "%.*s", (int)(ul < 255 ? ul : 255), path + 1);
		struct passwd *pw = getpwnam(user);
		home = pw ? pw->pw_dir : NULL;
	}
	if (!home)
		return NULL;
	snprintf(buf, n, "%s%s", home, slash ? slash : "");
	return buf;
}

int
cli_save_config(const struct config *cfg, const char *arg, struct err *e)
{
	char full[4096];
	const char *path = expand_home(arg, full, sizeof full);
	if (!path)
		return err_set(e, ERR_IO, "%s: no such user, or no home directory", arg);
	/* O_NONBLOCK: a FIFO without a reader fails at once instead of
	 * hanging the explorer */
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK | O_CLOEXEC, 0666);
	int flags = fd < 0 ? -1 : fcntl(fd, F_GETFL);
	FILE *f = flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		int why = errno;
		if (fd >= 0)
			close(fd);
		return err_set(e, ERR_IO, "cannot save %s: %s", path, strerror(why));
	}
	struct err de = { 0 };
	int rc = config_dump(cfg, f, &de);
	int why = errno;
	if (fclose(f) && !rc) {
		rc = ERR_IO;
		why = errno;
	}
	if (rc)
		return err_set(e, rc, "cannot save %s: %s", path, rc == ERR_IO ? strerror(why) : de.msg);
	return 0;
}

/* `:save FILE`: the current view written into the configuration, dumped. */
static int
save_view(void *ud, const struct view_state *st, const char *arg, struct err *e)
{
	struct config *cfg = ud;
	cfg->view.metric = (enum config_metric)st->metric;
	cfg->view.sel_rank = st->sel_rank;
	cfg->view.sel_step = st->sel_step;
	cfg->view.sel_op = st->jumped > 0 ? CONFIG_SEL_JUMPED : CONFIG_SEL_MAXIMUM;
	cfg->view.zoom_steps = st->zoom_steps ? st->zoom_steps : 1;
	cfg->view.zoom_ranks = st->zoom_ranks ? st->zoom_ranks : 1;
	cfg->view.clusters = st->clusters;
	/* a pane the layout cannot name (the profile, the lists: the whole
	 * body) leaves the layout's focus on the grid */
	enum config_pane focus = st->focus ? config_pane_find(st->focus) : CONFIG_PANE_COUNT;
	cfg->view.focus = focus != CONFIG_PANE_COUNT ? focus : CONFIG_PANE_GRID;
	/* the side pane shown (t and d swap it with the details) takes the
	 * side column's place in the layout, so the file reopens with it */
	static enum config_pane panes[8][CONFIG_PANE_COUNT];
	static struct config_column cols[8];
	enum config_pane side = st->side ? config_pane_find(st->side) : CONFIG_PANE_COUNT;
	if (side != CONFIG_PANE_COUNT && cfg->view.n_columns <= 8) {
		/* (cols itself after a first :save: rewritten in place) */
		for (uint32_t i = 0; i < cfg->view.n_columns; i++) {
			const struct config_column *c = &cfg->view.layout[i];
			uint32_t n = 0;
			for (uint32_t k = 0; k < c->n_panes && n < CONFIG_PANE_COUNT; k++) {
				enum config_pane pn = c->panes[k];
				if (pn == CONFIG_PANE_DETAILS || pn == CONFIG_PANE_TOPOLOGY || pn == CONFIG_PANE_HISTOGRAM)
					pn = side;
				int twice = 0;
				for (uint32_t j = 0; j < n; j++)
					twice |= panes[i][j] == pn;
				if (!twice)
					panes[i][n++] = pn;
			}
			cols[i] = (struct config_column){ .panes = panes[i], .n_panes = n, .width = c->width };
		}
		cfg->view.layout = cols;
	}
	if (st->window) {
		cfg->view.steps = (struct config_window){ .all = 0, .first = st->win_step,
			.last = st->win_step + (st->win_steps ? st->win_steps - 1 : 0) };
		cfg->view.ranks = (struct config_window){ .all = 0, .first = st->win_rank,
			.last = st->win_rank + (st->win_ranks ? st->win_ranks - 1 : 0) };
	}
	return cli_save_config(cfg, arg, e);
}

void
cli_trace_label(const char *path, char *buf, size_t n)
{
	size_t len = strlen(path);
	while (len > 1 && path[len - 1] == '/')
		len--;
	size_t start = len, slashes = 0;
	while (start > 0) {
		if (path[start - 1] == '/' && ++slashes == 2)
			break;
		start--;
	}
	snprintf(buf, n, "%.*s", (int)(len - start), path + start);
}

static int
key_name_ok(const char *name)
{
	return keymap_key_parse(name, strlen(name)) != 0;
}

/* The key bindings: the configuration's (defaults.yaml and the files),
 * then a --keymap file on top. Every binding is checked (a key name that
 * does not parse, an action that does not exist), for the explorer as
 * for 'skein config'. Returns an exit code; the error is printed. */
int
cli_keymap(struct cli *c, struct keymap **km)
{
	struct err e = { 0 };
	const char *names[ACT_COUNT];
	size_t n_names = 0;
	*km = NULL;
	for (int a = 0; a < ACT_COUNT; a++)
		if (action_info((enum action)a) && action_info((enum action)a)->name)
			names[n_names++] = action_info((enum action)a)->name;
	if (config_check_keys(&c->cfg, names, n_names, key_name_ok, &e)) {
		cli_error("%s", e.msg);
		return EXIT_USAGE;
	}
	/* checked above: every key name parses and every action exists */
	*km = keymap_create_empty();
	int rc = *km ? 0 : ERR_NOMEM;
	for (uint32_t i = 0; !rc && i < c->cfg.n_keys; i++) {
		enum action act = action_find(c->cfg.keys[i].action);
		for (uint32_t k = 0; !rc && k < c->cfg.keys[i].n_keys; k++) {
			const char *name = c->cfg.keys[i].keys[k];
			rc = keymap_bind(*km, keymap_key_parse(name, strlen(name)), act);
		}
	}
	if (rc == ERR_LIMIT)
		err_set(&e, rc, "the configuration binds more than %d keys, the most skein keeps",
			KEYMAP_MAX);
	char *text = NULL;
	if (!rc && c->keymap) {
		size_t len;
		/* a key map that cannot be read is a bad key map, as a bad
		 * --config or --topology is (doc/robustness.md): status 2 */
		rc = config_read_file(c->keymap, &text, &len, &e);
		if (!rc)
			rc = keymap_parse_bytes(*km, text, len, c->keymap, &e);
		free(text);
	}
	if (rc) {
		cli_error("%s", e.msg[0] ? e.msg : err_name(rc));
		keymap_destroy(*km);
		*km = NULL;
		return rc == ERR_NOMEM ? EXIT_FAIL : EXIT_USAGE;
	}
	return EXIT_OK;
}

/* `skein keys`: every key, command and mouse gesture, with the bindings
 * in force, as text, man(7) or Markdown (doc/skein.1 and README.md hold
 * the built-in ones: mk/keys-doc.sh). */
int
cli_keys(struct cli *c)
{
	enum view_keys_format fmt = KEYS_FMT_TEXT;
	if (c->format && !strcmp(c->format, "man"))
		fmt = KEYS_FMT_MAN;
	else if (c->format && (!strcmp(c->format, "markdown") || !strcmp(c->format, "md")))
		fmt = KEYS_FMT_MARKDOWN;
	else if (c->format && strcmp(c->format, "text"))
		return cli_usage_error("keys --format takes text, man or markdown, not", c->format);
	struct keymap *km;
	int rc = cli_keymap(c, &km);
	if (rc)
		return rc;
	/* a write error is reported once, in main */
	rc = view_keys_write(km, fmt, stdout) ? EXIT_FAIL : EXIT_OK;
	keymap_destroy(km);
	return rc;
}

/* Options shared by explore and render, from the configuration and the
 * command line, checked before the (long) load. */
static int
explorer_setup(struct cli *c, struct view_opts *vo, struct view_state *init, struct keymap **km,
	       char *label, size_t n)
{
	const struct config_view *cv = &c->cfg.view;
	memset(vo, 0, sizeof *vo);
	cli_trace_label(c->trace, label, n);
	vo->label = label;
	/* auto (METRIC_COUNT here) is settled once the trace is loaded */
	vo->metric = cv->metric == CONFIG_METRIC_AUTO ? METRIC_COUNT : (enum view_metric)cv->metric;
	if (c->metric && strcmp(c->metric, "auto") == 0)
		vo->metric = METRIC_COUNT;
	else if (c->metric && (vo->metric = view_metric_find(c->metric)) == METRIC_COUNT)
		return cli_usage_error("--metric takes lateness, diff, global, duration, partition, function, "
				       "delta, diff-duration, idle, imbalance, wait, path, threads or auto, not", c->metric);
	vo->clusters = c->given & G_CLUSTERS ? c->aopts.clusters : cv->clusters;
	vo->save = save_view;
	vo->save_ud = &c->cfg;
	/* a saved view (selection, zoom) starts where it was left */
	*init = (struct view_state){
		.metric = vo->metric, .sel_rank = cv->sel_rank, .sel_step = cv->sel_step,
		.jumped = cv->sel_op == CONFIG_SEL_AUTO ? -1 : cv->sel_op == CONFIG_SEL_JUMPED,
		.zoom_steps = cv->zoom_steps, .zoom_ranks = cv->zoom_ranks, .clusters = vo->clusters,
		.window = !cv->steps.all || !cv->ranks.all,
		.win_step = cv->steps.all ? 0 : cv->steps.first,
		.win_rank = cv->ranks.all ? 0 : cv->ranks.first,
		/* with clusters, ranks [r, r] and the selection on r: its own row */
		.rank_row = vo->clusters && !cv->ranks.all && cv->ranks.first == cv->ranks.last &&
			cv->ranks.first == cv->sel_rank,
	};
	/* a configuration that leaves them at their defaults opens at the
	 * first screen (the top hotspot) */
	if (init->window || init->sel_rank || init->sel_step || init->zoom_steps > 1 || init->zoom_ranks > 1)
		vo->initial = init;
	/* which panes the configuration's layout lists; positions stay adaptive */
	int has[CONFIG_PANE_COUNT] = { 0 }, side_width = 0;
	for (uint32_t col = 0; col < cv->n_columns; col++)
		for (uint32_t k = 0; k < cv->layout[col].n_panes; k++) {
			enum config_pane pn = cv->layout[col].panes[k];
			has[pn] = 1;
			if (pn == CONFIG_PANE_DETAILS || pn == CONFIG_PANE_TOPOLOGY || pn == CONFIG_PANE_HISTOGRAM)
				side_width = (int)cv->layout[col].width;
		}
	vo->no_overview = !has[CONFIG_PANE_OVERVIEW];
	vo->no_timeline = !has[CONFIG_PANE_TIMELINE];
	vo->side = has[CONFIG_PANE_DETAILS] ? "details" : has[CONFIG_PANE_TOPOLOGY] ? "topology"
		: has[CONFIG_PANE_HISTOGRAM] ? "histogram" : NULL;
	vo->no_side = !vo->side;
	vo->side_width = side_width;
	vo->focus = config_pane_name(cv->focus);
	/* the topology pane's hardware: --topology, else the configuration */
	const struct config_topology *ct = &c->cfg.topology;
	if (c->topology) {
		/* an existing file, or something that names one, is XML; the
		 * rest is a synthetic description */
		struct stat sb;
		if (stat(c->topology, &sb) == 0 || strchr(c->topology, '/') ||
		    (strlen(c->topology) > 4 && !strcmp(c->topology + strlen(c->topology) - 4, ".xml")))
			vo->topology = c->topology;
		else
			vo->topology_synthetic = c->topology;
		/* :save writes the configuration: the hardware goes with it,
		 * an XML file by its absolute path so the view reopens from
		 * anywhere */
		static char abs[4096];
		if (vo->topology) {
			c->cfg.topology.source = CONFIG_TOPO_HWLOC;
			c->cfg.topology.hwloc = realpath(vo->topology, abs) ? abs : vo->topology;
		} else {
			c->cfg.topology.source = CONFIG_TOPO_SYNTHETIC;
			c->cfg.topology.synthetic = vo->topology_synthetic;
		}
	} else if (ct->source == CONFIG_TOPO_HWLOC || ct->source == CONFIG_TOPO_SYNTHETIC) {
		int xml = ct->source == CONFIG_TOPO_HWLOC;
		const char *what = xml ? ct->hwloc : ct->synthetic;
		if (!what || !what[0]) {     /* it was ignored without a word */
			cli_error_at(&ct->mark, "topology.source is %s, but %s", xml ? "hwloc" : "synthetic",
				     xml ? "topology.hwloc names no file" : "topology.synthetic is empty");
			return EXIT_USAGE;
		}
		if (xml)
			vo->topology = what;
		else
			vo->topology_synthetic = what;
	}
	/* a topology that cannot be loaded is a usage error now, not a
	 * message inside the pane after a long load */
	if (vo->topology || vo->topology_synthetic) {
		struct topo *tp = NULL;
		struct err te = { 0 };
		if (vo->topology ? topo_load_xml(vo->topology, &tp, &te)
		    : topo_load_synthetic(vo->topology_synthetic, &tp, &te)) {
			if (!c->topology && ct->mark.file)      /* where the configuration gave it */
				cli_error_at(&ct->mark, "%s", te.msg);
			else
				cli_error("%s", te.msg);
			return EXIT_USAGE;
		}
		topo_destroy(tp);
	}
	static const int place_of[CONFIG_PLACE_COUNT] = {
		[CONFIG_PLACE_SYSTEM_TREE] = PLACE_SYSTEM_TREE, [CONFIG_PLACE_BLOCK] = PLACE_BLOCK,
		[CONFIG_PLACE_ROUND_ROBIN] = PLACE_ROUND_ROBIN,
		[CONFIG_PLACE_RANKS_PER_NODE] = PLACE_BLOCK, [CONFIG_PLACE_EXPLICIT] = PLACE_EXPLICIT,
	};
	vo->placement = place_of[ct->placement];
	vo->placement_n = ct->ranks_per_node;
	vo->placement_pu = ct->explicit_map;
	vo->n_placement_pu = ct->n_explicit;
	if (!cv->scale_auto && cv->scale_max_ns > 0) {
		/* ns to the trace's ticks happens once the trace is loaded */
		vo->scale_min = (uint64_t)(cv->scale_min_ns > 0 ? cv->scale_min_ns : 0);
		vo->scale_max = (uint64_t)cv->scale_max_ns;
	}

	int rc = cli_keymap(c, km);
	if (rc)
		return rc;
	vo->keys = *km;
	return EXIT_OK;
}

/* The configuration's fixed scale is in nanoseconds; the view's in ticks. */
static void
scale_to_ticks(struct view_opts *vo, const struct trace *t)
{
	double tps = (double)trace_info(t)->ticks_per_second;
	vo->scale_min = (uint64_t)((double)vo->scale_min * tps / 1e9);
	vo->scale_max = (uint64_t)((double)vo->scale_max * tps / 1e9);
}

static int
load_for_view(const struct cli *c, const char *path, struct trace **t, struct analysis **a)
{
	struct err e = { 0 };
	screen_signals();           /* Ctrl-C cancels the load */
	int rc = load_trace(path, &c->charm, &c->aopts, !c->quiet && isatty(STDERR_FILENO), t, a, &e);
	if (rc) {
		cli_error("%s", e.msg[0] ? e.msg : err_name(rc));
		return rc == ERR_USAGE ? EXIT_USAGE : EXIT_FAIL;
	}
	cli_load_warnings(*t);
	char unused[1024];
	if (*a && analysis_unused_opts(*a))
		cli_error("warning: %s", analysis_opts_unused_text(analysis_unused_opts(*a),
			  trace_info(*t)->paradigm == PARADIGM_CHARM, unused, sizeof unused));
	return EXIT_OK;
}

/* What explore and render share once the options are checked: the view's
 * options, the key bindings, the loaded trace and analysis, and the
 * partitions' phase names. Opened in place (vo points into it). */
struct view_session {
	struct view_opts vo;
	struct view_state init;
	char label[256];
	struct keymap *km;
	struct trace *t;
	struct analysis *a;
	const char **phase;
	/* the run compared with (--before, skein diff on a terminal) */
	struct trace *bt;
	struct analysis *ba;
	struct diff *diff;
};

static void
session_close(struct view_session *s)
{
	free(s->phase);
	diff_destroy(s->diff);
	analysis_destroy(s->ba);
	trace_destroy(s->bt);
	analysis_destroy(s->a);
	trace_destroy(s->t);
	keymap_destroy(s->km);
}

/* Returns an exit code; on failure the error is printed and nothing is
 * left to close. */
static int
session_open(struct cli *c, struct view_session *s)
{
	memset(s, 0, sizeof *s);
	int rc = explorer_setup(c, &s->vo, &s->init, &s->km, s->label, sizeof s->label);
	if (!rc)
		rc = load_for_view(c, c->trace, &s->t, &s->a);
	if (!rc)
		rc = cli_check_regions(c, s->t);
	if (!rc && c->before) {
		struct err e = { 0 };
		rc = load_for_view(c, c->before, &s->bt, &s->ba);
		if (!rc && diff_run(s->ba, s->a, &s->diff, &e)) {
			cli_error("%s", e.msg);
			rc = EXIT_FAIL;
		}
		s->vo.diff = s->diff;
		/* a comparison opens on the change (the metric auto or lateness) */
		if (!rc && (!c->metric || s->vo.metric == METRIC_COUNT) &&
		    (s->vo.metric == METRIC_LATENESS || s->vo.metric == METRIC_COUNT))
			s->vo.metric = s->init.metric = METRIC_DELTA;
	}
	s->vo.iteration_name = c->cfg.iterations.name;
	s->vo.ranks = c->rank_set;
	s->vo.from = c->from;
	s->vo.to = c->to;
	if (!rc && c->cfg.phases.n_named) {
		struct err e = { 0 };
		if (!(s->phase = cli_phase_names(c, s->a, NULL, &e))) {
			cli_error("%s", e.msg);
			rc = EXIT_FAIL;
		}
	}
	if (rc) {
		session_close(s);
		return rc;
	}
	scale_to_ticks(&s->vo, s->t);
	s->vo.part_phase = s->phase;
	if (s->vo.metric == METRIC_COUNT)
		s->vo.metric = s->init.metric = trace_info(s->t)->paradigm == PARADIGM_CHARM
			? METRIC_DIFF_DURATION : METRIC_LATENESS;
	return EXIT_OK;
}

int
cli_explore_opts(const struct cli *c, struct explore_opts *eo)
{
	static const enum screen_color from_config[CONFIG_COLOURS_COUNT] = {
		[CONFIG_COLOURS_AUTO] = SCOLOR_AUTO, [CONFIG_COLOURS_256] = SCOLOR_256,
		[CONFIG_COLOURS_8] = SCOLOR_8, [CONFIG_COLOURS_NONE] = SCOLOR_MONO,
	};
	enum screen_color color = from_config[c->cfg.view.colours];
	if (c->color) {
		if (!strcmp(c->color, "auto"))
			color = SCOLOR_AUTO;
		else if (!strcmp(c->color, "none") || !strcmp(c->color, "mono"))
			color = SCOLOR_MONO;
		else if (!strcmp(c->color, "8"))
			color = SCOLOR_8;
		else if (!strcmp(c->color, "256"))
			color = SCOLOR_256;
		else
			return cli_usage_error("explore --color takes auto, none, 8 or 256, not", c->color), -1;
	}
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "skein: the explorer needs a terminal on stdin and stdout "
			"(for text, use 'skein info', 'skein analyze', 'skein samples --format text' or 'skein render')\n");
		return -1;
	}
	*eo = (struct explore_opts){
		.color = color,
		.ascii = c->ascii || c->cfg.view.glyphs == CONFIG_GLYPHS_ASCII,
		.mouse = c->cfg.view.mouse && !c->no_mouse,
	};
	return 0;
}

int
cli_explore(struct cli *c)
{
	struct explore_opts eo;
	if (cli_explore_opts(c, &eo))
		return EXIT_USAGE;
	if (c->samples)
		return cli_samples_explore(c, &eo);
	struct view_session vs;
	int rc = session_open(c, &vs);
	if (rc)
		return screen_exit_status(rc);
	char msg[256];
	if (explore_run(vs.a, &vs.vo, &eo, msg, sizeof msg)) {
		cli_error("%s", msg);
		rc = EXIT_FAIL;
	}
	session_close(&vs);
	return screen_exit_status(rc);
}

int
cli_render(struct cli *c)
{
	struct view_render_opts ro = { .w = 120, .h = 40, .keys = c->keys, .depth = DEPTH_NONE,
				       .ascii = c->ascii || c->cfg.view.glyphs == CONFIG_GLYPHS_ASCII,
				       .wait_background = c->time };
	if (c->size) {
		char *end;
		long w = strtol(c->size, &end, 10), h = 0;
		if (end != c->size && (*end == 'x' || *end == 'X'))
			h = strtol(end + 1, &end, 10);
		if (*end || w < 1 || h < 1)
			return cli_usage_error("--size takes WIDTHxHEIGHT (e.g. 120x40), not", c->size);
		if (w > 10000 || h > 10000)
			return cli_usage_error("--size: at most 10000x10000, not", c->size);
		ro.w = (int)w;
		ro.h = (int)h;
	}
	if (c->color) {
		if (!strcmp(c->color, "none"))
			ro.depth = DEPTH_NONE;
		else if (!strcmp(c->color, "mono"))
			ro.depth = DEPTH_MONO;
		else if (!strcmp(c->color, "8"))
			ro.depth = DEPTH_8;
		else if (!strcmp(c->color, "256") || !strcmp(c->color, "ansi"))
			ro.depth = DEPTH_256;
		else
			return cli_usage_error("render --color takes none, mono, 8, 256 or ansi, not", c->color);
	}
	int min_w, min_h;
	view_min_size(c->pane, &min_w, &min_h);
	if (ro.w < min_w || ro.h < min_h) {
		char what[96];
		snprintf(what, sizeof what, "--size %dx%d is too small: %s needs at least %dx%d", ro.w, ro.h,
			 c->pane ? "a pane" : "the explorer", min_w, min_h);
		return cli_usage_error(what, NULL);
	}
	if (c->pane && !view_pane_known(c->pane))
		return cli_usage_error("--pane takes grid, overview, timeline, details, help, topology, histogram, "
				       "profile, comm, lists, or for sample sets offenders, parallel, scores or clusters, not",
				       c->pane);
	if (c->keys) {
		size_t max = strlen(c->keys) + 1, nk;
		uint32_t *keys = malloc(max * sizeof *keys);
		struct err e = { 0 };
		int bad = !keys || keymap_script(c->keys, keys, max, &nk, &e);
		free(keys);
		if (bad)
			return cli_usage_error(e.msg[0] ? e.msg : "bad key script", NULL);
	}
	if (c->samples)
		return cli_samples_render(c, &ro);
	struct view_session vs;
	int rc = session_open(c, &vs);
	if (rc)
		return screen_exit_status(rc);
	/* loaded: nothing to restore, a signal may end render at once */
	screen_signals_default();
	vs.vo.pane = c->pane;
	struct err e = { 0 };
	struct view_render_stats st;
	rc = view_render(vs.a, &vs.vo, &ro, stdout, &st, &e);
	if (rc && !ferror(stdout))     /* a write error is reported once, in main */
		cli_error("%s", e.msg[0] ? e.msg : err_name(rc));
	else if (c->time)
		fprintf(stderr, "skein: render %dx%d: first draw %.3f ms; background %.3f ms; %zu keys, %.3f ms mean, "
			"%.3f ms max per key; %zu resizes, %.3f ms max\n", ro.w, ro.h, st.first_draw_ms,
			st.background_ms, st.keys, st.keys ? st.total_ms / (double)st.keys : 0.0, st.max_ms,
			st.resizes, st.max_resize_ms);
	session_close(&vs);
	return rc == ERR_USAGE ? EXIT_USAGE : rc ? EXIT_FAIL : EXIT_OK;
}

