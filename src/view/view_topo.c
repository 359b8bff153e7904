/* view_topo.c — the topology pane: where the ranks run (topo.h) and how
 * late they are there, as MemAxes' hardware view does (seed 002 §6.2)
 * but in text. Three modes of one pane:
 *
 *   tree    one line per object as `lstopo --of console` writes it, with
 *           a bar and the per-object sum of a per-rank metric; collapsible
 *   icicle  one row per depth, widths proportional to the PUs below
 *   radial  the icicle bent into a sunburst on a braille canvas
 *
 * Bars and shades are relative to the hottest object of the same depth.
 * The selected object's ranks are marked in the grid; the objects the
 * selected rank runs on carry a dot. A Charm++ run places PEs, not
 * chares: PE p on PU p of the node (Charm++'s +setcpuaffinity binds them
 * in that order; topology.explicit then names the PU of each PE), and
 * every chare sits where its PE is; the metrics are the run's
 * (differential duration, idle experienced).
 *
 * The numbers come from one of two providers: the ranks of a trace (a
 * per-rank metric summed over the PUs below), or, in a samples session,
 * the samples (view_samples.h: cycles or samples per resource as MemAxes
 * counts them, and the transactions on each object's link to its parent,
 * drawn as a column in the tree, rows of link glyphs in the icicle and
 * the thickness of the ring borders in the radial view). */
#include "base/hmap.h"
#include "view_impl.h"
#include "view_samples.h"
#include "view_topo_impl.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/charm.h"
#include "topo/topo.h"

static const char *const mode_names[TM_COUNT] = { "tree", "icicle", "radial" };
static const char *const metric_names[TMET_COUNT] = {
	"diff. lateness", "lateness", "hotspots",
};
static const char *const samples_metric_names[VS_TOPO_METRICS] = {
	"cycles", "samples", "mean cycles", "issued below",
};
static const char *const charm_metric_names[TMET_COUNT] = {
	"diff. duration", "idle experienced", "hotspots",
};


static char *
dup_str(const char *s)
{
	if (!s)
		return NULL;
	size_t n = strlen(s) + 1;
	char *p = malloc(n);
	if (p)
		memcpy(p, s, n);
	return p;
}

int
view_topo_create(struct view *v, const struct view_opts *o)
{
	struct view_topo *vt = calloc(1, sizeof *vt);
	if (!vt)
		return ERR_NOMEM;
	v->topo = vt;
	vt->xml = dup_str(o ? o->topology : NULL);
	vt->synth = dup_str(o ? o->topology_synthetic : NULL);
	vt->this_host = dup_str(o ? o->this_host : NULL);
	vt->this_machine = dup_str(o ? o->this_machine : NULL);
	if ((o && o->topology && !vt->xml) || (o && o->topology_synthetic && !vt->synth) ||
	    (o && o->this_host && !vt->this_host) || (o && o->this_machine && !vt->this_machine))
		return ERR_NOMEM;
	vt->samples = v->smp != NULL;
	vt->place.how = o ? (enum topo_placement)o->placement : PLACE_SYSTEM_TREE;
	vt->place.ranks_per_node = o ? o->placement_n : 0;
	if (o && o->placement_pu && o->n_placement_pu) {
		uint32_t *pu = malloc(o->n_placement_pu * sizeof *pu);
		if (!pu)
			return ERR_NOMEM;
		memcpy(pu, o->placement_pu, o->n_placement_pu * sizeof *pu);
		vt->place.pu = pu;
		vt->place.n_pu = o->n_placement_pu;
	}
	return 0;
}

void
view_topo_destroy(struct view_topo *vt)
{
	if (!vt)
		return;
	free((void *)vt->place.pu);
	if (!vt->samples)
		topo_destroy(vt->t);
	free(vt->xml);
	free(vt->synth);
	free(vt->this_host);
	free(vt->this_machine);
	free(vt->pu_of);
	free(vt->per_rank);
	free(vt->per_obj);
	free(vt->depth_max);
	free(vt->collapsed);
	free(vt->line);
	free(vt->link);
	free(vt->link_max);
	free(vt->below);
	free(vt);
}

/* Charm++: each chare on the PU of its PE (see the top). */
static int
place_pes(struct view *v, struct view_topo *vt, struct err *e)
{
	uint32_t ntl;
	trace_timelines(v->t, &ntl);
	const struct trace_chare *ch = trace_chares(v->t, NULL);
	uint32_t npu;
	topo_pu_objs(vt->t, &npu);
	vt->pu_of = malloc((ntl + 1) * sizeof *vt->pu_of);
	if (!vt->pu_of)
		return err_set(e, ERR_NOMEM, "out of memory");
	for (uint32_t r = 0; r < ntl; r++) {
		uint32_t pe = ch[r].pe;
		if (vt->place.how == PLACE_EXPLICIT) {
			if (pe >= vt->place.n_pu || vt->place.pu[pe] >= npu)
				return err_set(e, ERR_USAGE, "explicit placement names no PU for PE %u "
					       "(the topology has %u PUs)", pe, npu);
			vt->pu_of[r] = vt->place.pu[pe];
		} else {
			vt->pu_of[r] = npu ? pe % npu : 0;
		}
	}
	return 0;
}

/* ---- loading and computing -------------------------------------------- */

