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

uint64_t
otf2r_frame_time(struct evblock *k, uint64_t time)
{
	return k->cur_lane != TRACE_NONE ? otf2r_lane_time(k, time) : build_time(k->b, time);
}

int
otf2r_team_tag(struct evblock *k, uint64_t time, uint32_t region, uint64_t value)
{
	uint32_t at;
	if (VEC_NEW_ID(k->tg, k->n_tg, k->cap_tg, &at))
		return ERR_NOMEM;
	k->tg[at] = (struct trace_tag){ time, value, k->cur_loc, region };
	return 0;
}

/* The location's table emptied: only the slots it used (a table grown
 * large by one location is not cleared whole for every one after). */
void
otf2r_teams_begin(struct evblock *k)
{
	for (size_t i = 0; i < k->n_tc; i++)
		k->tc[k->tc_used[i]].n = 0;
	k->n_tc = 0;
	k->next_tag = 0;
	k->last_region = TRACE_NONE;
}

/* The slot of team `comm` in the location's table (an empty slot: n 0). */
static size_t
team_slot(const struct evblock *k, uint32_t comm)
{
	size_t mask = k->cap_tc - 1, i = (size_t)((comm * 0x9e3779b97f4a7c15ull) >> 32) & mask;
	while (k->tc[i].n && k->tc[i].comm != comm)
		i = (i + 1) & mask;
	return i;
}

/* Room for one more team: the table at most half full; the slots used
 * listed (tc_used, n_tc of them). */
static int
team_reserve(struct evblock *k)
{
	if ((k->n_tc + 1) * 2 <= k->cap_tc)
		return 0;
	size_t cap = k->cap_tc ? k->cap_tc * 2 : 16;
	struct team_count *old = k->tc, *v = calloc(cap, sizeof *v);
	uint32_t *used = realloc(k->tc_used, cap / 2 * sizeof *used);
	if (!v || !used) {
		free(v);
		if (used)
			k->tc_used = used;
		return ERR_NOMEM;
	}
	k->tc = v;
	k->tc_used = used;
	k->cap_tc = cap;
	for (size_t u = 0; u < k->n_tc; u++) {
		size_t i = team_slot(k, old[used[u]].comm);
		k->tc[i] = old[used[u]];
		used[u] = (uint32_t)i;
	}
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
	if (team_reserve(k))
		return k->rc = ERR_NOMEM;
	size_t i = team_slot(k, comm);
	if (!k->tc[i].n) {
		k->tc[i].comm = comm;
		k->tc_used[k->n_tc++] = (uint32_t)i;
	}
	if (k->tc[i].n < UINT32_MAX)
		k->tc[i].n++;
	k->next_tag = ((uint64_t)comm << 32 | k->tc[i].n) + 1;   /* + 1: 0 is none */
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
