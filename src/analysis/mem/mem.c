/* mem.c — samples on the hardware (seed 002 §6.2), top offenders (§6.1)
 * and selections. Scores and windows are in mem_score.c, the clustering
 * in mem_cluster.c. */
#include "mem_impl.h"

#include <stdlib.h>
#include <string.h>

/* The object serving level l for a sample issued on PU object pu: the
 * nearest ancestor of the serving type, or, when the hardware does not
 * describe that level, of the next larger memory level (an L1 hit on a
 * topology without L1 objects counts at its L2, ...). */
static uint32_t
server_of(const struct topo_obj *o, uint32_t pu, enum samples_level l)
{
	static const enum topo_type up[] = { TOPO_L1, TOPO_L2, TOPO_L3, TOPO_NUMA, TOPO_MACHINE };
	enum topo_type want = samples_level_server(l);
	if (want == TOPO_TYPE_COUNT)
		return SAMPLES_NONE;
	size_t k = 0;
	while (up[k] != want)
		k++;
	for (; k < sizeof up / sizeof up[0]; k++)
		for (uint32_t x = o[pu].parent; x != TRACE_NONE; x = o[x].parent)
			if (o[x].type == up[k] || (up[k] == TOPO_MACHINE && o[x].parent == TRACE_NONE))
				return x;
	return SAMPLES_NONE;
}

int
mem_create(const struct samples *s, struct mem **out, struct err *e)
{
	*out = NULL;
	struct mem *m = calloc(1, sizeof *m);
	if (!m)
		return err_set(e, ERR_NOMEM, "out of memory");
	m->s = s;
	m->t = samples_topo(s);
	m->obj = topo_objs(m->t, &m->n_obj);
	m->pu_obj = topo_pu_objs(m->t, &m->n_pu);
	m->server = malloc(((size_t)m->n_pu * SL_COUNT + 1) * sizeof *m->server);
	if (!m->server) {
		free(m);
		return err_set(e, ERR_NOMEM, "out of memory");
	}
	for (uint32_t p = 0; p < m->n_pu; p++)
		for (int l = 0; l < SL_COUNT; l++)
			m->server[(size_t)p * SL_COUNT + (size_t)l] = server_of(m->obj, m->pu_obj[p], (enum samples_level)l);
	*out = m;
	return 0;
}

void
mem_destroy(struct mem *m)
{
	if (!m)
		return;
	free(m->server);
	free(m);
}

const struct samples *mem_samples(const struct mem *m) { return m->s; }

/* ---- §6.2 ---- */

int
mem_agg_init(const struct mem *m, struct mem_agg *a)
{
	memset(a, 0, sizeof *a);
	size_t n = (size_t)m->n_obj + 1;
	a->n_obj = m->n_obj;
	a->below_samples = calloc(n, sizeof (uint64_t));
	a->below_cycles = calloc(n, sizeof (uint64_t));
	a->served_samples = calloc(n, sizeof (uint64_t));
	a->served_cycles = calloc(n, sizeof (uint64_t));
	a->link = calloc(n, sizeof (uint64_t));
	if (!a->below_samples || !a->below_cycles || !a->served_samples || !a->served_cycles || !a->link) {
		mem_agg_fini(a);
		return ERR_NOMEM;
	}
	return 0;
}

void
mem_agg_fini(struct mem_agg *a)
{
	free(a->below_samples);
	free(a->below_cycles);
	free(a->served_samples);
	free(a->served_cycles);
	free(a->link);
	memset(a, 0, sizeof *a);
}