/* Arrays sized by the topology, for either provider. */
static int
alloc_arrays(struct view_topo *vt, uint32_t n_ranks, struct err *e)
{
	vt->obj = topo_objs(vt->t, &vt->n_obj);
	topo_pu_objs(vt->t, &vt->n_pu);
	vt->n_ranks = n_ranks;
	for (uint32_t i = 0; i < vt->n_obj; i++)
		if (vt->obj[i].depth > vt->max_depth)
			vt->max_depth = vt->obj[i].depth;
	vt->per_rank = calloc(n_ranks ? n_ranks : 1, sizeof *vt->per_rank);
	vt->per_obj = calloc(vt->n_obj, sizeof *vt->per_obj);
	vt->depth_max = calloc(vt->max_depth + 1, sizeof *vt->depth_max);
	vt->collapsed = calloc(vt->n_obj, 1);
	vt->line = calloc(vt->n_obj, sizeof *vt->line);
	if (vt->samples) {
		vt->link = calloc(vt->n_obj, sizeof *vt->link);
		vt->link_max = calloc(vt->max_depth + 1, sizeof *vt->link_max);
		vt->below = calloc(vt->n_obj, sizeof *vt->below);
	}
	if (!vt->per_rank || !vt->per_obj || !vt->depth_max || !vt->collapsed || !vt->line ||
	    (vt->samples && (!vt->link || !vt->link_max || !vt->below)))
		return err_set(e, ERR_NOMEM, "out of memory");
	return 0;
}

/* Does the trace name nodes, none of them this machine? Then this
 * machine's hardware says nothing about where the ranks ran. Names match
 * whole or up to the first dot ("login1" and "login1.cluster.org"). */
static int
ran_elsewhere(const struct view *v)
{
	char host[256];
	uint32_t ntl, nn;
	const struct trace_timeline *tl = trace_timelines(v->t, &ntl);
	const struct trace_node *nodes = trace_nodes(v->t, &nn);
	if (v->topo->this_host)
		snprintf(host, sizeof host, "%s", v->topo->this_host);
	else if (gethostname(host, sizeof host) != 0)
		return 0;
	host[sizeof host - 1] = 0;
	size_t hl = strcspn(host, ".");
	int named = 0;
	for (uint32_t r = 0; r < ntl; r++) {
		if (tl[r].node >= nn)
			continue;
		const char *s = trace_str(v->t, nodes[tl[r].node].name);
		size_t sl = strcspn(s, ".");
		named = 1;
		if (!strcmp(s, host) || (sl == hl && !strncmp(s, host, hl)))
			return 0;
	}
	return named;
}

/* Does any rank of the trace name its node? */
static int
names_nodes(const struct view *v)
{
	uint32_t ntl, nn;
	const struct trace_timeline *tl = trace_timelines(v->t, &ntl);
	trace_nodes(v->t, &nn);
	for (uint32_t r = 0; r < ntl; r++)
		if (tl[r].node < nn)
			return 1;
	return 0;
}

static int place_and_size(struct view *v, struct err *e);

/* The node topology; a cluster of copies when the ranks ran on several
 * nodes of the trace's system tree (named in order of first use). With
 * no hardware given and a trace from other nodes than this one, the
 * trace's own system tree instead (nodes and their ranks), and a note
 * saying how to give the hardware. */
static int
load_topo(struct view *v, struct err *e)
{
	struct view_topo *vt = v->topo;
	if (vt->samples) {
		vt->t = (struct topo *)samples_topo(v->smp->s);
		return alloc_arrays(vt, 0, e);
	}
	struct topo *node = NULL;
	if (!vt->xml && !vt->synth && ran_elsewhere(v)) {
		int rc = topo_system_tree(v->t, &vt->t, e);
		if (rc)
			return rc;
		vt->system_tree = 1;
		vt->place.how = PLACE_SYSTEM_TREE;    /* the tree is where they ran */
		snprintf(vt->note, sizeof vt->note, "the trace's nodes and ranks; for the hardware, "
			 "give --topology FILE.xml (lstopo on a compute node)");
		snprintf(vt->note_short, sizeof vt->note_short, "the trace's nodes and ranks (--topology FILE.xml: "
			 "the hardware)");
		return place_and_size(v, e);
	}
	/* hwloc runs in a forked child: no other thread of ours may be at
	 * work then, nor on its way out (a sanitizer's allocator and its
	 * thread registry are not fork-safe: the ASan child of a make check
	 * under load hung while the background thread, done, was ending) */
	view_prefetch_wait(v);
	int rc = vt->xml ? topo_load_xml(vt->xml, &node, e)
		: vt->synth ? topo_load_synthetic(vt->synth, &node, e)
		: vt->this_machine ? topo_load_synthetic(vt->this_machine, &node, e) : topo_load_machine(&node, e);
	if (rc)
		return rc;
	/* this machine stands in only when nothing says where they ran:
	 * say so rather than pass it off as theirs */
	if (!vt->xml && !vt->synth && !names_nodes(v)) {
		snprintf(vt->note, sizeof vt->note, "this machine's hardware: the %s names no nodes; give "
			 "--topology FILE.xml (lstopo on the machine it ran on)", view_is_charm(v) ? "run" : "trace");
		snprintf(vt->note_short, sizeof vt->note_short, "this machine (no nodes in the %s; --topology "
			 "FILE.xml)", view_is_charm(v) ? "run" : "trace");
	}
	uint32_t ntl, nn;
	const struct trace_timeline *tl = trace_timelines(v->t, &ntl);
	const struct trace_node *nodes = trace_nodes(v->t, &nn);
	const char **names = calloc(ntl ? ntl : 1, sizeof *names);
	if (!names) {
		topo_destroy(node);
		return err_set(e, ERR_NOMEM, "out of memory");
	}
	/* node names are interned: equal names have equal ids */
	uint32_t n_names = 0;
	struct hmap seen = { 0 };
	for (uint32_t r = 0; r < ntl && rc == 0; r++) {
		if (tl[r].node >= nn || hmap_get(&seen, nodes[tl[r].node].name, 0))
			continue;
		if (hmap_put(&seen, nodes[tl[r].node].name, 0, n_names))
			rc = err_set(e, ERR_NOMEM, "out of memory");
		names[n_names++] = trace_str(v->t, nodes[tl[r].node].name);
	}
	hmap_fini(&seen);
	if (rc) {
		free(names);
		topo_destroy(node);
		return rc;
	}
	if (n_names >= 2) {
		rc = topo_cluster(node, n_names, names, &vt->t, e);
		topo_destroy(node);
	} else {
		vt->t = node;
	}
	free(names);
	if (rc)
		return rc;
	return place_and_size(v, e);
}

