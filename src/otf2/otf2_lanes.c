/* otf2_lanes.c — a process's CPU threads and GPU streams, read as lanes
 * under its rank (model/trace.h, doc/model.md "Lanes"): which locations
 * are lanes, their regions and copies read into frames by each block of
 * the parallel read, and the blocks' frames joined in location order;
 * the threads' locks (ranks' and lanes') read into holds likewise. */
#include "otf2_impl.h"

#include "base/vec.h"

#include <stdlib.h>
#include <string.h>

/* A location is a lane when it is a CPU thread or an accelerator stream
 * that is not a rank, in the location group of one (or in a group that
 * group created). */
int
otf2r_make_lanes(struct otf2r *r)
{
	struct trace *t = r->t;
	size_t nl = t->n_locations;
	r->lane_of_loc = malloc((nl + 1) * sizeof *r->lane_of_loc);
	uint32_t *tl_of_group = malloc((r->n_lgroups + 1) * sizeof *tl_of_group);
	if (!r->lane_of_loc || !tl_of_group) {
		free(tl_of_group);
		return ERR_NOMEM;
	}
	for (size_t g = 0; g < r->n_lgroups; g++)
		tl_of_group[g] = TRACE_NONE;
	for (size_t i = 0; i < nl; i++) {
		uint32_t g = otf2r_refs_get(&r->lgroup_at, r->lgroup_of_loc[i]);
		if (g != TRACE_NONE && t->locations[i].timeline != TRACE_NONE && tl_of_group[g] == TRACE_NONE)
			tl_of_group[g] = t->locations[i].timeline;
	}
	/* a group without a rank goes with the group that created it (Score-P
	 * 7 and later put a process's GPU contexts in groups of their own,
	 * created by the process), a few generations up */
	for (int pass = 0; pass < 4; pass++)
		for (size_t g = 0; g < r->n_lgroups; g++) {
			uint32_t c = r->lgroups[g].creator == UINT32_MAX ? TRACE_NONE
				: otf2r_refs_get(&r->lgroup_at, r->lgroups[g].creator);
			if (tl_of_group[g] == TRACE_NONE && c != TRACE_NONE && c != g)
				tl_of_group[g] = tl_of_group[c];
		}
	int rc = 0, gpu = 0;
	for (size_t i = 0; i < nl && !rc; i++) {
		const struct trace_location *L = &t->locations[i];
		uint32_t g = otf2r_refs_get(&r->lgroup_at, r->lgroup_of_loc[i]);
		r->lane_of_loc[i] = TRACE_NONE;
		if (L->timeline != TRACE_NONE || g == TRACE_NONE || tl_of_group[g] == TRACE_NONE ||
		    (L->type != LOC_CPU_THREAD && L->type != LOC_GPU))
			continue;
		uint32_t id;
		if ((rc = VEC_NEW_ID(t->lanes, t->n_lanes, t->cap_lanes, &id)))
			break;
		t->lanes[id] = (struct trace_lane){ .location = (uint32_t)i, .timeline = tl_of_group[g],
						    .kind = L->type == LOC_GPU ? LANE_GPU : LANE_THREAD };
		r->lane_of_loc[i] = id;
		gpu |= L->type == LOC_GPU;
	}
	free(tl_of_group);
	r->copy_region[0] = r->copy_region[1] = TRACE_NONE;
	if (!rc && gpu &&
	    (rc = trace_add_region(t, TRACE_COPY_TO_DEVICE, ROLE_OTHER, OTF2_PARADIGM_CUDA, &r->copy_region[0])) == 0)
		rc = trace_add_region(t, TRACE_COPY_TO_HOST, ROLE_OTHER, OTF2_PARADIGM_CUDA, &r->copy_region[1]);
	return rc;
}

void
otf2r_lane_begin(struct evblock *k, uint32_t lane)
{
	k->cur_lane = lane;
	k->r->t->lanes[lane].frame_first = (uint32_t)k->n_lf;
	k->n_lstk = 0;
	k->copy_at = TRACE_NONE;
	k->lane_last = 0;
}

