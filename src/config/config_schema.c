/* config_schema.c — the schema: one walk over a document's node tree that
 * checks every key and value and writes it into the config being loaded.
 *
 * Rules shared by every section: a mapping merges key by key onto what
 * is there; a list replaces the list before it; a key written twice in
 * one mapping, a key the schema does not know, and a value of the wrong
 * type or out of range are errors at the offending node. An empty value
 * (`phases:` with nothing after it) is an empty mapping or list.
 */
#include "config_impl.h"
#include "base/intern.h"
#include "base/vec.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- describing values in messages ---- */

/* "'text'" (shortened, one line), "nothing", "a list" or "a mapping". */
const char *
schema_show(char *buf, size_t n, const struct cnode *v)
{
	if (v->type == CN_SEQ)
		return "a list";
	if (v->type == CN_MAP)
		return "a mapping";
	if (cnode_is_null(v))
		return "nothing";
	size_t k = 0;
	buf[k++] = '\'';
	for (size_t i = 0; i < v->len && k + 5 < n; i++) {
		unsigned char c = (unsigned char)v->s[i];
		if (i == 40) {
			memcpy(buf + k, "...", 3);
			k += 3;
			break;
		}
		buf[k++] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	buf[k++] = '\'';
	buf[k] = '\0';
	return buf;
}

/* "a, b, c or d" */
static const char *
list_names(char *buf, size_t n, const char *const *names, size_t count)
{
	size_t k = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < count && k < n; i++) {
		const char *sep = i == 0 ? "" : i + 1 == count ? " or " : ", ";
		int w = snprintf(buf + k, n - k, "%s%s", sep, names[i]);
		if (w < 0)
			break;
		k += (size_t)w;
	}
	return buf;
}

struct config_mark
schema_mark(const struct ld *ld, const struct cnode *n)
{
	struct config_mark m = { ld->file, n->line, n->col };
	return m;
}

/* ---- scalars ---- */

static int
want_scalar(struct ld *ld, const struct cnode *v, const char *path, const char *what)
{
	char b[64];
	if (v->type != CN_SCALAR || cnode_is_null(v))
		return ld_error(ld, v, "%s: expected %s, got %s", path, what, schema_show(b, sizeof b, v));
	return 0;
}

int
schema_bool(struct ld *ld, const struct cnode *v, const char *path, int *out)
{
	static const char *const yes[] = { "true", "yes", "on" }, *const no[] = { "false", "no", "off" };
	char b[64];
	if (v->type == CN_SCALAR && v->plain)
		for (size_t i = 0; i < N_OF(yes); i++) {
			if (strcmp(v->s, yes[i]) == 0)
				return *out = 1, 0;
			if (strcmp(v->s, no[i]) == 0)
				return *out = 0, 0;
		}
	return ld_error(ld, v, "%s: expected true or false%s, got %s", path,
			v->type == CN_SCALAR && !v->plain ? " unquoted (a quoted one is a string)" : "",
			schema_show(b, sizeof b, v));
}

/* A plain decimal integer; *neg set for a leading '-'. */
static int
parse_int(const struct cnode *v, int *neg, unsigned long long *out)
{
	const char *s = v->s;
	if (v->type != CN_SCALAR || !v->plain)
		return -1;
	*neg = *s == '-';
	if (*s == '-' || *s == '+')
		s++;
	if (*s < '0' || *s > '9')
		return -1;
	for (const char *p = s; *p; p++)
		if (*p < '0' || *p > '9')
			return -1;
	errno = 0;
	*out = strtoull(s, NULL, 10);
	if (errno == ERANGE)
		*out = ULLONG_MAX;
	return 0;
}

int
schema_uint(struct ld *ld, const struct cnode *v, const char *path, uint32_t min, uint32_t max,
	 uint32_t *out)
{
	char b[64];
	int neg;
	unsigned long long x;
	if (parse_int(v, &neg, &x))
		return ld_error(ld, v, "%s: expected a whole number, got %s", path, schema_show(b, sizeof b, v));
	if (neg && x != 0)
		return ld_error(ld, v, "%s: must not be negative, got %s", path, v->s);
	if (x < min)
		return ld_error(ld, v, "%s: must be at least %u, got %s", path, min, v->s);
	if (x > max)
		return ld_error(ld, v, "%s: must be at most %u, got %s", path, max, v->s);
	*out = (uint32_t)x;
	return 0;
}

/* A decimal number: digits with an optional fraction and exponent (no
 * inf, nan or hexadecimal). */
