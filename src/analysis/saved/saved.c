/* saved.c — mapping a saved analysis (saved.h, doc/format.md), and what
 * reading and writing (saved_write.c) share: the checksums, the list of
 * arrays saved, the trace's identity.
 *
 * Layout: a 64-byte header, the section table (48 bytes a section), then
 * the sections, each starting at a multiple of 64 bytes (saved_impl.h).
 */
#include "saved.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/vec.h"

#include "analysis/core/analysis_impl.h"
#include "saved_impl.h"
#include "base/file.h"
#include "base/par.h"
#include "analysis/core/cluster.h"
#include "analysis/explain/explain.h"
#include "model/trace_impl.h"

/* The checksum of a block (saved_impl.h: the lanes, a stride, the end). */
uint64_t
saved_block_sum(const unsigned char *b, size_t n)
{
	uint64_t h[4];
	saved_sum_lanes(h, n);
	size_t i = 0;
	for (; i + 32 <= n; i += 32)
		saved_sum_stride(h, b + i);
	return saved_sum_end(h, b + i, n - i);
}

/* The checksum of n bytes: the block sums of each SUM_BLOCK bytes,
 * summed in turn (doc/format.md). Blocks can be summed in parallel. */
uint64_t
saved_combine(uint64_t acc, uint64_t block)
{
	return saved_mix(acc, block);
}

uint64_t
saved_sum_start(uint64_t n)
{
	return 0x5345435449304e53ull ^ n;
}

uint64_t
saved_checksum(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t acc = saved_sum_start(n);
	size_t off = 0;
	do {
		size_t k = n - off < SUM_BLOCK ? n - off : SUM_BLOCK;
		acc = saved_combine(acc, saved_block_sum(b + off, k));
		off += k;
	} while (off < n);
	return acc;
}

/* ---- the arrays, named once for writing and reading ---- */



struct has
saved_has_of(const struct analysis *a)
{
	return (struct has){ .phases = a->lop_phase != NULL,
			     .op_of_lop = a->op_of_lop != NULL,
			     .op_last_of_lop = a->op_last_of_lop != NULL,
			     .charm_metrics = a->dur_diff != NULL,
			     .explain = a->explained && !a->charm };
}

/* Lists the arrays of t and a with their counts as they are in memory
 * (h: which optional arrays a has). */
