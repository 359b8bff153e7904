/* mem.h — what MemAxes computes from memory-access samples (seed 002):
 *
 *  - §6.2 aggregation on the hardware: each sample walks from its CPU up
 *    the topology to the resource that served it; per object, the samples
 *    and cycles it served and those issued by the CPUs below it, and per
 *    link (an object to its parent) the transactions that crossed it;
 *  - §6.1 top offenders: code lines and data symbols by total latency;
 *  - §6.3 histograms of any attribute, for all samples and a selection;
 *  - §7.1 the scores L_d (mean cycles per access over the resources of a
 *    depth) and I_d (the largest deviation of a resource's sample count
 *    from the mean, in standard deviations);
 *  - §7.2 the scores over N windows along an attribute;
 *  - §7.3 agglomerative clustering of sliding windows (w samples, step Δ)
 *    along an attribute, by score difference, merging neighbours only.
 *
 * A selection is a bitset over the samples (NULL: every sample). Nothing
 * here draws or prints; doc/samples.md says what is computed and why
 * where the paper leaves a choice.
 *
 *   mem_create → (mem_aggregate | mem_offenders | mem_windows | mem_tree_build …) → mem_destroy
 *
 * The sample set must outlive the context. Functions return 0 or a
 * negative ERR_* code.
 */
#ifndef SKEIN_MEM_H
#define SKEIN_MEM_H

#include <stdint.h>

#include "base/bitset.h"
#include "base/err.h"
#include "samples/samples.h"
#include "topo/topo.h"

struct mem;

int mem_create(const struct samples *s, struct mem **out, struct err *e);
void mem_destroy(struct mem *m);
const struct samples *mem_samples(const struct mem *m);

/* ---- §6.2 ---- */

struct mem_agg {
	uint32_t n_obj;
	uint64_t *below_samples, *below_cycles;    /* issued by the PUs below (a PU: its own) */
	uint64_t *served_samples, *served_cycles;  /* served by this object */
	uint64_t *link;                            /* transactions on the link to the parent */
	uint64_t samples, cycles;                  /* of the selection */
	uint64_t level_samples[SL_COUNT], level_cycles[SL_COUNT];
};

int mem_agg_init(const struct mem *m, struct mem_agg *a);
void mem_agg_fini(struct mem_agg *a);
/* Fills a (from mem_agg_init) for the samples of sel. */
void mem_aggregate(const struct mem *m, const struct bitset *sel, struct mem_agg *a);
/* 1 when objects of type t are memory resources (they serve accesses:
 * caches, NUMA nodes, the machine), 0 for processors (PU, core, package). */
int mem_type_serves(enum topo_type t);
/* An object as MemAxes counts it (§6.2): what it served when it is a
 * memory resource, what its PUs issued when it is a processor. */
void mem_resource(const struct mem_agg *a, const struct topo_obj *o, uint32_t i, uint64_t *samples,
		  uint64_t *cycles);

/* ---- §6.1 ---- */

enum mem_offender_kind { MEM_LINES, MEM_SYMBOLS };
struct mem_offender {
	uint32_t id;              /* code line (samples_codelines) or symbol (category) */
	uint64_t samples, cycles;
};
/* Offenders of sel with any sample, most cycles first (ties: fewer
 * samples, then id). *out is malloc'd (caller frees). */
int mem_offenders(const struct mem *m, enum mem_offender_kind k, const struct bitset *sel,
		  struct mem_offender **out, uint32_t *n);

/* ---- §6.3 ---- */

/* The bins of attribute a, at most max_bins: one per value for whole
 * numbers and categories when they fit, else equal widths over the range.
 * Bin b covers [lo + b·(hi−lo)/bins, lo + (b+1)·(hi−lo)/bins). */
struct mem_bins {
	uint32_t attr, n;
	double lo, hi;
	int per_value;            /* a bin per value: bin b is the value lo + b + 0.5 */
};
void mem_bins_for(const struct mem *m, uint32_t a, uint32_t max_bins, struct mem_bins *b);
/* The bin of x (SAMPLES_NONE for a missing value or outside). */
uint32_t mem_bin_of(const struct mem_bins *b, double x);
double mem_bin_edge(const struct mem_bins *b, uint32_t k);
/* Counts per bin of the samples of base (NULL: every sample) into all,
 * and of those also in sel into selected (either array may be NULL),
 * each b->n long. */
void mem_bin_counts(const struct mem *m, const struct mem_bins *b, const struct bitset *base,
		    const struct bitset *sel, uint64_t *all, uint64_t *selected);

/* ---- §7.1, §7.2 ---- */

enum mem_metric { MEM_LATENCY, MEM_IMBALANCE, MEM_METRIC_COUNT };
const char *mem_metric_name(enum mem_metric k);      /* "latency", "imbalance" */

/* What L_d averages over: the resources with samples (skein's default:
 * a resource without samples has no cycles per access), or every
 * resource of the depth, those without samples counting 0 (the paper's
 * equation 1, which divides by |R_d|). doc/samples.md says why. */
enum mem_ld { MEM_LD_SAMPLED, MEM_LD_ALL, MEM_LD_COUNT };
const char *mem_ld_name(enum mem_ld ld);           /* "sampled", "all" */

