/* test_dist_cc.c — connected components of pairs spread over the ranks
 * (dist_components, analysis/dist_cc.c), without MPI: graphs made here,
 * their pairs dealt to 1 to 7 ranks run as threads, against a serial
 * union-find of the same pairs. Every rank must hold exactly its nodes
 * that are in a pair of two distinct ends; two nodes must have the same
 * root exactly when the serial union-find joins them; a root must be a
 * member of its component and the same on any number of ranks; the node
 * and component counts must be the serial ones on every rank. The shapes
 * are random graphs (repeated pairs and pairs of one node among them), a
 * long path whose ids rise and one whose ids fall, a star, and the shape
 * that made the old hub on rank 0 large: many components, each with a
 * node on every rank and its least id on rank 0. There, no rank may
 * receive in one exchange more than 5/4 of the pair ends it owns, nor own
 * the roots of more nodes than that (the numbering sends each node to its
 * root and back), and the hooking rounds must stay few. With roots by
 * id (each set's first lop), rank 0 fails both. */
#include "testutil.h"

#include <string.h>

#include "analysis/dist/dist_impl.h"
#include "base/dcomm.h"
#include "disttest.h"

#define MAX_RANKS 7

/* Allocations failing on one rank: failalloc.h, armed on that rank's
 * thread. */
#include "failalloc.h"

struct graph {
	uint32_t n_ids;            /* nodes are ids below it */
	struct dpair *p;           /* the pairs */
	size_t n;
	uint32_t *giver;           /* each pair's rank */
};

struct run {
	const struct graph *g;
	uint32_t size;
	uint32_t first[MAX_RANKS + 1];   /* owners: runs of ids */
	int fail_rank;                   /* this rank passes ERR_NOMEM in, or -1 */
	int alloc_rank;                  /* this rank's allocations fail (fail_at), or -1 */
	uint64_t allocs[MAX_RANKS];      /* allocations made while armed */
	uint32_t *root;                  /* n_ids: each node's root, or TRACE_NONE */
	unsigned char *seen;
	uint64_t nodes[MAX_RANKS], comps[MAX_RANKS], most_in[MAX_RANKS];
	uint32_t rounds[MAX_RANKS], exchanges[MAX_RANKS];
	int rc[MAX_RANKS], bad;
};

static uint64_t
rnd(uint64_t *s, uint64_t n)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (*s >> 33) % n;
}

static int
rank_main(struct dcomm *c, void *ud)
{
	struct run *r = ud;
	const struct graph *g = r->g;
	size_t n = 0;
	struct dpair *mine = malloc((g->n + 1) * sizeof *mine);
	if (!mine)
		return ERR_NOMEM;
	for (size_t i = 0; i < g->n; i++)
		if (g->giver[i] % c->size == c->rank)
			mine[n++] = g->p[i];
	struct dcc cc;
	armed = (int)c->rank == r->alloc_rank;
	allocs = 0;
	int rc = dist_components(c, (int)c->rank == r->fail_rank ? ERR_NOMEM : 0, r->first, mine, n,
				 &cc);
	armed = 0;
	r->allocs[c->rank] = allocs;
	free(mine);
	r->rc[c->rank] = rc;
	r->nodes[c->rank] = cc.nodes;
	r->comps[c->rank] = cc.comps;
	r->most_in[c->rank] = cc.most_in;
	r->rounds[c->rank] = cc.rounds;
	r->exchanges[c->rank] = cc.exchanges;
	/* each rank writes only its own nodes' entries */
	for (size_t i = 0; i < cc.n && !rc; i++) {
		uint32_t v = cc.node[i];
		if (v >= g->n_ids || dmodel_rank_of(r->first, c->size, v) != c->rank ||
		    (i && cc.node[i - 1] >= v))
			r->bad = 1;
		else {
			r->root[v] = cc.root[i];
			r->seen[v] = 1;
		}
	}
	dcc_fini(&cc);
	return rc;
}

static uint32_t
find(uint32_t *par, uint32_t x)
{
	while (par[x] != x)
		x = par[x] = par[par[x]];
	return x;
}

/* The serial components: comp[v] their least member, for nodes in a pair
 * of two ends; TRACE_NONE for the others. */
