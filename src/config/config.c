/* config.c — the configuration's lifecycle, layering and owned memory,
 * and the small shared helpers (suggestions, value names). The schema
 * lives in config_schema.c, the YAML writer in config_dump.c, and the
 * checks against a trace, an analysis or the action table in
 * config_check.c.
 */
#include "config_impl.h"
#include "base/file.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Files larger than this are not configuration files. */
#define CONFIG_MAX_FILE (16u << 20)

const char *const config_metric_names[CONFIG_METRIC_COUNT] = {
	"lateness", "diff", "global", "duration", "partition", "function", "delta",
	"diff-duration", "idle", "imbalance", "wait", "path", "threads", "auto",
};
const char *const config_pane_names[CONFIG_PANE_COUNT] = {
	"grid", "overview", "timeline", "details", "help", "topology", "histogram",
};
const char *const config_glyphs_names[CONFIG_GLYPHS_COUNT] = { "auto", "utf8", "ascii" };
const char *const config_colours_names[CONFIG_COLOURS_COUNT] = { "auto", "256", "8", "none" };
const char *const config_sel_op_names[CONFIG_SEL_OP_COUNT] = { "auto", "maximum", "jumped" };
const char *const config_topo_source_names[CONFIG_TOPO_SOURCE_COUNT] = {
	"machine", "hwloc", "synthetic",
};
const char *const config_placement_names[CONFIG_PLACE_COUNT] = {
	"system-tree", "block", "round-robin", "ranks-per-node", "explicit",
};

#define NAME_OF(table, count, v) ((unsigned)(v) < (count) ? (table)[v] : "?")

const char *config_metric_name(enum config_metric m) { return NAME_OF(config_metric_names, CONFIG_METRIC_COUNT, m); }
const char *config_pane_name(enum config_pane p) { return NAME_OF(config_pane_names, CONFIG_PANE_COUNT, p); }
const char *config_glyphs_name(enum config_glyphs g) { return NAME_OF(config_glyphs_names, CONFIG_GLYPHS_COUNT, g); }
const char *config_colours_name(enum config_colours c) { return NAME_OF(config_colours_names, CONFIG_COLOURS_COUNT, c); }
const char *config_sel_op_name(enum config_sel_op o) { return NAME_OF(config_sel_op_names, CONFIG_SEL_OP_COUNT, o); }
const char *config_topo_source_name(enum config_topo_source s) { return NAME_OF(config_topo_source_names, CONFIG_TOPO_SOURCE_COUNT, s); }
const char *const config_iter_find_names[CONFIG_ITER_FIND_COUNT] = {
	[CONFIG_ITER_AUTO] = "auto", [CONFIG_ITER_STRUCTURE] = "structure", [CONFIG_ITER_OFF] = "off",
};
const char *config_placement_name(enum config_placement p) { return NAME_OF(config_placement_names, CONFIG_PLACE_COUNT, p); }
const char *config_iter_find_name(enum config_iter_find f) { return NAME_OF(config_iter_find_names, CONFIG_ITER_FIND_COUNT, f); }

enum config_metric
config_metric_find(const char *name)
{
	for (int i = 0; i < CONFIG_METRIC_COUNT; i++)
		if (strcmp(name, config_metric_names[i]) == 0)
			return (enum config_metric)i;
	return CONFIG_METRIC_COUNT;
}

enum config_pane
config_pane_find(const char *name)
{
	for (int i = 0; i < CONFIG_PANE_COUNT; i++)
		if (strcmp(name, config_pane_names[i]) == 0)
			return (enum config_pane)i;
	return CONFIG_PANE_COUNT;
}

/* ---- owned memory ---- */

struct cblock {
	struct cblock *next;
	max_align_t data[];
};

void *
store_alloc(struct config_store *s, size_t size)
{
	struct cblock *b = calloc(1, sizeof *b + (size ? size : 1));
	if (!b)
		return NULL;
	b->next = s->blocks;
	s->blocks = b;
	return b->data;
}

char *
store_strndup(struct config_store *s, const char *p, size_t len)
{
	char *c = store_alloc(s, len + 1);
	if (c)
		memcpy(c, p, len);
	return c;
}

/* Frees the blocks allocated after `keep` (a failed load's leftovers). */
static void
store_rollback(struct config_store *s, struct cblock *keep)
{
	while (s->blocks && s->blocks != keep) {
		struct cblock *b = s->blocks;
		s->blocks = b->next;
		free(b);
	}
}

/* ---- errors and suggestions ---- */

/* Messages quote the user's strings, which may hold line breaks (a
 * folded multi-line scalar) or other control characters: an error must
 * stay one line. */
