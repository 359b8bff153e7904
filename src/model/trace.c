#include "trace_impl.h"

#include "base/fmt.h"
#include "base/vec.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>

/* The per-record budgets doc/model.md states; a change here is a change
 * in memory per event on every large trace. */
_Static_assert(sizeof(struct trace_op) == 40, "struct trace_op grew");
_Static_assert(sizeof(struct trace_msg) == 56, "struct trace_msg grew");
_Static_assert(sizeof(struct trace_end) == 4, "struct trace_end grew");
_Static_assert(sizeof(struct trace_rma) == 56 && sizeof(struct trace_epoch) == 40 &&
	       sizeof(struct trace_win) == 12 && sizeof(struct trace_coll) == 40, "doc/model.md gives these sizes");
_Static_assert(VEC_MAX_ID / 2 == 2147483646u && TRACE_END_ID_MAX == 1073741823u &&
	       TRACE_REGION_MAX == 4194302u, "trace_limits_text() names the limits");

struct trace *
trace_new(void)
{
	struct trace *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	t->strings = intern_create();
	if (!t->strings) {
		free(t);
		return NULL;
	}
	t->info.ticks_per_second = 1;
	return t;
}

void
trace_destroy(struct trace *t)
{
	if (!t)
		return;
	intern_destroy(t->strings);
	free(t->path);
	free(t->creator);
	free(t->saved_globs);
	if (t->mapped) {
		if (t->map)
			munmap(t->map, t->map_len);
		free(t);
		return;
	}
	free(t->timelines);
	free(t->locations);
	free(t->regions);
	free(t->comms);
	free(t->comm_members);
	free(t->inter_split);
	free(t->nodes);
	free(t->oprec);
	free(t->ends);
	free(t->msgs);
	free(t->colls);
	free(t->coll_members);
	free(t->coll_sent);
	free(t->frames);
	free(t->calls);
	free(t->wins);
	free(t->rmas);
	free(t->epochs);
	free(t->lanes);
	free(t->lane_frames);
	free(t->lane_bytes);
	free(t->holds);
	free(t->tags);
	free(t->pes);
	free(t->idles);
	free(t->chares);
	free(t->entries);
	free(t->op_pe);
	free(t);
}

int
trace_intern(struct trace *t, const char *s, uint32_t *id)
{
	return intern_add(t->strings, s ? s : "", s ? strlen(s) : 0, id);
}

static int
set_string(char **dst, const char *s)
{
	char *copy = strdup(s ? s : "");
	if (!copy)
		return ERR_NOMEM;
	free(*dst);
	*dst = copy;
	return 0;
}

int
trace_set_path(struct trace *t, const char *path)
{
	int rc = set_string(&t->path, path);
	t->info.path = t->path;
	return rc;
}

int
trace_set_creator(struct trace *t, const char *creator)
{
	int rc = set_string(&t->creator, creator);
	t->info.creator = t->creator;
	return rc;
}

int
trace_add_region(struct trace *t, const char *name, uint8_t role, uint8_t paradigm,
		 uint32_t *id)
{
	uint32_t sname;
	int rc = trace_intern(t, name, &sname);
	if (rc)
		return rc;
	if (t->n_regions > TRACE_REGION_MAX)
		return ERR_LIMIT;     /* ops keep region ids in 22 bits */
	if ((rc = VEC_NEW_ID(t->regions, t->n_regions, t->cap_regions, id)))
		return rc;
	t->regions[*id] = (struct trace_region){
		.name = sname, .role = role, .paradigm = paradigm,
	};
	return 0;
}

