/* iterations_period.c — the period of a sequence of partitions, and a
 * Charm++ run's iterations (iterations.h says what an iteration is).
 *
 * A Charm++ run repeats in its application phases, not in all of its
 * phases. Seed 004 keeps the developer's view of the program (the
 * application phases) apart from the runtime's (runtime phases: the
 * reductions, the broadcasts, with their trees), and describes the
 * programs it studies by the pattern their phases repeat ("a repeating
 * pattern of two phases followed by an allreduce", §5). A runtime phase's
 * structure is the runtime's choice and changes from one iteration to
 * the next (which chare's contribution completes a reduction inline,
 * where the tree forwards a broadcast: Jacobi's ten reductions have five
 * different signatures), while the application phases of a loop are
 * alike. So a Charm++ run's iterations are the period of the sequence of
 * its application phases — by their signatures, else by their shapes —
 * each iteration running from its first application phase to the next
 * iteration's, the runtime phases between (the iteration's reduction)
 * included. The phase without events before all others (constructors)
 * is neither.
 *
 * Work: the period search compares the token sequence with itself
 * shifted by each candidate period, stopping at a budget of comparisons
 * (PERIOD_BUDGET); the Charm++ rules are linear in phases and lops.
 */
#include "iterations_impl.h"
#include "signature.h"

#include "model/charm.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#define PERIOD_BUDGET (64u << 20)

uint32_t
iter_agree(const uint32_t *tok, uint32_t x, uint32_t y, uint32_t len)
{
	uint32_t k = 0;
	for (uint32_t i = 0; i < len; i++)
		k += tok[x + i] == tok[y + i];
	return k;
}

/* The structural period: for each period p, the longest stretch where
 * the sequence equals itself shifted by p gives reps = run / p + 1 whole
 * repetitions. The period covering the most partitions wins, the smaller
 * on a tie (a multiple of the period covers no more); it must cover a
 * third of the partitions at least. A first repetition
 * that agrees with the second on at least half its partitions joins as a
 * different first iteration; so does a partial last one. */
int
iter_period(const uint32_t *tok, uint32_t n, struct bounds *out)
{
	uint32_t best_p = 0, best_s = 0, best_reps = 0;
	uint64_t best_cov = 0, work = 0;
	for (uint32_t p = 1; p <= n / 2 && work < PERIOD_BUDGET; p++) {
		uint32_t run = 0, run_s = 0, long_run = 0, long_s = 0;
		for (uint32_t i = 0; i + p < n; i++) {
			if (tok[i] == tok[i + p]) {
				if (!run++)
					run_s = i;
				if (run > long_run) {
					long_run = run;
					long_s = run_s;
				}
			} else {
				run = 0;
			}
		}
		work += n - p;
		uint32_t reps = long_run / p + 1;
		uint64_t cov = (uint64_t)reps * p;
		if (reps >= 2 && cov > best_cov) {
			best_cov = cov;
			best_p = p;
			best_s = long_s;
			best_reps = reps;
		}
	}
	/* a repetition over a small part of the run is no loop of it */
	if (!best_p || 3 * best_cov < n)
		return 0;
	uint32_t p = best_p, start = best_s, reps = best_reps;
	if (start >= p && 2 * iter_agree(tok, start - p, start, p) >= p) {
		start -= p;
		reps++;
	}
	uint32_t end = start + reps * p;
	uint32_t tail = n - end < p ? n - end : p;
	if (tail && 2 * iter_agree(tok, end, start + (reps - 1) * p, tail) >= p) {
		end += tail;
		reps++;
	}
	out->b = malloc(((size_t)reps + 1) * sizeof *out->b);
	if (!out->b)
		return ERR_NOMEM;
	for (uint32_t k = 0; k < reps; k++)
		out->b[k] = start + k * p;
	out->b[reps] = end;
	out->count = reps;
	out->region = TRACE_NONE;
	return 0;
}

/* The last iteration's end, from b[0 .. count) (count >= 2) and where
 * the next marked stretch would start (`next`, or s->n): as many
 * partitions as the iterations before it most often hold, not past
 * `next` — what follows the last (a shutdown's runtime phase, a final
 * phase of the main chare) is no part of it. */
static uint32_t
last_end(const uint32_t *b, uint32_t count, uint32_t next)
{
	uint32_t best = 0, best_n = 0;
	for (uint32_t i = 0; i + 1 < count; i++) {
		uint32_t len = b[i + 1] - b[i], k = 0;
		for (uint32_t j = 0; j + 1 < count; j++)
			k += b[j + 1] - b[j] == len;
		if (k > best_n || (k == best_n && len < best)) {
			best = len;
			best_n = k;
		}
	}
	uint32_t end = b[count - 1] + best;
	return end < next ? end : next;
}

/* Is partition p an application phase with events (not a runtime phase,
 * not the leading phase of constructors)? */
static int
app_phase(const struct analysis *a, uint32_t p)
{
	return a->parts[p].comm_count && !a->parts[p].runtime;
}

