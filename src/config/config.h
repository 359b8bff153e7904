/* config.h — skein's configuration: one YAML schema for the structure
 * options, user-defined phases, the view, the topology and the key
 * bindings (DESIGN.md §6; every key is described in doc/config.md).
 *
 * The effective configuration is a plain struct. Its values are read
 * directly; its strings and arrays are owned by the config and are
 * read-only to callers. Scalars (booleans, numbers, enums) may be
 * assigned by the caller, e.g. by command-line flags applied after the
 * files; strings and lists are changed by loading a YAML snippet with
 * config_load_string (`--phase iteration` → "phases: {split_at:
 * [iteration]}"), so every value goes through the same checks.
 *
 * Call order:
 *
 *   config_init                      built-in defaults (config/defaults.yaml,
 *                                    compiled in, parsed by this same code)
 *   config_load_layers / _file / _string …
 *                                    each layers onto what is there: a later
 *                                    document overrides the keys it names,
 *                                    mappings merge key by key, lists
 *                                    (and each action's key list) replace
 *   [assign scalars from command-line flags]
 *   config_check_regions / config_check_keys   once a trace / the action
 *                                    table is at hand
 *   config_analysis_opts → analysis_run; config_part_phases on the result
 *   config_dump                      the effective configuration as YAML
 *   config_fini
 *
 * A load that fails leaves the configuration exactly as it was. Errors
 * are ERR_FORMAT with one line "file:line:column: message" in the caller's
 * struct err (ERR_IO for unreadable files, ERR_NOMEM). Lifetime: every
 * pointer inside struct config (and anything a getter returns) stays valid
 * until config_fini; values replaced by a later load are kept until then.
 */
#ifndef SKEIN_CONFIG_H
#define SKEIN_CONFIG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/core/analysis.h"
#include "base/err.h"
#include "model/trace.h"

#define CONFIG_MAX_CLUSTERS 20
#define CONFIG_NO_PHASE UINT32_MAX
/* A list of names (phases.split_at, phases.named, phases.restrict, the
 * actions of keys and the keys they bind) holds at most this many: lists
 * longer than any real configuration are refused with their position,
 * so no check over them can take long (doc/config.md). */
#define CONFIG_MAX_NAMES 1024u

/* Where a value was written: file (as named when it was loaded), 1-based
 * line and column. Used for errors found after loading. */
struct config_mark {
	const char *file;
	uint32_t line, column;
};

/* Metric names and order match the explorer's (view_metric_name). */
enum config_metric {
	CONFIG_METRIC_LATENESS, CONFIG_METRIC_DIFF, CONFIG_METRIC_GLOBAL,
	CONFIG_METRIC_DURATION, CONFIG_METRIC_PARTITION, CONFIG_METRIC_FUNCTION,
	CONFIG_METRIC_DELTA,      /* only with skein diff: the change against BEFORE */
	CONFIG_METRIC_DIFF_DURATION, CONFIG_METRIC_IDLE, CONFIG_METRIC_IMBALANCE, CONFIG_METRIC_WAIT,
	CONFIG_METRIC_PATH,       /* time on the critical path */
	CONFIG_METRIC_LANES,      /* the process's threads' and streams' waiting */
	CONFIG_METRIC_AUTO,       /* differential duration for Charm++, else lateness */
	CONFIG_METRIC_COUNT
};

/* Panes; topology and histogram are reserved for later issues. */
enum config_pane {
	CONFIG_PANE_GRID, CONFIG_PANE_OVERVIEW, CONFIG_PANE_TIMELINE,
	CONFIG_PANE_DETAILS, CONFIG_PANE_HELP, CONFIG_PANE_TOPOLOGY,
	CONFIG_PANE_HISTOGRAM, CONFIG_PANE_COUNT
};

enum config_glyphs { CONFIG_GLYPHS_AUTO, CONFIG_GLYPHS_UTF8, CONFIG_GLYPHS_ASCII, CONFIG_GLYPHS_COUNT };

/* Which operation of the selected cell the details show (view.selection.
 * operation): the cell's maximum, the one at the selection's rank and
 * step (jumped to), or (auto: a file saved before it was recorded) that
 * one when it is not the maximum. */
enum config_sel_op { CONFIG_SEL_AUTO, CONFIG_SEL_MAXIMUM, CONFIG_SEL_JUMPED, CONFIG_SEL_OP_COUNT };

