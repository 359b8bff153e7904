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

void
otf2r_teams_begin(struct evblock *k)
{
	k->next_tag = 0;
	k->last_region = TRACE_NONE;
}

/* A team's instances follow one another (a team is a thread's, forking
 * it: that thread forks one at a time), and each of its threads begins
 * each: the n-th begun on a location is the team's n-th, named by the
 * team and n on all of them (counted by team and location, so that no
 * location's count is cleared for the next). */
int
otf2r_team_begin(struct evblock *k, uint32_t comm)
{
	if (k->cur_tl == TRACE_NONE && k->cur_lane == TRACE_NONE)
		return 0;
	uint32_t *c = hmap_get(&k->teams, comm, k->cur_loc), n = c ? *c : 0;
	if (n < UINT32_MAX)
		n++;
	if (c)
		*c = n;
	else if (hmap_put(&k->teams, comm, k->cur_loc, n))
		return k->rc = ERR_NOMEM;
	k->next_tag = ((uint64_t)comm << 32 | n) + 1;   /* + 1: 0 is none */
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