int
schema_is_decimal(const char *s)
{
	int digits = 0;
	if (*s == '-' || *s == '+')
		s++;
	for (; *s >= '0' && *s <= '9'; s++)
		digits++;
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++)
			digits++;
	if (!digits)
		return 0;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '-' || *s == '+')
			s++;
		if (*s < '0' || *s > '9')
			return 0;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	return *s == '\0';
}

static int
get_factor(struct ld *ld, const struct cnode *v, const char *path, double *out)
{
	char b[64];
	if (v->type != CN_SCALAR || !v->plain || !schema_is_decimal(v->s))
		return ld_error(ld, v, "%s: expected a number, got %s", path, schema_show(b, sizeof b, v));
	double x = strtod(v->s, NULL);
	if (!(x > 0))
		return ld_error(ld, v, "%s: must be greater than 0, got %s", path, v->s);
	if (!(x <= 1e9))
		return ld_error(ld, v, "%s: must be at most 1e9, got %s", path, v->s);
	*out = x;
	return 0;
}

/* A duration with its unit ("25ms", "0.5 s", "0"), in nanoseconds. */
int
schema_time(struct ld *ld, const struct cnode *v, const char *path, int64_t *out)
{
	static const struct { const char *unit; double f; } units[] = {
		{ "s", 1e9 }, { "ms", 1e6 }, { "us", 1e3 }, { "ns", 1 },
	};
	char b[64], num[64];
	if (want_scalar(ld, v, path, "a duration such as 25ms"))
		return ERR_FORMAT;
	size_t k = 0;
	const char *s = v->s;
	while (*s && (strchr("+-.eE", *s) || (*s >= '0' && *s <= '9')) && k + 1 < sizeof num) {
		/* an 'e' followed by a letter starts no exponent: it is no unit we know either */
		num[k++] = *s++;
	}
	num[k] = '\0';
	while (*s == ' ')
		s++;
	if (!schema_is_decimal(num))
		return ld_error(ld, v, "%s: expected a duration such as 25ms, got %s", path,
				schema_show(b, sizeof b, v));
	double x = strtod(num, NULL), f = 0;
	for (size_t i = 0; i < N_OF(units); i++)
		if (strcmp(s, units[i].unit) == 0)
			f = units[i].f;
	if (f == 0 && !(*s == '\0' && x == 0))
		return ld_error(ld, v, "%s: %s needs a unit: s, ms, us or ns", path, schema_show(b, sizeof b, v));
	if (x < 0)
		return ld_error(ld, v, "%s: must not be negative, got %s", path, v->s);
	double ns = x * f;
	if (!(ns <= 1e18))
		return ld_error(ld, v, "%s: %s is too long", path, schema_show(b, sizeof b, v));
	*out = (int64_t)llround(ns);
	return 0;
}

int
schema_string(struct ld *ld, const struct cnode *v, const char *path, int allow_empty,
	   const char **out)
{
	if (want_scalar(ld, v, path, "a string"))
		return ERR_FORMAT;
	if (!allow_empty && v->len == 0)
		return ld_error(ld, v, "%s: must not be empty", path);
	*out = store_strndup(ld->st, v->s, v->len);
	return *out ? 0 : err_set(ld->e, ERR_NOMEM, "out of memory");
}

int
schema_enum(struct ld *ld, const struct cnode *v, const char *path, const char *const *names,
	 size_t n, int *out)
{
	char b[64], l[256], sug[96];
	if (want_scalar(ld, v, path, "a name"))
		return ERR_FORMAT;
	for (size_t i = 0; i < n; i++)
		if (strcmp(v->s, names[i]) == 0)
			return *out = (int)i, 0;
	return ld_error(ld, v, "%s: %s is not one of %s%s", path, schema_show(b, sizeof b, v),
			list_names(l, sizeof l, names, n), config_suggestion(sug, sizeof sug, v->s, names, n));
}

/* ---- containers ---- */

/* A mapping, or nothing (an empty one). Returns 1 when there is nothing. */
int
schema_map(struct ld *ld, const struct cnode *v, const char *path, int *rc)
{
	char b[64];
	*rc = 0;
	if (cnode_is_null(v))
		return 1;
	if (v->type != CN_MAP) {
		*rc = ld_error(ld, v, "%s: expected a mapping, got %s", path, schema_show(b, sizeof b, v));
		return 1;
	}
	return 0;
}