/* Opens a frame of region at time on the lane being read. */
static int
open_frame(struct evblock *k, uint64_t time, uint32_t region, uint32_t *at)
{
	uint32_t parent = k->n_lstk ? k->lstk[k->n_lstk - 1] : TRACE_NONE;
	if (VEC_NEW_ID(k->lf, k->n_lf, k->cap_lf, at) ||
	    vec_reserve((void **)&k->lb, &k->cap_lb, k->n_lf, sizeof *k->lb))
		return ERR_NOMEM;
	k->lb[*at] = 0;
	k->lf[*at] = (struct trace_frame){
		.t_enter = time, .t_leave = time, .region = region, .parent = parent,
		.timeline = k->cur_lane, .depth = (uint32_t)k->n_lstk,
	};
	return 0;
}


static void
close_frame(struct evblock *k, uint32_t f, uint64_t time)
{
	k->lf[f].t_leave = time > k->lf[f].t_enter ? time : k->lf[f].t_enter;
}

/* A lane's times never go back (as the builder clamps a rank's: a
 * frame then nests within its parent and the lane's frames stay in time
 * order, which the critical path and the views rely on). */
uint64_t
otf2r_lane_time(struct evblock *k, uint64_t time)
{
	if (time < k->lane_last)
		return k->lane_last;
	return k->lane_last = time;
}

/* An open copy ends at time (its completion, or any other record of the
 * stream's: a stream runs one thing at a time), so that copies nest as
 * the other frames do. */
static void
end_copy(struct evblock *k, uint64_t time)
{
	if (k->copy_at != TRACE_NONE) {
		close_frame(k, k->copy_at, time);
		k->copy_at = TRACE_NONE;
	}
}

int
otf2r_lane_region(struct evblock *k, int enter, uint64_t time, uint32_t region)
{
	time = otf2r_lane_time(k, time);
	end_copy(k, time);
	if (enter) {
		uint32_t f;
		if (open_frame(k, time, region, &f) ||
		    VEC_GROW(k->lstk, k->n_lstk, k->cap_lstk))
			return k->rc = ERR_NOMEM;
		k->lstk[k->n_lstk++] = f;
		return 0;
	}
	/* closes the innermost open frame of the region and those above it
	 * (a leave that skipped some: closed out of order); a leave of no
	 * open region is dropped; each counted as the builder counts a
	 * rank's (build_leave) */
	size_t i = k->n_lstk;
	while (i > 0 && k->lf[k->lstk[i - 1]].region != region)
		i--;
	if (i == 0) {
		k->lane_stray++;
		return 0;
	}
	k->lane_misnested += k->n_lstk - i;
	while (k->n_lstk >= i)
		close_frame(k, k->lstk[--k->n_lstk], time);
	return 0;
}

/* A get on a device stream copies to the device, a put to the host; the
 * copy lasts until its completion (or the next copy, or the stream's
 * end). */
int
otf2r_lane_rma(struct evblock *k, enum trace_rec rec, uint64_t time, uint64_t bytes)
{
	time = otf2r_lane_time(k, time);
	if (k->r->t->lanes[k->cur_lane].kind != LANE_GPU)
		return 0;
	if (rec != REC_RMA_GET && rec != REC_RMA_PUT && rec != REC_RMA_OP_COMPLETE_BLOCKING &&
	    rec != REC_RMA_OP_COMPLETE_NON_BLOCKING)
		return 0;
	end_copy(k, time);
	if (rec == REC_RMA_GET || rec == REC_RMA_PUT) {
		uint32_t region = k->r->copy_region[rec == REC_RMA_PUT];
		if (region != TRACE_NONE && open_frame(k, time, region, &k->copy_at))
			return k->rc = ERR_NOMEM;
		if (region != TRACE_NONE)
			k->lb[k->copy_at] = bytes;
	}
	return 0;
}