/* Ranks placed on the loaded topology, and the per-object arrays. */
static int
place_and_size(struct view *v, struct err *e)
{
	struct view_topo *vt = v->topo;
	uint32_t ntl;
	trace_timelines(v->t, &ntl);
	int rc;
	if ((rc = view_is_charm(v) ? place_pes(v, vt, e) : topo_place(vt->t, v->t, &vt->place, &vt->pu_of, e)))
		return rc;
	return alloc_arrays(vt, ntl, e);
}

/* The largest value of each depth, for shades and bars. */
static void
depth_maxima(struct view_topo *vt)
{
	memset(vt->depth_max, 0, (vt->max_depth + 1) * sizeof *vt->depth_max);
	if (vt->link_max)
		memset(vt->link_max, 0, (vt->max_depth + 1) * sizeof *vt->link_max);
	for (uint32_t i = 0; i < vt->n_obj; i++) {
		double *m = &vt->depth_max[vt->obj[i].depth];
		*m = vt->per_obj[i] > *m ? vt->per_obj[i] : *m;
		if (vt->link) {
			double *l = &vt->link_max[vt->obj[i].depth];
			*l = vt->link[i] > *l ? vt->link[i] : *l;
		}
	}
}

static void
compute(struct view *v, const struct hist_select *sel)
{
	struct view_topo *vt = v->topo;
	if (vt->samples) {
		vs_topo_values(v, vt->metric, vt->per_obj, vt->link, vt->below);
		depth_maxima(vt);
		return;
	}
	memset(vt->per_rank, 0, vt->n_ranks * sizeof *vt->per_rank);
	if (vt->metric == TMET_HOTSPOTS) {
		uint32_t n;
		const uint32_t *hot = analysis_hotspots_startup(v->a, view_index_startup(v->ix), &n);
		for (uint32_t i = 0; i < n; i++) {
			uint32_t r = analysis_lop_timeline(v->a, hot[i]);
			if (r < vt->n_ranks && view_scope_has(v, sel, hot[i]))
				vt->per_rank[r] += 1;
		}
	} else {
		for (uint32_t r = 0; r < vt->n_ranks; r++) {
			uint32_t first, count;
			analysis_timeline_lops(v->a, r, &first, &count);
			uint64_t sum = 0;
			int charm = view_is_charm(v);
			for (uint32_t l = first; l < first + count; l++)
				if (view_scope_has(v, sel, l))
					sum += vt->metric == TMET_DIFF
						? (charm ? analysis_lop_diff_duration(v->a, l) : analysis_lop_diff(v->a, l))
						: (charm ? analysis_lop_idle_experienced(v->a, l)
							 : analysis_lop_lateness(v->a, l));
			vt->per_rank[r] = trace_seconds(v->t, sum);
		}
	}
	topo_aggregate(vt->t, vt->pu_of, vt->n_ranks, vt->per_rank, AGG_SUM, vt->per_obj);
	depth_maxima(vt);
}

/* The lines of the tree: objects without a collapsed ancestor. */
static void
build_lines(struct view_topo *vt)
{
	int skip = -1;
	vt->n_line = 0;
	for (uint32_t i = 0; i < vt->n_obj; i++) {
		int d = vt->obj[i].depth;
		if (skip >= 0 && d > skip)
			continue;
		skip = -1;
		vt->line[vt->n_line++] = i;
		if (vt->collapsed[i] && vt->obj[i].n_children)
			skip = d;
	}
}

/* Collapses the deepest level that keeps the tree within rows lines. */
static void
fit(struct view_topo *vt, int rows)
{
	uint32_t depth = 0;
	for (uint32_t d = vt->max_depth + 1; d-- > 0;) {
		uint32_t n = 0;
		for (uint32_t i = 0; i < vt->n_obj; i++)
			n += vt->obj[i].depth <= d;
		if (n <= (uint32_t)rows || d == 0) {
			depth = d;
			break;
		}
	}
	for (uint32_t i = 0; i < vt->n_obj; i++)
		vt->collapsed[i] = vt->obj[i].depth == depth && vt->obj[i].n_children;
	vt->fitted = 1;
}