void
mem_aggregate(const struct mem *m, const struct bitset *sel, struct mem_agg *a)
{
	size_t bytes = (size_t)a->n_obj * sizeof (uint64_t);
	memset(a->below_samples, 0, bytes);
	memset(a->below_cycles, 0, bytes);
	memset(a->served_samples, 0, bytes);
	memset(a->served_cycles, 0, bytes);
	memset(a->link, 0, bytes);
	a->samples = a->cycles = 0;
	memset(a->level_samples, 0, sizeof a->level_samples);
	memset(a->level_cycles, 0, sizeof a->level_cycles);
	const struct samples_info *in = samples_info(m->s);
	const uint32_t *pu = samples_pu(m->s);
	const uint64_t *lat = samples_latency(m->s);
	const uint8_t *lvl = samples_levels(m->s);
	/* issued: per PU first, then summed up the tree once */
	for (uint32_t i = 0; i < in->n; i++) {
		if (sel && !bitset_test(sel, i))
			continue;
		a->samples++;
		a->cycles += lat[i];
		a->level_samples[lvl[i]]++;
		a->level_cycles[lvl[i]] += lat[i];
		if (pu[i] == SAMPLES_NONE)
			continue;
		uint32_t p = m->pu_obj[pu[i]];
		a->below_samples[p]++;
		a->below_cycles[p] += lat[i];
		uint32_t srv = m->server[(size_t)pu[i] * SL_COUNT + lvl[i]];
		if (srv == SAMPLES_NONE)
			continue;
		a->served_samples[srv]++;
		a->served_cycles[srv] += lat[i];
		for (uint32_t x = p; x != srv && x != TRACE_NONE; x = m->obj[x].parent)
			a->link[x]++;
	}
	/* objects come in depth-first order: children after their parent */
	for (uint32_t i = m->n_obj; i-- > 1;) {
		uint32_t p = m->obj[i].parent;
		a->below_samples[p] += a->below_samples[i];
		a->below_cycles[p] += a->below_cycles[i];
	}
}

int
mem_type_serves(enum topo_type t)
{
	return t == TOPO_L1 || t == TOPO_L2 || t == TOPO_L3 || t == TOPO_NUMA || t == TOPO_MACHINE;
}

void
mem_resource(const struct mem_agg *a, const struct topo_obj *o, uint32_t i, uint64_t *samples, uint64_t *cycles)
{
	int served = mem_type_serves((enum topo_type)o->type);
	*samples = served ? a->served_samples[i] : a->below_samples[i];
	*cycles = served ? a->served_cycles[i] : a->below_cycles[i];
}

/* ---- §6.1 ---- */