/* The items of a list; nothing is an empty list. */
int
schema_list(struct ld *ld, const struct cnode *v, const char *path,
	  const struct cnode *const **items, uint32_t *n)
{
	char b[64];
	if (cnode_is_null(v)) {
		*items = NULL;
		*n = 0;
		return 0;
	}
	if (v->type == CN_SEQ) {
		*items = (const struct cnode *const *)v->kid;
		*n = v->n;
		return 0;
	}
	return ld_error(ld, v, "%s: expected a list, got %s", path, schema_show(b, sizeof b, v));
}

/* A single value or a list of them: a value that is not a list is a list
 * of one, kept in *one (which must outlive the items). */
int
schema_items(struct ld *ld, const struct cnode *v, const char *path, const struct cnode **one,
	   const struct cnode *const **items, uint32_t *n)
{
	if (v->type == CN_SCALAR && !cnode_is_null(v)) {
		*one = v;
		*items = one;
		*n = 1;
		return 0;
	}
	return schema_list(ld, v, path, items, n);
}

/* Key i of mapping m must be a name not used before in m. */
static int
key_check(struct ld *ld, const struct cnode *m, uint32_t i, const char *section)
{
	const struct cnode *k = m->kid[2 * i];
	char b[64];
	if (k->type != CN_SCALAR)
		return ld_error(ld, k, "%s: keys must be names, got %s", section[0] ? section : "top level",
				schema_show(b, sizeof b, k));
	for (uint32_t j = 0; j < i; j++) {
		const struct cnode *o = m->kid[2 * j];
		if (o->type == CN_SCALAR && o->len == k->len && memcmp(o->s, k->s, k->len) == 0)
			return ld_error(ld, k, "duplicate key '%s'%s%s (first at line %u, column %u)",
					k->s, section[0] ? " in " : "", section, o->line, o->col);
	}
	return 0;
}

/* Key i of mapping m, looked up in names[0..n): returns its index, or a
 * negative error for a non-string, unknown or repeated key. */
int
schema_key(struct ld *ld, const struct cnode *m, uint32_t i, const char *section,
	  const char *const *names, size_t n)
{
	const struct cnode *k = m->kid[2 * i];
	char b[64], sug[96];
	int rc = key_check(ld, m, i, section);
	if (rc)
		return rc;
	for (size_t j = 0; j < n; j++)
		if (strcmp(k->s, names[j]) == 0)
			return (int)j;
	if (!section[0])
		return ld_error(ld, k, "unknown section %s%s", schema_show(b, sizeof b, k),
				config_suggestion(sug, sizeof sug, k->s, names, n));
	return ld_error(ld, k, "unknown key %s in %s%s", schema_show(b, sizeof b, k), section,
			config_suggestion(sug, sizeof sug, k->s, names, n));
}

/* ---- structure ---- */

/* The structure section is flat: each key is one field of struct
 * config_structure, read as its type says. */
enum field_type { FIELD_BOOL, FIELD_FACTOR, FIELD_COUNT };
static const struct field {
	const char *key;
	enum field_type type;
	size_t offset;
} structure_fields[] = {
	{ "coalesce", FIELD_BOOL, offsetof(struct config_structure, coalesce) },
	{ "waitall_merge", FIELD_BOOL, offsetof(struct config_structure, waitall_merge) },
	{ "leap_merge", FIELD_BOOL, offsetof(struct config_structure, leap_merge) },
	{ "leap_factor", FIELD_FACTOR, offsetof(struct config_structure, leap_factor) },
	{ "force", FIELD_BOOL, offsetof(struct config_structure, force) },
	{ "global_step_merge", FIELD_BOOL, offsetof(struct config_structure, global_step_merge) },
	{ "auto_merge", FIELD_BOOL, offsetof(struct config_structure, auto_merge) },
	{ "sender_progress", FIELD_BOOL, offsetof(struct config_structure, sender_progress) },
	{ "include_startup", FIELD_BOOL, offsetof(struct config_structure, include_startup) },
	{ "caller_merge", FIELD_BOOL, offsetof(struct config_structure, caller_merge) },
	{ "match_size", FIELD_BOOL, offsetof(struct config_structure, match_size) },
	{ "hotspots", FIELD_COUNT, offsetof(struct config_structure, hotspots) },
	{ "reorder", FIELD_BOOL, offsetof(struct config_structure, reorder) },
};