int
vt_holds_pu(const struct view_topo *vt, uint32_t obj, uint32_t pu)
{
	return pu >= vt->obj[obj].pu_first && pu - vt->obj[obj].pu_first < vt->obj[obj].pu_count;
}

static int
holds_rank(const struct view_topo *vt, uint32_t obj, uint32_t rank)
{
	return rank < vt->n_ranks && vt_holds_pu(vt, obj, vt->pu_of[rank]);
}

int
view_topo_highlight(const struct view *v, uint32_t rank)
{
	const struct view_topo *vt = v->topo;
	if (!vt || vt->state != 1 || !v->shown[PANE_TOPO] || vt->sel == 0)
		return 0;
	return holds_rank(vt, vt->sel, rank);
}

/* The note's lines, then the hottest chain; a sample set's tree then
 * heads its columns. */
static int
header_rows(const struct view_topo *vt)
{
	return vt->n_note + 1 + (vt->samples && vt->mode == TM_TREE);
}

/* The note wrapped at spaces to w columns, at most four lines; in a
 * low pane (h rows) its short form, so the drawing keeps its rows (at
 * 80x24 the icicle lost its ranks under two lines of note). */
static void
wrap_note(struct view_topo *vt, int w, int h)
{
	const char *p = h < 12 && vt->note_short[0] ? vt->note_short : vt->note;
	vt->n_note = 0;
	while (*p && vt->n_note < 4 && w > 8) {
		size_t take = grid_wrap(p, w);
		snprintf(vt->note_line[vt->n_note++], sizeof vt->note_line[0], "%.*s", (int)take, p);
		p += take;
		while (*p == ' ')
			p++;
	}
}

/* The columns the tree's shown objects need for their names: "• ▾ "
 * indented by depth, then the label; a PU's, with room for one rank
 * after it (" r12", or " +3" for several). */
static int
name_width(const struct view *v, const struct view_topo *vt)
{
	int w = 0;
	char buf[96];
	for (uint32_t k = 0; k < vt->n_line; k++) {
		uint32_t i = vt->line[k];
		vt_obj_label(vt, i, 0, buf, sizeof buf);
		int n = 3 + 2 * vt->obj[i].depth + text_width(buf);
		if (vt->obj[i].type == TOPO_PU && !vt->system_tree)
			for (uint32_t r = 0; r < vt->n_ranks; r++)
				if (vt->pu_of[r] == vt->obj[i].pu_first) {
					char who[VIEW_MAX_ROW_NAME + 32];
					view_row_name(v, r, who, sizeof who);
					n += 1 + text_width(who);
					break;
				}
		w = n > w ? n : w;
	}
	return w;
}

static void
topo_prepare(struct view *v, int w, int h)
{
	struct view_topo *vt = v->topo;
	if (vt->state == 0) {
		struct err e = { 0 };
		vt->state = load_topo(v, &e) ? -1 : 1;
		if (vt->state < 0)
			snprintf(vt->error, sizeof vt->error, "%s", e.msg[0] ? e.msg : "cannot load the topology");
	}
	if (vt->state < 0)
		return;
	struct hist_select sel = { .part = TRACE_NONE };
	uint64_t key[6] = { (uint64_t)vt->metric, 0, 0, 0, 0, 0 };
	if (vt->samples) {
		key[1] = v->smp->version;
	} else {
		view_scope_select(v, vt->scope, &sel);
		key[1] = (uint64_t)vt->scope;
		key[2] = sel.part;
		key[3] = sel.step_first;
		key[4] = sel.step_end;
		key[5] = (uint64_t)sel.no_startup;
	}
	if (!vt->valid || memcmp(key, vt->key, sizeof key)) {
		compute(v, &sel);
		memcpy(vt->key, key, sizeof key);
		vt->valid = 1;
	}
	wrap_note(vt, w, h);
	vt->rows = h - header_rows(vt);
	if (!vt->fitted)
		fit(vt, vt->rows);
	build_lines(vt);
	vt->name_w = vt->mode == TM_TREE ? name_width(v, vt) : 0;
	if (vt->mode == TM_RADIAL)
		vt_radial_layout(v, w);
	if (vt->mode != TM_TREE)
		return;
	/* a selection hidden by a collapse moves to the line that hides it */
	uint32_t s = vt->sel;
	for (uint32_t i = s; i != TRACE_NONE; i = vt->obj[i].parent)
		if (i != s && vt->collapsed[i])
			vt->sel = i;
	int at = 0;
	for (uint32_t i = 0; i < vt->n_line; i++)
		if (vt->line[i] == vt->sel)
			at = (int)i;
	if (at < vt->scroll)
		vt->scroll = at;
	if (vt->rows > 0 && at >= vt->scroll + vt->rows)
		vt->scroll = at - vt->rows + 1;
}

static void
topo_title(struct view *v, char *buf, size_t n)
{
	struct view_topo *vt = v->topo;
	if (vt->samples)
		snprintf(buf, n, "topology \u00b7 %s \u00b7 %s \u00b7 %s", mode_names[vt->mode],
			 samples_metric_names[vt->metric], v->smp->n_sel ? "selection" : "all samples");
	else
		snprintf(buf, n, "topology %s \u00b7 %s \u00b7 %s", mode_names[vt->mode],
			 (view_is_charm(v) ? charm_metric_names : metric_names)[vt->metric],
			 view_scope_name(vt->scope));
}

