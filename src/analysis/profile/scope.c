/* scope.c — rank sets and times from text (profile.h): what `:ranks`,
 * `:window`, `--rank-set`, `--from` and `--to` take. */
#include "profile.h"

#include "base/fmt.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Does timeline tl run on a system-tree node (or below one) whose name
 * matches glob? */
static int
on_node(const struct trace *t, uint32_t tl, const char *glob)
{
	uint32_t ntl, nn;
	const struct trace_timeline *x = &trace_timelines(t, &ntl)[tl];
	const struct trace_node *nodes = trace_nodes(t, &nn);
	for (uint32_t n = x->node, hops = 0; n != TRACE_NONE && n < nn && hops < 64;
	     n = nodes[n].parent, hops++)
		if (fnmatch(glob, trace_str(t, nodes[n].name), 0) == 0)
			return 1;
	return 0;
}

static int
by_node(const struct trace *t, const char *glob, uint8_t *kept, struct err *e)
{
	uint32_t ntl, hits = 0;
	trace_timelines(t, &ntl);
	for (uint32_t tl = 0; tl < ntl; tl++)
		if (on_node(t, tl, glob)) {
			kept[tl] = 1;
			hits++;
		}
	return hits ? 0 : err_set(e, ERR_USAGE, "no rank runs on a node named '%s'", glob);
}

static int
by_comm(const struct trace *t, const char *glob, uint8_t *kept, struct err *e)
{
	uint32_t nc, ntl, hits = 0;
	const struct trace_comm *c = trace_comms(t, &nc);
	const uint32_t *members = trace_comm_members(t);
	trace_timelines(t, &ntl);
	for (uint32_t i = 0; i < nc; i++) {
		if (c[i].is_self || fnmatch(glob, trace_str(t, c[i].name), 0) != 0)
			continue;
		for (uint32_t k = 0; k < c[i].size; k++)
			if (members[c[i].member_first + k] < ntl) {
				kept[members[c[i].member_first + k]] = 1;
				hits++;
			}
	}
	return hits ? 0 : err_set(e, ERR_USAGE, "no communicator named '%s' has members", glob);
}

static int
number(const char **s, uint32_t *v)
{
	if (!isdigit((unsigned char)**s))
		return -1;
	errno = 0;
	char *end;
	unsigned long x = strtoul(*s, &end, 10);
	if (errno || x > UINT32_MAX - 2)
		return -1;
	*v = (uint32_t)x;
	*s = end;
	return 0;
}

int
profile_parse_ranks(const struct trace *t, const char *spec, uint8_t *kept, struct err *e)
{
	uint32_t ntl;
	trace_timelines(t, &ntl);
	memset(kept, 0, ntl);
	while (*spec == ' ')
		spec++;
	if (strcmp(spec, "all") == 0 || *spec == 0) {
		memset(kept, 1, ntl);
		return 0;
	}
	if (strncmp(spec, "node:", 5) == 0)
		return by_node(t, spec + 5, kept, e);
	if (strncmp(spec, "comm:", 5) == 0)
		return by_comm(t, spec + 5, kept, e);
	const char *s = spec;
	uint32_t hits = 0;
	for (;;) {
		uint32_t lo, hi;
		while (*s == ' ')
			s++;
		if (number(&s, &lo))
			return err_set(e, ERR_USAGE, "ranks are numbers and ranges like 0-15,32, "
				       "node:NAME or comm:NAME, not '%s'", spec);
		hi = lo;
		if (*s == '-') {
			s++;
			if (number(&s, &hi) || hi < lo)
				return err_set(e, ERR_USAGE, "a range of ranks goes up, like 4-7, in '%s'", spec);
		}
		if (lo >= ntl)
			return err_set(e, ERR_USAGE, "rank %u is not in the trace (it has %u)", lo, ntl);
		for (uint32_t r = lo; r <= hi && r < ntl; r++) {
			hits += !kept[r];
			kept[r] = 1;
		}
		while (*s == ' ')
			s++;
		if (*s == 0)
			break;
		if (*s != ',')
			return err_set(e, ERR_USAGE, "ranks are separated by commas, in '%s'", spec);
		s++;
	}
	return hits ? 0 : err_set(e, ERR_USAGE, "no ranks in '%s'", spec);
}

int
profile_parse_time(const struct trace *t, const char *s, uint64_t *ticks, struct err *e)
{
	errno = 0;
	char *end;
	double v = strtod(s, &end);
	if (end == s || errno || !(v >= 0) || !isfinite(v))
		return err_set(e, ERR_USAGE, "a time is seconds from the trace's start, like 1.5 or "
			       "120ms, not '%s'", s);
	while (*end == ' ')
		end++;
	double scale = 1;
	if (*end == 0 || strcmp(end, "s") == 0)
		scale = 1;
	else if (strcmp(end, "ms") == 0)
		scale = 1e-3;
	else if (strcmp(end, "us") == 0 || strcmp(end, "µs") == 0)
		scale = 1e-6;
	else if (strcmp(end, "ns") == 0)
		scale = 1e-9;
	else if (strcmp(end, "min") == 0)
		scale = 60;
	else
		return err_set(e, ERR_USAGE, "a time's unit is s, ms, us, ns or min, not '%s'", end);
	double x = v * scale * (double)trace_info(t)->ticks_per_second;
	*ticks = x >= 1.8e19 ? UINT64_MAX : (uint64_t)(x + 0.5);
	return 0;
}

int
profile_parse_window(const struct trace *t, const char *from, const char *to, uint64_t *a, uint64_t *b,
		     struct err *e)
{
	const struct trace_info *ti = trace_info(t);
	if ((from && profile_parse_time(t, from, a, e)) || (to && profile_parse_time(t, to, b, e)))
		return ERR_USAGE;
	if (from && *a > ti->t_end) {
		char x[32];
		return err_set(e, ERR_USAGE, "--from %s: the trace ends at %s", from,
			       fmt_time(trace_seconds(t, ti->t_end), x, sizeof x));
	}
	if (*b <= *a)
		return err_set(e, ERR_USAGE, "--to must come after --from");
	return 0;
}
