/* config_impl.h — what the config modules share: the YAML node tree, the
 * config's owned memory, the loader state and the value-name tables.
 * Not part of the public interface (libyaml stays behind config_yaml.c).
 */
#ifndef SKEIN_CONFIG_IMPL_H
#define SKEIN_CONFIG_IMPL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config.h"

/* The built-in defaults: config/defaults.yaml, embedded by the build. */
extern const char config_defaults_yaml[];
extern const size_t config_defaults_yaml_len;
#define CONFIG_DEFAULTS_NAME "built-in defaults"

/* ---- the node tree (config_yaml.c) ---- */

enum cnode_type { CN_SCALAR, CN_SEQ, CN_MAP };

struct cnode {
	uint8_t type;           /* enum cnode_type */
	uint8_t plain;          /* scalar written without quotes */
	uint32_t line, col;     /* 1-based */
	char *s;                /* scalar text, NUL-terminated */
	size_t len;
	struct cnode **kid;     /* sequence items; mapping key, value, key, value … */
	uint32_t n;
	size_t cap;
};

struct ctree {
	struct cnode *root;
	struct cnode **all;     /* every node, for freeing */
	size_t n_all, cap_all;
};

/* Parses one YAML document into t. Errors: ERR_FORMAT with
 * "name:line:column: message" (malformed YAML, anchors, aliases, tags,
 * NUL in a string, nesting deeper than 64, several documents, no
 * document), ERR_NOMEM. t must be zeroed; free with ctree_free either way. */
int ctree_parse(struct ctree *t, const char *name, const char *text, size_t len, struct err *e);
void ctree_free(struct ctree *t);

/* A plain scalar that YAML reads as null: "", "~", "null". */
int cnode_is_null(const struct cnode *n);

/* ---- owned memory (config.c) ---- */

struct cblock;

struct config_store {
	struct cblock *blocks;          /* newest first */
	struct analysis_phase_rule *rules;
	uint32_t n_rules;
};

/* Zeroed memory owned by the store, or NULL. */
void *store_alloc(struct config_store *s, size_t size);
/* A NUL-terminated copy of p[0..len), or NULL. */
char *store_strndup(struct config_store *s, const char *p, size_t len);

/* ---- loading (config_schema.c) ---- */

struct ld {
	struct config *cfg;     /* the copy being changed */
	struct config_store *st;
	const char *file;       /* store-owned */
	struct err *e;
};

/* Walks the tree of one document onto ld->cfg. */
int config_apply(struct ld *ld, const struct cnode *root);

#define MAX_INDEX (UINT32_MAX - 1)   /* rank and step numbers */
#define N_OF(a) (sizeof (a) / sizeof (a)[0])

/* The schema's helpers, for every section's walk (config_schema.c has
 * the rules): describe a value and its mark; read a boolean, whole
 * number, duration, string or enum; take a mapping, a list, or "a value
 * or a list of them"; check a mapping's key against the names it may
 * have. Each returns 0, or reports at the node and returns an error. */
const char *schema_show(char *buf, size_t n, const struct cnode *v);
struct config_mark schema_mark(const struct ld *ld, const struct cnode *n);
int schema_is_decimal(const char *s);
int schema_bool(struct ld *ld, const struct cnode *v, const char *path, int *out);
int schema_uint(struct ld *ld, const struct cnode *v, const char *path, uint32_t min, uint32_t max,
		uint32_t *out);
int schema_time(struct ld *ld, const struct cnode *v, const char *path, int64_t *out);
int schema_string(struct ld *ld, const struct cnode *v, const char *path, int allow_empty, const char **out);
int schema_enum(struct ld *ld, const struct cnode *v, const char *path, const char *const *names, size_t n,
		int *out);
int schema_map(struct ld *ld, const struct cnode *v, const char *path, int *rc);
int schema_list(struct ld *ld, const struct cnode *v, const char *path, const struct cnode *const **items,
		uint32_t *n);
int schema_items(struct ld *ld, const struct cnode *v, const char *path, const struct cnode **one,
		 const struct cnode *const **items, uint32_t *n);
int schema_key(struct ld *ld, const struct cnode *m, uint32_t i, const char *section,
	       const char *const *names, size_t n);

/* The view and topology sections (config_view.c). */
int config_walk_view(struct ld *ld, const struct cnode *m);
int config_walk_topology(struct ld *ld, const struct cnode *m);

/* The samples section (config_samples.c): walked like the others, its
 * cross-key rules checked on the merged result. */
int config_walk_samples(struct ld *ld, const struct cnode *m);
int config_check_samples(struct ld *ld);
extern const char *const config_depth_names[CONFIG_DEPTH_COUNT];
extern const char *const config_op_names[CONFIG_OP_COUNT];

/* Records "file:line:column: message" in ld->e; returns ERR_FORMAT. */
int ld_error(struct ld *ld, const struct cnode *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same at a mark. */
int config_mark_error(struct err *e, const struct config_mark *m, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The candidate closest to word by edit distance when it is close enough
 * to be a likely misspelling, else NULL. */
const char *config_suggest(const char *word, const char *const *cands, size_t n);
/* Writes " (did you mean 'x'?)" or "" into buf. */
const char *config_suggestion(char *buf, size_t n, const char *word,
			      const char *const *cands, size_t nc);

/* Value names, indexed by the enums. */
extern const char *const config_metric_names[CONFIG_METRIC_COUNT];
extern const char *const config_pane_names[CONFIG_PANE_COUNT];
extern const char *const config_glyphs_names[CONFIG_GLYPHS_COUNT];
extern const char *const config_colours_names[CONFIG_COLOURS_COUNT];
extern const char *const config_sel_op_names[CONFIG_SEL_OP_COUNT];
extern const char *const config_topo_source_names[CONFIG_TOPO_SOURCE_COUNT];
extern const char *const config_placement_names[CONFIG_PLACE_COUNT];
extern const char *const config_iter_find_names[CONFIG_ITER_FIND_COUNT];

/* Writes a duration in nanoseconds with the largest unit that keeps it
 * an integer ("25ms", "0", "1500us"). buf ≥ 32 bytes. */
const char *config_format_ns(char *buf, size_t n, int64_t ns);

#endif