int
otf2r_lane_end(struct evblock *k)
{
	end_copy(k, k->lane_last);
	k->lane_unclosed += k->n_lstk;     /* left open: closed at the lane's last record */
	while (k->n_lstk)
		close_frame(k, k->lstk[--k->n_lstk], k->lane_last);
	struct trace_lane *L = &k->r->t->lanes[k->cur_lane];
	L->frame_count = (uint32_t)k->n_lf - L->frame_first;
	k->cur_lane = TRACE_NONE;
	k->copy_at = TRACE_NONE;
	return 0;
}

/* A lock's key in the table of the location's open holds. */
static uint64_t
lock_key(uint8_t model, uint32_t lock)
{
	return (uint64_t)model << 32 | lock;
}

/* Has the location being read holds in the block (from hd_first)? */
static int
has_holds(const struct evblock *k)
{
	return k->n_hd > k->hd_first && k->hd[k->hd_first].location == k->cur_loc;
}

int
otf2r_thread_lock(struct evblock *k, int acquire, uint64_t time, uint8_t model, uint32_t lock,
		  uint32_t order)
{
	/* the location's times as its frames have them: never back; below
	 * UINT64_MAX, which marks an open hold */
	if (k->cur_lane != TRACE_NONE)
		time = otf2r_lane_time(k, time);
	else
		time = build_time(k->b, time);
	if (time == UINT64_MAX)
		time--;
	if (!has_holds(k))
		k->hd_first = k->n_hd;       /* the location's first hold */
	uint64_t key = lock_key(model, lock);
	uint32_t *open = hmap_get(&k->open_holds, key, 0);
	if (acquire && open && k->hd[*open].order == order) {
		k->hd_depth[*open]++;        /* taken again inside: the same hold */
		return 0;
	}
	if (acquire) {
		/* (taken anew under another order: the hold before lost its
		 * release, is replaced in the table and dropped at the
		 * location's end) */
		uint32_t at;
		if (VEC_NEW_ID(k->hd, k->n_hd, k->cap_hd, &at) || VEC_GROW(k->hd_depth, (size_t)at, k->cap_hd_depth) ||
		    hmap_put(&k->open_holds, key, 0, at))
			return k->rc = ERR_NOMEM;
		/* its padding zeroed too: a saved file's copy is the same bytes */
		struct trace_hold *h = &k->hd[at];
		memset(h, 0, sizeof *h);
		h->acquire = time;
		h->release = UINT64_MAX;
		h->location = k->cur_loc;
		h->lock = lock;
		h->order = order;
		h->model = model;
		k->hd_depth[at] = 0;
		return 0;
	}
	if (!open)
		return 0;                    /* a release of no held lock */
	if (k->hd_depth[*open]) {
		k->hd_depth[*open]--;
		return 0;
	}
	struct trace_hold *h = &k->hd[*open];
	h->release = time > h->acquire ? time : h->acquire;
	uint32_t was;
	hmap_take(&k->open_holds, key, 0, &was);
	return 0;
}

/* A hold never released names no time its lock came free: dropped, its
 * entry (if the table has it: one taken again under another order was
 * replaced) taken out for the next location. O(the location's holds). */
void
otf2r_holds_end(struct evblock *k)
{
	if (!has_holds(k))
		return;
	size_t out = k->hd_first;
	for (size_t i = k->hd_first; i < k->n_hd; i++) {
		const struct trace_hold *h = &k->hd[i];
		uint64_t key = lock_key(h->model, h->lock);
		const uint32_t *open = hmap_get(&k->open_holds, key, 0);
		uint32_t was;
		if (h->release != UINT64_MAX)
			k->hd[out++] = *h;
		else if (open && *open == i)
			hmap_take(&k->open_holds, key, 0, &was);
	}
	k->n_hd = out;
}