int
trace_add_comm(struct trace *t, uint32_t name, const uint32_t *members, uint32_t n,
	       int is_self, uint32_t *id)
{
	if (t->n_comms >= TRACE_NONE - 1 || t->n_comm_members + n >= TRACE_NONE)
		return ERR_LIMIT;
	if (VEC_GROW(t->comms, t->n_comms, t->cap_comms) ||
	    vec_reserve((void **)&t->comm_members, &t->cap_comm_members,
			t->n_comm_members + (is_self ? 0 : n), sizeof *t->comm_members))
		return ERR_NOMEM;
	*id = (uint32_t)t->n_comms;
	t->comms[t->n_comms++] = (struct trace_comm){
		.name = name, .size = is_self ? 1 : n,
		.member_first = (uint32_t)t->n_comm_members,
		.parent = TRACE_NONE, .is_self = (uint8_t)(is_self != 0),
	};
	if (!is_self && n) {
		memcpy(t->comm_members + t->n_comm_members, members, n * sizeof *members);
		t->n_comm_members += n;
	}
	return 0;
}

int
trace_set_inter(struct trace *t, uint32_t comm, uint32_t first)
{
	if (comm >= t->n_comms || first > t->comms[comm].size || first == TRACE_NONE)
		return ERR_LIMIT;
	if (comm >= t->n_inter_split) {
		if (vec_reserve((void **)&t->inter_split, &t->cap_inter_split, t->n_comms,
				sizeof *t->inter_split))
			return ERR_NOMEM;
		memset(t->inter_split + t->n_inter_split, 0,
		       (t->n_comms - t->n_inter_split) * sizeof *t->inter_split);
		t->n_inter_split = t->n_comms;
	}
	t->inter_split[comm] = first + 1;
	return 0;
}

int
trace_add_win(struct trace *t, uint32_t name, uint32_t comm, uint32_t flags, uint32_t *id)
{
	if (t->n_wins >= TRACE_NONE - 1)
		return ERR_LIMIT;
	int rc = VEC_NEW_ID(t->wins, t->n_wins, t->cap_wins, id);
	if (rc)
		return rc;
	t->wins[*id] = (struct trace_win){ .name = name, .comm = comm, .flags = flags };
	return 0;
}

int
trace_set_timelines(struct trace *t, uint32_t n)
{
	struct trace_timeline *tl = calloc(n ? n : 1, sizeof *tl);
	if (!tl)
		return ERR_NOMEM;
	for (uint32_t i = 0; i < n; i++)
		tl[i].node = TRACE_NONE;
	free(t->timelines);
	t->timelines = tl;
	t->n_timelines = t->cap_timelines = n;
	return 0;
}

const struct trace_info *
trace_info(const struct trace *t)
{
	return &t->info;
}

const char *
trace_str(const struct trace *t, uint32_t id)
{
	return intern_str(t->strings, id);
}

#define GETTER(type, name) \
	const type *trace_##name(const struct trace *t, uint32_t *n) \
	{ \
		if (n) \
			*n = (uint32_t)t->n_##name; \
		return t->name; \
	}

GETTER(struct trace_timeline, timelines)
GETTER(struct trace_location, locations)
GETTER(struct trace_region, regions)
GETTER(struct trace_comm, comms)
GETTER(struct trace_node, nodes)
GETTER(struct trace_end, ends)
GETTER(struct trace_msg, msgs)
GETTER(struct trace_coll, colls)
GETTER(uint64_t, coll_sent)
GETTER(struct trace_frame, frames)
GETTER(struct trace_call, calls)
GETTER(struct trace_win, wins)
GETTER(struct trace_rma, rmas)
GETTER(struct trace_epoch, epochs)
GETTER(struct trace_lane, lanes)
GETTER(struct trace_frame, lane_frames)
GETTER(uint64_t, lane_bytes)
GETTER(struct trace_hold, holds)
GETTER(struct trace_tag, tags)

int
trace_lanes_by_rank(const struct trace *t, uint32_t **first, uint32_t **ids)
{
	size_t n = t->n_lanes, ntl = t->n_timelines;
	uint32_t *f = calloc(ntl + 2, sizeof *f), *v = malloc((n + 1) * sizeof *v);
	*first = *ids = NULL;
	if (!f || !v) {
		free(f);
		free(v);
		return ERR_NOMEM;
	}
	/* counted one place on, placed through f[tl + 1]: f[r] ends as r's start */
	for (size_t i = 0; i < n; i++)
		if (t->lanes[i].timeline < ntl)
			f[t->lanes[i].timeline + 2]++;
	for (size_t r = 0; r < ntl; r++)
		f[r + 2] += f[r + 1];
	for (size_t i = 0; i < n; i++)
		if (t->lanes[i].timeline < ntl)
			v[f[t->lanes[i].timeline + 1]++] = (uint32_t)i;
	*first = f;
	*ids = v;
	return 0;
}