enum config_colours {
	CONFIG_COLOURS_AUTO, CONFIG_COLOURS_256, CONFIG_COLOURS_8, CONFIG_COLOURS_NONE,
	CONFIG_COLOURS_COUNT
};

enum config_topo_source {
	CONFIG_TOPO_MACHINE, CONFIG_TOPO_HWLOC, CONFIG_TOPO_SYNTHETIC, CONFIG_TOPO_SOURCE_COUNT
};

enum config_placement {
	CONFIG_PLACE_SYSTEM_TREE, CONFIG_PLACE_BLOCK, CONFIG_PLACE_ROUND_ROBIN,
	CONFIG_PLACE_RANKS_PER_NODE, CONFIG_PLACE_EXPLICIT, CONFIG_PLACE_COUNT
};

struct config_structure {
	int coalesce;             /* Isend coalescing */
	int waitall_merge;
	int leap_merge;
	double leap_factor;       /* (0, 1e9] */
	int force;                /* force-merge incomplete leaps */
	int global_step_merge;
	int auto_merge;           /* merge alike partitions that share global steps */
	int sender_progress;      /* receives follow their sender's progress */
	int include_startup;      /* start-up counts for hotspots, scales, time axes */
	int caller_merge;
	int match_size;
	uint32_t hotspots;
	int reorder;              /* MPI: reorder by idealised forward replay (seed 004 §3.2.1) */
};

/* Charm++ Projections runs (doc/charm.md). */
struct config_charm {
	int reorder;              /* serial blocks by forward replay; 0: physical time */
	int sdag;                 /* serial n before serial n+1 on a chare */
	int repair;               /* serial block repair (Alg. 2) */
	int infer;                /* dependencies inferred from sources (Alg. 3) */
	int leap_merge;           /* merge by leap (Alg. 4) */
	const struct config_item *runtime_chares;    /* globs on chare type names */
	uint32_t n_runtime_chares;
	const char *const *runtime_chare_globs;      /* the same, as plain strings */
	const struct config_item *runtime_entries;   /* globs on entry signatures */
	uint32_t n_runtime_entries;
	const char *const *runtime_entry_globs;
};

/* A string with the place it was written. */
struct config_item {
	const char *value;
	struct config_mark mark;
};

/* Form 2: operations inside an instance of a region matching `region`
 * belong to phase `name`; partitions are labelled with it. With split,
 * every Enter of such a region also starts a new phase (as form 1). */
struct config_named_phase {
	const char *name;
	const char *region;       /* fnmatch(3) glob; an exact name is a glob */
	int split;
	struct config_mark mark;  /* of the entry */
	struct config_mark region_mark;
};

struct config_phases {
	const struct config_item *split_at;      /* form 1: region globs */
	uint32_t n_split_at;
	const struct config_named_phase *named;  /* form 2 */
	uint32_t n_named;
	const struct config_item *restrict_to;   /* form 3: names of named phases */
	uint32_t n_restrict;
};

/* A rank or step window, both ends included. */
struct config_window {
	int all;                  /* 1: the whole trace (first/last unused) */
	uint32_t first, last;
};

/* One column of the screen layout: panes top to bottom. */
struct config_column {
	const enum config_pane *panes;
	uint32_t n_panes;
	uint32_t width;           /* terminal columns; 0: what the others leave */
};

struct config_view {
	enum config_metric metric;
	int scale_auto;           /* 1: the colour scale follows the data */
	int64_t scale_min_ns, scale_max_ns;   /* the fixed scale, when not auto */
	const struct config_column *layout;   /* columns left to right */
	uint32_t n_columns;
	enum config_pane focus;
	struct config_window ranks, steps;
	uint32_t zoom_steps;      /* steps per column, ≥ 1 */
	uint32_t zoom_ranks;      /* ranks per row, ≥ 1 */
	uint32_t clusters;        /* k-medoids k; 0: no clustering; ≤ 20 */
	enum config_glyphs glyphs;
	enum config_colours colours;
	int mouse;                /* the explorer takes clicks and the wheel */
	uint32_t sel_rank, sel_step;          /* the selection */
	enum config_sel_op sel_op;            /* the operation of its cell shown */
};