/* The score of per-resource sample counts s and cycles c over n
 * resources: L_d = mean over resources with samples of c/s (ld
 * MEM_LD_ALL: over all n, 0 for those without); I_d = max |s − μ| / σ (σ
 * the population deviation; 0 when every resource has as many). NAN when
 * no resource has a sample. mem_score is mem_score_ld with
 * MEM_LD_SAMPLED. */
double mem_score_ld(enum mem_metric k, enum mem_ld ld, const uint64_t *s, const uint64_t *c, uint32_t n);
double mem_score(enum mem_metric k, const uint64_t *s, const uint64_t *c, uint32_t n);

/* Which L_d the windows and the clustering of m compute (default
 * MEM_LD_SAMPLED). */
void mem_set_ld(struct mem *m, enum mem_ld ld);
enum mem_ld mem_get_ld(const struct mem *m);

/* The resources of a depth: the objects of one type. res[i] is the
 * resource sample i counts for (its object's index among that type), or
 * SAMPLES_NONE (served elsewhere, or its CPU is not in the topology). */
struct mem_depth {
	enum topo_type type;
	uint32_t n;               /* resources */
	uint32_t *res;            /* one per sample */
};
int mem_depth_init(const struct mem *m, enum topo_type type, struct mem_depth *d);
void mem_depth_fini(struct mem_depth *d);
/* The type named ("cpu", "pu", "core", "l1", "l2", "l3", "numa",
 * "package", "machine"), or TOPO_TYPE_COUNT. */
enum topo_type mem_depth_find(const char *name);
const char *mem_depth_name(enum topo_type t);

/* Scores over n equal-width windows of attribute a's range (the last
 * window holds the maximum), for the samples of sel. */
struct mem_window {
	double lo, hi;
	uint32_t samples;
	double score;             /* NAN: no sample counts at this depth */
};
int mem_windows(const struct mem *m, uint32_t a, uint32_t n, enum mem_metric k, const struct mem_depth *d,
		const struct bitset *sel, struct mem_window *out);
/* The window of n that value x of attribute at falls in, as mem_windows
 * counts it (SAMPLES_NONE: missing or outside the range). */
uint32_t mem_window_of(const struct samples_attr *at, uint32_t n, double x);

/* ---- §7.3 ---- */

struct mem_tree;
struct mem_cluster {
	uint32_t first, end;      /* positions in mem_tree_order: [first, end) */
	double lo, hi;            /* the attribute's values at both ends */
	uint32_t samples;
	double score;
};
/* Sliding windows of w samples, moved by step (1 ≤ step < w), along
 * attribute a over the samples of sel (those without a value are left
 * out), scored with k at depth d, merged bottom-up: the two neighbours
 * whose scores differ least first. ERR_USAGE for a bad w or step. */
int mem_tree_build(const struct mem *m, uint32_t a, const struct bitset *sel, uint32_t w, uint32_t step,
		   enum mem_metric k, const struct mem_depth *d, struct mem_tree **out, struct err *e);
void mem_tree_destroy(struct mem_tree *t);
uint32_t mem_tree_leaves(const struct mem_tree *t);
/* The samples with a value, sorted by it (ties by index). */
const uint32_t *mem_tree_order(const struct mem_tree *t, uint32_t *n);
/* The clusters when k remain (clamped to 1..leaves), in attribute order;
 * out holds k. Returns how many were written. */
uint32_t mem_tree_cut(const struct mem_tree *t, uint32_t k, struct mem_cluster *out);
/* Where cluster j of a cut ends and j + 1 begins: the attribute value
 * halfway through their overlap. */
double mem_tree_boundary(const struct mem_tree *t, const struct mem_cluster *a,
			 const struct mem_cluster *b);

/* ---- selections ---- */

enum mem_op { MEM_NEW, MEM_OR, MEM_AND };
/* out = samples whose attribute a lies in [lo, hi]. */
void mem_pick_range(const struct mem *m, uint32_t a, double lo, double hi, struct bitset *out);
/* out = samples a topology object counts (mem_resource). */
void mem_pick_object(const struct mem *m, uint32_t obj, struct bitset *out);
/* out = samples of one code line. */
void mem_pick_codeline(const struct mem *m, uint32_t line, struct bitset *out);
/* out = the samples at positions [first, end) of a tree's order. */
void mem_pick_order(const struct mem_tree *t, uint32_t first, uint32_t end, struct bitset *out);
/* sel = pick (new), sel | pick, sel & pick. */
void mem_combine(struct bitset *sel, const struct bitset *pick, enum mem_op op);

/* A selection step, as a saved view records it: an attribute range
 * (a category is the range [id, id]), a code line or an object. */
enum mem_pick_kind { MEM_PICK_RANGE, MEM_PICK_LINE, MEM_PICK_OBJECT };
struct mem_pick {
	enum mem_pick_kind kind;
	enum mem_op op;
	uint32_t attr;            /* MEM_PICK_RANGE */
	double lo, hi;
	uint32_t id;              /* the code line or the object */
};
/* out = the samples the picks make, in order, starting from nothing;
 * with n == 0, out is left empty. Returns 0 or ERR_NOMEM. */
int mem_picks(const struct mem *m, const struct mem_pick *p, uint32_t n, struct bitset *out);
/* The attribute to score along when none is named: time, else the
 * first. -1 for a set without attributes. */
int mem_default_attr(const struct samples *s);

#endif