/* ---- drawing ------------------------------------------------------------ */

void
vt_obj_label(const struct view_topo *vt, uint32_t i, int brief, char *buf, size_t n)
{
	const struct topo_obj *o = &vt->obj[i];
	if (brief == 2) {         /* the medium form: a word and a number */
		switch (o->type) {
		case TOPO_MACHINE: snprintf(buf, n, "Machine"); return;
		case TOPO_PACKAGE: snprintf(buf, n, "Pkg %u", o->os_index); return;
		case TOPO_NUMA: snprintf(buf, n, "NUMA %u", o->os_index); return;
		case TOPO_L3: case TOPO_L2: case TOPO_L1:
			snprintf(buf, n, "L%d %u", o->type == TOPO_L3 ? 3 : o->type == TOPO_L2 ? 2 : 1, o->index);
			return;
		case TOPO_CORE: snprintf(buf, n, "Core %u", o->index); return;
		case TOPO_PU:
			if (!vt->system_tree) {
				snprintf(buf, n, "PU %u", o->os_index);
				return;
			}
			break;
		default: break;
		}
		brief = 0;
	}
	switch (o->type) {
	case TOPO_CLUSTER: snprintf(buf, n, "%s", brief ? "all" : "Cluster"); break;
	case TOPO_NODE:
	case TOPO_MACHINE: {
		/* a name from the trace or the hardware's file, of any length:
		 * cut by columns to what buf holds, never inside a character */
		int node = o->type == TOPO_NODE, named = node || (!brief && o->name);
		int k = snprintf(buf, n, "%s", node ? (brief ? "" : "Node ") : brief ? "M" : named ? "Machine " : "Machine");
		if (named && k >= 0 && (size_t)k < n)
			vt_fit_text(topo_str(vt->t, o->name), INT_MAX, buf + k, n - (size_t)k);
		break;
	}
	case TOPO_PACKAGE: snprintf(buf, n, "%s%u", brief ? "P" : "Package P#", o->os_index); break;
	case TOPO_NUMA: snprintf(buf, n, "%s%u", brief ? "N" : "NUMANode P#", o->os_index); break;
	case TOPO_L3: snprintf(buf, n, "%s%u", brief ? "L3." : "L3 L#", o->index); break;
	case TOPO_L2: snprintf(buf, n, "%s%u", brief ? "L2." : "L2 L#", o->index); break;
	case TOPO_L1: snprintf(buf, n, "%s%u", brief ? "L1." : "L1 L#", o->index); break;
	case TOPO_CORE: snprintf(buf, n, "%s%u", brief ? "C" : "Core L#", o->index); break;
	case TOPO_PU:
		if (vt->system_tree)      /* a rank's own slot: os_index is the rank */
			snprintf(buf, n, "r%u", o->os_index);
		else
			snprintf(buf, n, "%s%u", brief ? "" : "PU P#", o->os_index);
		break;
	default: snprintf(buf, n, "?"); break;
	}
}

const char *
vt_value_text(const struct view_topo *vt, double x, char *buf, size_t n)
{
	if (vt->samples && vt->metric == VS_TOPO_MEAN)
		snprintf(buf, n, "%.1f", x);
	else if (vt->samples)
		fmt_count(x, buf, n);
	else if (vt->metric == TMET_HOTSPOTS)
		snprintf(buf, n, "%.0f", x);
	else
		fmt_seconds(x, buf, n);
	return buf;
}

/* 0 for nothing, 1..7 relative to the hottest object of the same depth */
int
vt_heat(const struct view_topo *vt, uint32_t i)
{
	double m = vt->depth_max[vt->obj[i].depth], x = vt->per_obj[i];
	if (m <= 0 || x <= 0)
		return 0;
	int l = 1 + (int)(x / m * (GRID_HEAT_LEVELS - 1) - 1e-9);
	return l < 1 ? 1 : l > GRID_HEAT_LEVELS - 1 ? GRID_HEAT_LEVELS - 1 : l;
}

/* Header: the hottest chain from the root, so the screen says it (with
 * samples: by the cycles issued below each object, since a memory
 * resource's own cycles are those it served). */