static int
walk_structure(struct ld *ld, const struct cnode *m)
{
	const char *keys[N_OF(structure_fields)];
	for (size_t f = 0; f < N_OF(structure_fields); f++)
		keys[f] = structure_fields[f].key;
	char *base = (char *)&ld->cfg->structure;
	int rc;
	if (schema_map(ld, m, "structure", &rc))
		return rc;
	for (uint32_t i = 0; i < m->n / 2 && !rc; i++) {
		int k = schema_key(ld, m, i, "structure", keys, N_OF(keys));
		const struct cnode *v = m->kid[2 * i + 1];
		char path[64];
		if (k < 0)
			return k;
		const struct field *f = &structure_fields[k];
		snprintf(path, sizeof path, "structure.%s", f->key);
		switch (f->type) {
		case FIELD_BOOL: rc = schema_bool(ld, v, path, (int *)(base + f->offset)); break;
		case FIELD_FACTOR: rc = get_factor(ld, v, path, (double *)(base + f->offset)); break;
		case FIELD_COUNT: rc = schema_uint(ld, v, path, 0, 1000000, (uint32_t *)(base + f->offset)); break;
		}
	}
	return rc;
}

/* ---- iterations ---- */

static int
walk_iterations(struct ld *ld, const struct cnode *m)
{
	enum { K_FIND, K_REGION, K_NAME, K_COUNT };
	static const char *const keys[K_COUNT] = {
		[K_FIND] = "find", [K_REGION] = "region", [K_NAME] = "name",
	};
	struct config_iterations *it = &ld->cfg->iterations;
	int rc, x;
	if (schema_map(ld, m, "iterations", &rc))
		return rc;
	for (uint32_t i = 0; i < m->n / 2 && !rc; i++) {
		int k = schema_key(ld, m, i, "iterations", keys, K_COUNT);
		const struct cnode *v = m->kid[2 * i + 1];
		if (k < 0)
			return k;
		switch (k) {
		case K_FIND:
			if (!(rc = schema_enum(ld, v, "iterations.find", config_iter_find_names,
					    CONFIG_ITER_FIND_COUNT, &x)))
				it->find = (enum config_iter_find)x;
			break;
		case K_REGION:
			if (!(rc = schema_string(ld, v, "iterations.region", 1, &it->region)))
				it->region_mark = schema_mark(ld, v);
			/* a pattern that can match nothing, as phases' are checked */
			if (!rc && analysis_glob_problem(it->region))
				rc = config_mark_error(ld->e, &it->region_mark, "iterations.region: '%s': %s",
						       it->region, analysis_glob_problem(it->region));
			break;
		case K_NAME:
			rc = schema_string(ld, v, "iterations.name", 0, &it->name);
			break;
		}
	}
	return rc;
}

/* ---- phases ---- */

/* A list of non-empty strings, each with its mark; no repeats when
 * unique (the message names what repeats). */
/* Duplicate checks in one pass, whatever the list's length: each string
 * is interned, and one that gets an old id was seen before; where[id]
 * says where (an index the caller chooses). */
struct seen {
	struct intern *in;
	uint64_t *where;
	size_t cap;
};

static void
seen_fini(struct seen *s)
{
	intern_destroy(s->in);
	free(s->where);
}

/* Returns 0 when str is new (remembering where), 1 when it was seen
 * before (*first = where it was), or ERR_NOMEM. */
static int
seen_add(struct seen *s, const char *str, uint64_t where, uint64_t *first)
{
	if (!s->in && !(s->in = intern_create()))
		return ERR_NOMEM;
	uint32_t before = intern_count(s->in), id;
	if (intern_add(s->in, str, strlen(str), &id) ||
	    vec_reserve((void **)&s->where, &s->cap, (size_t)id + 1, sizeof *s->where))
		return ERR_NOMEM;
	if (id < before && (id || !str[0] ? s->where[id] != UINT64_MAX : 0)) {
		*first = s->where[id];
		return 1;
	}
	for (uint32_t i = before; i <= id; i++)
		s->where[i] = UINT64_MAX;      /* "" (id 0) has not been seen yet */
	s->where[id] = where;
	return 0;
}

/* A list of names: at most CONFIG_MAX_NAMES of them. */
static int
want_names(struct ld *ld, const struct cnode *at, const char *path, uint32_t n)
{
	if (n <= CONFIG_MAX_NAMES)
		return 0;
	return ld_error(ld, at, "%s: %u items, more than the %u a list of names may hold", path, n,
			CONFIG_MAX_NAMES);
}

