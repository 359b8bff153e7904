/* otf2_defs.c — global definitions of an OTF2 archive.
 *
 * Definitions arrive in any order that respects references; they are
 * collected first, then resolved into the trace model in one place
 * (resolve()), where the MPI rank order, communicator groups and timeline
 * names are decided.
 */
#include "otf2_impl.h"

#include <stdlib.h>
#include <string.h>

#include "base/vec.h"

/* ---- the ref tables (otf2_impl.h) ---- */

/* Moves the hash map's refs below the dense array's end into it: one
 * pass that rebuilds the map from the refs that stay. */
static int
refs_absorb(struct otf2r_refs *m)
{
	struct hmap *h = &m->sparse, rest = { 0 };
	for (size_t i = 0; h->n && i < h->cap; i++) {
		const struct hmap_slot *s = &h->slots[i];
		if (!s->used)
			continue;
		if (s->a < m->n_dense)
			m->dense[s->a] = s->value;
		else if (hmap_put(&rest, s->a, s->b, s->value)) {
			hmap_fini(&rest);
			return ERR_NOMEM;
		}
	}
	hmap_fini(h);
	*h = rest;
	return 0;
}

int
otf2r_refs_put(struct otf2r_refs *m, uint64_t ref, uint32_t id)
{
	if (ref < m->n_dense) {
		m->count += m->dense[ref] == TRACE_NONE;
		m->dense[ref] = id;
		return 0;
	}
	size_t bound = 2 * (m->count + 1) + OTF2R_REFS_SLACK;
	if (ref >= bound) {
		size_t before = m->sparse.n;
		if (hmap_put(&m->sparse, ref, 0, id))
			return ERR_NOMEM;
		m->count += m->sparse.n - before;
		return 0;
	}
	size_t n = m->n_dense * 2 > ref + 1 ? m->n_dense * 2 : (size_t)ref + 1;
	if (n > bound)
		n = bound;
	uint32_t *d = realloc(m->dense, n * sizeof *d);
	if (!d)
		return ERR_NOMEM;
	for (size_t i = m->n_dense; i < n; i++)
		d[i] = TRACE_NONE;
	m->dense = d;
	m->n_dense = n;
	if (m->sparse.n && refs_absorb(m))
		return ERR_NOMEM;
	m->count++;
	m->dense[ref] = id;
	return 0;
}

void
otf2r_refs_fini(struct otf2r_refs *m)
{
	free(m->dense);
	hmap_fini(&m->sparse);
	memset(m, 0, sizeof *m);
}

/* The entry of a struct table (groups, comms, location groups, windows)
 * for a ref defined for the first time: a new zeroed one at the end.
 * Returns its index; TRACE_NONE when out of memory, DEFINED_AGAIN when
 * the ref was defined before (the first definition is kept: the caller
 * counts WARN_DUP_DEF). */
#define DEFINED_AGAIN (TRACE_NONE - 1)
static uint32_t
entry_for(void **arr, size_t *n, size_t *cap, size_t size, struct otf2r_refs *at, uint64_t ref)
{
	uint32_t i = otf2r_refs_get(at, ref);
	if (i != TRACE_NONE)
		return DEFINED_AGAIN;
	if (vec_push_id(arr, n, cap, size, &i))
		return TRACE_NONE;
	memset((char *)*arr + (size_t)i * size, 0, size);
	if (otf2r_refs_put(at, ref, i)) {
		(*n)--;
		return TRACE_NONE;
	}
	return i;
}

static OTF2_CallbackCode
fail(struct otf2r *r, int code)
{
	err_set(r->e, code, "%s: %s while reading definitions", r->anchor, err_name(code));
	return OTF2_CALLBACK_INTERRUPT;
}

/* A definition whose id was defined before: counted, the first kept. */
static OTF2_CallbackCode
again(struct otf2r *r)
{
	r->t->info.warnings[WARN_DUP_DEF]++;
	return OTF2_CALLBACK_SUCCESS;
}

static uint32_t
str_of(const struct otf2r *r, OTF2_StringRef s)
{
	uint32_t id = otf2r_refs_get(&r->string_of, s);
	return id == TRACE_NONE ? 0 : id;
}