uint32_t
saved_arrays(struct trace *t, struct analysis *a, struct has h, struct array *out)
{
	uint32_t n = 0, n_tl = (uint32_t)t->n_timelines;
#define ARR(sid, field, cnt) out[n++] = (struct array){ sid, sizeof *(field), (void **)&(field), (cnt) }
	ARR(S_TIMELINES, t->timelines, t->n_timelines);
	ARR(S_LOCATIONS, t->locations, t->n_locations);
	ARR(S_REGIONS, t->regions, t->n_regions);
	ARR(S_COMMS, t->comms, t->n_comms);
	ARR(S_COMM_MEMBERS, t->comm_members, t->n_comm_members);
	ARR(S_NODES, t->nodes, t->n_nodes);
	ARR(S_OPS, t->oprec, t->n_oprec);
	ARR(S_ENDS, t->ends, t->n_ends);
	ARR(S_MSGS, t->msgs, t->n_msgs);
	ARR(S_COLLS, t->colls, t->n_colls);
	ARR(S_COLL_MEMBERS, t->coll_members, t->n_coll_members);
	ARR(S_FRAMES, t->frames, t->n_frames);
	ARR(S_PES, t->pes, t->n_pes);
	ARR(S_IDLES, t->idles, t->n_idles);
	ARR(S_CHARES, t->chares, t->n_chares);
	ARR(S_ENTRIES, t->entries, t->n_entries);
	ARR(S_OP_PE, t->op_pe, t->n_op_pe);
	ARR(S_CALLS, t->calls, t->n_calls);
	ARR(S_WINS, t->wins, t->n_wins);
	ARR(S_RMAS, t->rmas, t->n_rmas);
	ARR(S_EPOCHS, t->epochs, t->n_epochs);
	ARR(S_LANES, t->lanes, t->n_lanes);
	ARR(S_LANE_FRAMES, t->lane_frames, t->n_lane_frames);
	ARR(S_LANE_BYTES, t->lane_bytes, t->n_lane_bytes);
	ARR(S_HOLDS, t->holds, t->n_holds);
	ARR(S_TAGS, t->tags, t->n_tags);
	ARR(S_COLL_SENT, t->coll_sent, t->n_coll_sent);
	if (!a)
		return n;
	uint64_t nl = a->n_lops, np = a->n_parts;
	ARR(S_LOP_OP, a->lop_op, nl + 1);
	ARR(S_OP_LOP, a->op_lop, trace_op_count(t));
	ARR(S_TL_LOP, a->tl_lop, (uint64_t)n_tl + 1);
	ARR(S_LOP_TL, a->lop_tl, nl);
	ARR(S_LOP_KIND, a->lop_kind, nl);
	ARR(S_LOP_PART, a->lop_part, nl);
	ARR(S_PARTS, a->parts, np);
	ARR(S_PART_LOP_FIRST, a->part_lop_first, np + 1);
	ARR(S_PART_LOPS, a->part_lops, a->part_lop_first ? a->part_lop_first[np] : 0);
	ARR(S_DAG_FIRST, a->dag_first, np + 1);
	ARR(S_DAG_SUCC, a->dag_succ, a->dag_first ? a->dag_first[np] : 0);
	ARR(S_PART_ORDER, a->part_order, np);
	ARR(S_LOP_PHASE, a->lop_phase, h.phases ? nl : 0);
	ARR(S_LOP_PHASE_REGION, a->lop_phase_region, h.phases ? nl : 0);
	ARR(S_LOP_STEP, a->lop_step, nl);
	ARR(S_PMIN, a->pmin, a->pmin_first ? a->pmin_first[np] : 0);
	ARR(S_PMIN_FIRST, a->pmin_first, np + 1);
	ARR(S_GMIN, a->gmin, a->n_steps);
	ARR(S_CAUSE, a->cause, nl);
	ARR(S_DIFF, a->diff, nl);
	ARR(S_DIFF_BIG, a->diff_big, a->n_diff_big);
	ARR(S_CAUSE_FAR, a->cause_far, a->n_cause_far);
	ARR(S_HOT, a->hot, a->n_hot);
	ARR(S_HOT_ALL, a->hot_all, a->n_hot_all);
	ARR(S_ITER_STARTS, a->iter_starts, a->iters.count ? (uint64_t)a->iters.count + 1 : 0);
	ARR(S_ITER_RUNS, a->iter_runs, a->iters.count ? a->n_iter_runs : 0);
	ARR(S_OP_OF_LOP, a->op_of_lop, h.op_of_lop ? nl : 0);
	ARR(S_OP_LAST_OF_LOP, a->op_last_of_lop, h.op_last_of_lop ? nl : 0);
	ARR(S_IDLE_EXP, a->idle_exp, h.charm_metrics ? nl : 0);
	ARR(S_DUR_DIFF, a->dur_diff, h.charm_metrics ? nl : 0);
	ARR(S_IMBALANCE, a->imbalance, h.charm_metrics ? nl : 0);
	ARR(S_PART_IMBALANCE, a->part_imbalance, h.charm_metrics ? np : 0);
	ARR(S_PART_REGION, a->part_region, h.charm_metrics ? np : 0);
	if (h.explain) {        /* a file without them has not their sections */
		ARR(S_WAITS, a->waits, a->n_waits);
		ARR(S_DELAYS, a->delays, a->n_delays);
		ARR(S_OUTLIERS, a->outliers, a->n_outliers);
		ARR(S_PROBLEMS, a->problems, a->n_problems);
	}
#undef ARR
	return n;
}

/* Adds the file at path to an identity: its size to *sz, its
 * modification time (ns) into *mt (for one file: the time; for several,
 * mixed in turn, so that any one changing changes the result). 0 when
 * the file is there. */
static int
stat_add(const char *path, uint64_t *sz, uint64_t *mt)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return -1;
	uint64_t t = (uint64_t)st.st_mtim.tv_sec * 1000000000u + (uint64_t)st.st_mtim.tv_nsec;
	*sz += (uint64_t)st.st_size;
	*mt = *mt ? saved_mix(*mt, t) : t;
	return 0;
}

/* The identity of the trace a file was saved from: the anchor's size and
 * time, and those of what the anchor names — for an OTF2 anchor its
 * global definitions (the anchor's name with .def for .otf2), for a
 * Projections .sts its per-PE logs (<base>.<pe>.log.gz or .log, as
 * projections_read.c finds them: their total size and times mixed). */
void
saved_stat_identity(const char *anchor, uint64_t *asz, uint64_t *amt, uint64_t *dsz, uint64_t *dmt)
{
	*asz = *amt = *dsz = *dmt = 0;
	if (!anchor)
		return;
	stat_add(anchor, asz, amt);
	size_t n = strlen(anchor);
	int otf2 = n >= 5 && strcmp(anchor + n - 5, ".otf2") == 0;
	int sts = n >= 4 && strcmp(anchor + n - 4, ".sts") == 0;
	char *p = otf2 || sts ? malloc(n + 32) : NULL;
	if (!p)
		return;
	if (otf2) {
		memcpy(p, anchor, n - 5);
		memcpy(p + n - 5, ".def", 5);
		stat_add(p, dsz, dmt);
	}
	for (uint32_t pe = 0; sts; pe++) {
		snprintf(p, n + 32, "%.*s.%u.log.gz", (int)(n - 4), anchor, pe);
		if (stat_add(p, dsz, dmt) == 0)
			continue;
		snprintf(p, n + 32, "%.*s.%u.log", (int)(n - 4), anchor, pe);
		sts = stat_add(p, dsz, dmt) == 0;
	}
	free(p);
}