static int
get_items(struct ld *ld, const struct cnode *v, const char *path, int unique,
	  const struct config_item **out, uint32_t *n_out)
{
	const struct cnode *one;
	const struct cnode *const *items;
	uint32_t n;
	int rc = schema_items(ld, v, path, &one, &items, &n);
	if (rc || (rc = want_names(ld, v, path, n)))
		return rc;
	struct config_item *a = store_alloc(ld->st, (n ? n : 1) * sizeof *a);
	if (!a)
		return err_set(ld->e, ERR_NOMEM, "out of memory");
	struct seen seen = { 0 };
	for (uint32_t i = 0; i < n && rc == 0; i++) {
		if ((rc = schema_string(ld, items[i], path, 0, &a[i].value)))
			break;
		a[i].mark = schema_mark(ld, items[i]);
		uint64_t j;
		int dup = unique ? seen_add(&seen, a[i].value, i, &j) : 0;
		if (dup < 0)
			rc = err_set(ld->e, ERR_NOMEM, "out of memory");
		else if (dup)
			rc = ld_error(ld, items[i], "%s: '%s' is listed twice (first at line %u, column %u)",
				      path, a[i].value, a[j].mark.line, a[j].mark.column);
	}
	seen_fini(&seen);
	if (rc)
		return rc;
	*out = a;
	*n_out = n;
	return 0;
}

/* One entry of phases.named: a mapping with name, region and split. */
static int
get_named(struct ld *ld, const struct cnode *m, struct config_named_phase *p,
	  const struct cnode **name_node)
{
	enum { K_NAME, K_REGION, K_SPLIT, K_COUNT };
	static const char *const keys[K_COUNT] = { [K_NAME] = "name", [K_REGION] = "region", [K_SPLIT] = "split" };
	char b[64];
	if (m->type != CN_MAP)
		return ld_error(ld, m, "phases.named: expected a mapping with name and region, got %s",
				schema_show(b, sizeof b, m));
	p->mark = schema_mark(ld, m);
	int rc = 0;
	for (uint32_t j = 0; j < m->n / 2 && rc == 0; j++) {
		int k = schema_key(ld, m, j, "phases.named", keys, N_OF(keys));
		const struct cnode *val = m->kid[2 * j + 1];
		if (k < 0)
			return k;
		switch (k) {
		case K_NAME:
			rc = schema_string(ld, val, "phases.named.name", 0, &p->name);
			*name_node = val;
			break;
		case K_REGION:
			rc = schema_string(ld, val, "phases.named.region", 0, &p->region);
			p->region_mark = schema_mark(ld, val);
			break;
		case K_SPLIT:
			rc = schema_bool(ld, val, "phases.named.split", &p->split);
			break;
		}
	}
	if (rc == 0 && (!p->name || !p->region))
		rc = ld_error(ld, m, "phases.named: entry has no '%s'", p->name ? "region" : "name");
	if (rc == 0 && analysis_glob_problem(p->region))
		rc = config_mark_error(ld->e, &p->region_mark, "phases.named.region: '%s': %s", p->region,
				       analysis_glob_problem(p->region));
	return rc;
}

static int
walk_named(struct ld *ld, const struct cnode *v)
{
	const struct cnode *const *items;
	uint32_t n;
	int rc = schema_list(ld, v, "phases.named", &items, &n);
	if (rc || (rc = want_names(ld, v, "phases.named", n)))
		return rc;
	struct config_named_phase *a = store_alloc(ld->st, (n ? n : 1) * sizeof *a);
	if (!a)
		return err_set(ld->e, ERR_NOMEM, "out of memory");
	struct seen seen = { 0 };
	for (uint32_t i = 0; i < n && rc == 0; i++) {
		const struct cnode *name_node = NULL;
		if ((rc = get_named(ld, items[i], &a[i], &name_node)))
			break;
		uint64_t j;
		int dup = seen_add(&seen, a[i].name, i, &j);
		if (dup < 0)
			rc = err_set(ld->e, ERR_NOMEM, "out of memory");
		else if (dup)
			rc = ld_error(ld, name_node,
				      "phases.named: phase '%s' is defined twice (first at line %u, column %u)",
				      a[i].name, a[j].mark.line, a[j].mark.column);
	}
	seen_fini(&seen);
	if (rc)
		return rc;
	ld->cfg->phases.named = a;
	ld->cfg->phases.n_named = n;
	return 0;
}

