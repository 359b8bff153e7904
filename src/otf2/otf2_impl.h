/* otf2_impl.h — state shared by the OTF2 reader's two halves:
 * otf2_defs.c (global definitions) and otf2_read.c (events). */
#ifndef SKEIN_OTF2_IMPL_H
#define SKEIN_OTF2_IMPL_H

#include <otf2/otf2.h>
#include <pthread.h>

#include "model/build.h"
#include "otf2_evt.h"
#include "base/hmap.h"
#include "model/trace_impl.h"

/* At most this many locations are read (an index per location fits in
 * the model's 32-bit ids with room to spare). */
#define OTF2R_MAX_LOCATIONS (1u << 26)
/* Communicators hold at most this many members in all (many may name one
 * large group, so this is not bounded by the definitions' size). */
#define OTF2R_MAX_COMM_MEMBERS (1u << 24)

/* A map from an OTF2 definition ref to a skein id (or an index): the one
 * table every kind of definition is looked up in. Writers number refs
 * densely from 0, and those go into an array for the per-event look-ups;
 * the array grows only while it stays within twice the number of refs
 * mapped plus OTF2R_REFS_SLACK, and any other ref goes into a hash map. So
 * memory follows the definitions read, never the largest ref (doc/model.md). */
#define OTF2R_REFS_SLACK 4096
struct otf2r_refs {
	uint32_t *dense;         /* [n_dense], TRACE_NONE where unmapped */
	size_t n_dense;
	struct hmap sparse;      /* refs at or past n_dense */
	size_t count;            /* refs mapped */
};

/* Maps ref to id (TRACE_NONE is not a valid id), replacing an earlier
 * mapping. Returns 0 or ERR_NOMEM. */
int otf2r_refs_put(struct otf2r_refs *m, uint64_t ref, uint32_t id);
void otf2r_refs_fini(struct otf2r_refs *m);
static inline uint32_t
otf2r_refs_get(const struct otf2r_refs *m, uint64_t ref)
{
	if (ref < m->n_dense)
		return m->dense[ref];
	if (!m->sparse.n)
		return TRACE_NONE;
	const uint32_t *v = hmap_get(&m->sparse, ref, 0);
	return v ? *v : TRACE_NONE;
}

struct otf2r_group {
	uint32_t ref;
	uint8_t type, paradigm;
	uint32_t n;
	uint64_t *members;
};

/* A Comm, or an InterComm (inter 1): group is then its group A and
 * group_b its group B (doc/model.md "Communicators"). */
struct otf2r_comm {
	uint32_t ref, name, group, parent;
	uint32_t group_b;
	uint8_t inter;
};

struct otf2r_lgroup {
	uint32_t name, node;
	uint32_t creator;        /* the group that created it (an accelerator
	                          * context's process), a ref; UINT32_MAX: none */
};

struct otf2r_win {
	uint32_t ref, name, comm;
};

/* What skein takes from the anchor file (otf2_anchor.c). */
struct otf2r_anchor {
	uint64_t evt_chunk, def_chunk, n_locations, n_global_defs;
	uint8_t version[3];
};

/* Reads the anchor file and checks every field before libotf2 sees it:
 * strings terminated, chunk sizes within OTF2's bounds, a substrate and
 * compression skein reads. Returns 0, ERR_IO (not a regular file, not an
 * anchor), ERR_FORMAT with what is wrong, or ERR_NOMEM; the message names
 * the file. */
int otf2r_check_anchor(const char *anchor, struct otf2r_anchor *a, struct err *e);

/* Checks a definitions file's records (global: the global definitions)
 * before libotf2 reads it, chunk after chunk (chunk: the anchor's
 * definition chunk size): each record within the file, an end-of-file
 * mark, and each group's member count within its record; *records (if
 * not NULL) is how many records it holds, and *maps (if not NULL) how
 * many of a local file's are mapping tables or clock offsets (what
 * read_local counts in r->local_maps). Returns 0,
 * ERR_IO (not a regular file), ERR_FORMAT ("PATH: corrupt ... definitions
 * (what, at byte N)") or ERR_NOMEM. */
int otf2r_check_defs(const char *path, uint64_t chunk, int global, uint64_t *records, uint64_t *maps,
		     struct err *e);

/* Where otf2r_walk_defs hands a local definitions file's mapping tables
 * (each map made for the sink, which keeps or frees it) and clock
 * offsets; each returns 0 or ERR_NOMEM. */
struct otf2r_local_sink {
	int (*mapping)(void *ctx, uint8_t type, OTF2_IdMap *map);
	int (*clock)(void *ctx, uint64_t time, int64_t offset);
	void *ctx;
};

