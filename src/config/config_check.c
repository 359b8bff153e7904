/* config_check.c — what can only be checked or computed once a trace, an
 * analysis or the explorer's action table is at hand: phase patterns
 * against region names, key bindings against actions, and the named
 * phases each partition belongs to.
 */
#include "config_impl.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

/* A phase pattern must match some region; m is where it was written
 * (NULL: the command line, named by `what`). */
static int
check_pattern(const char *what, const char *glob, const struct config_mark *m,
	      const char *const *names, uint32_t n, struct err *e)
{
	for (uint32_t r = 0; r < n; r++)
		if (fnmatch(glob, names[r], 0) == 0)
			return 0;
	char sug[96];
	config_suggestion(sug, sizeof sug, glob, names, n);
	if (!m)
		return err_set(e, ERR_FORMAT, "%s '%s' matches no region of the trace%s", what, glob, sug);
	return config_mark_error(e, m, "%s '%s' matches no region of the trace%s", what, glob, sug);
}

/* The trace's region names, for check_pattern; NULL when out of memory. */
static const char **
region_names(const struct trace *t, uint32_t *n)
{
	const struct trace_region *regions = trace_regions(t, n);
	const char **names = malloc((*n ? *n : 1) * sizeof *names);
	for (uint32_t r = 0; names && r < *n; r++)
		names[r] = trace_str(t, regions[r].name);
	return names;
}

int
config_check_phase_globs(const char *what, const char *const *globs, uint32_t n_globs,
			 const struct trace *t, struct err *e)
{
	uint32_t n;
	const char **names = region_names(t, &n);
	if (!names)
		return err_set(e, ERR_NOMEM, "out of memory");
	int rc = 0;
	for (uint32_t i = 0; i < n_globs && !rc; i++)
		rc = check_pattern(what, globs[i], NULL, names, n, e);
	free(names);
	return rc;
}

int
config_check_regions(const struct config *cfg, const struct trace *t, struct err *e)
{
	uint32_t n;
	const char **names = region_names(t, &n);
	if (!names)
		return err_set(e, ERR_NOMEM, "out of memory");
	const struct config_phases *p = &cfg->phases;
	int rc = 0;
	for (uint32_t i = 0; i < p->n_split_at && !rc; i++)
		rc = check_pattern("phases.split_at:", p->split_at[i].value, &p->split_at[i].mark,
				   names, n, e);
	for (uint32_t i = 0; i < p->n_named && !rc; i++) {
		char what[96];
		snprintf(what, sizeof what, "phases.named: phase '%.40s': region", p->named[i].name);
		rc = check_pattern(what, p->named[i].region, &p->named[i].region_mark, names, n, e);
	}
	const struct config_iterations *it = &cfg->iterations;
	if (!rc && it->region && it->region[0])
		rc = check_pattern("iterations.region:", it->region, &it->region_mark, names, n, e);
	free(names);
	return rc;
}

int
config_check_keys(const struct config *cfg, const char *const *actions, size_t n_actions,
		  int (*key_ok)(const char *name), struct err *e)
{
	for (uint32_t i = 0; i < cfg->n_keys; i++) {
		const struct config_binding *b = &cfg->keys[i];
		size_t a = 0;
		while (a < n_actions && strcmp(actions[a], b->action) != 0)
			a++;
		if (a == n_actions) {
			char sug[96];
			return config_mark_error(e, &b->mark, "keys: unknown action '%s'%s", b->action,
						 config_suggestion(sug, sizeof sug, b->action, actions, n_actions));
		}
		for (uint32_t k = 0; k < b->n_keys; k++)
			if (key_ok && !key_ok(b->keys[k]))
				return config_mark_error(e, &b->key_marks[k], "keys.%s: unknown key name '%s'",
							 b->action, b->keys[k]);
	}
	return 0;
}

int
config_keys_text(const struct config *cfg, char **text)
{
	size_t len = 1;
	for (uint32_t i = 0; i < cfg->n_keys; i++)
		for (uint32_t k = 0; k < cfg->keys[i].n_keys; k++)
			len += strlen(cfg->keys[i].keys[k]) + strlen(cfg->keys[i].action) + 2;
	char *s = malloc(len), *p = s;
	if (!s)
		return ERR_NOMEM;
	for (uint32_t i = 0; i < cfg->n_keys; i++)
		for (uint32_t k = 0; k < cfg->keys[i].n_keys; k++) {
			size_t a = strlen(cfg->keys[i].keys[k]), b = strlen(cfg->keys[i].action);
			memcpy(p, cfg->keys[i].keys[k], a);
			p[a] = ' ';
			memcpy(p + a + 1, cfg->keys[i].action, b);
			p[a + 1 + b] = '\n';
			p += a + b + 2;
		}
	*p = '\0';
	*text = s;
	return 0;
}