static void
header_row(struct view *v, struct grid *row)
{
	struct view_topo *vt = v->topo;
	const uint32_t *kids = topo_children(vt->t);
	const double *val = vt->below ? vt->below : vt->per_obj;
	char buf[64];
	int x = grid_text(row, 0, 0, row->w, ST_LABEL, vt->below ? "most cycles under:" : "hottest:");
	/* the chain, root side first; when it does not fit, the objects
	 * after the first give way to "…": the first (the node, the NUMA
	 * domain) and the deepest say the most */
	uint32_t chain[64];
	int len[64], n = 0;
	for (uint32_t i = 0; vt->obj[i].n_children && n < 64;) {
		uint32_t best = TRACE_NONE;
		for (uint32_t k = 0; k < vt->obj[i].n_children; k++) {
			uint32_t c = kids[vt->obj[i].first_child + k];
			if (best == TRACE_NONE || val[c] > val[best])
				best = c;
		}
		if (best == TRACE_NONE || val[best] <= 0)
			break;
		vt_obj_label(vt, best, 0, buf, sizeof buf);
		len[n] = text_width(buf);
		chain[n++] = best;
		i = best;
	}
	if (!n) {
		grid_text(row, x, 0, row->w - x, ST_DIM, " none");
		return;
	}
	/* shown: chain[0], then "…" when skip > 1, then chain[skip..n) */
	int skip = 1, width = 1 + len[0];
	for (int k = 1; k < n; k++)
		width += 3 + len[k];
	while (skip + 1 < n && x + width > row->w) {
		width -= 3 + len[skip] - (skip == 1 ? 4 : 0);     /* " / …" comes once */
		skip++;
	}
	/* still too wide: the deepest alone, after "…" */
	int first = x + width > row->w && n > 1 ? -1 : 0;
	if (first < 0) {
		x += grid_text(row, x, 0, row->w - x, ST_DIM, " \u2026");
	} else {
		vt_obj_label(vt, chain[0], 0, buf, sizeof buf);
		x += grid_printf(row, x, 0, row->w - x, ST_EMPH, " %s", buf);
		if (skip > 1)
			x += grid_text(row, x, 0, row->w - x, ST_DIM, " / \u2026");
	}
	for (int k = first < 0 ? n - 1 : skip; k < n; k++) {
		vt_obj_label(vt, chain[k], 0, buf, sizeof buf);
		x += grid_printf(row, x, 0, row->w - x, ST_EMPH, " / %s", buf);
	}
}

/* A link's traffic relative to the busiest link of its depth: 0 none,
 * 1 light, 2 medium, 3 heavy. */
int
vt_link_level(const struct view_topo *vt, uint32_t i)
{
	double m = vt->link ? vt->link_max[vt->obj[i].depth] : 0, x = vt->link ? vt->link[i] : 0;
	if (m <= 0 || x <= 0)
		return 0;
	return x * 3 > 2 * m ? 3 : x * 3 > m ? 2 : 1;
}

/* The tree's columns in a row w wide: names, bars, the link's traffic
 * (samples), the value. */
static void
tree_geom(const struct view_topo *vt, int w, int *nw, int *bw, int *tw, int *vw)
{
	*vw = 10;
	*bw = w >= 60 ? 20 : w >= 40 ? 10 : 0;
	*tw = vt->link && w >= 34 ? 8 : 0;      /* samples: the link's traffic */
	*nw = w - *bw - *vw - *tw - 1;
	if (vt->samples && *bw == 10 && w < 46)
		*bw = 6, *nw += 4;
	/* the bars give up cells (down to 4) before a name does */
	int short_by = vt->name_w + 1 - *nw;
	if (*bw > 4 && short_by > 0) {
		int give = short_by < *bw - 4 ? short_by : *bw - 4;
		*bw -= give;
		*nw += give;
	}
}

/* A sample set's tree: what its numbers are. A memory (cache, NUMA node,
 * the machine: accesses to the other package) counts what it served, a
 * processor what it issued, so the machine can hold less than its
 * children; the arrow column counts the accesses that crossed each
 * object's link to its parent. */
static void
tree_heading(struct view *v, struct grid *row)
{
	struct view_topo *vt = v->topo;
	int nw, bw, tw, vw;
	tree_geom(vt, row->w, &nw, &bw, &tw, &vw);
	static const char *const what[VS_TOPO_METRICS][3] = {
		{ "cycles a memory served, a CPU issued", "memory: served, CPU: issued", "served/issued" },
		{ "samples a memory served, a CPU issued", "memory: served, CPU: issued", "served/issued" },
		{ "cycles per access served or issued", "per access", "per access" },
		{ "cycles issued by the CPUs below", "issued below", "issued below" },
	};
	static const char *const head[VS_TOPO_METRICS] = { "cycles", "samples", "mean", "issued" };
	int m = vt->metric < VS_TOPO_METRICS ? vt->metric : 0;
	for (int k = 0; k < 3; k++)
		if (text_width(what[m][k]) <= nw + bw - 1 || k == 2) {
			grid_text(row, 1, 0, nw + bw - 1, ST_DIM, what[m][k]);
			break;
		}
	if (tw)
		grid_printf(row, nw + bw + 1, 0, tw, ST_DIM, "\u2191 link");
	grid_printf(row, row->w - vw, 0, vw, ST_DIM, "%*s", vw, head[m]);
}