/* otf2r_check_defs, and with a sink each mapping table and clock offset
 * of a local file read as libotf2 reads it ("a mapping table cut short"
 * and the like refused as ERR_FORMAT, as a record cut short). */
int otf2r_walk_defs(const char *path, uint64_t chunk, int global, const struct otf2r_local_sink *sink,
		    uint64_t *records, uint64_t *maps, struct err *e);

enum { OTF2R_LOCAL_MAPS = 1, OTF2R_LOCAL_OFFSETS = 2 };

/* Are the events decoded by skein (otf2_evt.h), or by libotf2's readers
 * (SKEIN_OTF2_EVENTS=library, to compare)? */
int otf2r_own_decoding(void);

/* What a location's local definitions say about its events, for skein's
 * own decoding of them (otf2_evt.h): the mapping tables of regions,
 * communicators, calling contexts, RMA windows, attributes and locations
 * (skein's, made by otf2r_walk_defs, own_maps; or libotf2's, held by the
 * open reader), and the clock offsets in definition order with the
 * stretches between them. */
struct otf2r_local {
	const OTF2_IdMap *region_map, *comm_map, *cc_map, *win_map, *attr_map, *loc_map;
	uint64_t *clock_time;
	int64_t *clock_offset;
	size_t n_clock, cap_clock;
	struct otf2_clock_iv *iv;
	uint32_t n_iv;
	int own_maps;            /* the maps are skein's (otf2r_walk_defs), not libotf2's */
};

struct otf2r {
	struct trace *t;
	struct build *b;
	struct err *e;
	const char *anchor;
	char base[4096];         /* the anchor's path without ".otf2" */
	struct otf2r_anchor anc;
	uint64_t local_maps;     /* mapping tables and clock offsets read */
	/* per location, what its local definitions held (OTF2R_LOCAL_*):
	 * event readers skip what a location does not have (the library
	 * looks its location up for every id and time otherwise) */
	uint8_t *local_kinds;
	uint32_t local_at;       /* the location whose definitions are read */
	/* per location, NULL until a local definitions file has a mapping
	 * table or a clock offset */
	struct otf2r_local *locals;
	char otf2_msg[256];      /* first message from OTF2's error callback */
	OTF2_ErrorCode otf2_err; /* and its code */

	/* OTF2 ref -> skein id (TRACE_NONE where undefined) */
	struct otf2r_refs string_of, region_of, comm_of, node_of, win_of;
	struct otf2_ccmap cc;    /* the calling contexts' regions */
	/* definitions kept until resolve time, in definition order, and the
	 * ref -> index map of each */
	struct otf2r_group *groups; size_t n_groups, cap_groups;
	struct otf2r_comm *comms; size_t n_comms, cap_comms;
	struct otf2r_lgroup *lgroups; size_t n_lgroups, cap_lgroups;
	struct otf2r_win *wins; size_t n_wins, cap_wins;
	struct otf2r_refs group_at, comm_at, lgroup_at, win_at;
	uint32_t *lgroup_of_loc; size_t cap_lgroup_of_loc;   /* location index -> group ref */
	struct hmap location_of;         /* OTF2 location id -> location index */
	uint32_t *lane_of_loc;           /* location index -> lane, or TRACE_NONE */
	uint32_t copy_region[2];         /* "[copy to device]", "[copy to host]" */
	uint32_t team_attr;              /* OMPT_PARALLEL_REGION_ID's global ref + 1, or 0 */
	uint32_t stream_attr;            /* CUDA_STREAM_REF's (a launch's stream) + 1, or 0 */

	int have_clock;
	pthread_mutex_t msg_mu;  /* guards otf2_msg and otf2_err: OTF2 reports from any reader thread */
};

/* skein's code for a failed libotf2 call: out of memory, or a format error. */
static inline int
otf2_code(OTF2_ErrorCode st)
{
	return st == OTF2_ERROR_MEM_ALLOC_FAILED || st == OTF2_ERROR_MEM_FAULT ||
		st == OTF2_ERROR_ENOMEM ? ERR_NOMEM : ERR_FORMAT;
}

/* Records a failed libotf2 call in e and returns the code: ERR_NOMEM,
 * "PATH: WHAT: out of memory (REASON)", when libotf2 ran out of memory
 * (st, or the error callback's code when st is OTF2_SUCCESS, e.g. for a
 * call that returned NULL), else code with "PATH: WHAT (REASON)". */
int otf2r_fail(struct otf2r *r, struct err *e, int code, OTF2_ErrorCode st, const char *path,
	       const char *what);

