/* dsaved.h — the saved analysis (doc/format.md) written by every rank of
 * a distributed analysis into one file (doc/distributed.md).
 *
 * The ranks make the same calls in the same order, so every rank knows
 * where each section starts. A section's records may lie on any ranks,
 * in runs: each run's bytes travel to the ranks that own the checksum
 * blocks (doc/format.md: 1 MiB each, independent) they fall in — rank r
 * owns the r-th of `size` equal runs of blocks, so a section cut among
 * the ranks in rank order mostly stays where it is — and each owner sums
 * its blocks and writes them at their offsets (pwrite). Rank 0 combines
 * the block sums into the section's and, at the end, writes the header
 * and the table and renames the file into place, as saved_write does:
 * the bytes are the ones saved_write writes. The file must be on a file
 * system every rank sees.
 */
#ifndef SKEIN_DSAVED_H
#define SKEIN_DSAVED_H

#include <stddef.h>
#include <stdint.h>

#include "base/dcomm.h"
#include "base/err.h"

/* Records [first, first + count) of a section, held here. */
struct drun {
	uint64_t first, count;
	const void *data;
};

struct dsaved;

/* Collective: rank 0 creates a new file beside path (never through a
 * link), the others open it. 0, or the same error on every rank (e says
 * it on the ranks where it arose). */
int dsaved_open(struct dcomm *c, const char *path, struct dsaved **out, struct err *e);

/* Collective: section id of `all` records of elem bytes (a string
 * section: elem 0, `all` the strings, the runs' bytes), the records
 * given by this rank's runs (disjoint from the other ranks', together
 * covering the section). 0 or the same error on every rank. */
int dsaved_put(struct dsaved *w, uint32_t id, uint32_t elem, uint64_t all,
	       const struct drun *runs, size_t n_runs);

/* Collective: the model's sections (timelines to Charm++'s, in the
 * file's order) from each rank's shard of it; 0 or the same error on
 * every rank. */
struct dmodel;
int dsaved_put_model(struct dsaved *w, struct dcomm *c, const struct dmodel *d);

/* The section just put holds n strings (its bytes NUL-terminated
 * strings; the table says strings, not bytes). */
void dsaved_last_is_strings(struct dsaved *w, uint64_t n);

/* Collective: the head sections (meta, strings, path, creator, phases,
 * iteration region) from rank 0's a, an analysis holding the scalars
 * saved_write reads (the trace's information, options, counts, stats,
 * verifier's counts, iterations) over a trace with the definitions;
 * ran: the options as run (saved_write). */
struct analysis;
struct analysis_opts;
struct analysis_part;
struct dmet_out;
int dsaved_put_head(struct dsaved *w, struct dcomm *c, const struct analysis *a,
		    const struct analysis_opts *ran);

/* The analysis's sections (lop -> first op to Charm++'s, in the file's
 * order) from the ranks' shares: la as dist_metrics.h says (lop_part the
 * final partition ids, lop_step the global steps; its iterations, their
 * starts and the rank's runs with global lops, as iterations_detect
 * leaves them with la->dc), the partitions and their DAG (rank 0's are
 * written), the metrics' output. */
struct dsave_lops {
	const struct dmodel *d;
	const struct analysis *la;
	uint32_t lop_off, lops_all;
	uint32_t n_parts, n_steps;
	const struct analysis_part *parts;      /* every rank: their lop counts */
	const uint32_t *dag_first, *dag_succ, *part_order;   /* rank 0 */
	const struct dmet_out *m;
};
int dsaved_put_analysis(struct dsaved *w, struct dcomm *c, const struct dsave_lops *x);

/* Collective: rc is how the caller's work went on this rank. When every
 * rank's is 0 and every write went through, rank 0 puts the header and
 * the table in and renames the file to path; otherwise the file is
 * removed. Returns 0 or the same error on every rank; frees w. */
int dsaved_close(struct dsaved *w, int rc, struct err *e);

#endif