int
trace_region_is_copy(const struct trace *t, uint32_t r)
{
	if (r >= t->n_regions)
		return 0;
	const char *name = trace_str(t, t->regions[r].name);
	return !strcmp(name, TRACE_COPY_TO_DEVICE) || !strcmp(name, TRACE_COPY_TO_HOST);
}

/* The first index in [0, n) whose record's timeline is at least tl,
 * records of elem bytes ordered by the u32 timeline at offset at. */
static uint32_t
first_of_tl(const void *v, size_t n, size_t elem, size_t at, uint32_t tl)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint32_t x;
		memcpy(&x, (const char *)v + mid * elem + at, sizeof x);
		if (x < tl)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (uint32_t)lo;
}

uint32_t
trace_tl_rmas(const struct trace *t, uint32_t tl, uint32_t *first)
{
	size_t at = offsetof(struct trace_rma, origin);
	*first = first_of_tl(t->rmas, t->n_rmas, sizeof *t->rmas, at, tl);
	return first_of_tl(t->rmas, t->n_rmas, sizeof *t->rmas, at, tl + 1) - *first;
}

uint32_t
trace_tl_epochs(const struct trace *t, uint32_t tl, uint32_t *first)
{
	size_t at = offsetof(struct trace_epoch, timeline);
	*first = first_of_tl(t->epochs, t->n_epochs, sizeof *t->epochs, at, tl);
	return first_of_tl(t->epochs, t->n_epochs, sizeof *t->epochs, at, tl + 1) - *first;
}

const uint32_t *
trace_comm_members(const struct trace *t)
{
	return t->comm_members;
}

const uint32_t *
trace_coll_members(const struct trace *t)
{
	return t->coll_members;
}

struct trace_opv
trace_ops(const struct trace *t, uint32_t *n)
{
	struct trace_opv v = {
		.rec = t->oprec, .tls = t->timelines, .n = trace_op_count(t),
		.implied = t->ops_implied != 0,
	};
	if (n)
		*n = v.n;
	return v;
}

struct trace_op
trace_op(const struct trace *t, uint32_t op)
{
	struct trace_opv v = trace_ops(t, NULL);
	return trace_op_get(&v, op);
}

const struct trace_end *
trace_op_ends(const struct trace *t, uint32_t op, uint32_t *n)
{
	/* a computation op's end_first is its call's, and it has none */
	size_t k = trace_oprec_index(t, op);
	uint32_t first = t->oprec[k].end_first, last;
	if (t->ops_implied && !(op & 1))
		last = first;
	else
		last = k + 1 < t->n_oprec ? t->oprec[k + 1].end_first : (uint32_t)t->n_ends;
	*n = last - first;
	return t->ends + first;
}

const char *
trace_limits_text(void)
{
	/* two op ids per call; ends name messages and collectives in 30 bits;
	 * ops name regions in 22 */
	return "at most 2147483646 communication calls, 1073741823 messages, receives or "
	       "collectives, and 4194302 regions";
}

double
trace_seconds(const struct trace *t, uint64_t ticks)
{
	return (double)ticks / (double)t->info.ticks_per_second;
}

const char *
trace_fmt_duration(const struct trace *t, uint64_t ticks, char *buf, size_t n)
{
	return fmt_seconds(trace_seconds(t, ticks), buf, n);
}