int
saved_may_replace(const char *path, struct err *e)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return errno == ENOENT ? 0 : err_set(e, ERR_IO, "%s: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return err_set(e, ERR_IO, "%s: is a directory", path);
	if (S_ISREG(st.st_mode) && st.st_size == 0)
		return 0;
	int saved = S_ISREG(st.st_mode) ? saved_is(path) : 0;
	if (saved < 0)            /* not known to be skein's: never replaced */
		return err_set(e, ERR_NOMEM, "%s: out of memory", path);
	if (saved)
		return 0;
	return err_set(e, ERR_IO, "%s: exists and is not a file skein saved: not replaced "
		       "(remove it, or save under another name)", path);
}

/* ---- reading ---- */

int
saved_is(const char *path)
{
	struct err e = { 0 };
	FILE *f = file_open_read(path, &e);     /* a FIFO must not block here */
	if (!f)
		return e.code == ERR_NOMEM ? -1 : 0;
	char head[8];
	int is = fread(head, 1, sizeof head, f) == sizeof head && memcmp(head, SAVED_MAGIC, 8) == 0;
	fclose(f);
	return is;
}

static int
sum_worker(void *ctx, uint32_t w, uint32_t nw)
{
	struct opener *o = ctx;
	for (size_t i = w; i < o->n_blocks; i += nw) {
		struct block_ref *b = &o->blocks[i];
		const struct section *s = o->sec[b->id];
		uint64_t k = s->bytes - b->off < SUM_BLOCK ? s->bytes - b->off : SUM_BLOCK;
		b->bad = UINT64_MAX;
		b->n_big = b->n_far = 0;
		if (o->t)      /* its records checked as it is summed */
			saved_sum_check(o, b, k);
		else
			b->sum = saved_block_sum(o->base + s->offset + b->off, (size_t)k);
	}
	return 0;
}

/* Sums every section and, when o->t is set, checks every index in it:
 * a wrong sum is said first (a damaged file), then what layout says
 * (its error, when not 0), then the first section holding an index out
 * of range. */
static int
verify(struct opener *o, int layout, const struct err *le)
{
	size_t n = 0;
	for (uint32_t id = 0; id < S_END; id++)
		if (o->sec[id])
			n += o->sec[id]->bytes / SUM_BLOCK + 1;
	o->blocks = malloc((n + 1) * sizeof *o->blocks);
	if (!o->blocks)
		return err_set(o->e, ERR_NOMEM, "%s: out of memory", o->name);
	o->n_blocks = 0;
	for (uint32_t id = 0; id < S_END; id++) {
		const struct section *s = o->sec[id];
		if (!s)
			continue;
		uint64_t off = 0;
		do {
			o->blocks[o->n_blocks++] = (struct block_ref){ .id = id, .off = off };
			off += SUM_BLOCK;
		} while (off < s->bytes);
	}
	par_run(par_workers(), sum_worker, o);
	int rc = 0;
	for (size_t i = 0; i < o->n_blocks && !rc;) {
		uint32_t id = o->blocks[i].id;
		uint64_t acc = saved_sum_start(o->sec[id]->bytes);
		for (; i < o->n_blocks && o->blocks[i].id == id; i++)
			acc = saved_combine(acc, o->blocks[i].sum);
		if (acc != o->sec[id]->sum)
			rc = err_set(o->e, ERR_FORMAT, "%s: section %u is corrupt (its checksum is wrong)",
				     o->name, id);
	}
	if (!rc && layout) {
		*o->e = *le;
		rc = layout;
	}
	/* the blocks are in section order, each section's in record order:
	 * the first fault found is the first in the file */
	uint32_t n_big = 0, n_far = 0;
	for (size_t i = 0; i < o->n_blocks && !rc; i++) {
		const struct block_ref *b = &o->blocks[i];
		n_big += b->n_big;
		n_far += b->n_far;
		if (b->bad != UINT64_MAX)
			rc = err_set(o->e, ERR_FORMAT, "%s: section %u (%s): entry %llu is out of range",
				     o->name, b->id, saved_section_name(b->id), (unsigned long long)b->bad);
	}
	if (!rc && o->t)
		rc = saved_check_rest(o, n_big, n_far);
	free(o->blocks);
	o->blocks = NULL;
	return rc;
}

/* Checks the header and the table, and every section's bounds (build
 * sums them, and checks what they hold). */