static uint32_t *
serial(const struct graph *g, uint64_t *nodes, uint64_t *comps)
{
	uint32_t *par = malloc((g->n_ids + 1) * sizeof *par);
	uint32_t *comp = malloc((g->n_ids + 1) * sizeof *comp);
	unsigned char *in = calloc(g->n_ids + 1, 1);
	assert_true(par && comp && in);
	for (uint32_t v = 0; v < g->n_ids; v++)
		par[v] = v;
	for (size_t i = 0; i < g->n; i++) {
		uint32_t a = g->p[i].a, b = g->p[i].b;
		if (a == b)
			continue;
		in[a] = in[b] = 1;
		a = find(par, a);
		b = find(par, b);
		if (a < b)
			par[b] = a;
		else if (b < a)
			par[a] = b;
	}
	*nodes = *comps = 0;
	for (uint32_t v = 0; v < g->n_ids; v++) {
		comp[v] = in[v] ? find(par, v) : TRACE_NONE;
		*nodes += in[v];
		*comps += in[v] && comp[v] == v;
	}
	free(par);
	free(in);
	return comp;
}

/* dist_components over g's pairs on size ranks, each owning an equal
 * run of the ids; fail_rank and alloc_rank as in struct run (-1: none).
 * Returns dcomm_threads_run's code; r is the caller's to run_free. */
static int
run_on(const struct graph *g, uint32_t size, int fail_rank, int alloc_rank, struct run *r)
{
	*r = (struct run){ .g = g, .size = size, .fail_rank = fail_rank, .alloc_rank = alloc_rank };
	r->root = malloc((g->n_ids + 1) * sizeof *r->root);
	r->seen = calloc(g->n_ids + 1, 1);
	assert_true(r->root && r->seen);
	for (uint32_t k = 0; k <= size; k++)
		r->first[k] = (uint32_t)((uint64_t)g->n_ids * k / size);
	return dcomm_threads_run(size, rank_main, r);
}

static void
run_free(struct run *r)
{
	free(r->root);
	free(r->seen);
	r->root = NULL;
	r->seen = NULL;
}

/* The ranks' results against the serial components; roots into
 * root_seen (n_ids) when not NULL, or compared with it when compare;
 * the run's counts into *out (without its roots) when not NULL. */
static void
check(const struct graph *g, uint32_t size, uint32_t *root_seen, int compare, struct run *out)
{
	struct run r;
	assert_int_equal(run_on(g, size, -1, -1, &r), 0);
	assert_false(r.bad);
	uint64_t nodes, comps;
	uint32_t *comp = serial(g, &nodes, &comps);
	for (uint32_t k = 0; k < size; k++) {
		assert_int_equal(r.nodes[k], nodes);
		assert_int_equal(r.comps[k], comps);
		assert_int_equal(r.rounds[k], r.rounds[0]);
	}
	/* the root of each serial component: the same for all its members,
	 * one of them, and not another component's */
	uint32_t *by_comp = malloc((g->n_ids + 1) * sizeof *by_comp);
	uint32_t *owner = malloc((g->n_ids + 1) * sizeof *owner);
	assert_true(by_comp && owner);
	for (uint32_t v = 0; v < g->n_ids; v++)
		by_comp[v] = owner[v] = TRACE_NONE;
	for (uint32_t v = 0; v < g->n_ids; v++) {
		assert_int_equal(r.seen[v], comp[v] != TRACE_NONE);
		if (!r.seen[v])
			continue;
		uint32_t root = r.root[v];
		assert_true(root < g->n_ids);
		assert_int_equal(comp[root], comp[v]);
		if (by_comp[comp[v]] == TRACE_NONE)
			by_comp[comp[v]] = root;
		assert_int_equal(by_comp[comp[v]], root);
		if (owner[root] == TRACE_NONE)
			owner[root] = comp[v];
		assert_int_equal(owner[root], comp[v]);
		if (compare)
			assert_int_equal(root_seen[v], root);
		else if (root_seen)
			root_seen[v] = root;
	}
	run_free(&r);
	if (out)
		*out = r;
	free(by_comp);
	free(owner);
	free(comp);
}

/* Every rank count, the roots compared with one rank's. Under TSan
 * (disttest.h: DT_SLOW) 1, 3 and 7 ranks: the reference, an uneven cut
 * and the most threads exchanging at once (20 s of CPU where 39). */