static int
offender_cmp(const void *pa, const void *pb)
{
	const struct mem_offender *a = pa, *b = pb;
	if (a->cycles != b->cycles)
		return a->cycles > b->cycles ? -1 : 1;
	if (a->samples != b->samples)
		return a->samples < b->samples ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

int
mem_offenders(const struct mem *m, enum mem_offender_kind k, const struct bitset *sel,
	      struct mem_offender **out, uint32_t *n)
{
	*out = NULL;
	*n = 0;
	const struct samples_info *in = samples_info(m->s);
	const uint32_t *key = k == MEM_LINES ? samples_codeline(m->s) : samples_symbol(m->s);
	uint32_t nk = 0;
	if (k == MEM_LINES)
		samples_codelines(m->s, &nk);
	else if (in->a_symbol >= 0)
		nk = samples_attr(m->s, (uint32_t)in->a_symbol)->n_cats;
	struct mem_offender *o = calloc((size_t)nk + 1, sizeof *o);
	if (!o)
		return ERR_NOMEM;
	const uint64_t *lat = samples_latency(m->s);
	for (uint32_t i = 0; i < in->n; i++) {
		if ((sel && !bitset_test(sel, i)) || key[i] >= nk)
			continue;
		o[key[i]].samples++;
		o[key[i]].cycles += lat[i];
	}
	uint32_t used = 0;
	for (uint32_t i = 0; i < nk; i++)
		if (o[i].samples) {
			o[used] = o[i];
			o[used++].id = i;
		}
	qsort(o, used, sizeof *o, offender_cmp);
	*out = o;
	*n = used;
	return 0;
}

/* ---- selections ---- */

void
mem_pick_range(const struct mem *m, uint32_t a, double lo, double hi, struct bitset *out)
{
	bitset_clear(out);
	const struct samples_attr *at = samples_attr(m->s, a);
	if (!at)
		return;
	for (uint32_t i = 0; i < out->n; i++)
		if (at->v[i] >= lo && at->v[i] <= hi)
			bitset_set(out, i);
}

void
mem_pick_object(const struct mem *m, uint32_t obj, struct bitset *out)
{
	bitset_clear(out);
	if (obj >= m->n_obj)
		return;
	const struct topo_obj *o = &m->obj[obj];
	int served = mem_type_serves((enum topo_type)o->type);
	const uint32_t *pu = samples_pu(m->s);
	const uint8_t *lvl = samples_levels(m->s);
	for (uint32_t i = 0; i < out->n; i++) {
		if (pu[i] == SAMPLES_NONE)
			continue;
		if (served ? m->server[(size_t)pu[i] * SL_COUNT + lvl[i]] == obj
			   : pu[i] - o->pu_first < o->pu_count)
			bitset_set(out, i);
	}
}

void
mem_pick_codeline(const struct mem *m, uint32_t line, struct bitset *out)
{
	bitset_clear(out);
	const uint32_t *cl = samples_codeline(m->s);
	for (uint32_t i = 0; i < out->n; i++)
		if (cl[i] == line)
			bitset_set(out, i);
}

void
mem_combine(struct bitset *sel, const struct bitset *pick, enum mem_op op)
{
	if (op == MEM_OR)
		bitset_or(sel, pick);
	else if (op == MEM_AND)
		bitset_and(sel, pick);
	else
		bitset_copy(sel, pick);
}

int
mem_picks(const struct mem *m, const struct mem_pick *p, uint32_t n, struct bitset *out)
{
	bitset_clear(out);
	if (n == 0)
		return 0;
	struct bitset one;
	if (bitset_init(&one, out->n))
		return ERR_NOMEM;
	for (uint32_t i = 0; i < n; i++) {
		if (p[i].kind == MEM_PICK_LINE)
			mem_pick_codeline(m, p[i].id, &one);
		else if (p[i].kind == MEM_PICK_OBJECT)
			mem_pick_object(m, p[i].id, &one);
		else
			mem_pick_range(m, p[i].attr, p[i].lo, p[i].hi, &one);
		mem_combine(out, &one, i == 0 ? MEM_NEW : p[i].op);
	}
	bitset_fini(&one);
	return 0;
}

int
mem_default_attr(const struct samples *s)
{
	const struct samples_info *in = samples_info(s);
	return in->a_time >= 0 ? in->a_time : samples_attr_count(s) ? 0 : -1;
}

/* ---- depths ---- */

static const struct {
	const char *name;
	enum topo_type type;
} depth_names[] = {
	{ "cpu", TOPO_PU }, { "pu", TOPO_PU }, { "core", TOPO_CORE }, { "l1", TOPO_L1 }, { "l2", TOPO_L2 },
	{ "l3", TOPO_L3 }, { "numa", TOPO_NUMA }, { "package", TOPO_PACKAGE }, { "machine", TOPO_MACHINE },
};

enum topo_type
mem_depth_find(const char *name)
{
	for (size_t i = 0; i < sizeof depth_names / sizeof depth_names[0]; i++)
		if (strcmp(name, depth_names[i].name) == 0)
			return depth_names[i].type;
	return TOPO_TYPE_COUNT;
}

const char *
mem_depth_name(enum topo_type t)
{
	for (size_t i = 0; i < sizeof depth_names / sizeof depth_names[0]; i++)
		if (depth_names[i].type == t)
			return depth_names[i].name;
	return "?";
}

int
mem_depth_init(const struct mem *m, enum topo_type type, struct mem_depth *d)
{
	const struct samples_info *in = samples_info(m->s);
	d->type = type;
	d->n = topo_count(m->t, type);
	d->res = malloc(((size_t)in->n + 1) * sizeof *d->res);
	if (!d->res)
		return ERR_NOMEM;
	const uint32_t *pu = samples_pu(m->s);
	const uint8_t *lvl = samples_levels(m->s);
	int served = mem_type_serves(type);
	/* per PU, its ancestor of the type (processors) */
	uint32_t *up = malloc(((size_t)m->n_pu + 1) * sizeof *up);
	if (!up) {
		free(d->res);
		d->res = NULL;
		return ERR_NOMEM;
	}
	for (uint32_t p = 0; p < m->n_pu; p++) {
		up[p] = SAMPLES_NONE;
		for (uint32_t x = m->pu_obj[p]; x != TRACE_NONE; x = m->obj[x].parent)
			if (m->obj[x].type == type) {
				up[p] = m->obj[x].index;
				break;
			}
	}
	for (uint32_t i = 0; i < in->n; i++) {
		uint32_t r = SAMPLES_NONE;
		if (pu[i] != SAMPLES_NONE) {
			if (!served) {
				r = up[pu[i]];
			} else {
				uint32_t srv = m->server[(size_t)pu[i] * SL_COUNT + lvl[i]];
				if (srv != SAMPLES_NONE && m->obj[srv].type == type)
					r = m->obj[srv].index;
			}
		}
		d->res[i] = r;
	}
	free(up);
	return 0;
}

void
mem_depth_fini(struct mem_depth *d)
{
	free(d->res);
	d->res = NULL;
}