/* The period of the application phases' tokens, held to more than the
 * structure's: at least three iterations over half the phases. A run has
 * few application phases (Jacobi's 10 iterations are 11), and one phase
 * alike with the next — a ping-pong's two sends of one shape — is no
 * loop. */
static int
period_of_phases(const uint32_t *tok, uint32_t n, struct bounds *out)
{
	int rc = iter_period(tok, n, out);
	if (!rc && out->b && (out->count < 3 || 2 * (out->b[out->count] - out->b[0]) < n)) {
		free(out->b);
		memset(out, 0, sizeof *out);
	}
	return rc;
}

int
iter_charm_phases(const struct seq *s, struct bounds *out)
{
	const struct analysis *a = s->a;
	uint32_t n = 0;
	uint32_t *at = malloc(((size_t)s->n + 1) * sizeof *at);     /* app index -> position */
	uint32_t *tok = malloc(((size_t)s->n + 1) * sizeof *tok);
	uint64_t *sig = malloc(((size_t)a->n_parts + 1) * sizeof *sig);
	uint32_t *shape = malloc(((size_t)s->n + 1) * sizeof *shape);
	int rc = at && tok && sig && shape ? 0 : ERR_NOMEM;
	memset(out, 0, sizeof *out);
	for (uint32_t i = 0; i < s->n && !rc; i++)
		if (app_phase(a, s->order[i])) {
			at[n] = i;
			tok[n++] = s->tok[i];
		}
	if (!rc)
		rc = period_of_phases(tok, n, out);
	if (!rc && !out->b) {
		/* alike in their shapes (the set of their entries and kinds of
		 * operation) where their messages differ */
		uint32_t distinct;
		rc = signature_parts(a, 1, sig);
		if (!rc)
			rc = signature_tokens(sig, s->order, s->n, shape, &distinct);
		for (uint32_t k = 0; k < n && !rc; k++)
			tok[k] = shape[at[k]];
		if (!rc)
			rc = period_of_phases(tok, n, out);
	}
	if (!rc && out->b) {
		/* back to positions in the whole sequence: an iteration from
		 * its first application phase to the next iteration's */
		uint32_t c = out->count, e = out->b[c];
		uint32_t next = e < n ? at[e] : s->n;
		for (uint32_t k = 0; k < c; k++)
			out->b[k] = at[out->b[k]];
		out->b[c] = last_end(out->b, c, next);
	}
	free(at);
	free(tok);
	free(sig);
	free(shape);
	return rc;
}

int
iter_charm_entry(const struct seq *s, const char *glob, struct bounds *out)
{
	const struct analysis *a = s->a;
	const struct trace *t = a->t;
	uint32_t n_tl, n_reg;
	trace_timelines(t, &n_tl);
	const struct trace_region *regs = trace_regions(t, &n_reg);
	uint8_t *match = malloc((size_t)n_reg + 1);
	memset(out, 0, sizeof *out);
	if (!match)
		return ERR_NOMEM;
	uint32_t first = TRACE_NONE;
	for (uint32_t r = 0; r < n_reg; r++) {
		match[r] = fnmatch(glob, trace_str(t, regs[r].name), 0) == 0;
		if (match[r] && first == TRACE_NONE)
			first = r;
	}
	/* an execution is its first piece (the others continue it) */
	uint32_t m = 0;
	for (uint32_t tl = 0; tl < n_tl; tl++) {
		uint32_t k = 0;
		for (uint32_t l = a->tl_lop[tl]; l < a->tl_lop[tl + 1]; l++) {
			uint32_t r = analysis_lop_region(a, l);
			k += r != TRACE_NONE && match[r] &&
			     !(trace_op_get(&a->ops, lop_first_op(a, l)).flags & OPF_EXEC_CONT);
		}
		m = k > m ? k : m;
	}
	uint32_t *b = m >= 2 ? malloc(((size_t)m + 1) * sizeof *b) : NULL;
	if (m >= 2 && !b) {
		free(match);
		return ERR_NOMEM;
	}
	for (uint32_t k = 0; b && k <= m; k++)
		b[k] = UINT32_MAX;
	/* the k-th execution on any chare: the earliest phase it ran in */
	for (uint32_t tl = 0; b && tl < n_tl; tl++) {
		uint32_t k = 0;
		for (uint32_t l = a->tl_lop[tl]; l < a->tl_lop[tl + 1]; l++) {
			uint32_t r = analysis_lop_region(a, l);
			if (r == TRACE_NONE || !match[r] ||
			    (trace_op_get(&a->ops, lop_first_op(a, l)).flags & OPF_EXEC_CONT))
				continue;
			uint32_t p = a->lop_part[l] == TRACE_NONE ? UINT32_MAX : s->pos[a->lop_part[l]];
			if (p < b[k])
				b[k] = p;
			k++;
		}
	}
	free(match);
	/* each iteration in phases after the one before */
	int ok = b != NULL;
	for (uint32_t k = 0; ok && k + 1 < m; k++)
		ok = b[k] < b[k + 1];
	if (!ok) {
		free(b);
		return 0;
	}
	b[m] = last_end(b, m, s->n);
	out->b = b;
	out->count = m;
	out->region = first;
	return 0;
}