static int
check_file(struct opener *o)
{
	if (o->len < 8 || memcmp(o->base, SAVED_MAGIC, 8) != 0)
		return err_set(o->e, ERR_IO, "%s: not a saved skein analysis", o->name);
	if (o->len < sizeof(struct header))
		return err_set(o->e, ERR_FORMAT, "%s: truncated (%zu bytes)", o->name, o->len);
	struct header h;
	memcpy(&h, o->base, sizeof h);
	if (h.byte_order != BYTE_ORDER_MARK)
		return err_set(o->e, ERR_FORMAT, "%s: saved on a machine of the other byte order",
			       o->name);
	if (h.version != SAVED_VERSION)
		return err_set(o->e, ERR_FORMAT, "%s: format version %u; this skein reads version %u",
			       o->name, h.version, SAVED_VERSION);
	uint64_t sum = h.header_sum;
	h.header_sum = 0;
	if (h.header_size != sizeof h || saved_checksum(&h, sizeof h) != sum)
		return err_set(o->e, ERR_FORMAT, "%s: corrupt header", o->name);
	if (h.file_size != o->len)
		return err_set(o->e, ERR_FORMAT, "%s: %s (%zu bytes, the header says %llu)", o->name,
			       o->len < h.file_size ? "truncated" : "has bytes past its end", o->len,
			       (unsigned long long)h.file_size);
	size_t table = sizeof(struct section) * S_END;
	if (o->len < sizeof h + table || h.n_sections > S_END ||
	    saved_checksum(o->base + sizeof h, table) != h.table_sum)
		return err_set(o->e, ERR_FORMAT, "%s: corrupt section table", o->name);
	const struct section *s = (const struct section *)(o->base + sizeof h);
	for (uint32_t i = 0; i < h.n_sections; i++) {
		if (s[i].id == 0 || s[i].id >= S_END || o->sec[s[i].id])
			return err_set(o->e, ERR_FORMAT, "%s: corrupt section table", o->name);
		if (s[i].offset % ALIGN || s[i].offset > o->len || s[i].bytes > o->len - s[i].offset ||
		    (s[i].elem_size && s[i].count > s[i].bytes / s[i].elem_size) ||
		    (s[i].elem_size && s[i].count * s[i].elem_size != s[i].bytes))
			return err_set(o->e, ERR_FORMAT, "%s: section %u out of bounds", o->name, s[i].id);
		o->sec[s[i].id] = &s[i];
		/* the padding up to where the next section may start is zero
		 * (no sum covers it): so no byte of a whole file changes unseen */
		for (uint64_t b = s[i].offset + s[i].bytes; b % ALIGN && b < o->len; b++)
			if (o->base[b])
				return err_set(o->e, ERR_FORMAT, "%s: section %u's padding is corrupt",
					       o->name, s[i].id);
	}
	return 0;
}

/* The strings of section id: count NUL-terminated strings, into out
 * (malloc'd array of pointers into the mapping). */
static int
get_strings(struct opener *o, enum sec id, const char ***out, uint64_t *n)
{
	const struct section *s = o->sec[id];
	if (!s || s->elem_size != 0 || s->count > s->bytes)
		return err_set(o->e, ERR_FORMAT, "%s: section %d missing or malformed", o->name, id);
	const char *p = (const char *)o->base + s->offset, *end = p + s->bytes;
	const char **v = malloc((s->count + 1) * sizeof *v);
	if (!v)
		return err_set(o->e, ERR_NOMEM, "%s: out of memory", o->name);
	for (uint64_t i = 0; i < s->count; i++) {
		const char *z = memchr(p, 0, (size_t)(end - p));
		if (!z) {
			free(v);
			return err_set(o->e, ERR_FORMAT, "%s: section %d malformed", o->name, id);
		}
		v[i] = p;
		p = z + 1;
	}
	*out = v;
	*n = s->count;
	return 0;
}

/* Points the arrays of t and a into the mapping, checking each count:
 * what every index is then checked against (saved_check.c). */