const char *
trace_role_name(enum trace_role r)
{
	static const char *const names[ROLE_COUNT] = {
		[ROLE_USER] = "user", [ROLE_SEND] = "send", [ROLE_RECV] = "recv",
		[ROLE_SENDRECV] = "sendrecv", [ROLE_COLLECTIVE] = "collective",
		[ROLE_WAIT] = "wait", [ROLE_MPI_OTHER] = "mpi-other",
		[ROLE_OTHER] = "other",
	};
	return (unsigned)r < ROLE_COUNT ? names[r] : "?";
}

const char *
trace_op_kind_name(enum trace_op_kind k)
{
	static const char *const names[OP_KIND_COUNT] = {
		[OP_COMPUTE] = "compute", [OP_SEND] = "send", [OP_RECV] = "recv",
		[OP_SENDRECV] = "sendrecv", [OP_COLLECTIVE] = "collective",
		[OP_WAIT] = "wait", [OP_RMA] = "rma",
	};
	return (unsigned)k < OP_KIND_COUNT ? names[k] : "?";
}

const char *
trace_coll_type_name(enum trace_coll_type c)
{
	static const char *const names[COLL_TYPE_COUNT] = {
		"barrier", "bcast", "gather", "gatherv", "scatter", "scatterv",
		"allgather", "allgatherv", "alltoall", "alltoallv", "alltoallw",
		"allreduce", "reduce", "reduce_scatter", "scan", "exscan",
		"reduce_scatter_block", "create_handle", "destroy_handle",
		"allocate", "deallocate", "create_handle_and_allocate",
		"destroy_handle_and_deallocate", "other",
	};
	return (unsigned)c < COLL_TYPE_COUNT ? names[c] : "?";
}

int
trace_has_rma(const struct trace *t)
{
	for (int r = REC_RMA_WIN_CREATE; r <= REC_RMA_OP_COMPLETE_REMOTE; r++)
		if (t->info.records[r])
			return 1;
	return 0;
}

const char *
trace_rma_kind_name(enum trace_rma_kind k)
{
	static const char *const names[RMA_KIND_COUNT] = { "put", "get", "atomic" };
	return (unsigned)k < RMA_KIND_COUNT ? names[k] : "?";
}

const char *
trace_warning_name(enum trace_warning w)
{
	static const char *const names[WARN_COUNT] = {
		[WARN_UNMATCHED_SEND] = "sends without a matching receive",
		[WARN_UNMATCHED_RECV] = "receives without a matching send",
		[WARN_INCOMPLETE_COLL] = "collectives missing members",
		[WARN_MISNESTED_LEAVE] = "regions closed out of order",
		[WARN_STRAY_LEAVE] = "leaves of regions that were not entered",
		[WARN_UNCLOSED_REGION] = "regions still open at the end",
		[WARN_MEASUREMENT_OFF] = "intervals with measurement switched off",
		[WARN_TIME_BACKWARDS] = "events earlier than their predecessor",
		[WARN_BAD_PEER] = "message records naming a rank outside their communicator or an undefined one, and collective records on an undefined communicator or an intercommunicator (not analysed), dropped",
		[WARN_UNKNOWN_REQUEST] = "completions of unknown requests",
		[WARN_EVENT_COUNT_MISMATCH] = "locations whose event count differs from the definitions",
		[WARN_NO_MPI_RANKS] = "traces without MPI ranks",
		[WARN_NONRANK_MPI] = "MPI records on locations that are not ranks (calls made on other threads), left out of the analysis",
		[WARN_SIZE_MISMATCH] = "messages whose receive recorded another size",
		[WARN_BAD_REF] = "records naming undefined regions",
		[WARN_NO_LOCAL_DEFS] = "locations without local definitions, read with global ids",
		[WARN_UNKNOWN_RECORD] = "records of unknown types (skipped)",
		[WARN_NESTED_BEGIN] = "executions begun before the previous one ended",
		[WARN_BAD_PE] = "executions naming a sending PE that does not exist",
		[WARN_LONG_CALL] = "MPI calls without records longer than 2^40 ticks (profiled as that long)",
		[WARN_BEFORE_OFFSET] = "events before the clock's global offset (taken as at it)",
		[WARN_DUP_DEF] = "definitions of an id defined before (the first kept)",
	};
	return (unsigned)w < WARN_COUNT ? names[w] : "?";
}