void
otf2r_lanes_drop(struct evblock *blocks, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		free(blocks[i].lf);
		free(blocks[i].lb);
		free(blocks[i].lstk);
		free(blocks[i].hd);
		free(blocks[i].hd_depth);
		hmap_fini(&blocks[i].open_holds);
		free(blocks[i].tg);
		hmap_fini(&blocks[i].teams);
		blocks[i].tg = NULL;
		blocks[i].hd_depth = NULL;
		blocks[i].n_tg = blocks[i].cap_tg = blocks[i].cap_hd_depth = 0;
		blocks[i].lf = NULL;
		blocks[i].lb = NULL;
		blocks[i].lstk = NULL;
		blocks[i].hd = NULL;
		blocks[i].n_lf = blocks[i].cap_lf = blocks[i].cap_lb = blocks[i].n_lstk = blocks[i].cap_lstk = 0;
		blocks[i].n_hd = blocks[i].cap_hd = blocks[i].hd_first = 0;
	}
}

/* Records of elem bytes kept by each block (block i's: part(&blocks[i],
 * &count)), joined in block (so location) order into a new *out of *n
 * records (NULL and 0 when none); the old *out freed. 0, ERR_LIMIT or
 * ERR_NOMEM. */
static int
blocks_concat(const struct evblock *blocks, uint32_t n, size_t elem,
	      const void *(*part)(const struct evblock *, size_t *), void **out, size_t *n_out)
{
	size_t total = 0, k;
	for (uint32_t i = 0; i < n; i++) {
		part(&blocks[i], &k);
		total += k;
	}
	free(*out);
	*out = NULL;
	*n_out = 0;
	if (!total)
		return 0;
	if (total > VEC_MAX_ID)
		return ERR_LIMIT;
	if (!(*out = malloc(total * elem)))
		return ERR_NOMEM;
	size_t at = 0;
	for (uint32_t i = 0; i < n; i++) {
		const void *p = part(&blocks[i], &k);
		if (k)
			memcpy((char *)*out + at * elem, p, k * elem);
		at += k;
	}
	*n_out = total;
	return 0;
}

static const void *
block_holds(const struct evblock *k, size_t *n)
{
	*n = k->n_hd;
	return k->hd;
}

static const void *
block_tags(const struct evblock *k, size_t *n)
{
	*n = k->n_tg;
	return k->tg;
}

int
otf2r_lanes_join(struct otf2r *r, struct evblock *blocks, uint32_t n)
{
	struct trace *t = r->t;
	size_t total = 0;
	int rc = blocks_concat(blocks, n, sizeof *t->holds, block_holds, (void **)&t->holds, &t->n_holds);
	t->cap_holds = t->n_holds;
	if (!rc)
		rc = blocks_concat(blocks, n, sizeof *t->tags, block_tags, (void **)&t->tags, &t->n_tags);
	t->cap_tags = t->n_tags;
	if (rc) {
		otf2r_lanes_drop(blocks, n);
		return rc;
	}
	for (uint32_t i = 0; i < n; i++)
		total += blocks[i].n_lf;
	if (total > VEC_MAX_ID) {
		otf2r_lanes_drop(blocks, n);
		return ERR_LIMIT;
	}
	free(t->lane_frames);
	free(t->lane_bytes);
	t->lane_frames = malloc((total + 1) * sizeof *t->lane_frames);
	t->lane_bytes = malloc((total + 1) * sizeof *t->lane_bytes);
	if (!t->lane_frames || !t->lane_bytes) {
		otf2r_lanes_drop(blocks, n);
		return ERR_NOMEM;
	}
	t->n_lane_frames = t->cap_lane_frames = total;
	t->n_lane_bytes = t->cap_lane_bytes = total;
	size_t at = 0;
	for (uint32_t i = 0; i < n; i++) {
		const struct evblock *k = &blocks[i];
		for (size_t f = 0; f < k->n_lf; f++) {
			struct trace_frame x = k->lf[f];
			if (x.parent != TRACE_NONE)
				x.parent += (uint32_t)at;
			t->lane_frames[at + f] = x;
			t->lane_bytes[at + f] = k->lb[f];
		}
		for (uint32_t li = k->loc_first; li < k->loc_end; li++)
			if (r->lane_of_loc[li] != TRACE_NONE)
				t->lanes[r->lane_of_loc[li]].frame_first += (uint32_t)at;
		at += k->n_lf;
	}
	otf2r_lanes_drop(blocks, n);
	return 0;
}