static int
map_arrays(struct opener *o, struct trace *t, struct analysis *a, struct has h)
{
	struct array arr[MAX_ARRAYS];
	/* the strings are read after the sums (saved.c's strings), their
	 * count is what string ids are checked against before */
	const struct section *ss = o->sec[S_STRINGS];
	if (!ss || ss->elem_size != 0 || ss->count > ss->bytes || ss->count > UINT32_MAX - 2)
		return err_set(o->e, ERR_FORMAT, "%s: section %d missing or malformed", o->name, S_STRINGS);
	/* the trace's counts come from its sections; the analysis's are then
	 * checked against them and the meta counts */
	uint32_t na = saved_arrays(t, NULL, h, arr);
	size_t *counts[] = { &t->n_timelines, &t->n_locations, &t->n_regions, &t->n_comms,
			     &t->n_comm_members, &t->n_nodes, &t->n_oprec, &t->n_ends, &t->n_msgs,
			     &t->n_colls, &t->n_coll_members, &t->n_frames, &t->n_pes, &t->n_idles,
			     &t->n_chares, &t->n_entries, &t->n_op_pe, &t->n_calls, &t->n_wins,
			     &t->n_rmas, &t->n_epochs, &t->n_lanes, &t->n_lane_frames,
			     &t->n_lane_bytes, &t->n_holds, &t->n_tags, &t->n_coll_sent };
	size_t *caps[] = { &t->cap_timelines, &t->cap_locations, &t->cap_regions, &t->cap_comms,
			   &t->cap_comm_members, &t->cap_nodes, &t->cap_oprec, &t->cap_ends,
			   &t->cap_msgs, &t->cap_colls, &t->cap_coll_members, &t->cap_frames,
			   &t->cap_pes, &t->cap_idles, &t->cap_chares, &t->cap_entries, &t->cap_op_pe,
			   &t->cap_calls, &t->cap_wins, &t->cap_rmas, &t->cap_epochs, &t->cap_lanes,
			   &t->cap_lane_frames, &t->cap_lane_bytes, &t->cap_holds, &t->cap_tags,
			   &t->cap_coll_sent };
	_Static_assert(sizeof counts / sizeof *counts == S_COLL_SENT - S_TIMELINES + 1,
		       "a count for every model section");
	for (uint32_t i = 0; i < na; i++) {
		const struct section *s = o->sec[arr[i].id];
		/* a file from before the lanes (or skein-mpi's) has none */
		if (!s && saved_optional(arr[i].id)) {
			*arr[i].ptr = NULL;
			*counts[i] = *caps[i] = 0;
			continue;
		}
		if (!s || s->elem_size != arr[i].elem || s->count > UINT32_MAX - 2)
			return err_set(o->e, ERR_FORMAT, "%s: section %d missing or malformed", o->name,
				       arr[i].id);
		*arr[i].ptr = s->count ? (void *)(o->base + s->offset) : NULL;
		*counts[i] = *caps[i] = (size_t)s->count;
	}
	/* a Charm++ model has a chare per timeline, an entry per region, a
	 * PE per op; an MPI trace none of them, and two op ids a call */
	int charm = t->info.paradigm == PARADIGM_CHARM;
	if (charm ? t->n_chares != t->n_timelines || t->n_entries != t->n_regions ||
		    t->n_op_pe != t->n_oprec || t->n_pes == 0
		  : t->n_pes || t->n_idles || t->n_chares || t->n_entries || t->n_op_pe)
		return err_set(o->e, ERR_FORMAT, "%s: inconsistent Charm++ arrays", o->name);
	if (t->ops_implied && t->n_oprec > VEC_MAX_ID / 2)
		return err_set(o->e, ERR_FORMAT, "%s: inconsistent operations", o->name);
	if (t->n_lane_bytes && t->n_lane_bytes != t->n_lane_frames)
		return err_set(o->e, ERR_FORMAT, "%s: inconsistent lane frames and bytes", o->name);
	if (t->n_coll_sent && t->n_coll_sent != t->n_coll_members)
		return err_set(o->e, ERR_FORMAT, "%s: inconsistent collective members and bytes", o->name);
	/* the analysis's arrays, whose counts follow from the meta counts and
	 * from each other: those counted by part_lop_first, dag_first or the
	 * presence of phases come second, once those are checked */
	a->lop_phase = a->lop_phase_region = NULL;
	for (int pass = 0; pass < 2; pass++) {
		na = saved_arrays(t, a, h, arr);
		for (uint32_t i = 0; i < na; i++) {
			if (arr[i].id < S_LOP_OP)
				continue;
			const struct section *s = o->sec[arr[i].id];
			if (!s || s->elem_size != arr[i].elem)
				return err_set(o->e, ERR_FORMAT, "%s: section %d missing or malformed",
					       o->name, arr[i].id);
			/* counts read from other arrays are checked once those are */
			int derived = arr[i].id == S_PART_LOPS || arr[i].id == S_DAG_SUCC ||
				      arr[i].id == S_LOP_PHASE || arr[i].id == S_LOP_PHASE_REGION ||
				      arr[i].id == S_PMIN;
			if (derived != pass)
				continue;
			if (s->count != arr[i].count)
				return err_set(o->e, ERR_FORMAT, "%s: section %d holds %llu records, not %llu",
					       o->name, arr[i].id, (unsigned long long)s->count,
					       (unsigned long long)arr[i].count);
			*arr[i].ptr = s->count ? (void *)(o->base + s->offset) : NULL;
		}
	}
	/* the last of a lop's ops is read with its first */
	if (a->op_last_of_lop && !a->op_of_lop)
		return err_set(o->e, ERR_FORMAT, "%s: section %d without section %d", o->name,
			       S_OP_LAST_OF_LOP, S_OP_OF_LOP);
	return 0;
}