const char *
trace_rec_name(enum trace_rec r)
{
	static const char *const names[REC_COUNT] = {
		"ENTER", "LEAVE", "MPI_SEND", "MPI_ISEND", "MPI_ISEND_COMPLETE",
		"MPI_IRECV_REQUEST", "MPI_IRECV", "MPI_RECV",
		"MPI_COLLECTIVE_BEGIN", "MPI_COLLECTIVE_END",
		"MEASUREMENT_ON_OFF",
		"RMA_WIN_CREATE", "RMA_WIN_DESTROY", "RMA_COLLECTIVE_BEGIN",
		"RMA_COLLECTIVE_END", "RMA_GROUP_SYNC", "RMA_REQUEST_LOCK",
		"RMA_ACQUIRE_LOCK", "RMA_TRY_LOCK", "RMA_RELEASE_LOCK", "RMA_SYNC",
		"RMA_WAIT_CHANGE", "RMA_PUT", "RMA_GET", "RMA_ATOMIC",
		"RMA_OP_COMPLETE_BLOCKING", "RMA_OP_COMPLETE_NON_BLOCKING", "RMA_OP_TEST",
		"RMA_OP_COMPLETE_REMOTE", "NON_BLOCKING_COLLECTIVE_REQUEST",
		"NON_BLOCKING_COLLECTIVE_COMPLETE", "THREAD_ACQUIRE_LOCK", "THREAD_RELEASE_LOCK",
		"THREAD_TEAM_BEGIN", "THREAD_TASK_CREATE", "THREAD_TASK_SWITCH", "OTHER",
	};
	return (unsigned)r < REC_COUNT ? names[r] : "?";
}

const char *
trace_loc_type_name(enum trace_loc_type l)
{
	static const char *const names[] = { "cpu-thread", "gpu", "metric", "other" };
	return (unsigned)l <= LOC_OTHER ? names[l] : "?";
}

const char *
trace_paradigm_name(uint8_t paradigm)
{
	/* OTF2's numbering (OTF2_Paradigm) */
	static const char *const names[] = {
		"unknown", "user", "compiler", "OpenMP", "MPI", "CUDA", "measurement", "pthreads",
		"HMPP", "OmpSs", "hardware", "GASPI", "UPC", "SHMEM", "Windows threads",
		"Qt threads", "ACE threads", "TBB threads", "OpenACC", "OpenCL", "MTAPI",
		"sampling", "no paradigm", "HIP", "Kokkos",
	};
	return paradigm < sizeof names / sizeof names[0] ? names[paradigm] : "other";
}