static void
check_all(const struct graph *g)
{
	uint32_t *root = malloc((g->n_ids + 1) * sizeof *root);
	assert_non_null(root);
	for (uint32_t size = 1; size <= MAX_RANKS; size++)
		if (!DT_SLOW || size == 1 || size == 3 || size == MAX_RANKS)
			check(g, size, root, size > 1, NULL);
	free(root);
}

static void
graph_init(struct graph *g, uint32_t n_ids, size_t n)
{
	g->n_ids = n_ids;
	g->n = 0;
	g->p = malloc((n + 1) * sizeof *g->p);
	g->giver = malloc((n + 1) * sizeof *g->giver);
	assert_true(g->p && g->giver);
}

static void
add(struct graph *g, uint32_t a, uint32_t b, uint32_t giver)
{
	g->p[g->n] = (struct dpair){ a, b };
	g->giver[g->n++] = giver;
}

static void
graph_fini(struct graph *g)
{
	free(g->p);
	free(g->giver);
}

static void
random_graphs(void **state)
{
	(void)state;
	uint64_t s = 42;
	for (int i = 0; i < 40; i++) {
		struct graph g;
		uint32_t n_ids = 1 + (uint32_t)rnd(&s, i < 20 ? 40 : 3000);
		size_t n = (size_t)rnd(&s, 2 * n_ids + 2);
		graph_init(&g, n_ids, n + 2);
		for (size_t k = 0; k < n; k++) {
			uint32_t a = (uint32_t)rnd(&s, n_ids);
			/* some pairs near each other, some of one node */
			uint32_t b = rnd(&s, 4) ? (uint32_t)rnd(&s, n_ids) :
				     (uint32_t)((a + rnd(&s, 3)) % n_ids);
			add(&g, a, b, (uint32_t)rnd(&s, MAX_RANKS));
		}
		if (n) /* a repeated pair, given by another rank */
			add(&g, g.p[0].b, g.p[0].a, g.giver[0] + 1);
		check_all(&g);
		graph_fini(&g);
	}
}

static void
no_pairs(void **state)
{
	(void)state;
	struct graph g;
	graph_init(&g, 10, 1);
	check_all(&g);
	add(&g, 3, 3, 0);
	check_all(&g);
	graph_fini(&g);
}

static void
paths_and_stars(void **state)
{
	(void)state;
	enum { N = 20000 };
	struct graph g;
	struct run r;
	/* a path whose ids rise, each pair given by the rank of neither end */
	graph_init(&g, N, N);
	for (uint32_t v = 0; v + 1 < N; v++)
		add(&g, v, v + 1, v * 3);
	check_all(&g);
	check(&g, 4, NULL, 0, &r);
	print_message("path of %d nodes: %u rounds, %u exchanges on 4 ranks\n", N, r.rounds[0],
		      r.exchanges[0]);
	assert_true(r.rounds[0] <= 20);
	graph_fini(&g);
	/* a path whose ids fall, on one rank's pairs */
	graph_init(&g, N, N);
	for (uint32_t v = N - 1; v > 0; v--)
		add(&g, v, v - 1, 0);
	check_all(&g);
	graph_fini(&g);
	/* a star around node 0, and one around the last node */
	graph_init(&g, N, 2 * N);
	for (uint32_t v = 1; v < N / 2; v++)
		add(&g, 0, v, v);
	for (uint32_t v = N / 2; v + 1 < N; v++)
		add(&g, v, N - 1, v);
	check_all(&g);
	graph_fini(&g);
}

/* P components, each with a node on every one of 7 ranks, its least on
 * rank 0, linked as a chain over the ranks (as a stencil's partitions
 * are) or all to rank 0's node (as a collective's). */