/* Where the trace the file was saved from stands now. Only a regular
 * file can be the same trace (a FIFO put in its place must never be
 * opened as it: export --otf2 reads the archive again). */
static enum saved_trace_state
source_state(const struct meta *m, const char *anchor)
{
	struct stat st;
	if (stat(anchor, &st) != 0)
		return SAVED_TRACE_MISSING;
	uint64_t asz, amt, dsz, dmt;
	saved_stat_identity(anchor, &asz, &amt, &dsz, &dmt);
	return !S_ISREG(st.st_mode) || asz != m->anchor_size || amt != m->anchor_mtime_ns ||
	       dsz != m->defs_size || dmt != m->defs_mtime_ns ? SAVED_TRACE_CHANGED : SAVED_TRACE_SAME;
}

static void
opts_from_meta(struct analysis_opts *o, const struct meta *m)
{
	analysis_opts_default(o);
#define FROM_META(f) o->f = (int)m->f;
	SAVED_FLAGS(FROM_META)
#undef FROM_META
	o->n_phases = m->n_phases;
	o->hotspots = m->hotspots;
	o->leap_factor = m->leap_factor;
	o->phases = NULL;
	o->iter_region = NULL;
	o->clusters = 0;
}

/* The iterations as the meta section and the mapped starts say. */
static void
iterations_from_meta(struct analysis *a, const struct meta *m)
{
	a->iters = (struct iterations){
		.count = m->iter_count, .source = (enum iterations_source)m->iter_source,
		.region = m->iter_region, .period_parts = m->iter_period_parts,
		.period_steps = m->iter_period_steps, .irregular = m->iter_irregular,
		.starts = a->iter_starts,
	};
}

/* The scalars of the meta section into t and a. 0, or ERR_FORMAT. */
static int
from_meta(struct opener *o, const struct meta *m, struct trace *t, struct analysis *a)
{
	struct trace_info *ti = &t->info;
	memcpy(ti->version, m->version, sizeof ti->version);
	ti->ticks_per_second = m->ticks_per_second ? m->ticks_per_second : 1;
	ti->global_offset = m->global_offset;
	ti->t_begin = m->t_begin;
	ti->t_end = m->t_end;
	ti->events = m->events;
	memcpy(ti->records, m->records, sizeof ti->records);
	memcpy(ti->warnings, m->warnings, sizeof ti->warnings);
	ti->mpi_calls_without_records = m->mpi_calls_without_records;
	ti->no_local_defs = m->no_local_defs;
	ti->paradigm = (uint8_t)m->paradigm;
	t->ops_implied = m->paradigm == PARADIGM_MPI;     /* the MPI builder's */
	t->map = (void *)o->base;
	t->map_len = o->len;
	a->t = t;
	a->n_lops = m->n_lops;
	a->n_parts = m->n_parts;
	a->n_steps = m->n_steps;
	a->n_hot = m->n_hot;
	a->n_hot_all = m->n_hot_all;
	a->stats = m->stats;
	a->verify = m->verify;
	opts_from_meta(&a->opts, m);
	if (m->paradigm >= PARADIGM_COUNT)
		return err_set(o->e, ERR_FORMAT, "%s: unknown paradigm %u", o->name, m->paradigm);
	if (a->n_lops > UINT32_MAX - 2 || a->n_parts > UINT32_MAX - 2 ||
	    a->n_steps > UINT32_MAX - 2 || m->iter_count > UINT32_MAX - 2)
		return err_set(o->e, ERR_FORMAT, "%s: inconsistent counts", o->name);
	iterations_from_meta(a, m);      /* the counts map_arrays checks */
	a->n_iter_runs = m->iter_count ? m->n_iter_runs : 0;
	/* lists whose lengths are their sections' (saved_check_rest checks them) */
	const struct section *big = o->sec[S_DIFF_BIG], *far = o->sec[S_CAUSE_FAR];
	a->n_diff_big = big && big->count < UINT32_MAX ? (uint32_t)big->count : 0;
	a->n_cause_far = far && far->count < UINT32_MAX ? (uint32_t)far->count : 0;
	struct has h = { .phases = m->has_phases != 0,
			 .op_of_lop = m->has_op_of_lop != 0,
			 .op_last_of_lop = m->has_op_last_of_lop != 0,
			 .charm_metrics = m->has_charm_metrics != 0,
			 .explain = m->has_explain != 0 };
	if (h.explain) {
		if (m->paradigm != PARADIGM_MPI)
			return err_set(o->e, ERR_FORMAT, "%s: explanations saved for a Charm++ run", o->name);
		/* their lengths are their sections' (saved_check_rest checks them) */
		const struct section *w = o->sec[S_WAITS], *d = o->sec[S_DELAYS], *x = o->sec[S_OUTLIERS],
				     *p = o->sec[S_PROBLEMS];
		a->n_waits = w && w->count < UINT32_MAX ? (uint32_t)w->count : 0;
		a->n_delays = d && d->count < UINT32_MAX ? (uint32_t)d->count : 0;
		a->n_outliers = x && x->count < UINT32_MAX ? (uint32_t)x->count : 0;
		a->n_problems = p && p->count < UINT32_MAX ? (uint32_t)p->count : 0;
		a->explained = a->explain_mapped = 1;
	}
	int rc = map_arrays(o, t, a, h);
	a->iters.starts = a->iter_starts;
	return rc;
}

