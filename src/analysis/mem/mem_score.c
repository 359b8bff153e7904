/* mem_score.c — histograms of an attribute (seed 002 §6.3), the scores
 * L_d and I_d (§7.1, equations 1 and 2) and their values over windows
 * along an attribute (§7.2). */
#include "mem_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *
mem_metric_name(enum mem_metric k)
{
	return k == MEM_LATENCY ? "latency" : k == MEM_IMBALANCE ? "imbalance" : "?";
}

/* ---- bins ---- */

void
mem_bins_for(const struct mem *m, uint32_t a, uint32_t max_bins, struct mem_bins *b)
{
	const struct samples_attr *at = samples_attr(m->s, a);
	b->attr = a;
	b->per_value = 0;
	if (max_bins < 1)
		max_bins = 1;
	if (!at || at->lo > at->hi) {          /* no value at all */
		b->n = 1;
		b->lo = 0;
		b->hi = 1;
		return;
	}
	double lo = at->lo, hi = at->hi;
	int whole = at->whole;
	if (at->kind == SAMPLES_CATEGORY) {
		lo = 0;
		hi = at->n_cats ? at->n_cats - 1 : 0;
	}
	if (whole && hi - lo + 1 <= max_bins) {
		b->n = (uint32_t)(hi - lo + 1);     /* a bin per value */
		b->lo = lo - 0.5;
		b->hi = hi + 0.5;
		b->per_value = 1;
		return;
	}
	b->n = max_bins;
	b->lo = lo;
	b->hi = hi > lo ? hi : lo + 1;
}

/* Where x lies in [lo, hi], 0 to 1, in halves so that the widest range
 * of doubles does not overflow. */
static double
fraction(double x, double lo, double hi)
{
	double f = (x / 2 - lo / 2) / (hi / 2 - lo / 2);
	return f >= 0 ? f : 0;
}

uint32_t
mem_bin_of(const struct mem_bins *b, double x)
{
	if (!(x >= b->lo && x <= b->hi))
		return SAMPLES_NONE;
	double f = fraction(x, b->lo, b->hi) * b->n;
	uint32_t k = f < b->n ? (uint32_t)f : b->n - 1;
	return k >= b->n ? b->n - 1 : k;
}

double
mem_bin_edge(const struct mem_bins *b, uint32_t k)
{
	return b->lo + (b->hi / 2 - b->lo / 2) * (2.0 * k / b->n);
}

void
mem_bin_counts(const struct mem *m, const struct mem_bins *b, const struct bitset *base, const struct bitset *sel,
	       uint64_t *all, uint64_t *selected)
{
	const struct samples_attr *at = samples_attr(m->s, b->attr);
	if (all)
		memset(all, 0, b->n * sizeof *all);
	if (selected)
		memset(selected, 0, b->n * sizeof *selected);
	if (!at)
		return;
	uint32_t n = samples_info(m->s)->n;
	for (uint32_t i = 0; i < n; i++) {
		if (base && !bitset_test(base, i))
			continue;
		uint32_t k = mem_bin_of(b, at->v[i]);
		if (k == SAMPLES_NONE)
			continue;
		if (all)
			all[k]++;
		if (selected && sel && bitset_test(sel, i))
			selected[k]++;
	}
}

/* ---- scores ---- */

const char *
mem_ld_name(enum mem_ld ld)
{
	return ld == MEM_LD_SAMPLED ? "sampled" : ld == MEM_LD_ALL ? "all" : "?";
}

void mem_set_ld(struct mem *m, enum mem_ld ld) { m->ld = ld; }
enum mem_ld mem_get_ld(const struct mem *m) { return m->ld; }

double
mem_score(enum mem_metric k, const uint64_t *s, const uint64_t *c, uint32_t n)
{
	return mem_score_ld(k, MEM_LD_SAMPLED, s, c, n);
}

double
mem_score_ld(enum mem_metric k, enum mem_ld ld, const uint64_t *s, const uint64_t *c, uint32_t n)
{
	if (k == MEM_LATENCY) {
		double sum = 0;
		uint32_t used = 0;
		for (uint32_t i = 0; i < n; i++)
			if (s[i]) {
				sum += (double)c[i] / (double)s[i];
				used++;
			}
		/* no sample anywhere: no score, whichever the mean */
		return !used ? NAN : ld == MEM_LD_ALL ? sum / n : sum / used;
	}
	double total = 0;
	for (uint32_t i = 0; i < n; i++)
		total += (double)s[i];
	if (n == 0 || total == 0)
		return NAN;
	double mu = total / n, var = 0, dev = 0;
	for (uint32_t i = 0; i < n; i++) {
		double d = (double)s[i] - mu;
		var += d * d;
		dev = fabs(d) > dev ? fabs(d) : dev;
	}
	double sigma = sqrt(var / n);
	return sigma > 0 ? dev / sigma : 0;
}

uint32_t
mem_window_of(const struct samples_attr *at, uint32_t n, double x)
{
	double lo = at->lo, hi = at->hi > at->lo ? at->hi : at->lo;
	if (!(x >= lo && x <= hi) || n == 0)
		return SAMPLES_NONE;
	double f = hi > lo ? fraction(x, lo, hi) * n : 0;
	return f < n ? (uint32_t)f : n - 1;
}

int
mem_windows(const struct mem *m, uint32_t a, uint32_t n, enum mem_metric k, const struct mem_depth *d,
	    const struct bitset *sel, struct mem_window *out)
{
	const struct samples_attr *at = samples_attr(m->s, a);
	if (!at || n == 0)
		return ERR_USAGE;
	size_t nr = (size_t)d->n + 1;
	uint64_t *s = calloc((size_t)n * nr, sizeof *s), *c = calloc((size_t)n * nr, sizeof *c);
	if (!s || !c) {
		free(s);
		free(c);
		return ERR_NOMEM;
	}
	double lo = at->lo, hi = at->hi > at->lo ? at->hi : at->lo;
	for (uint32_t w = 0; w < n; w++)
		out[w] = (struct mem_window){
			.lo = lo + (hi / 2 - lo / 2) * (2.0 * w / n), .hi = lo + (hi / 2 - lo / 2) * (2.0 * (w + 1) / n),
			.score = NAN,
		};
	const uint64_t *lat = samples_latency(m->s);
	uint32_t ns = samples_info(m->s)->n;
	for (uint32_t i = 0; i < ns; i++) {
		uint32_t w = sel && !bitset_test(sel, i) ? SAMPLES_NONE : mem_window_of(at, n, at->v[i]);
		if (w == SAMPLES_NONE)
			continue;
		out[w].samples++;
		uint32_t r = d->res[i];
		if (r == SAMPLES_NONE || r >= d->n)
			continue;
		s[(size_t)w * nr + r]++;
		c[(size_t)w * nr + r] += lat[i];
	}
	for (uint32_t w = 0; w < n; w++)
		out[w].score = mem_score_ld(k, m->ld, s + (size_t)w * nr, c + (size_t)w * nr, d->n);
	free(s);
	free(c);
	return 0;
}