static void
one_line(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

static int
vmark_error(struct err *e, const char *file, unsigned line, unsigned column, const char *fmt,
	    va_list ap)
{
	char msg[400];
	vsnprintf(msg, sizeof msg, fmt, ap);
	one_line(msg);
	return err_set(e, ERR_FORMAT, "%s:%u:%u: %s", file ? file : "?", line, column, msg);
}

int
config_mark_error(struct err *e, const struct config_mark *m, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = vmark_error(e, m->file, m->line, m->column, fmt, ap);
	va_end(ap);
	return rc;
}

int
ld_error(struct ld *ld, const struct cnode *at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = vmark_error(ld->e, ld->file, at ? at->line : 1, at ? at->col : 1, fmt, ap);
	va_end(ap);
	return rc;
}

/* Optimal string alignment distance (edits and adjacent swaps), capped
 * to keep long inputs cheap. */
static size_t
edit_distance(const char *a, const char *b)
{
	enum { MAXLEN = 64 };
	size_t la = strlen(a), lb = strlen(b);
	if (la > MAXLEN || lb > MAXLEN)
		return SIZE_MAX;
	size_t d[MAXLEN + 1][MAXLEN + 1];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < v)
				v = d[i - 1][j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

const char *
config_suggest(const char *word, const char *const *cands, size_t n)
{
	const char *best = NULL;
	size_t best_d = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		size_t d = edit_distance(word, cands[i]);
		if (d < best_d) {
			best_d = d;
			best = cands[i];
		}
	}
	/* close enough to be a typo: at most 2 edits, and fewer than a third
	 * of the name (so "a" does not suggest "k") */
	if (!best || best_d == 0 || best_d > 2 || best_d * 3 > strlen(best))
		return NULL;
	return best;
}

const char *
config_suggestion(char *buf, size_t n, const char *word, const char *const *cands, size_t nc)
{
	const char *s = config_suggest(word, cands, nc);
	if (s)
		snprintf(buf, n, " (did you mean '%s'?)", s);
	else if (n)
		buf[0] = '\0';
	return buf;
}

const char *
config_format_ns(char *buf, size_t n, int64_t ns)
{
	static const struct { int64_t f; const char *unit; } units[] = {
		{ 1000000000, "s" }, { 1000000, "ms" }, { 1000, "us" },
	};
	if (ns == 0) {
		snprintf(buf, n, "0");
		return buf;
	}
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (ns % units[i].f == 0) {
			snprintf(buf, n, "%lld%s", (long long)(ns / units[i].f), units[i].unit);
			return buf;
		}
	snprintf(buf, n, "%lldns", (long long)ns);
	return buf;
}

/* ---- lifecycle and loading ---- */

/* The analysis phase rules follow the phases: split_at, then named
 * phases that split. Rebuilt after every successful load. */
static int
build_rules(struct config *cfg)
{
	const struct config_phases *ph = &cfg->phases;
	uint32_t n = ph->n_split_at;
	for (uint32_t i = 0; i < ph->n_named; i++)
		n += ph->named[i].split != 0;
	struct analysis_phase_rule *r = store_alloc(cfg->store, (n ? n : 1) * sizeof *r);
	if (!r)
		return ERR_NOMEM;
	uint32_t k = 0;
	for (uint32_t i = 0; i < ph->n_split_at; i++)
		r[k++].region_glob = ph->split_at[i].value;
	for (uint32_t i = 0; i < ph->n_named; i++)
		if (ph->named[i].split)
			r[k++].region_glob = ph->named[i].region;
	cfg->store->rules = r;
	cfg->store->n_rules = n;
	return 0;
}

int
config_load_string(struct config *cfg, const char *name, const char *text, size_t len,
		   struct err *e)
{
	if (!cfg->store)
		return err_set(e, ERR_USAGE, "config_load_string: configuration not initialised");
	struct config saved = *cfg;
	struct config_store st_saved = *cfg->store;
	struct ctree tree = { 0 };
	struct ld ld = { .cfg = cfg, .st = cfg->store, .e = e };
	int rc;
	ld.file = store_strndup(cfg->store, name, strlen(name));
	if (!ld.file)
		rc = err_set(e, ERR_NOMEM, "out of memory");
	else if (!(rc = ctree_parse(&tree, ld.file, text, len, e)))
		rc = config_apply(&ld, tree.root);
	ctree_free(&tree);
	if (!rc && (rc = build_rules(cfg)))
		err_set(e, rc, "out of memory");
	if (rc) {
		/* leave everything as it was */
		struct config_store *st = cfg->store;
		store_rollback(st, st_saved.blocks);
		*st = st_saved;
		*cfg = saved;
	}
	return rc;
}

int
config_read_file(const char *path, char **text, size_t *len, struct err *e)
{
	*text = NULL;
	FILE *f = file_open_read(path, e);
	if (!f)
		return ERR_IO;
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	int rc = 0;
	while (buf) {
		if (n + 1 == cap) {        /* room for the terminating NUL */
			if (cap >= CONFIG_MAX_FILE) {
				rc = err_set(e, ERR_LIMIT, "%s: larger than %u MiB, not a configuration file",
					     path, CONFIG_MAX_FILE >> 20);
				break;
			}
			char *p = realloc(buf, cap * 2);
			if (!p)
				break;
			buf = p;
			cap *= 2;
		}
		size_t got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0) {
			if (ferror(f))
				rc = err_set(e, ERR_IO, "%s: %s", path, strerror(errno));
			break;
		}
	}
	fclose(f);
	if (!buf)
		return err_set(e, ERR_NOMEM, "%s: out of memory", path);
	if (rc) {
		free(buf);
		return rc;
	}
	buf[n] = 0;
	*text = buf;
	*len = n;
	return 0;
}