struct config_topology {
	enum config_topo_source source;
	const char *hwloc;        /* hwloc XML path, "" when unset */
	const char *synthetic;    /* hwloc synthetic description, "" when unset */
	enum config_placement placement;
	uint32_t ranks_per_node;
	const uint32_t *explicit_map;         /* placement: explicit; one per rank */
	uint32_t n_explicit;
	struct config_mark mark;  /* where the hardware was given (file NULL: nowhere) */
};

/* Memory samples (skein samples; doc/samples.md). */
enum config_score { CONFIG_SCORE_LATENCY, CONFIG_SCORE_IMBALANCE };
/* Where the scores count samples: names as mem_depth_find spells them. */
enum config_depth {
	CONFIG_DEPTH_CPU, CONFIG_DEPTH_CORE, CONFIG_DEPTH_L1, CONFIG_DEPTH_L2, CONFIG_DEPTH_L3,
	CONFIG_DEPTH_NUMA, CONFIG_DEPTH_PACKAGE, CONFIG_DEPTH_MACHINE, CONFIG_DEPTH_COUNT
};
enum config_op { CONFIG_OP_NEW, CONFIG_OP_OR, CONFIG_OP_AND, CONFIG_OP_COUNT };

/* One step of a selection: samples whose attribute lies in [lo, hi] or
 * equals the category value, of a code line ("file:line"), or that a
 * topology object counts (its index in depth-first order), combined
 * with what came before by op. Names are checked against the samples
 * once they are read. */
struct config_pick {
	enum config_op op;
	const char *attribute;    /* with range or value; NULL otherwise */
	double lo, hi;
	const char *value;        /* a category, or NULL for a range */
	const char *line;         /* "file:line", or NULL */
	int64_t resource;         /* an object, or -1 */
	struct config_mark mark;
};

struct config_samples {
	const char *attribute;    /* scores and clusters along it; "": time, else the first */
	struct config_mark attribute_mark;
	enum config_score metric;
	int latency_all;          /* L_d over every resource (the paper's equation 1),
				     not only those with samples */
	enum config_depth depth;
	uint32_t windows;         /* N windows of the score strip, 1..1000 */
	uint32_t window, step;    /* w and Δ of the clustering: 2 <= w, 1 <= Δ < w */
	struct config_mark window_mark, step_mark;
	uint32_t clusters;        /* clusters listed, 1..100 */
	const struct config_pick *filter;     /* the samples looked at (none: all) */
	uint32_t n_filter;
	const struct config_pick *selection;  /* the selection among them */
	uint32_t n_selection;
};

/* One action and the keys bound to it, in the order written. */
struct config_binding {
	const char *action;
	const char *const *keys;
	const struct config_mark *key_marks;  /* one per key */
	uint32_t n_keys;
	struct config_mark mark;              /* of the action name */
};

/* How iterations are found (iterations.h): auto, structure or off. */
enum config_iter_find {
	CONFIG_ITER_AUTO, CONFIG_ITER_STRUCTURE, CONFIG_ITER_OFF, CONFIG_ITER_FIND_COUNT
};

struct config_iterations {
	enum config_iter_find find;
	const char *region;       /* a glob: its Enters start the iterations; "" = find them */
	struct config_mark region_mark;
	const char *name;         /* what to call one ("iteration", "V-cycle") */
};

struct config_store;

struct config {
	struct config_structure structure;
	struct config_phases phases;
	struct config_iterations iterations;
	struct config_view view;
	struct config_topology topology;
	struct config_charm charm;
	const struct config_binding *keys;    /* in first-defined order */
	uint32_t n_keys;
	struct config_samples samples;
	struct config_store *store;           /* private: owned memory */
};

/* Fills cfg with the built-in defaults. Returns 0 or ERR_NOMEM (cfg is
 * then empty and config_fini is still safe). */
int config_init(struct config *cfg, struct err *e);
/* Frees everything cfg owns; safe on a zeroed or failed config. */
void config_fini(struct config *cfg);

/* Layers the YAML document text[0..len) onto cfg; name is used in error
 * messages and marks (copied). Returns 0, ERR_FORMAT or ERR_NOMEM. */
int config_load_string(struct config *cfg, const char *name, const char *text, size_t len,
		       struct err *e);
/* Layers the file at path onto cfg. ERR_IO when it cannot be read. */
int config_load_file(struct config *cfg, const char *path, struct err *e);
/* Reads a whole text file (a configuration or a keymap) into a malloc'd,
 * NUL-terminated buffer of *len bytes. Returns 0, ERR_IO ("path: reason",
 * a directory included), ERR_LIMIT past CONFIG_MAX_FILE, or ERR_NOMEM. */