/* The strings sections: the interned strings again in id order (the
 * same ids), the path, the creator, the globs. */
static int
strings(struct opener *o, const struct meta *m, struct trace *t, struct saved_info *info)
{
	const char **strs = NULL, **path = NULL, **creator = NULL, **globs = NULL, **iter_region = NULL;
	uint64_t n_str = 0, n1 = 0, n2 = 0, n_globs = 0, n_ir = 0;
	int rc = get_strings(o, S_STRINGS, &strs, &n_str);
	if (!rc)
		rc = get_strings(o, S_PATH, &path, &n1);
	if (!rc)
		rc = get_strings(o, S_CREATOR, &creator, &n2);
	if (!rc)
		rc = get_strings(o, S_PHASES, &globs, &n_globs);
	if (!rc)
		rc = get_strings(o, S_ITER_REGION, &iter_region, &n_ir);
	if (!rc && (n1 != 1 || n2 != 1 || n_globs != m->n_phases || n_ir != (m->has_iter_region != 0) ||
		    n_str == 0 || strs[0][0] || m->no_local_defs >= n_str))
		rc = err_set(o->e, ERR_FORMAT, "%s: malformed strings", o->name);
	for (uint64_t i = 1; i < n_str && !rc; i++) {
		uint32_t id;
		if (intern_add(t->strings, strs[i], strlen(strs[i]), &id))
			rc = err_set(o->e, ERR_NOMEM, "%s: out of memory", o->name);
		else if (id != i)
			rc = err_set(o->e, ERR_FORMAT, "%s: a string is saved twice", o->name);
	}
	if (!rc && (trace_set_path(t, path[0]) || trace_set_creator(t, creator[0])))
		rc = err_set(o->e, ERR_NOMEM, "%s: out of memory", o->name);
	if (!rc && info) {
		info->phase_globs = globs;
		info->iter_region = n_ir ? iter_region[0] : NULL;
		t->saved_globs = (void *)globs;
		globs = NULL;
	}
	free(strs);
	free(path);
	free(creator);
	free(globs);
	free(iter_region);
	return rc;
}

/* Builds the trace and the analysis over a file whose header, table and
 * sections' bounds are checked: the arrays mapped with their counts,
 * then every section summed and every index checked (one pass, on every
 * core), then the strings. */
static int
build(struct opener *o, struct trace **tp, struct analysis **ap, struct saved_info *info)
{
	const struct section *ms = o->sec[S_META];
	if (!ms || ms->elem_size != sizeof(struct meta) || ms->count != 1)
		return err_set(o->e, ERR_FORMAT, "%s: section %d missing or malformed", o->name, S_META);
	const struct meta *m = (const struct meta *)(o->base + ms->offset);
	struct trace *t = trace_new();
	struct analysis *a = calloc(1, sizeof *a);
	int rc = 0;
	if (!t || !a)
		rc = err_set(o->e, ERR_NOMEM, "%s: out of memory", o->name);
	if (!rc) {
		t->mapped = a->mapped = 1;
		/* the counts are read before the sums are checked, and said
		 * after them: a damaged file is said to be damaged */
		struct err le = { 0 };
		struct err *e = o->e;
		o->e = &le;
		int layout = from_meta(o, m, t, a);
		o->e = e;
		if (!layout) {
			o->t = t;
			o->a = a;
		}
		rc = verify(o, layout, &le);
		o->t = NULL;
		o->a = NULL;
	}
	if (!rc)
		rc = strings(o, m, t, info);
	if (!rc) {
		t->saved_state = source_state(m, t->info.path);
		a->ops = trace_ops(t, &a->n_ops);
		a->msgs = t->msgs;
		a->ends = t->ends;
		a->n_ends = (uint32_t)t->n_ends;
		a->charm = t->info.paradigm == PARADIGM_CHARM;
	}
	if (!rc && info) {
		info->trace = t->info.path;
		info->opts = a->opts;
		info->paradigm = (enum trace_paradigm)t->info.paradigm;
		info->trace_state = (enum saved_trace_state)t->saved_state;
	}
	if (rc) {
		if (t)
			t->map = NULL;      /* the caller unmaps */
		analysis_destroy(a);
		trace_destroy(t);
		return rc;
	}
	/* what lateness cannot see is not saved: worked out again */
	if (ap && (rc = explain_run(a))) {
		t->map = NULL;
		analysis_destroy(a);
		trace_destroy(t);
		return err_set(o->e, rc, "%s: out of memory", o->name);
	}
	*tp = t;
	if (ap)
		*ap = a;
	else
		analysis_destroy(a);
	return 0;
}