static OTF2_CallbackCode
def_string(void *ud, OTF2_StringRef self, const char *s)
{
	struct otf2r *r = ud;
	uint32_t id;
	if (otf2r_refs_get(&r->string_of, self) != TRACE_NONE)
		return again(r);
	int rc = trace_intern(r->t, s, &id);
	if (rc == 0)
		rc = otf2r_refs_put(&r->string_of, self, id);
	return rc ? fail(r, rc) : OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
def_clock(void *ud, uint64_t resolution, uint64_t offset, uint64_t length, uint64_t realtime)
{
	struct otf2r *r = ud;
	(void)length;
	(void)realtime;
	r->t->info.ticks_per_second = resolution;     /* 0 is refused below */
	r->t->info.global_offset = offset;
	r->have_clock = 1;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
def_node(void *ud, OTF2_SystemTreeNodeRef self, OTF2_StringRef name,
	 OTF2_StringRef cls, OTF2_SystemTreeNodeRef parent)
{
	struct otf2r *r = ud;
	struct trace *t = r->t;
	if (VEC_GROW(t->nodes, t->n_nodes, t->cap_nodes))
		return fail(r, ERR_NOMEM);
	uint32_t id = (uint32_t)t->n_nodes++;
	t->nodes[id] = (struct trace_node){
		.name = str_of(r, name), .class_name = str_of(r, cls),
		.parent = otf2r_refs_get(&r->node_of, parent),
	};
	int rc = otf2r_refs_put(&r->node_of, self, id);
	return rc ? fail(r, rc) : OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
def_lgroup(void *ud, OTF2_LocationGroupRef self, OTF2_StringRef name,
	   OTF2_LocationGroupType type, OTF2_SystemTreeNodeRef parent,
	   OTF2_LocationGroupRef creator)
{
	struct otf2r *r = ud;
	(void)type;
	uint32_t i = entry_for((void **)&r->lgroups, &r->n_lgroups, &r->cap_lgroups,
			       sizeof *r->lgroups, &r->lgroup_at, self);
	if (i == DEFINED_AGAIN)
		return again(r);
	if (i == TRACE_NONE)
		return fail(r, ERR_NOMEM);
	r->lgroups[i] = (struct otf2r_lgroup){
		.name = str_of(r, name), .node = otf2r_refs_get(&r->node_of, parent),
		.creator = creator == OTF2_UNDEFINED_LOCATION_GROUP ? UINT32_MAX : (uint32_t)creator,
	};
	return OTF2_CALLBACK_SUCCESS;
}

static uint8_t
loc_type(OTF2_LocationType type)
{
	switch (type) {
	case OTF2_LOCATION_TYPE_CPU_THREAD: return LOC_CPU_THREAD;
	case OTF2_LOCATION_TYPE_ACCELERATOR_STREAM: return LOC_GPU;
	case OTF2_LOCATION_TYPE_METRIC: return LOC_METRIC;
	default: return LOC_OTHER;
	}
}

static OTF2_CallbackCode
def_location(void *ud, OTF2_LocationRef self, OTF2_StringRef name,
	     OTF2_LocationType type, uint64_t events, OTF2_LocationGroupRef group)
{
	struct otf2r *r = ud;
	struct trace *t = r->t;
	if (hmap_get(&r->location_of, self, 0))
		return again(r);
	if (t->n_locations >= OTF2R_MAX_LOCATIONS)
		return fail(r, ERR_LIMIT);
	if (VEC_GROW(t->locations, t->n_locations, t->cap_locations) ||
	    vec_reserve((void **)&r->lgroup_of_loc, &r->cap_lgroup_of_loc, t->n_locations + 1,
			sizeof *r->lgroup_of_loc))
		return fail(r, ERR_NOMEM);
	uint32_t id = (uint32_t)t->n_locations++;
	uint32_t lg = otf2r_refs_get(&r->lgroup_at, group);
	t->locations[id] = (struct trace_location){
		.id = self, .name = str_of(r, name),
		.group_name = lg != TRACE_NONE ? r->lgroups[lg].name : 0,
		.timeline = TRACE_NONE, .type = loc_type(type),
		.events_declared = events,
	};
	r->lgroup_of_loc[id] = group;
	if (hmap_put(&r->location_of, self, 0, id))
		return fail(r, ERR_NOMEM);
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
def_group(void *ud, OTF2_GroupRef self, OTF2_StringRef name, OTF2_GroupType type,
	  OTF2_Paradigm paradigm, OTF2_GroupFlag flags, uint32_t n, const uint64_t *members)
{
	struct otf2r *r = ud;
	(void)name;
	(void)flags;
	uint32_t i = entry_for((void **)&r->groups, &r->n_groups, &r->cap_groups, sizeof *r->groups,
			       &r->group_at, self);
	if (i == DEFINED_AGAIN)
		return again(r);
	if (i == TRACE_NONE)
		return fail(r, ERR_NOMEM);
	struct otf2r_group *g = &r->groups[i];
	g->ref = self;
	free(g->members);
	g->members = malloc((n ? n : 1) * sizeof *g->members);
	if (!g->members)
		return fail(r, ERR_NOMEM);
	if (n)
		memcpy(g->members, members, n * sizeof *members);
	g->n = n;
	g->type = (uint8_t)type;
	g->paradigm = (uint8_t)paradigm;
	return OTF2_CALLBACK_SUCCESS;
}

/* A communicator or intercommunicator c, under its ref c.ref. */
static OTF2_CallbackCode
put_comm(struct otf2r *r, struct otf2r_comm c)
{
	uint32_t i = entry_for((void **)&r->comms, &r->n_comms, &r->cap_comms, sizeof *r->comms,
			       &r->comm_at, c.ref);
	if (i == DEFINED_AGAIN)
		return again(r);
	if (i == TRACE_NONE)
		return fail(r, ERR_NOMEM);
	r->comms[i] = c;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
def_comm(void *ud, OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef group,
	 OTF2_CommRef parent, OTF2_CommFlag flags)
{
	struct otf2r *r = ud;
	(void)flags;
	return put_comm(r, (struct otf2r_comm){ .ref = self, .name = str_of(r, name), .group = group,
						.parent = parent });
}

/* An intercommunicator: two groups of processes, a rank on it being
 * one of the group the caller is not in. In the id space of Comms. */
static OTF2_CallbackCode
def_intercomm(void *ud, OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef a,
	      OTF2_GroupRef b, OTF2_CommRef common, OTF2_CommFlag flags)
{
	struct otf2r *r = ud;
	(void)flags;
	return put_comm(r, (struct otf2r_comm){ .ref = self, .name = str_of(r, name), .group = a,
						.group_b = b, .inter = 1, .parent = common });
}

static uint8_t
region_role(const char *name, OTF2_Paradigm paradigm)
{
	enum trace_role role = trace_classify_mpi(name);
	if (paradigm == OTF2_PARADIGM_MPI)
		return role == ROLE_USER ? ROLE_MPI_OTHER : role;
	if (role != ROLE_USER)
		return role;      /* an MPI_ name under another paradigm */
	switch (paradigm) {
	case OTF2_PARADIGM_UNKNOWN: case OTF2_PARADIGM_USER:
	case OTF2_PARADIGM_COMPILER: case OTF2_PARADIGM_SAMPLING:
	case OTF2_PARADIGM_NONE: case OTF2_PARADIGM_MEASUREMENT_SYSTEM:
		return ROLE_USER;
	default:
		return ROLE_OTHER;
	}
}

static OTF2_CallbackCode
def_region(void *ud, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef canonical,
	   OTF2_StringRef description, OTF2_RegionRole role, OTF2_Paradigm paradigm,
	   OTF2_RegionFlag flags, OTF2_StringRef file, uint32_t begin, uint32_t end)
{
	struct otf2r *r = ud;
	(void)canonical; (void)description; (void)role; (void)flags;
	(void)file; (void)begin; (void)end;
	if (otf2r_refs_get(&r->region_of, self) != TRACE_NONE)
		return again(r);
	const char *s = trace_str(r->t, str_of(r, name));
	uint32_t id;
	int rc = trace_add_region(r->t, s, region_role(s, paradigm), (uint8_t)paradigm, &id);
	if (rc == ERR_LIMIT) {
		err_set(r->e, rc, "%s: more regions than skein indexes (%s)", r->anchor,
			trace_limits_text());
		return OTF2_CALLBACK_INTERRUPT;
	}
	if (rc == 0)
		rc = otf2r_refs_put(&r->region_of, self, id);
	return rc ? fail(r, rc) : OTF2_CALLBACK_SUCCESS;
}

/* The MPI rank order: the COMM_LOCATIONS group of the MPI paradigm (the
 * one with the lowest ref, should there be several). */
static const struct otf2r_group *
mpi_locations(const struct otf2r *r)
{
	const struct otf2r_group *best = NULL;
	for (size_t g = 0; g < r->n_groups; g++)
		if (r->groups[g].members && r->groups[g].type == OTF2_GROUP_TYPE_COMM_LOCATIONS &&
		    r->groups[g].paradigm == OTF2_PARADIGM_MPI && (!best || r->groups[g].ref < best->ref))
			best = &r->groups[g];
	return best;
}

/* A trace without MPI (an OpenMP, CUDA or OpenCL program): each process
 * (location group) with a CPU thread is a timeline, its first CPU thread
 * the timeline's location, so that its other threads and streams are its
 * lanes (otf2_lanes.c; doc/model.md "Lanes"). */
static int
process_timelines(struct otf2r *r)
{
	struct trace *t = r->t;
	uint32_t n = 0;
	uint8_t *seen = calloc(r->n_lgroups + 1, 1);
	uint32_t *first = malloc((r->n_lgroups + 1) * sizeof *first);
	if (!seen || !first) {
		free(seen);
		free(first);
		return ERR_NOMEM;
	}
	for (size_t i = 0; i < t->n_locations; i++) {
		uint32_t g = otf2r_refs_get(&r->lgroup_at, r->lgroup_of_loc[i]);
		if (g == TRACE_NONE || seen[g] || t->locations[i].type != LOC_CPU_THREAD)
			continue;
		seen[g] = 1;
		first[n++] = (uint32_t)i;
	}
	int rc = n ? trace_set_timelines(t, n) : 0;
	for (uint32_t k = 0; k < n && !rc; k++) {
		struct trace_location *L = &t->locations[first[k]];
		struct trace_timeline *tl = &t->timelines[k];
		uint32_t g = otf2r_refs_get(&r->lgroup_at, r->lgroup_of_loc[first[k]]);
		L->timeline = k;
		tl->location = L->id;
		tl->name = L->group_name;
		tl->node = r->lgroups[g].node;
	}
	free(seen);
	free(first);
	return rc;
}

/* Puts the ranks' locations in rank order, where MPI_COMM_WORLD listed
 * them in another order than they were defined: the model is built in
 * the order the locations are read, and its timelines' arrays must come
 * in rank order. Only the places of the ranks' locations are shared out
 * again (others stay where they are), so a trace defined in rank order
 * is left as it was. */
static int
locations_in_rank_order(struct otf2r *r)
{
	struct trace *t = r->t;
	size_t n = t->n_locations, k = 0;
	uint32_t last = 0;
	int sorted = 1;
	for (size_t i = 0; i < n && sorted; i++)
		if (t->locations[i].timeline != TRACE_NONE) {
			sorted = t->locations[i].timeline >= last;
			last = t->locations[i].timeline;
		}
	if (sorted)
		return 0;
	uint32_t *slot = malloc((n + 1) * sizeof *slot), *at = malloc((t->n_timelines + 1) * sizeof *at);
	struct trace_location *loc = malloc((n + 1) * sizeof *loc);
	uint32_t *group = malloc((n + 1) * sizeof *group);
	int rc = slot && at && loc && group ? 0 : ERR_NOMEM;
	for (size_t i = 0; i < t->n_timelines && !rc; i++)
		at[i] = TRACE_NONE;
	for (size_t i = 0; i < n && !rc; i++)
		if (t->locations[i].timeline != TRACE_NONE) {
			slot[k++] = (uint32_t)i;
			at[t->locations[i].timeline] = (uint32_t)i;
		}
	if (!rc) {
		memcpy(loc, t->locations, n * sizeof *loc);
		memcpy(group, r->lgroup_of_loc, n * sizeof *group);
	}
	k = 0;
	for (size_t tl = 0; tl < t->n_timelines && !rc; tl++) {
		uint32_t from = at[tl];
		if (from == TRACE_NONE)
			continue;
		uint32_t to = slot[k++];
		t->locations[to] = loc[from];
		r->lgroup_of_loc[to] = group[from];
		uint32_t *li = hmap_get(&r->location_of, loc[from].id, 0);
		if (li)
			*li = to;
	}
	free(slot);
	free(at);
	free(loc);
	free(group);
	return rc;
}

static int
make_timelines(struct otf2r *r)
{
	struct trace *t = r->t;
	const struct otf2r_group *ranks = mpi_locations(r);
	uint32_t n = ranks ? ranks->n : 0;
	if (trace_set_timelines(t, n))
		return ERR_NOMEM;
	for (uint32_t rank = 0; rank < n; rank++) {
		uint32_t *li = hmap_get(&r->location_of, ranks->members[rank], 0);
		struct trace_timeline *tl = &t->timelines[rank];
		tl->location = ranks->members[rank];
		if (!li || t->locations[*li].timeline != TRACE_NONE)
			continue;      /* undefined or listed twice: an empty timeline */
		t->locations[*li].timeline = rank;
		tl->name = t->locations[*li].group_name;
		uint32_t lg = otf2r_refs_get(&r->lgroup_at, r->lgroup_of_loc[*li]);
		if (lg != TRACE_NONE)
			tl->node = r->lgroups[lg].node;
	}
	if (n == 0) {
		t->info.warnings[WARN_NO_MPI_RANKS]++;
		return process_timelines(r);
	}
	return locations_in_rank_order(r);
}

static int
by_ref(const void *a, const void *b)
{
	uint32_t x = ((const struct otf2r_comm *)a)->ref, y = ((const struct otf2r_comm *)b)->ref;
	return (x > y) - (x < y);
}

/* Appends the world ranks of group ref to members[*n ..]: a COMM_GROUP's
 * members (world ranks; anything else, or a rank past the last timeline,
 * cannot be resolved: TRACE_NONE); nothing for a COMM_SELF group (the
 * caller: *self is set) or an undefined one; self_as_one: a COMM_SELF
 * group is one member TRACE_NONE instead (an intercommunicator's side
 * the definition cannot list). */
static int
append_group(struct otf2r *r, uint32_t ref, int self_as_one, uint32_t **members, size_t *cap,
	     uint32_t *n, int *self)
{
	uint32_t g = otf2r_refs_get(&r->group_at, ref);
	const struct otf2r_group *grp = g != TRACE_NONE && r->groups[g].members ? &r->groups[g] : NULL;
	*self = grp && grp->type == OTF2_GROUP_TYPE_COMM_SELF;
	uint32_t k = !grp ? 0 : *self ? (self_as_one ? 1 : 0) : grp->n;
	if (vec_reserve((void **)members, cap, (size_t)*n + k, sizeof **members))
		return ERR_NOMEM;
	for (uint32_t i = 0; i < k; i++)
		(*members)[*n + i] = !*self && grp->type == OTF2_GROUP_TYPE_COMM_GROUP &&
			grp->members[i] < r->t->n_timelines ? (uint32_t)grp->members[i] : TRACE_NONE;
	*n += k;
	return 0;
}

/* Communicators, with members as world ranks, numbered in ref order.
 * Members of an MPI COMM_GROUP are indices into the MPI COMM_LOCATIONS
 * group, i.e. world ranks. An intercommunicator's members are its group
 * A's, then its group B's (trace_set_inter). */
static int
make_comms(struct otf2r *r)
{
	struct trace *t = r->t;
	uint32_t *members = NULL;
	size_t cap = 0;
	int rc = 0;
	if (r->n_comms)
		qsort(r->comms, r->n_comms, sizeof *r->comms, by_ref);
	for (size_t c = 0; c < r->n_comms && rc == 0; c++) {
		const struct otf2r_comm *cm = &r->comms[c];
		uint32_t n = 0, first, id;
		int is_self = 0, b_self = 0;
		rc = append_group(r, cm->group, cm->inter, &members, &cap, &n, &is_self);
		first = n;
		if (rc == 0 && cm->inter) {
			rc = append_group(r, cm->group_b, 1, &members, &cap, &n, &b_self);
			is_self = 0;
		}
		if (rc)
			break;
		/* many communicators may name one large group: their members
		 * together are what the model holds */
		if (t->n_comm_members + n > OTF2R_MAX_COMM_MEMBERS) {
			rc = err_set(r->e, ERR_LIMIT, "%s: communicators with more than %u members in all "
				     "(%zu communicators so far), more than skein reads", r->anchor,
				     OTF2R_MAX_COMM_MEMBERS, c);
			break;
		}
		rc = trace_add_comm(t, cm->name, members, n, is_self, &id);
		if (rc == 0)
			rc = otf2r_refs_put(&r->comm_of, cm->ref, id);
		if (rc == 0 && cm->inter)
			rc = trace_set_inter(t, id, first);
	}
	free(members);
	if (rc)
		return rc;
	for (size_t c = 0; c < r->n_comms; c++) {
		uint32_t id = otf2r_refs_get(&r->comm_of, r->comms[c].ref);
		if (id != TRACE_NONE)
			t->comms[id].parent = otf2r_refs_get(&r->comm_of, r->comms[c].parent);
	}
	return 0;
}

/* The attributes skein reads on an Enter: the one naming an OpenMP
 * thread's team (OMPT's parallel region id on each fork and implicit
 * task, Score-P's OMPT adapter), and a CUDA launch's stream. */
static OTF2_CallbackCode
def_attribute(void *ud, OTF2_AttributeRef self, OTF2_StringRef name, OTF2_StringRef description,
	      OTF2_Type type)
{
	struct otf2r *r = ud;
	(void)description;
	const char *s = trace_str(r->t, str_of(r, name));
	if (type == OTF2_TYPE_UINT64 && self < UINT32_MAX && !strcmp(s, "OMPT_PARALLEL_REGION_ID"))
		r->team_attr = self + 1;
	/* the stream a CUDA call refers to (Score-P's CUDA adapter) */
	if (type == OTF2_TYPE_LOCATION && self < UINT32_MAX && !strcmp(s, "CUDA_STREAM_REF"))
		r->stream_attr = self + 1;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
def_rma_win(void *ud, OTF2_RmaWinRef self, OTF2_StringRef name, OTF2_CommRef comm,
	    OTF2_RmaWinFlag flags)
{
	struct otf2r *r = ud;
	(void)flags;
	uint32_t i = entry_for((void **)&r->wins, &r->n_wins, &r->cap_wins, sizeof *r->wins,
			       &r->win_at, self);
	if (i == DEFINED_AGAIN)
		return again(r);
	if (i == TRACE_NONE)
		return fail(r, ERR_NOMEM);
	r->wins[i] = (struct otf2r_win){ .ref = self, .name = str_of(r, name), .comm = comm };
	return OTF2_CALLBACK_SUCCESS;
}

static int
win_by_ref(const void *a, const void *b)
{
	uint32_t x = ((const struct otf2r_win *)a)->ref, y = ((const struct otf2r_win *)b)->ref;
	return (x > y) - (x < y);
}

/* RMA windows, numbered in ref order, each over its communicator; a
 * communicator whose group is not MPI's (an accelerator's, a thread
 * model's: Score-P's device copies) makes it a device's window. */
static int
make_wins(struct otf2r *r)
{
	struct trace *t = r->t;
	if (r->n_wins)
		qsort(r->wins, r->n_wins, sizeof *r->wins, win_by_ref);
	for (size_t w = 0; w < r->n_wins; w++) {
		uint32_t comm = otf2r_refs_get(&r->comm_of, r->wins[w].comm), flags = 0, id;
		/* r->comms are in ref order now (make_comms) */
		struct otf2r_comm key = { .ref = r->wins[w].comm };
		const struct otf2r_comm *c = r->n_comms ? bsearch(&key, r->comms, r->n_comms,
								  sizeof *r->comms, by_ref) : NULL;
		uint32_t g = c ? otf2r_refs_get(&r->group_at, c->group) : TRACE_NONE;
		if (g == TRACE_NONE || r->groups[g].paradigm != OTF2_PARADIGM_MPI)
			flags |= WINF_DEVICE;
		int rc = trace_add_win(t, r->wins[w].name, comm, flags, &id);
		if (rc == 0)
			rc = otf2r_refs_put(&r->win_of, r->wins[w].ref, id);
		if (rc)
			return rc;
	}
	return 0;
}

/* libotf2 delivers a CallingContextEnter or Leave as an Enter or Leave
 * of the context's region; skein's own decoding does the same from
 * these (otf2_evt.h). */
static OTF2_CallbackCode
def_calling_context(void *ud, OTF2_CallingContextRef self, OTF2_RegionRef region,
		    OTF2_SourceCodeLocationRef where, OTF2_CallingContextRef parent)
{
	(void)where;
	(void)parent;
	struct otf2r *r = ud;
	return otf2_ccmap_add(&r->cc, self, region) ? fail(r, ERR_NOMEM) : OTF2_CALLBACK_SUCCESS;
}

int
otf2r_read_definitions(struct otf2r *r, OTF2_Reader *rd)
{
	OTF2_GlobalDefReader *gd = OTF2_Reader_GetGlobalDefReader(rd);
	if (!gd)
		return otf2r_fail(r, r->e, ERR_FORMAT, OTF2_SUCCESS, r->anchor,
				  "cannot open the global definitions");
	OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
	if (!cb)
		return err_set(r->e, ERR_NOMEM, "%s: out of memory", r->anchor);
	OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, def_string);
	OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, def_clock);
	OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(cb, def_node);
	OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(cb, def_lgroup);
	OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, def_location);
	OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, def_group);
	OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, def_comm);
	OTF2_GlobalDefReaderCallbacks_SetInterCommCallback(cb, def_intercomm);
	OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, def_region);
	OTF2_GlobalDefReaderCallbacks_SetCallingContextCallback(cb, def_calling_context);
	OTF2_GlobalDefReaderCallbacks_SetRmaWinCallback(cb, def_rma_win);
	OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(cb, def_attribute);
	OTF2_Reader_RegisterGlobalDefCallbacks(rd, gd, cb, r);
	OTF2_GlobalDefReaderCallbacks_Delete(cb);
	uint64_t n = 0;
	OTF2_ErrorCode st = OTF2_Reader_ReadAllGlobalDefinitions(rd, gd, &n);
	OTF2_Reader_CloseGlobalDefReader(rd, gd);
	if (r->e && r->e->code)
		return r->e->code;
	if (st != OTF2_SUCCESS)
		return otf2r_fail(r, r->e, ERR_FORMAT, st, r->anchor, "corrupt global definitions");
	if (r->have_clock && r->t->info.ticks_per_second == 0)
		return err_set(r->e, ERR_FORMAT, "%s: the clock properties give a timer resolution of 0 "
			       "ticks a second: no time can be read", r->anchor);
	int rc = make_timelines(r);
	if (rc == 0)
		rc = otf2r_make_lanes(r);
	if (rc == 0)
		rc = make_comms(r);
	if (rc == 0)
		rc = make_wins(r);
	if (rc)
		return err_set(r->e, rc, "%s: %s while resolving definitions", r->anchor, err_name(rc));
	return 0;
}

void
otf2r_free_definitions(struct otf2r *r)
{
	for (size_t g = 0; g < r->n_groups; g++)
		free(r->groups[g].members);
	free(r->groups);
	free(r->comms);
	free(r->lgroups);
	free(r->wins);
	free(r->lgroup_of_loc);
	free(r->lane_of_loc);
	struct otf2r_refs *maps[] = { &r->string_of, &r->region_of, &r->comm_of, &r->node_of,
				      &r->win_of, &r->group_at, &r->comm_at, &r->lgroup_at,
				      &r->win_at };
	for (size_t i = 0; i < sizeof maps / sizeof *maps; i++)
		otf2r_refs_fini(maps[i]);
	hmap_fini(&r->location_of);
	otf2_ccmap_fini(&r->cc);
}