static int
walk_phases(struct ld *ld, const struct cnode *m)
{
	enum { K_SPLIT_AT, K_NAMED, K_RESTRICT, K_COUNT };
	static const char *const keys[K_COUNT] = {
		[K_SPLIT_AT] = "split_at", [K_NAMED] = "named", [K_RESTRICT] = "restrict",
	};
	struct config_phases *p = &ld->cfg->phases;
	int rc;
	if (schema_map(ld, m, "phases", &rc))
		return rc;
	for (uint32_t i = 0; i < m->n / 2 && !rc; i++) {
		int k = schema_key(ld, m, i, "phases", keys, N_OF(keys));
		const struct cnode *v = m->kid[2 * i + 1];
		if (k < 0)
			return k;
		switch (k) {
		case K_SPLIT_AT:
			rc = get_items(ld, v, "phases.split_at", 1, &p->split_at, &p->n_split_at);
			for (uint32_t s = 0; rc == 0 && s < p->n_split_at; s++)
				if (analysis_glob_problem(p->split_at[s].value))
					rc = config_mark_error(ld->e, &p->split_at[s].mark, "phases.split_at: '%s': %s",
							       p->split_at[s].value,
							       analysis_glob_problem(p->split_at[s].value));
			break;
		case K_NAMED: rc = walk_named(ld, v); break;
		case K_RESTRICT: rc = get_items(ld, v, "phases.restrict", 1, &p->restrict_to, &p->n_restrict); break;
		}
	}
	return rc;
}

/* restrict names named phases; either may come from an earlier layer,
 * so this runs on the merged result. */
static int
check_restrict(struct ld *ld)
{
	const struct config_phases *p = &ld->cfg->phases;
	const char **names = store_alloc(ld->st, (p->n_named ? p->n_named : 1) * sizeof *names);
	if (!names)
		return err_set(ld->e, ERR_NOMEM, "out of memory");
	for (uint32_t i = 0; i < p->n_named; i++)
		names[i] = p->named[i].name;
	/* the named phases' names in a set; a restrict value not in it is
	 * added with a new id, which is how it shows as unknown */
	struct seen seen = { 0 };
	int rc = 0;
	uint64_t j;
	for (uint32_t i = 0; i < p->n_named && rc >= 0; i++)
		rc = seen_add(&seen, names[i], i, &j);
	for (uint32_t i = 0; i < p->n_restrict && rc >= 0; i++) {
		if ((rc = seen_add(&seen, p->restrict_to[i].value, UINT64_MAX - 1, &j)) != 0)
			continue;         /* a named phase, or out of memory */
		char sug[96];
		rc = config_mark_error(ld->e, &p->restrict_to[i].mark,
				       "phases.restrict: no named phase '%s'%s", p->restrict_to[i].value,
				       p->n_named ? config_suggestion(sug, sizeof sug, p->restrict_to[i].value,
								      names, p->n_named)
						  : " (phases.named is empty)");
	}
	seen_fini(&seen);
	if (rc == ERR_NOMEM)
		return err_set(ld->e, ERR_NOMEM, "out of memory");
	return rc < 0 ? rc : 0;
}

/* ---- keys ---- */

static int
is_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if ((unsigned char)*s <= 0x20 || *s == 0x7f)
			return 0;
	return 1;
}

/* The document's key lists into doc[], each key bound once. */
static int
walk_key_lists(struct ld *ld, const struct cnode *m, struct config_binding *doc, struct seen *seen)
{
	uint32_t nd = m->n / 2, total = 0;
	int rc;
	for (uint32_t i = 0; i < nd; i++) {
		const struct cnode *k = m->kid[2 * i], *v = m->kid[2 * i + 1];
		char b[64];
		if ((rc = key_check(ld, m, i, "keys")))
			return rc;
		if (!is_name(k->s))
			return ld_error(ld, k, "keys: %s is not an action name", schema_show(b, sizeof b, k));
		const struct cnode *one;
		const struct cnode *const *items;
		uint32_t n;
		if ((rc = schema_items(ld, v, "keys", &one, &items, &n)) ||
		    (rc = want_names(ld, v, "keys", total += n)))
			return rc;
		const char **keys = store_alloc(ld->st, (n ? n : 1) * sizeof *keys);
		struct config_mark *marks = store_alloc(ld->st, (n ? n : 1) * sizeof *marks);
		if (!keys || !marks || !(doc[i].action = store_strndup(ld->st, k->s, k->len)))
			return err_set(ld->e, ERR_NOMEM, "out of memory");
		doc[i].mark = schema_mark(ld, k);
		for (uint32_t j = 0; j < n; j++) {
			char path[96];
			snprintf(path, sizeof path, "keys.%.60s", k->s);
			if ((rc = schema_string(ld, items[j], path, 0, &keys[j])))
				return rc;
			if (!is_name(keys[j]))
				return ld_error(ld, items[j], "%s: %s is not a key name (no spaces: Space, Tab)",
						path, schema_show(b, sizeof b, items[j]));
			marks[j] = schema_mark(ld, items[j]);
			uint64_t w;
			int dup = seen_add(seen, keys[j], (uint64_t)i << 32 | j, &w);
			if (dup < 0)
				return err_set(ld->e, ERR_NOMEM, "out of memory");
			if (dup) {
				uint32_t a = (uint32_t)(w >> 32), c = (uint32_t)w;
				const struct config_mark *fm = a == i ? &marks[c] : &doc[a].key_marks[c];
				return ld_error(ld, items[j], "keys: '%s' is already bound to %s at line %u, column %u",
						keys[j], doc[a].action, fm->line, fm->column);
			}
		}
		doc[i].keys = keys;
		doc[i].key_marks = marks;
		doc[i].n_keys = n;
	}
	return 0;
}