static int
by_part_phase(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

int
config_part_phases(const struct config *cfg, const struct analysis *a, uint32_t *label,
		   uint8_t *keep, struct err *e)
{
	const struct trace *t = analysis_trace(a);
	const struct config_phases *ph = &cfg->phases;
	uint32_t n_regions, n_frames, n_parts, n_ops;
	const struct trace_region *regions = trace_regions(t, &n_regions);
	const struct trace_frame *frames = trace_frames(t, &n_frames);
	struct trace_opv ops = trace_ops(t, &n_ops);
	analysis_parts(a, &n_parts);
	uint32_t n_lops = analysis_lop_count(a);
	/* region → the first named phase whose pattern it matches */
	uint32_t *phase_of = malloc((n_regions ? n_regions : 1) * sizeof *phase_of);
	/* one vote (partition << 32 | phase) per communication lop in a
	 * named phase: sorted, each partition's votes are a run (memory
	 * follows the lops, not partitions times phases) */
	uint64_t *votes = malloc((n_lops ? n_lops : 1) * sizeof *votes);
	if (!phase_of || !votes) {
		free(phase_of);
		free(votes);
		return err_set(e, ERR_NOMEM, "out of memory");
	}
	for (uint32_t r = 0; r < n_regions; r++) {
		phase_of[r] = CONFIG_NO_PHASE;
		for (uint32_t k = 0; k < ph->n_named && phase_of[r] == CONFIG_NO_PHASE; k++)
			if (fnmatch(ph->named[k].region, trace_str(t, regions[r].name), 0) == 0)
				phase_of[r] = k;
	}
	/* which named phases phases.restrict keeps */
	uint8_t *kept = calloc(ph->n_named ? ph->n_named : 1, 1);
	if (!kept) {
		free(phase_of);
		free(votes);
		return err_set(e, ERR_NOMEM, "out of memory");
	}
	for (uint32_t i = 0; i < ph->n_restrict; i++)
		for (uint32_t k = 0; k < ph->n_named; k++)
			if (strcmp(ph->restrict_to[i].value, ph->named[k].name) == 0)
				kept[k] = 1;
	size_t nv = 0;
	for (uint32_t l = 0; l < n_lops && ph->n_named; l++) {
		if (analysis_lop_kind(a, l) == OP_COMPUTE)
			continue;
		uint32_t first, count;
		analysis_lop_ops(a, l, &first, &count);
		if (!count || first >= n_ops)
			continue;
		/* the innermost enclosing frame whose region is a named phase */
		uint32_t f = trace_op_get(&ops, first).frame, k = CONFIG_NO_PHASE;
		for (uint32_t hops = 0; f != TRACE_NONE && f < n_frames && hops < n_frames; hops++) {
			if (frames[f].region < n_regions && phase_of[frames[f].region] != CONFIG_NO_PHASE) {
				k = phase_of[frames[f].region];
				break;
			}
			f = frames[f].parent;
		}
		uint32_t p = analysis_lop_part(a, l);
		if (k != CONFIG_NO_PHASE && p < n_parts)
			votes[nv++] = (uint64_t)p << 32 | k;
	}
	if (nv)
		qsort(votes, nv, sizeof *votes, by_part_phase);
	/* the phase with most votes wins, the first named on a tie */
	size_t v = 0;
	for (uint32_t p = 0; p < n_parts; p++) {
		uint32_t best = CONFIG_NO_PHASE, best_n = 0;
		while (v < nv && votes[v] >> 32 == p) {
			size_t run = v;
			while (run < nv && votes[run] == votes[v])
				run++;
			if (run - v > best_n) {
				best_n = (uint32_t)(run - v);
				best = (uint32_t)votes[v];
			}
			v = run;
		}
		if (label)
			label[p] = best;
		if (keep)
			keep[p] = ph->n_restrict == 0 || (best != CONFIG_NO_PHASE && kept[best]);
	}
	free(kept);
	free(phase_of);
	free(votes);
	return 0;
}