int
trace_require_communication(const struct trace *t, struct err *e)
{
	if (t->info.paradigm == PARADIGM_CHARM)     /* any execution has a structure */
		return t->n_oprec ? 0 : err_set(e, ERR_FORMAT, "nothing to analyse: no entry method ran "
					      "in the %u PEs' logs", (unsigned)t->n_pes);
	for (size_t m = 0; m < t->n_msgs; m++)
		if (t->msgs[m].send_op != TRACE_NONE || t->msgs[m].recv_op != TRACE_NONE)
			return 0;
	if (t->n_colls || (t->n_lanes && t->n_timelines))
		return 0;               /* a process with threads or streams */
	/* what it holds instead: the paradigms of its regions, most first
	 * (the measurement system's own regions aside), and its locations */
	uint32_t count[256] = { 0 };
	for (size_t r = 0; r < t->n_regions; r++)
		count[t->regions[r].paradigm]++;
	enum { SHOWN = 4 };
	int n = 0;
	for (int p = 0; p < 256; p++)
		n += count[p] && p != 6;
	char what[160] = "no";
	size_t at = 0;
	for (int k = 0; k < n && k < SHOWN; k++) {
		int best = -1;
		for (int p = 0; p < 256; p++)
			if (p != 6 && count[p] && (best < 0 || count[p] > count[best]))
				best = p;
		int last = k == n - 1 || k == SHOWN - 1;
		const char *sep = k == 0 ? "" : last && n <= SHOWN ? " and " : ", ";
		int w = snprintf(what + at, sizeof what - at, "%s%s%s", sep,
				 trace_paradigm_name((uint8_t)best), last && n > SHOWN ? " and more" : "");
		if (w > 0 && (size_t)w < sizeof what - at)
			at += (size_t)w;
		count[best] = 0;
	}
	uint32_t per[LOC_OTHER + 1] = { 0 };
	for (size_t l = 0; l < t->n_locations; l++)
		per[t->locations[l].type <= LOC_OTHER ? t->locations[l].type : LOC_OTHER]++;
	char locs[96] = "";
	size_t lat = 0;
	for (int k = 0; k <= LOC_OTHER; k++) {
		if (!per[k])
			continue;
		int w = snprintf(locs + lat, sizeof locs - lat, "%s%s %u", lat ? ", " : "",
				 trace_loc_type_name((enum trace_loc_type)k), per[k]);
		if (w > 0 && (size_t)w < sizeof locs - lat)
			lat += (size_t)w;
	}
	return err_set(e, ERR_FORMAT, "nothing to analyse: %s regions on %zu location%s%s%s%s, "
		       "no MPI messages or collectives", what, t->n_locations,
		       t->n_locations == 1 ? "" : "s", lat ? " (" : "", locs, lat ? ")" : "");
}

const char *
trace_info_paradigm_name(enum trace_paradigm p)
{
	static const char *const names[PARADIGM_COUNT] = { "mpi", "charm++" };
	return (unsigned)p < PARADIGM_COUNT ? names[p] : "?";
}

static int
name_in(const char *name, const char *const *list)
{
	/* MPI names are case-insensitive in Fortran and some tools record
	 * them in other cases; "MPI_Iallreduce" is checked as "allreduce". */
	for (; *list; list++)
		if (strcasecmp(name, *list) == 0)
			return 1;
	return 0;
}

enum trace_role
trace_classify_mpi(const char *name)
{
	static const char *const sends[] = {
		"Send", "Isend", "Ssend", "Issend", "Bsend", "Ibsend", "Rsend",
		"Irsend", "Send_init", "Ssend_init", "Bsend_init", "Rsend_init",
		NULL };
	static const char *const recvs[] = {
		"Recv", "Irecv", "Mrecv", "Imrecv", "Recv_init", NULL };
	static const char *const sendrecvs[] = {
		"Sendrecv", "Sendrecv_replace", "Isendrecv", "Isendrecv_replace", NULL };
	static const char *const waits[] = {
		"Wait", "Waitall", "Waitany", "Waitsome", "Test", "Testall",
		"Testany", "Testsome", "Start", "Startall", NULL };
	static const char *const colls[] = {
		"Barrier", "Bcast", "Gather", "Gatherv", "Scatter", "Scatterv",
		"Allgather", "Allgatherv", "Alltoall", "Alltoallv", "Alltoallw",
		"Allreduce", "Reduce", "Reduce_scatter", "Reduce_scatter_block",
		"Scan", "Exscan", "Neighbor_allgather", "Neighbor_allgatherv",
		"Neighbor_alltoall", "Neighbor_alltoallv", "Neighbor_alltoallw",
		NULL };
	if (strncasecmp(name, "MPI_", 4) != 0)
		return ROLE_USER;
	const char *f = name + 4;
	if (name_in(f, sends))
		return ROLE_SEND;
	if (name_in(f, recvs))
		return ROLE_RECV;
	if (name_in(f, sendrecvs))
		return ROLE_SENDRECV;
	if (name_in(f, waits))
		return ROLE_WAIT;
	if (name_in(f, colls) || ((f[0] == 'I' || f[0] == 'i') && name_in(f + 1, colls)))
		return ROLE_COLLECTIVE;
	return ROLE_MPI_OTHER;
}