/* Merges a document's bindings onto the configuration's: earlier actions
 * keep their place, new ones follow. */
static int
merge_keys(struct ld *ld, struct config_binding *doc, uint32_t nd, struct seen *seen)
{
	struct config *cfg = ld->cfg;
	uint32_t cap = cfg->n_keys + nd;
	struct config_binding *out = store_alloc(ld->st, (cap ? cap : 1) * sizeof *out);
	if (!out)
		return err_set(ld->e, ERR_NOMEM, "out of memory");
	uint32_t n_out = 0;
	for (uint32_t i = 0; i < cfg->n_keys; i++) {
		const struct config_binding *old = &cfg->keys[i];
		uint32_t d = 0;
		while (d < nd && strcmp(doc[d].action, old->action) != 0)
			d++;
		if (d < nd) {
			out[n_out++] = doc[d];
			continue;
		}
		const char **keys = store_alloc(ld->st, (old->n_keys ? old->n_keys : 1) * sizeof *keys);
		struct config_mark *marks = store_alloc(ld->st, (old->n_keys ? old->n_keys : 1) * sizeof *marks);
		if (!keys || !marks)
			return err_set(ld->e, ERR_NOMEM, "out of memory");
		struct config_binding nb = *old;
		nb.n_keys = 0;
		for (uint32_t j = 0; j < old->n_keys; j++) {
			uint64_t w;
			int taken = seen_add(seen, old->keys[j], UINT64_MAX - 1, &w);
			if (taken < 0)
				return err_set(ld->e, ERR_NOMEM, "out of memory");
			if (!taken || w == UINT64_MAX - 1) {
				keys[nb.n_keys] = old->keys[j];
				marks[nb.n_keys++] = old->key_marks[j];
			}
		}
		nb.keys = keys;
		nb.key_marks = marks;
		out[n_out++] = nb;
	}
	for (uint32_t d = 0; d < nd; d++) {
		uint32_t i = 0;
		while (i < cfg->n_keys && strcmp(doc[d].action, cfg->keys[i].action) != 0)
			i++;
		if (i == cfg->n_keys)
			out[n_out++] = doc[d];
	}
	cfg->keys = out;
	cfg->n_keys = n_out;
	return 0;
}

/* Bindings of one document: each action's list replaces its earlier
 * list, and a key the document binds leaves every other action. */
static int
walk_keys(struct ld *ld, const struct cnode *m)
{
	int rc;
	if (schema_map(ld, m, "keys", &rc))
		return rc;
	uint32_t nd = m->n / 2;
	if ((rc = want_names(ld, m, "keys", nd)))
		return rc;
	struct config_binding *doc = store_alloc(ld->st, (nd ? nd : 1) * sizeof *doc);
	if (!doc)
		return err_set(ld->e, ERR_NOMEM, "out of memory");
	struct seen seen = { 0 };       /* every key the document binds: (action, index) */
	rc = walk_key_lists(ld, m, doc, &seen);
	if (rc == 0)
		rc = merge_keys(ld, doc, nd, &seen);
	seen_fini(&seen);
	return rc;
}

/* ---- charm ---- */

/* A list of globs, kept both as items (with their marks) and as plain
 * strings for the reader. */