int config_read_file(const char *path, char **text, size_t *len, struct err *e);

/* The per-user configuration file: $XDG_CONFIG_HOME/skein/config.yaml
 * when XDG_CONFIG_HOME is set to an absolute path, else
 * $HOME/.config/skein/config.yaml. Writes it into buf; returns 0,
 * ERR_IO when neither variable is usable, ERR_LIMIT when n is too small. */
int config_user_path(char *buf, size_t n, struct err *e);

/* Loads the user's file if it exists, then files[0..n) in order. The
 * first failure stops (cfg then holds the layers before it). */
int config_load_layers(struct config *cfg, const char *const *files, size_t n, struct err *e);

/* Writes the effective configuration as YAML: every key, in schema
 * order. Loading the output onto the defaults gives the same config and
 * the same dump. Returns 0 or ERR_IO. */
int config_dump(const struct config *cfg, FILE *out, struct err *e);

/* Fills o from the structure section and the phases: split_at rules, then
 * named phases with split, in file order. o->phases points into cfg (valid
 * until config_fini). */
void config_analysis_opts(const struct config *cfg, struct analysis_opts *o);

/* Checks every phase pattern (split_at and named regions) against the
 * trace's region names: a pattern matching no region is ERR_FORMAT,
 * reported at the pattern's mark with a suggestion when one is close. */
int config_check_regions(const struct config *cfg, const struct trace *t, struct err *e);
/* The same for phase patterns given elsewhere (the command line's
 * --phase, named by `what`): ERR_FORMAT "WHAT 'GLOB' matches no region of
 * the trace (did you mean '...'?)" for the first that matches nothing. */
int config_check_phase_globs(const char *what, const char *const *globs, uint32_t n_globs,
			     const struct trace *t, struct err *e);

/* Checks the key bindings: every action must be one of actions[0..n)
 * (the explorer's action table), and every key name must satisfy key_ok
 * (NULL: any non-empty name). ERR_FORMAT at the offending mark. */
int config_check_keys(const struct config *cfg, const char *const *actions, size_t n_actions,
		      int (*key_ok)(const char *name), struct err *e);

/* The bindings as "KEY ACTION" lines (keymap_parse's format), in order.
 * Returns 0 and a malloc'd string in *text (caller frees), or ERR_NOMEM. */
int config_keys_text(const struct config *cfg, char **text);

/* Named phases over an analysis: label[p] = the index of the named phase
 * that encloses most communication operations of partition p (the
 * innermost matching region of each operation; ties: the first phase),
 * or CONFIG_NO_PHASE. keep[p] = 1 when restrict is empty or lists that
 * phase. Either array may be NULL; each holds n_parts entries. The
 * analysis must come from a trace holding the regions named. Returns 0
 * or ERR_NOMEM. */
int config_part_phases(const struct config *cfg, const struct analysis *a,
		       uint32_t *label, uint8_t *keep, struct err *e);

/* The picks of samples.filter (which 0) or samples.selection (1) with
 * their names resolved against a sample set: attributes, category values,
 * code lines and topology objects. *out is malloc'd (caller frees; NULL
 * when there is none). ERR_FORMAT at the pick's mark for a name the set
 * does not have, with a suggestion when one is close; ERR_NOMEM. */
struct mem_pick;
struct samples;
int config_samples_picks(const struct config *cfg, const struct samples *s, int which,
			 struct mem_pick **out, uint32_t *n, struct err *e);

/* Value names as the YAML spells them ("lateness", "grid", "utf8", ...);
 * "?" when out of range. The lookups return the count value when unknown. */
const char *config_metric_name(enum config_metric m);
const char *config_pane_name(enum config_pane p);
const char *config_glyphs_name(enum config_glyphs g);
const char *config_colours_name(enum config_colours c);
const char *config_sel_op_name(enum config_sel_op o);
const char *config_topo_source_name(enum config_topo_source s);
const char *config_placement_name(enum config_placement p);
const char *config_depth_name(enum config_depth d);
const char *config_iter_find_name(enum config_iter_find f);
enum config_metric config_metric_find(const char *name);
enum config_pane config_pane_find(const char *name);

#endif