static void
spanning_components_are_spread(void **state)
{
	(void)state;
	enum { P = 3000, R = MAX_RANKS };
	for (int star = 0; star < 2; star++) {
		struct graph g;
		graph_init(&g, P * R, (size_t)P * R);
		for (uint32_t p = 0; p < P; p++)
			for (uint32_t k = 1; k < R; k++)
				add(&g, (star ? 0 : k - 1) * P + p, k * P + p, k);
		uint32_t *root = malloc(P * R * sizeof *root);
		assert_non_null(root);
		struct run r;
		check(&g, R, root, 0, &r);
		/* a rank's share: the pair ends it owns (as many as its
		 * lops' links to other ranks); the hub received every pair */
		uint64_t ends[R] = { 0 }, most = 0;
		for (size_t i = 0; i < g.n; i++) {
			ends[dmodel_rank_of(r.first, R, g.p[i].a)]++;
			ends[dmodel_rank_of(r.first, R, g.p[i].b)]++;
		}
		/* the nodes whose root a rank owns: the records it gets when
		 * the sets are numbered (dist_union.c) */
		uint64_t asked[R] = { 0 };
		for (uint32_t v = 0; v < g.n_ids; v++)
			asked[dmodel_rank_of(r.first, R, root[v])]++;
		for (uint32_t k = 0; k < R; k++) {
			assert_true(4 * r.most_in[k] <= 5 * ends[k]);
			assert_true(4 * asked[k] <= 5 * ends[k]);
			most = r.most_in[k] > most ? r.most_in[k] : most;
		}
		print_message("%s: %u rounds, at most %llu records in one exchange "
			      "(rank 0 owns %llu pair ends; the hub got %zu pairs)\n",
			      star ? "stars" : "chains", r.rounds[0], (unsigned long long)most,
			      (unsigned long long)ends[0], g.n);
		free(root);
		graph_fini(&g);
	}
}

/* A rank that failed before passes its failure in: every rank returns
 * it, with no nodes. */
static void
failure_reaches_every_rank(void **state)
{
	(void)state;
	struct graph g;
	graph_init(&g, 100, 100);
	for (uint32_t v = 0; v + 1 < 100; v++)
		add(&g, v, v + 1, v);
	for (uint32_t size = 1; size <= 4; size++)
		for (int f = 0; f < (int)size; f++) {
			struct run r;
			assert_int_equal(run_on(&g, size, f, -1, &r), ERR_NOMEM);
			for (uint32_t k = 0; k < size; k++)
				assert_int_equal(r.rc[k], ERR_NOMEM);
			for (uint32_t v = 0; v < 100; v++)
				assert_false(r.seen[v]);
			run_free(&r);
		}
	graph_fini(&g);
}

/* Each allocation of one rank failing in turn, in dist_components and
 * the exchanges it makes (dcomm over threads): every rank returns
 * ERR_NOMEM, none waits for another (a hang would time the test out),
 * and nothing leaks (ASan). Then the run with no failure. */
static void
every_allocation_failing(void **state)
{
	(void)state;
	struct graph g;
	uint64_t s = 7, runs = 0;
	graph_init(&g, 300, 400);
	for (uint32_t v = 0; v + 1 < 150; v++) /* a path over every rank */
		add(&g, v, v + 1, v);
	for (uint32_t k = 0; k < 250; k++)
		add(&g, (uint32_t)rnd(&s, 300), (uint32_t)rnd(&s, 300), k);
	/* under the sanitizers, 3 ranks only (an uneven cut) */
	uint32_t lo = DT_SLOW || DT_ASAN ? 3 : 1, hi = DT_SLOW || DT_ASAN ? 3 : 4;
	for (uint32_t size = lo; size <= hi; size++)
		for (int f = 0; f < (int)size; f++)
			for (fail_at = 1;; fail_at++) {
				struct run r;
				int rc = run_on(&g, size, -1, f, &r);
				run_free(&r);
				if (r.allocs[f] < fail_at) {   /* no allocation failed */
					assert_int_equal(rc, 0);
					break;
				}
				runs++;
				assert_int_equal(rc, ERR_NOMEM);
				for (uint32_t k = 0; k < size; k++)
					assert_int_equal(r.rc[k], ERR_NOMEM);
			}
	print_message("%llu allocations failed in turn\n", (unsigned long long)runs);
	assert_true(runs > 100);
	graph_fini(&g);
	fail_at = 0;
}

int
main(void)
{
	dt_workers();
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(random_graphs),
		cmocka_unit_test(no_pairs),
		cmocka_unit_test(paths_and_stars),
		cmocka_unit_test(spanning_components_are_spread),
		cmocka_unit_test(failure_reaches_every_rank),
		cmocka_unit_test(every_allocation_failing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
