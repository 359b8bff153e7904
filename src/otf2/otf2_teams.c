/* otf2_teams.c — the Enters the trace names an OpenMP team or task for
 * (model/trace.h, trace_tags): OMPT's parallel-region attribute, a CUDA
 * launch's stream attribute (both given with the Enter), and the records
 * Score-P's OPARI2 adapter writes before one: ThreadTeamBegin (the team
 * a thread joins, its next Enter the team's parallel region) and
 * ThreadTaskSwitch (the task a thread starts, its next Enter the task's
 * region), and ThreadTaskCreate after the Enter of the region creating
 * the task. Both readers call these alike. */
#include "otf2_impl.h"

#include "base/vec.h"

#include <stdlib.h>
#include <string.h>

int
otf2r_team_tag(struct evblock *k, uint64_t time, uint32_t region, uint64_t value)
{
	time = k->cur_lane != TRACE_NONE ? otf2r_lane_time(k, time) : build_time(k->b, time);
	uint32_t at;
	if (VEC_NEW_ID(k->tg, k->n_tg, k->cap_tg, &at))
		return ERR_NOMEM;
	k->tg[at] = (struct trace_tag){ time, value, k->cur_loc, region };
	return 0;
}

void
otf2r_teams_begin(struct evblock *k)
{
	if (k->n_tc) {
		memset(k->tc, 0, k->cap_tc * sizeof *k->tc);
		k->n_tc = 0;
	}
	k->next_tag = 0;
	k->last_region = TRACE_NONE;
}

/* The slot of team `comm` (+ 1 in the table) in the location's table. */
static size_t
team_slot(const struct evblock *k, uint32_t key)
{
	size_t mask = k->cap_tc - 1, i = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & mask;
	while (k->tc[i].comm && k->tc[i].comm != key)
		i = (i + 1) & mask;
	return i;
}

/* Room for one more team: the table at most half full. */
static int
team_reserve(struct evblock *k)
{
	if ((k->n_tc + 1) * 2 <= k->cap_tc)
		return 0;
	size_t cap = k->cap_tc ? k->cap_tc * 2 : 16, old_cap = k->cap_tc;
	struct team_count *old = k->tc, *v = calloc(cap, sizeof *v);
	if (!v)
		return ERR_NOMEM;
	k->tc = v;
	k->cap_tc = cap;
	for (size_t i = 0; i < old_cap; i++)
		if (old[i].comm)
			k->tc[team_slot(k, old[i].comm)] = old[i];
	free(old);
	return 0;
}

/* A team's instances follow one another (a team is a thread's, forking
 * it: that thread forks one at a time), and each of its threads begins
 * each: the n-th begun on a location is the team's n-th, named by the
 * team and n on all of them. */
int
otf2r_team_begin(struct evblock *k, uint32_t comm)
{
	if (k->cur_tl == TRACE_NONE && k->cur_lane == TRACE_NONE)
		return 0;
	uint32_t key = comm == UINT32_MAX ? comm : comm + 1;
	if (team_reserve(k))
		return k->rc = ERR_NOMEM;
	size_t i = team_slot(k, key);
	if (!k->tc[i].comm) {
		k->tc[i].comm = key;
		k->n_tc++;
	}
	k->next_tag = ((uint64_t)comm << 32 | ++k->tc[i].n) + 1;   /* + 1: 0 is none */
	return 0;
}

/* A task switched to names the next Enter (the task's region, when the
 * task starts); one created names the region entered last, still open
 * (the creating construct), which the record follows. */
int
otf2r_task_record(struct evblock *k, int create, uint64_t id)
{
	if (k->cur_tl == TRACE_NONE && k->cur_lane == TRACE_NONE)
		return 0;
	if (!create) {
		k->next_tag = id < UINT64_MAX ? id + 1 : 0;
		return 0;
	}
	if (k->last_region == TRACE_NONE || id == UINT64_MAX)
		return 0;
	return otf2r_team_tag(k, k->last_enter, k->last_region, id) ? (k->rc = ERR_NOMEM) : 0;
}