int
saved_open_mem(const void *buf, size_t len, const char *name, struct trace **t,
	       struct analysis **a, struct saved_info *info, struct err *e)
{
	*t = NULL;
	if (a)
		*a = NULL;
	struct opener o = { .base = buf, .len = len, .name = name, .e = e };
	int rc = check_file(&o);
	if (!rc)
		rc = build(&o, t, a, info);
	if (!rc)
		(*t)->map = NULL;     /* not ours to unmap */
	return rc;
}

int
saved_open(const char *path, struct trace **t, struct analysis **a, struct saved_info *info,
	   struct err *e)
{
	*t = NULL;
	if (a)
		*a = NULL;
	/* O_NONBLOCK: a FIFO put there fails fstat's test instead of blocking */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return err_set(e, ERR_IO, "%s: %s", path, strerror(errno));
	struct stat st;
	int rc = fstat(fd, &st) ? err_set(e, ERR_IO, "%s: %s", path, strerror(errno))
		: !S_ISREG(st.st_mode) ? err_set(e, ERR_IO, "%s: is %s, not a regular file", path,
						  file_kind(st.st_mode))
		: 0;
	if (rc) {
		close(fd);
		return rc;
	}
	size_t len = (size_t)st.st_size;
	void *map = len ? mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
	close(fd);
	if (len && map == MAP_FAILED)
		return err_set(e, ERR_IO, "%s: cannot map (%s)", path, strerror(errno));
	struct opener o = { .base = map, .len = len, .name = path, .e = e };
	rc = len ? check_file(&o) : err_set(e, ERR_IO, "%s: empty file", path);
	if (!rc)
		rc = build(&o, t, a, info);
	if (rc && len)
		munmap(map, len);
	return rc;
}

/* The options as they act on a model of paradigm p: a Charm++ run has
 * no Isend coalescing and no user phases (analysis_run drops them), an
 * MPI trace no Charm++ stages. */
static void
effective(struct analysis_opts *o, enum trace_paradigm p)
{
	struct analysis_opts d;
	analysis_opts_default(&d);
	if (p == PARADIGM_CHARM) {
		o->coalesce_isends = 0;
		o->n_phases = 0;
		o->phases = NULL;
		return;
	}
	o->charm_reorder = d.charm_reorder;
	o->charm_sdag = d.charm_sdag;
	o->charm_repair = d.charm_repair;
	o->charm_infer = d.charm_infer;
	o->charm_leap_merge = d.charm_leap_merge;
}

int
saved_opts_differ(const struct saved_info *s, const struct analysis_opts *given)
{
	struct analysis_opts sv = s->opts, now = *given;
	effective(&sv, s->paradigm);
	effective(&now, s->paradigm);
	const struct analysis_opts *x = &sv, *o = &now;
#define DIFFERS(f) if (x->f != o->f) return 1;
	SAVED_FLAGS(DIFFERS)
#undef DIFFERS
	if (x->leap_factor != o->leap_factor || x->hotspots != o->hotspots || x->n_phases != o->n_phases)
		return 1;
	for (uint32_t i = 0; i < o->n_phases; i++)
		if (!o->phases || strcmp(o->phases[i].region_glob, s->phase_globs[i]) != 0)
			return 1;
	if (!o->iter_region != !s->iter_region ||
	    (o->iter_region && strcmp(o->iter_region, s->iter_region) != 0))
		return 1;
	return 0;
}

enum saved_trace_state
saved_source(const struct trace *t)
{
	return t->mapped ? (enum saved_trace_state)t->saved_state : SAVED_TRACE_SAME;
}

int
saved_cluster(struct analysis *a, uint32_t k)
{
	if (k == 0 || a->clusters)
		return 0;
	if (k > CLUSTER_MAX_K)
		return ERR_USAGE;
	a->clusters = calloc((size_t)a->n_parts + 1, sizeof *a->clusters);
	int rc = a->clusters ? 0 : ERR_NOMEM;
	for (uint32_t p = 0; p < a->n_parts && !rc; p++)
		rc = cluster_partition(a, p, k, &a->clusters[p]);
	if (!rc)
		a->opts.clusters = k;
	return rc;
}