static void
tree_row(struct view *v, int y, struct grid *row)
{
	struct view_topo *vt = v->topo;
	uint32_t li = (uint32_t)(vt->scroll + y);
	if (li >= vt->n_line)
		return;
	uint32_t i = vt->line[li];
	const struct topo_obj *o = &vt->obj[i];
	char buf[96], val[32];
	int nw, bw, tw, vw;
	tree_geom(vt, row->w, &nw, &bw, &tw, &vw);
	if (holds_rank(vt, i, v->sel_rank))
		grid_put(row, 0, 0, 0x2022, ST_EMPH);     /* the selected rank runs here */
	int x = 1 + 2 * o->depth;
	uint32_t glyph = o->n_children ? (vt->collapsed[i] ? 0x25b8 : 0x25be) : ' ';
	grid_put(row, x, 0, glyph, ST_DIM);
	int lx = x + 2, room = nw - 1 - lx;   /* a space before the bar ("P#0██") */
	/* a name that does not fit takes a shorter form before it is cut:
	 * eight "NUMANode…" in a row said nothing, "NUMA 3" and "N3" do */
	for (int form = 0; form < 3; form++) {
		vt_obj_label(vt, i, form == 0 ? 0 : form == 1 ? 2 : 1, buf, sizeof buf);
		if (text_width(buf) <= room)
			break;
	}
	x = lx + grid_text(row, lx, 0, room, i == vt->sel ? ST_EMPH : ST_NORMAL, buf);
	if (text_width(buf) > room && room > 1)   /* cut: say so */
		grid_put(row, lx + room - 1, 0, 0x2026, i == vt->sel ? ST_EMPH : ST_NORMAL);
	if (o->type == TOPO_PU && !vt->system_tree) {        /* the ranks on it */
		uint32_t left = 0;       /* names that do not fit whole: "+N" */
		for (uint32_t r = 0; r < vt->n_ranks; r++) {
			if (vt->pu_of[r] != o->pu_first)
				continue;
			char who[VIEW_MAX_ROW_NAME + 32];
			view_row_name(v, r, who, sizeof who);
			if (left || x + 1 + text_width(who) > nw)
				left++;
			else
				x += grid_printf(row, x, 0, nw - x, r == v->sel_rank ? ST_EMPH : ST_LABEL, " %s", who);
		}
		if (left && x + 3 <= nw)
			x += grid_printf(row, x, 0, nw - x, ST_LABEL, " +%u", left);
	}
	if (i == vt->sel)
		grid_mark(row, lx, 0, x - lx, 1, MARK_SEL);
	int lvl = vt_heat(vt, i);
	double m = vt->depth_max[o->depth];
	if (bw) {
		int cells = m > 0 ? (int)lround(vt->per_obj[i] / m * bw) : 0;
		if (vt->per_obj[i] > 0 && cells < 1)
			cells = 1;
		for (int k = 0; k < bw; k++)
			grid_put(row, nw + k, 0, k < cells ? 0x2588 : 0x00b7, k < cells ? ST_HEAT0 + lvl : ST_DIM);
	}
	if (tw && o->parent != TRACE_NONE && vt->link[i] > 0) {
		char lk[32];
		int st = ST_HEAT0 + 2 * vt_link_level(vt, i) + 1;
		grid_put(row, nw + bw + 1, 0, 0x2191, st);       /* ↑ transactions to the parent */
		grid_printf(row, nw + bw + 2, 0, tw - 2, st, "%6s", fmt_count(vt->link[i], lk, sizeof lk));
	}
	vt_value_text(vt, vt->per_obj[i], val, sizeof val);
	grid_printf(row, row->w - vw, 0, vw, lvl ? ST_HEAT0 + lvl : ST_DIM, "%*s", vw, val);
}

static void
topo_row(struct view *v, int y, struct grid *row)
{
	struct view_topo *vt = v->topo;
	if (vt->state < 0) {
		if (y == 0)
			grid_text(row, 0, 0, row->w, ST_ERROR, vt->error);
		return;
	}
	if (vt->state == 0 || !vt->valid)
		return;
	if (y < vt->n_note) {
		grid_text(row, 0, 0, row->w, ST_DIM, vt->note_line[y]);
		return;
	}
	y -= vt->n_note;
	if (y == 0) {
		header_row(v, row);
		return;
	}
	y -= 1;
	if (vt->samples && vt->mode == TM_TREE) {
		if (y == 0) {
			tree_heading(v, row);
			return;
		}
		y -= 1;
	}
	switch (vt->mode) {
	case TM_TREE: tree_row(v, y, row); break;
	case TM_ICICLE: vt_icicle_row(v, y, row); break;
	default: vt_radial_row(v, y, row); break;
	}
}

/* ---- actions ------------------------------------------------------------ */

static int
tree_move(struct view_topo *vt, enum action act)
{
	int at = 0;
	for (uint32_t k = 0; k < vt->n_line; k++)
		if (vt->line[k] == vt->sel)
			at = (int)k;
	int page = vt->rows > 1 ? vt->rows - 1 : 1, n = (int)vt->n_line;
	const struct topo_obj *o = &vt->obj[vt->sel];
	switch (act) {
	case ACT_MOVE_UP: at--; break;
	case ACT_MOVE_DOWN: at++; break;
	case ACT_PAGE_UP: at -= page; break;
	case ACT_PAGE_DOWN: at += page; break;
	case ACT_FIRST_RANK: at = 0; break;
	case ACT_LAST_RANK: at = n - 1; break;
	case ACT_MOVE_LEFT:
		if (o->n_children && !vt->collapsed[vt->sel])
			vt->collapsed[vt->sel] = 1;
		else if (o->parent != TRACE_NONE)
			vt->sel = o->parent;
		return 1;
	case ACT_MOVE_RIGHT:
		if (o->n_children && vt->collapsed[vt->sel])
			vt->collapsed[vt->sel] = 0;
		else if (o->n_children)
			vt->sel = topo_children(vt->t)[o->first_child];
		return 1;
	case ACT_CLUSTER_TOGGLE:
		if (o->n_children)
			vt->collapsed[vt->sel] = !vt->collapsed[vt->sel];
		return 1;
	default:
		return 0;
	}
	at = at < 0 ? 0 : at >= n ? n - 1 : at;
	if (n)
		vt->sel = vt->line[at];
	return 1;
}