static int
get_globs(struct ld *ld, const struct cnode *v, const char *path, const struct config_item **items,
	  uint32_t *n, const char *const **plain)
{
	int rc = get_items(ld, v, path, 1, items, n);
	if (rc)
		return rc;
	const char **p = store_alloc(ld->st, (*n + 1) * sizeof *p);
	if (!p)
		return err_set(ld->e, ERR_NOMEM, "out of memory");
	for (uint32_t i = 0; i < *n; i++) {
		if (!(*items)[i].value[0])
			return ld_error(ld, v, "%s: a pattern must not be empty", path);
		p[i] = (*items)[i].value;
	}
	p[*n] = NULL;
	*plain = p;
	return 0;
}

static int
walk_charm(struct ld *ld, const struct cnode *m)
{
	enum { K_REORDER, K_SDAG, K_REPAIR, K_INFER, K_LEAP, K_CHARES, K_ENTRIES, K_COUNT };
	static const char *const keys[K_COUNT] = {
		[K_REORDER] = "reorder", [K_SDAG] = "sdag", [K_REPAIR] = "repair", [K_INFER] = "infer",
		[K_LEAP] = "leap_merge", [K_CHARES] = "runtime_chares", [K_ENTRIES] = "runtime_entries",
	};
	struct config_charm *c = &ld->cfg->charm;
	int rc;
	if (schema_map(ld, m, "charm", &rc))
		return rc;
	for (uint32_t i = 0; i < m->n / 2 && !rc; i++) {
		int k = schema_key(ld, m, i, "charm", keys, N_OF(keys));
		const struct cnode *v = m->kid[2 * i + 1];
		if (k < 0)
			return k;
		switch (k) {
		case K_REORDER: rc = schema_bool(ld, v, "charm.reorder", &c->reorder); break;
		case K_SDAG: rc = schema_bool(ld, v, "charm.sdag", &c->sdag); break;
		case K_REPAIR: rc = schema_bool(ld, v, "charm.repair", &c->repair); break;
		case K_INFER: rc = schema_bool(ld, v, "charm.infer", &c->infer); break;
		case K_LEAP: rc = schema_bool(ld, v, "charm.leap_merge", &c->leap_merge); break;
		case K_CHARES:
			rc = get_globs(ld, v, "charm.runtime_chares", &c->runtime_chares,
				       &c->n_runtime_chares, &c->runtime_chare_globs);
			break;
		case K_ENTRIES:
			rc = get_globs(ld, v, "charm.runtime_entries", &c->runtime_entries,
				       &c->n_runtime_entries, &c->runtime_entry_globs);
			break;
		}
	}
	return rc;
}

/* ---- the document ---- */

int
config_apply(struct ld *ld, const struct cnode *root)
{
	enum { S_STRUCTURE, S_PHASES, S_ITERATIONS, S_VIEW, S_TOPOLOGY, S_CHARM, S_KEYS, S_SAMPLES, S_COUNT };
	static const char *const sections[S_COUNT] = {
		[S_STRUCTURE] = "structure", [S_PHASES] = "phases", [S_ITERATIONS] = "iterations",
		[S_VIEW] = "view", [S_TOPOLOGY] = "topology", [S_CHARM] = "charm", [S_KEYS] = "keys",
		[S_SAMPLES] = "samples",
	};
	char b[64];
	if (!root || cnode_is_null(root))
		return ld_error(ld, root, "empty document: expected a mapping with structure, phases, "
				"view, topology, charm, keys or samples");
	if (root->type != CN_MAP)
		return ld_error(ld, root, "expected a mapping with structure, phases, view, topology, "
				"charm, keys or samples at the top level, got %s", schema_show(b, sizeof b, root));
	int rc = 0;
	for (uint32_t i = 0; i < root->n / 2 && !rc; i++) {
		int k = schema_key(ld, root, i, "", sections, N_OF(sections));
		const struct cnode *v = root->kid[2 * i + 1];
		if (k < 0)
			return k;
		switch (k) {
		case S_STRUCTURE: rc = walk_structure(ld, v); break;
		case S_PHASES: rc = walk_phases(ld, v); break;
		case S_ITERATIONS: rc = walk_iterations(ld, v); break;
		case S_VIEW: rc = config_walk_view(ld, v); break;
		case S_TOPOLOGY: rc = config_walk_topology(ld, v); break;
		case S_CHARM: rc = walk_charm(ld, v); break;
		case S_KEYS: rc = walk_keys(ld, v); break;
		case S_SAMPLES: rc = config_walk_samples(ld, v); break;
		}
	}
	if (!rc)
		rc = check_restrict(ld);
	if (!rc)
		rc = config_check_samples(ld);
	return rc;
}
