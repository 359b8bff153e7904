/* test_dist.c — the distributed analysis's groundwork, without MPI:
 * dcomm over threads (base/dcomm.h: every operation's result on 1 to 7
 * ranks against what it must be) and the model's shards (model/dmodel.h:
 * on every corpus trace, cut into 1 to 5 shards, the shards' runs tile
 * the model and their records are its records with the documented ids).
 * The distributed stages' own tests compare against these shards. */
#include "testutil.h"

#include <glob.h>
#include <string.h>

#include "base/dcomm.h"
#include "dcomm_exercise.h"
#include "model/dmodel.h"
#include "model/trace.h"

static char **paths;
static size_t n_paths;

/* ---- dcomm over threads ---- */

static void
dcomm_threads_computes_each_operation(void **state)
{
	(void)state;
	for (uint32_t n = 1; n <= 7; n++)
		assert_int_equal(dcomm_threads_run(n, dcomm_exercise, NULL), 0);
	assert_int_equal(dcomm_threads_run(0, dcomm_exercise, NULL), ERR_USAGE);
}

/* ---- shards ---- */

/* Timelines cut into n runs of about the same calls. */
static void
cut_timelines(const struct trace *t, uint32_t n, uint32_t *first)
{
	uint32_t n_tl, n_ops;
	const struct trace_timeline *tl = trace_timelines(t, &n_tl);
	trace_ops(t, &n_ops);
	uint32_t k = 0, ops = 0;
	for (uint32_t r = 0; r < n; r++) {
		first[r] = k;
		uint64_t want = (uint64_t)n_ops * (r + 1) / n;
		while (k < n_tl && (ops < want || r + 1 == n))
			ops += tl[k++].op_count;
	}
	first[n] = n_tl;
}

static void
shards_tile_the_model(void **state)
{
	(void)state;
	for (size_t i = 0; i < n_paths; i++) {
		struct trace *t = tu_load(paths[i]);
		uint32_t n_ops, n_msgs, n_colls, n_ends, n_frames;
		struct trace_opv ops = trace_ops(t, &n_ops);
		const struct trace_msg *msgs = trace_msgs(t, &n_msgs);
		const struct trace_coll *colls = trace_colls(t, &n_colls);
		const struct trace_end *ends = trace_ends(t, &n_ends);
		trace_frames(t, &n_frames);
		for (uint32_t n = 1; n <= 5; n++) {
			uint32_t first[6];
			cut_timelines(t, n, first);
			uint32_t ops_seen = 0, ends_seen = 0, frames_seen = 0, sends_seen = 0, lone = 0;
			uint32_t *members = calloc(n_colls + 1, sizeof *members);
			for (uint32_t r = 0; r < n; r++) {
				struct dmodel d, again;
				assert_int_equal(dmodel_slice(t, r, n, first[r], first[r + 1], &d), 0);
				assert_int_equal(d.oprec.off, ops_seen / 2);
				assert_int_equal(d.ends.off, ends_seen);
				assert_int_equal(d.frames.off, frames_seen);
				assert_int_equal(d.sends.off, sends_seen);
				ops_seen += 2 * d.oprec.n;
				ends_seen += d.ends.n;
				frames_seen += d.frames.n;
				sends_seen += d.sends.n;
				lone += d.n_lone;
				/* local ops are the model's, their ends and messages too */
				uint32_t nl;
				struct trace_opv lv = trace_ops(d.t, &nl);
				assert_int_equal(nl, 2 * d.oprec.n);
				for (uint32_t op = 0; op < nl; op++) {
					struct trace_op a = trace_op_get(&lv, op);
					struct trace_op b = trace_op_get(&ops, dmodel_op_global(&d, op));
					assert_true(a.t_enter == b.t_enter && a.t_exit == b.t_exit);
					assert_int_equal(a.timeline, b.timeline);
					assert_true(a.timeline >= d.tl_lo && a.timeline < d.tl_hi);
					assert_int_equal(a.end_first + d.ends.off, b.end_first);
					assert_int_equal(a.frame == TRACE_NONE ? TRACE_NONE : a.frame + d.frames.off,
							 b.frame);
					assert_int_equal(dmodel_op_local(&d, b.timeline == a.timeline ?
									  dmodel_op_global(&d, op) : 0), op);
				}
				uint32_t nm;
				const struct trace_msg *lm = trace_msgs(d.t, &nm);
				assert_int_equal(nm, d.sends.n + d.n_lone);
				for (uint32_t k = 0; k < d.sends.n; k++)
					assert_int_equal(lm[k].send_op, msgs[d.sends.off + k].send_op);
				for (uint32_t k = 0; k < d.n_lone; k++) {
					assert_int_equal(msgs[d.lone_id[k]].send_op, TRACE_NONE);
					assert_int_equal(lm[d.sends.n + k].recv_op, msgs[d.lone_id[k]].recv_op);
				}
				uint32_t ne;
				const struct trace_end *le = trace_ends(d.t, &ne);
				if (ne)
					assert_memory_equal(le, ends + d.ends.off, ne * sizeof *le);
				const uint32_t *cm = trace_coll_members(d.t);
				for (uint32_t c = 0; c < n_colls; c++) {
					assert_int_equal(d.member_before[c], members[c]);
					for (uint32_t k = d.coll_first[c]; k < d.coll_first[c + 1]; k++)
						assert_int_equal(cm[k], trace_coll_members(t)[colls[c].member_first +
											  members[c]++]);
				}
				/* a shard is itself; one changed record is not */
				char why[200];
				assert_int_equal(dmodel_slice(t, r, n, first[r], first[r + 1], &again), 0);
				assert_int_equal(dmodel_compare(&d, &again, why, sizeof why), 0);
				if (nm) {
					struct trace_msg *m = (struct trace_msg *)trace_msgs(again.t, NULL);
					m[0].recv_op ^= 1;
					assert_int_equal(dmodel_compare(&d, &again, why, sizeof why), 1);
					assert_non_null(strstr(why, "message"));
				}
				dmodel_free(&again);
				dmodel_free(&d);
			}
			assert_int_equal(ops_seen, n_ops);
			assert_int_equal(ends_seen, n_ends);
			assert_int_equal(frames_seen, n_frames);
			assert_int_equal(sends_seen + lone, n_msgs);
			for (uint32_t c = 0; c < n_colls; c++)
				assert_int_equal(members[c], colls[c].member_count);
			free(members);
		}
		trace_destroy(t);
	}
}

static void
rank_of_finds_the_holder(void **state)
{
	(void)state;
	const uint32_t first[] = { 0, 3, 3, 7, 10 };
	const uint32_t want[] = { 0, 0, 0, 2, 2, 2, 2, 3, 3, 3 };
	for (uint32_t tl = 0; tl < 10; tl++)
		assert_int_equal(dmodel_rank_of(first, 4, tl), want[tl]);
}

int
main(void)
{
	glob_t g;
	if (tu_corpus_glob(&g, "test_dist"))
		return 1;
	paths = g.gl_pathv;
	n_paths = g.gl_pathc;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dcomm_threads_computes_each_operation),
		cmocka_unit_test(shards_tile_the_model),
		cmocka_unit_test(rank_of_finds_the_holder),
	};
	int rc = cmocka_run_group_tests_name("distributed groundwork", tests, NULL, NULL);
	globfree(&g);
	return rc;
}