/* The path of a location's local file: BASE/ID.EXT (ext "def" or "evt"). */
void otf2r_local_path(const struct otf2r *r, uint64_t location, const char *ext, char *buf,
		      size_t n);

/* Frees r->locals (the mapping tables are libotf2's). */
void otf2r_free_locals(struct otf2r *r);

struct otf2_read_opts;

/* What reading events counts beside the model: records by kind, MPI
 * records on locations that are not ranks, undefined regions, the time
 * span (t_begin UINT64_MAX while no record was read), and the lanes'
 * leaves of regions not open, regions closed out of order and regions
 * left open (the warnings the builder counts for ranks). */
struct otf2r_counts {
	uint64_t records[REC_COUNT];
	uint64_t nonrank_mpi, bad_refs, before_offset, t_begin, t_end;
	uint64_t lane_stray, lane_misnested, lane_unclosed;
};

/* A chunk of locations, and what reading it counted (otf2_events.c). */
struct evblock {
	struct otf2r *r;
	uint32_t loc_first, loc_end;  /* locations [loc_first, loc_end) */
	struct build *b;              /* the block it is built into */
	struct err err;
	int rc;
	uint32_t cur_tl;              /* TRACE_NONE if not an MPI rank */
	/* the lane being read (TRACE_NONE: none) and the lanes' frames read
	 * into this block, block-relative (otf2_lanes.c) */
	uint32_t cur_lane;
	struct trace_frame *lf;
	size_t n_lf, cap_lf;
	uint64_t *lb;                 /* per frame of lf: a copy's bytes */
	size_t cap_lb;
	uint32_t *lstk;               /* its open frames */
	size_t n_lstk, cap_lstk;
	uint32_t copy_at;             /* its open copy frame, or TRACE_NONE */
	uint64_t lane_last;           /* its last time */
	/* the locks' holds read into this block (the location's from
	 * hd_first; an open one's release UINT64_MAX), how many times each
	 * was taken again inside while open (a nested or recursive lock:
	 * one hold), and the location's open ones by lock (paradigm << 32 |
	 * lock id, 0 -> hold; otf2_lanes.c) */
	uint32_t cur_loc;
	struct trace_hold *hd;
	size_t n_hd, cap_hd, hd_first;
	uint32_t *hd_depth;
	size_t cap_hd_depth;
	struct hmap open_holds;
	/* the team and task tags read into this block; how many instances
	 * of each team its locations began (team, location -> count;
	 * otf2_teams.c), the tag for the location's next Enter (+ 1, or 0)
	 * and the Enter it read last while still open (its time and region;
	 * TRACE_NONE: none) */
	struct trace_tag *tg;
	size_t n_tg, cap_tg;
	struct hmap teams;
	uint64_t next_tag, last_enter;
	uint32_t last_region;
	uint64_t records[REC_COUNT];
	uint64_t nonrank_mpi;
	uint64_t bad_refs;            /* records naming undefined regions */
	uint64_t before_offset;       /* records timed before the global offset */
	uint64_t t_begin, t_end;
	/* the lanes' leaves of regions not open, regions closed out of order
	 * and left open at the lane's end (otf2_lanes.c) */
	uint64_t lane_stray, lane_misnested, lane_unclosed;
};

/* Lanes (otf2_lanes.c): which locations are threads or GPU streams of a
 * rank (after the timelines are made; the copy regions are added); a
 * lane's reading begun and ended in block k; its Enter and Leave, and its
 * RMA records (a copy); the blocks' lane frames joined into r->t (blocks
 * in location order; their arrays are freed). Each returns 0 or ERR_NOMEM. */
int otf2r_make_lanes(struct otf2r *r);
void otf2r_lane_begin(struct evblock *k, uint32_t lane);
int otf2r_lane_region(struct evblock *k, int enter, uint64_t time, uint32_t region);
int otf2r_lane_rma(struct evblock *k, enum trace_rec rec, uint64_t time, uint64_t bytes);
int otf2r_lane_end(struct evblock *k);
/* A lock acquired (acquire 1) or released by the location being read
 * (a rank's or a lane's): the hold from its acquiring to its release,
 * an acquiring of a lock the location holds already nested in it; a
 * hold still open at the location's end is dropped (otf2r_holds_end),
 * and so is a release of no held lock. 0 or ERR_NOMEM. */
int otf2r_thread_lock(struct evblock *k, int acquire, uint64_t time, uint8_t model, uint32_t lock,
		      uint32_t order);