int
config_load_file(struct config *cfg, const char *path, struct err *e)
{
	char *text = NULL;
	size_t len = 0;
	int rc = config_read_file(path, &text, &len, e);
	if (rc)
		return rc;
	rc = config_load_string(cfg, path, text, len, e);
	free(text);
	return rc;
}

int
config_init(struct config *cfg, struct err *e)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->store = calloc(1, sizeof *cfg->store);
	if (!cfg->store)
		return err_set(e, ERR_NOMEM, "out of memory");
	/* the defaults must define every value: start from an impossible
	 * state so a key missing from defaults.yaml shows in the tests */
	cfg->structure.leap_factor = -1;
	cfg->view.metric = CONFIG_METRIC_COUNT;
	int rc = config_load_string(cfg, CONFIG_DEFAULTS_NAME, config_defaults_yaml,
				    config_defaults_yaml_len, e);
	if (rc) {
		config_fini(cfg);
		return rc;
	}
	return 0;
}

void
config_fini(struct config *cfg)
{
	if (cfg->store) {
		store_rollback(cfg->store, NULL);
		free(cfg->store);
	}
	memset(cfg, 0, sizeof *cfg);
}

int
config_user_path(char *buf, size_t n, struct err *e)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	int w;
	/* the XDG base directory spec says relative values are to be ignored */
	if (xdg && xdg[0] == '/')
		w = snprintf(buf, n, "%s/skein/config.yaml", xdg);
	else if (home && home[0])
		w = snprintf(buf, n, "%s/.config/skein/config.yaml", home);
	else
		return err_set(e, ERR_IO, "neither XDG_CONFIG_HOME nor HOME is set");
	if (w < 0 || (size_t)w >= n)
		return err_set(e, ERR_LIMIT, "the user configuration path is too long");
	return 0;
}

int
config_load_layers(struct config *cfg, const char *const *files, size_t n, struct err *e)
{
	char path[PATH_MAX];
	struct err ignore = { 0 };
	/* no usable HOME: there is no user file to load, which is not an error */
	if (config_user_path(path, sizeof path, &ignore) == 0) {
		struct stat st;
		if (stat(path, &st) == 0) {
			int rc = config_load_file(cfg, path, e);
			if (rc)
				return rc;
		} else if (errno != ENOENT && errno != ENOTDIR) {
			return err_set(e, ERR_IO, "%s: %s", path, strerror(errno));
		}
	}
	for (size_t i = 0; i < n; i++) {
		int rc = config_load_file(cfg, files[i], e);
		if (rc)
			return rc;
	}
	return 0;
}

void
config_analysis_opts(const struct config *cfg, struct analysis_opts *o)
{
	analysis_opts_default(o);
	const struct config_structure *s = &cfg->structure;
	o->coalesce_isends = s->coalesce;
	o->waitall_merge = s->waitall_merge;
	o->leap_merge = s->leap_merge;
	o->leap_factor = s->leap_factor;
	o->leap_force = s->force;
	o->global_step_merge = s->global_step_merge;
	o->auto_merge = s->auto_merge;
	o->sender_progress = s->sender_progress;
	o->startup = s->include_startup;
	o->caller_merge = s->caller_merge;
	o->match_size = s->match_size;
	o->hotspots = s->hotspots;
	o->reorder = s->reorder;
	const struct config_charm *c = &cfg->charm;
	o->charm_reorder = c->reorder;
	o->charm_sdag = c->sdag;
	o->charm_repair = c->repair;
	o->charm_infer = c->infer;
	o->charm_leap_merge = c->leap_merge;
	o->phases = cfg->store && cfg->store->n_rules ? cfg->store->rules : NULL;
	o->n_phases = o->phases ? cfg->store->n_rules : 0;
	static const int find[CONFIG_ITER_FIND_COUNT] = {
		[CONFIG_ITER_AUTO] = ITER_FIND_AUTO, [CONFIG_ITER_STRUCTURE] = ITER_FIND_STRUCTURE,
		[CONFIG_ITER_OFF] = ITER_FIND_OFF,
	};
	const struct config_iterations *it = &cfg->iterations;
	o->iter_find = (unsigned)it->find < CONFIG_ITER_FIND_COUNT ? find[it->find] : ITER_FIND_AUTO;
	o->iter_region = it->region && it->region[0] ? it->region : NULL;
}