static int
topo_request(struct view *v, enum action act)
{
	struct view_topo *vt = v->topo;
	switch (act) {
	case ACT_PANE_MODE: vt->mode = (vt->mode + 1) % TM_COUNT; return 1;
	case ACT_PANE_METRIC: vt->metric = (vt->metric + 1) % (vt->samples ? VS_TOPO_METRICS : TMET_COUNT); return 1;
	case ACT_PANE_SCOPE:
		if (vt->samples)
			return 0;
		vt->scope = (vt->scope + 1) % SCOPE_COUNT;
		return 1;
	default: break;
	}
	if (vt->state != 1)
		return 0;
	if (vt->samples && vs_op_of(act) >= 0) {     /* the samples this object counts */
		struct mem_pick p = { .kind = MEM_PICK_OBJECT, .id = vt->sel };
		vs_pick(v, &p, (enum mem_op)vs_op_of(act));
		return 1;
	}
	if (vt->mode == TM_TREE) {
		int done = tree_move(vt, act);
		build_lines(vt);
		return done;
	}
	const struct topo_obj *o = &vt->obj[vt->sel];
	uint32_t was = vt->sel;
	switch (act) {
	case ACT_MOVE_UP:
		if (o->parent != TRACE_NONE)
			vt->sel = o->parent;
		break;
	case ACT_MOVE_DOWN:
		if (o->n_children)
			vt->sel = topo_children(vt->t)[o->first_child];
		break;
	case ACT_MOVE_LEFT: vt->sel = vt_same_depth(vt, vt->sel, -1); break;
	case ACT_MOVE_RIGHT: vt->sel = vt_same_depth(vt, vt->sel, 1); break;
	default: return 0;
	}
	if (vt->sel == was) {         /* at an edge of the drawing: say which */
		char name[64];
		vt_obj_label(vt, was, 0, name, sizeof name);
		view_set_message(v, 0, act == ACT_MOVE_UP ? "%s is the root" : act == ACT_MOVE_DOWN ? "%s holds nothing below"
				 : act == ACT_MOVE_LEFT ? "%s is the first of its level" : "%s is the last of its level", name);
	}
	return 1;
}

/* A click selects the object under it; in the tree, a click on the
 * selected object or on its ▸/▾ opens or closes it. */
static int
topo_mouse(struct view *v, enum km_mouse_kind kind, int x, int y)
{
	struct view_topo *vt = v->topo;
	if (kind != MOUSE_LEFT || vt->state != 1)
		return 0;
	y -= header_rows(vt);
	if (y < 0)
		return 1;
	if (vt->mode == TM_TREE) {
		uint32_t li = (uint32_t)(vt->scroll + y);
		if (li >= vt->n_line)
			return 1;
		uint32_t i = vt->line[li];
		int glyph_x = 1 + 2 * vt->obj[i].depth;
		if ((i == vt->sel || x == glyph_x) && vt->obj[i].n_children)
			vt->collapsed[i] = !vt->collapsed[i];
		vt->sel = i;
		build_lines(vt);
		return 1;
	}
	if (vt->mode == TM_ICICLE) {
		if ((uint32_t)y > vt->max_depth || v->pane[PANE_TOPO].w < 3)
			return 1;
		int W = v->pane[PANE_TOPO].w - 2;
		vt->sel = vt_obj_at(vt, (x + 0.5) / W, (uint32_t)y);
		return 1;
	}
	double cx = vt->disc_w, cy = 2.0 * vt->rows;
	double R = (cx < cy ? cx : cy) - 1, ring = R / (vt->max_depth + 1);
	double px = 2 * x + 1 - cx, py = 4 * y + 2 - cy, r = hypot(px, py);
	if (x < vt->disc_w && ring >= 1 && r / ring <= vt->max_depth + 1) {
		double f = atan2(px, -py) / TAU;
		uint32_t d = (uint32_t)(r / ring);
		vt->sel = vt_obj_at(vt, f < 0 ? f + 1 : f, d > vt->max_depth ? vt->max_depth : d);
	}
	return 1;
}

static const struct pane_key topo_keys[] = {
	{ ACT_MOVE_UP, ACT_MOVE_DOWN, "tree: the object above / below; icicle, radial: the parent / first child" },
	{ ACT_MOVE_LEFT, ACT_NONE, "tree: collapse the object, or go to its parent; icicle, radial: the previous object of its level" },
	{ ACT_MOVE_RIGHT, ACT_NONE, "tree: expand the object, or go to its first child; icicle, radial: the next object of its level" },
	{ ACT_CLUSTER_TOGGLE, ACT_NONE, "tree: open or close the object" },
	{ ACT_PAGE_UP, ACT_PAGE_DOWN, "tree: a page up / down" },
	{ ACT_FIRST_RANK, ACT_LAST_RANK, "tree: the first / last object" },
	{ ACT_NONE, ACT_NONE, NULL },
};

const struct view_ops view_topo_ops = {
	.name = "topology",
	.focusable = 1,
	.title = topo_title,
	.prepare = topo_prepare,
	.row = topo_row,
	.request = topo_request,
	.mouse = topo_mouse,
	.keys_title = "In the topology",
	.keys = topo_keys,
};