void otf2r_holds_end(struct evblock *k);
/* A lane's time as its frames have it: never before its last. */
uint64_t otf2r_lane_time(struct evblock *k, uint64_t time);
/* Teams and tasks (otf2_teams.c): a record's time (relative) as the
 * location's frames have it (never before the location's last); an
 * Enter of region at time (as its frame has it) tagged with `value` (an
 * OMPT parallel region's id, a stream's location, a team's instance, a
 * task's id); a location's
 * reading begun; a ThreadTeamBegin of team comm (sets k->next_tag); a
 * task created (tags the open Enter read last) or switched to (sets
 * k->next_tag). Each returns 0 or ERR_NOMEM (also in k->rc). */
uint64_t otf2r_frame_time(struct evblock *k, uint64_t time);
int otf2r_team_tag(struct evblock *k, uint64_t time, uint32_t region, uint64_t value);
void otf2r_teams_begin(struct evblock *k);
int otf2r_team_begin(struct evblock *k, uint32_t comm);
int otf2r_task_record(struct evblock *k, int create, uint64_t id);
int otf2r_lanes_join(struct otf2r *r, struct evblock *blocks, uint32_t n);
void otf2r_lanes_drop(struct evblock *blocks, uint32_t n);

/* Records of skein's own decoding, x[0 .. n), into k's block, in order
 * (otf2_records.c), until the builder fails (its error in k->rc). A
 * batch at a time, so that the dispatch is inlined into the loop. */
void otf2r_own_events(struct evblock *k, const struct otf2_evt_rec *x, uint32_t n);
/* libotf2's callbacks for the records skein reads, whose user data is
 * the block being read; NULL when out of memory. */
OTF2_EvtReaderCallbacks *otf2r_event_callbacks(void);

/* Reads the events of locations [lo, hi) into builder blocks of
 * consecutive locations, on par_workers() threads: *blocks (malloc'd,
 * *n_blocks of them, in location order) are the caller's to join or
 * destroy; their counts are added to c. Returns 0 or ERR_* (message in
 * r->e). */
int otf2r_read_blocks(struct otf2r *r, OTF2_Reader *rd, const struct otf2_read_opts *o, uint32_t lo,
		      uint32_t hi, struct build ***blocks, uint32_t *n_blocks, struct otf2r_counts *c);
/* Puts the counts of every location's events into r->t's information
 * (events, records, warnings, time span); the locations' events are set. */
void otf2r_finish_counts(struct otf2r *r, const struct otf2r_counts *c);
/* Cuts t's locations into n shares of consecutive locations with about
 * the same work: share i is [cut[i], cut[i + 1]). */
void otf2r_share_cut(const struct trace *t, uint32_t n, uint32_t *cut);
/* The blocks of a read of locations [0, nl) on nw > 1 workers
 * (otf2_events.c): block i is [cut[i], cut[i + 1]), smaller towards the
 * middle. Returns their number, at most OTF2R_MAX_BLOCKS (cut holds one
 * more). */
#define OTF2R_MAX_BLOCKS 64
uint32_t otf2r_guided_cut(const struct trace_location *loc, uint32_t nl, uint32_t nw, uint32_t *cut);

/* One process's share of a distributed read (otf2_read.h): the archive's
 * definitions in r.t, its locations [lo, hi) read into blocks, and, on
 * the process that joins, the blocks of the shares added after it. */
struct otf2_share {
	struct otf2r r;
	uint32_t part, n_parts;
	uint32_t lo, hi;
	struct build **blocks;   /* this part's, until packed or joined */
	uint32_t n_blocks;
	size_t cap_blocks;
	struct otf2r_counts counts;
	/* part 0: the heads added so far (parts 1 .. next_head - 1), the
	 * sizes of their blocks in order, how many each part has, and the
	 * join once the blocks come */
	uint32_t next_head;
	struct build_block_size *sizes;
	size_t n_sizes, cap_sizes;
	uint32_t *part_blocks;
	struct build_join *join;
	uint32_t joined;         /* blocks added */
};

/* The message for rc from building or matching (stage: "building the
 * model", "matching messages"), naming the limits for ERR_LIMIT; returns
 * rc. */
int otf2r_build_error(struct err *e, int rc, const char *path, const char *stage);

/* Reads every location's events (local definitions already read) and
 * builds the model, on par_workers() threads. Returns 0 or ERR_*, with
 * the message in r->e. */
int otf2r_read_events(struct otf2r *r, OTF2_Reader *rd, const struct otf2_read_opts *o);

/* Reads global definitions and turns them into regions, communicators,
 * locations and timelines on r->t. Returns 0 or ERR_*. */
int otf2r_read_definitions(struct otf2r *r, OTF2_Reader *rd);
void otf2r_free_definitions(struct otf2r *r);

#endif
