/* test_share.c — a distributed read's shares (otf2/otf2_read.h:
 * otf2_share_*; model/build.h: build_block_pack, build_join_unpack), without MPI: on
 * every corpus trace, each of n parts (1 to 5, more parts than locations
 * included) is read on its own, parts 1.. are packed to bytes and added
 * to part 0 as skein-mpi sends them (every head, then every block, in part
 * order), and the joined model is the one otf2_read() gives, array by
 * array; the pieces are checked on the way in (another order, cut short,
 * bytes past the end, missing). skein-mpi's end-to-end test is
 * tests/mpi.sh.
 * Under ASan 1, 3 and 5 of them (disttest.h: DT_NEXT_RANKS). */
#include "testutil.h"

#include <glob.h>
#include <stdlib.h>
#include <string.h>

#include "model/trace.h"
#include "disttest.h"
#include "testotf2.h"

static char **paths;
static size_t n_paths;

/* Piece i of part p's share, added to part 0. */
static void
add_piece(struct otf2_share *s0, struct otf2_share *sp, uint32_t p, uint32_t i)
{
	struct err e = { 0 };
	size_t len = otf2_share_piece_size(sp, i);
	char *buf = malloc(len ? len : 1);
	assert_non_null(buf);
	otf2_share_pack_piece(sp, i, buf);
	if (otf2_share_add_piece(s0, buf, len, &e)) {
		print_error("adding piece %u of part %u: %s\n", i, p, e.msg);
		fail();
	}
	free(buf);
}

/* Reads path as n parts and joins them as skein-mpi does: every other
 * part's head, then their blocks, in part order; NULL on failure
 * (reported). */
static struct trace *
read_shared(const char *path, uint32_t n)
{
	struct otf2_share **s = calloc(n, sizeof *s);
	struct err e = { 0 };
	assert_non_null(s);
	for (uint32_t p = 0; p < n; p++)
		if (otf2_share_read(path, NULL, p, n, &s[p], &e)) {
			print_error("%s part %u of %u: %s\n", path, p, n, e.msg);
			fail();
		}
	for (uint32_t p = 1; p < n; p++)
		add_piece(s[0], s[p], p, 0);
	for (uint32_t p = 1; p < n; p++) {
		for (uint32_t i = 1; i < otf2_share_pieces(s[p]); i++)
			add_piece(s[0], s[p], p, i);
		otf2_share_destroy(s[p]);
	}
	struct trace *t = NULL;
	if (otf2_share_finish(s[0], NULL, &t, &e)) {
		print_error("%s: joining %u parts: %s\n", path, n, e.msg);
		fail();
	}
	otf2_share_destroy(s[0]);
	free(s);
	return t;
}

/* The records of two models, field by field (records have padding). */
static void
same_model(const struct trace *a, const struct trace *b)
{
	uint32_t na, nb;
	trace_ops(a, &na);
	trace_ops(b, &nb);
	assert_int_equal(na, nb);
	for (uint32_t i = 0; i < na; i++) {
		struct trace_op oa = trace_op(a, i), ob = trace_op(b, i);
		assert_true(oa.t_enter == ob.t_enter && oa.t_exit == ob.t_exit);
		assert_true(oa.timeline == ob.timeline && oa.region == ob.region);
		assert_true(oa.frame == ob.frame && oa.end_first == ob.end_first);
		assert_true(oa.kind == ob.kind && oa.flags == ob.flags);
	}
	const struct trace_msg *ma = trace_msgs(a, &na), *mb = trace_msgs(b, &nb);
	assert_int_equal(na, nb);
	for (uint32_t i = 0; i < na; i++) {
		assert_true(ma[i].t_send == mb[i].t_send && ma[i].t_recv == mb[i].t_recv);
		assert_true(ma[i].bytes == mb[i].bytes && ma[i].send_op == mb[i].send_op);
		assert_true(ma[i].recv_op == mb[i].recv_op && ma[i].send_done_op == mb[i].send_done_op);
		assert_true(ma[i].sender == mb[i].sender && ma[i].receiver == mb[i].receiver);
		assert_true(ma[i].comm == mb[i].comm && ma[i].tag == mb[i].tag && ma[i].flags == mb[i].flags);
	}
	const struct trace_coll *ca = trace_colls(a, &na), *cb = trace_colls(b, &nb);
	assert_int_equal(na, nb);
	for (uint32_t i = 0; i < na; i++) {
		assert_true(ca[i].comm == cb[i].comm && ca[i].root == cb[i].root);
		assert_true(ca[i].member_first == cb[i].member_first && ca[i].member_count == cb[i].member_count);
		assert_true(ca[i].expected == cb[i].expected && ca[i].type == cb[i].type);
		assert_true(ca[i].bytes_sent == cb[i].bytes_sent && ca[i].bytes_recv == cb[i].bytes_recv);
	}
	uint32_t members = 0;
	for (uint32_t i = 0; i < na; i++)
		members += ca[i].member_count;
	if (members)
		assert_memory_equal(trace_coll_members(a), trace_coll_members(b), members * sizeof(uint32_t));
	const struct trace_end *ea = trace_ends(a, &na), *eb = trace_ends(b, &nb);
	assert_int_equal(na, nb);
	if (na)
		assert_memory_equal(ea, eb, na * sizeof *ea);
	const struct trace_frame *fa = trace_frames(a, &na), *fb = trace_frames(b, &nb);
	assert_int_equal(na, nb);
	if (na)
		assert_memory_equal(fa, fb, na * sizeof *fa);
	const struct trace_timeline *ta = trace_timelines(a, &na), *tb = trace_timelines(b, &nb);
	assert_int_equal(na, nb);
	if (na)
		assert_memory_equal(ta, tb, na * sizeof *ta);
	const struct trace_location *la = trace_locations(a, &na), *lb = trace_locations(b, &nb);
	assert_int_equal(na, nb);
	for (uint32_t i = 0; i < na; i++)
		assert_true(la[i].id == lb[i].id && la[i].events == lb[i].events &&
			    la[i].timeline == lb[i].timeline);
	/* counts, warnings and the time span */
	const struct trace_info *ia = trace_info(a), *ib = trace_info(b);
	assert_true(ia->t_begin == ib->t_begin && ia->t_end == ib->t_end && ia->events == ib->events);
	assert_memory_equal(ia->records, ib->records, sizeof ia->records);
	assert_memory_equal(ia->warnings, ib->warnings, sizeof ia->warnings);
	assert_true(ia->mpi_calls_without_records == ib->mpi_calls_without_records);
}

static void
shares_join_to_the_serial_model(void **state)
{
	(void)state;
	for (size_t i = 0; i < n_paths; i++) {
		struct trace *serial = tu_load(paths[i]);
		for (uint32_t n = DT_FIRST_RANKS; n <= DT_LAST_RANKS(5); n = DT_NEXT_RANKS(n)) {
			struct trace *t = read_shared(paths[i], n);
			same_model(serial, t);
			trace_destroy(t);
		}
		trace_destroy(serial);
	}
}

/* One location's local definitions missing or empty while the others map
 * ids: every part of every cut refuses the archive with the whole read's
 * error, whichever share holds that location. A part reads only its own
 * locations' local definitions through libotf2 and counts the others'
 * mapping tables and clock offsets from their records (otf2_read.c,
 * read_local_definitions); on four parts of a four-location archive the
 * part holding location 2 alone learns that the others map only from
 * that count. */
static void
local_definitions_of_other_shares(void **state)
{
	(void)state;
	char src[1200], tmp[] = "/tmp/skein-share-XXXXXX", cmd[4096], path[1300];
	PROJECT_PATH(src, "traces/corpus/coalesce-4");
	assert_non_null(mkdtemp(tmp));
	static const char *const fixups[] = { "rm traces/2.def", ": >traces/2.def" };
	for (size_t f = 0; f < sizeof fixups / sizeof *fixups; f++) {
		snprintf(cmd, sizeof cmd, "rm -rf '%s/a' && cp -r '%s' '%s/a' && cd '%s/a' && %s", tmp, src, tmp,
			 tmp, fixups[f]);
		assert_int_equal(system(cmd), 0);
		snprintf(path, sizeof path, "%s/a/traces.otf2", tmp);
		struct trace *t = NULL;
		struct err serial = { 0 };
		assert_int_equal(otf2_read(path, NULL, &t, &serial), ERR_FORMAT);
		assert_non_null(strstr(serial.msg, "/traces/2.def: local definitions"));
		for (uint32_t n = 1; n <= 5; n++)
			for (uint32_t p = 0; p < n; p++) {
				struct otf2_share *sh = NULL;
				struct err e = { 0 };
				int rc = otf2_share_read(path, NULL, p, n, &sh, &e);
				if (rc != ERR_FORMAT || strcmp(e.msg, serial.msg))
					print_error("part %u of %u: %d '%s', the whole read: '%s'\n", p, n, rc, e.msg,
						    serial.msg);
				assert_int_equal(rc, ERR_FORMAT);
				assert_string_equal(e.msg, serial.msg);
				assert_null(sh);
			}
	}
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
	assert_int_equal(system(cmd), 0);
}

/* Four locations whose local definitions hold a string each and neither
 * a mapping table nor a clock offset (the events use global ids), the
 * third's file removed: a warning, not an error, in the whole read and
 * in every part, and the joined model is the whole read's (a count of
 * the other shares' records that took any record for a mapping would
 * refuse it). */
static void
local_definitions_without_maps(void **state)
{
	(void)state;
	char tmp[] = "/tmp/skein-share-XXXXXX", dir[64], path[96];
	assert_non_null(mkdtemp(tmp));
	snprintf(dir, sizeof dir, "%s/a", tmp);
	OTF2_Archive *a = tu_new_archive(dir);
	for (OTF2_LocationRef l = 0; l < 4; l++) {
		OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(a, l);
		assert_non_null(w);
		for (uint64_t t = 10; t < 100; t += 10) {
			OTF2_EvtWriter_Enter(w, NULL, t + l, 0);
			OTF2_EvtWriter_Leave(w, NULL, t + l + 5, 0);
		}
		OTF2_Archive_CloseEvtWriter(a, w);
	}
	OTF2_Archive_CloseEvtFiles(a);
	OTF2_Archive_OpenDefFiles(a);
	for (OTF2_LocationRef l = 0; l < 4; l++) {
		OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(a, l);
		assert_non_null(d);
		OTF2_DefWriter_WriteString(d, 0, "local");
		OTF2_Archive_CloseDefWriter(a, d);
	}
	OTF2_Archive_CloseDefFiles(a);
	OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(a);
	assert_non_null(g);
	tu_plain_defs(g, 200, 1, 4, 18);
	OTF2_Archive_CloseGlobalDefWriter(a, g);
	OTF2_Archive_Close(a);
	snprintf(path, sizeof path, "%s/traces/2.def", dir);
	assert_int_equal(remove(path), 0);
	snprintf(path, sizeof path, "%s/traces.otf2", dir);
	struct trace *serial = tu_load(path);
	assert_int_equal(trace_info(serial)->warnings[WARN_NO_LOCAL_DEFS], 1);
	for (uint32_t n = 1; n <= 5; n++) {
		struct trace *t = read_shared(path, n);
		same_model(serial, t);
		trace_destroy(t);
	}
	trace_destroy(serial);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
	assert_int_equal(system(cmd), 0);
}

/* Packs piece i of s (freed with free()); *len its size. */
static char *
packed(struct otf2_share *s, uint32_t i, size_t *len)
{
	*len = otf2_share_piece_size(s, i);
	char *buf = malloc(*len + 8);
	assert_non_null(buf);
	otf2_share_pack_piece(s, i, buf);
	memset(buf + *len, 0, 8);
	return buf;
}

/* Heads out of order, cut short or with bytes past their end; a block
 * where a head is due; a block cut short; missing pieces: each refused
 * with what is wrong. */
static void
bad_pieces_refused(void **state)
{
	(void)state;
	struct otf2_share *s[3];
	struct err e = { 0 };
	for (uint32_t p = 0; p < 3; p++)
		assert_int_equal(otf2_share_read(paths[0], NULL, p, 3, &s[p], &e), 0);
	assert_true(otf2_share_pieces(s[1]) >= 2);
	size_t h1n, h2n, b1n;
	char *h1 = packed(s[1], 0, &h1n), *h2 = packed(s[2], 0, &h2n), *b1 = packed(s[1], 1, &b1n);
	/* part 2's head before part 1's */
	assert_int_equal(otf2_share_add_piece(s[0], h2, h2n, &e), ERR_FORMAT);
	assert_non_null(strstr(e.msg, "out of order"));
	/* a block where a head is due */
	struct err e2 = { 0 };
	assert_int_equal(otf2_share_add_piece(s[0], b1, b1n, &e2), ERR_FORMAT);
	assert_non_null(strstr(e2.msg, "not the one expected"));
	/* a head cut short, and with bytes past its end */
	struct err e3 = { 0 }, e4 = { 0 };
	assert_int_equal(otf2_share_add_piece(s[0], h1, h1n - 8, &e3), ERR_FORMAT);
	assert_non_null(strstr(e3.msg, "cut short"));
	assert_int_equal(otf2_share_add_piece(s[0], h1, h1n + 8, &e4), ERR_FORMAT);
	assert_non_null(strstr(e4.msg, "past its end"));
	/* the heads in order; then part 1's first block cut short */
	err_clear(&e);
	assert_int_equal(otf2_share_add_piece(s[0], h1, h1n, &e), 0);
	struct trace *t = NULL;
	struct err e5 = { 0 };
	assert_int_equal(otf2_share_finish(s[0], NULL, &t, &e5), ERR_USAGE);
	assert_non_null(strstr(e5.msg, "2 of 3 shares' heads"));
	assert_int_equal(otf2_share_add_piece(s[0], h2, h2n, &e), 0);
	struct err e6 = { 0 };
	assert_int_equal(otf2_share_add_piece(s[0], b1, b1n - 8, &e6), ERR_FORMAT);
	assert_non_null(strstr(e6.msg, "part 1's share"));
	for (uint32_t p = 0; p < 3; p++)
		otf2_share_destroy(s[p]);
	/* every head and no block: the join says what is missing */
	err_clear(&e);
	for (uint32_t p = 0; p < 2; p++)
		assert_int_equal(otf2_share_read(paths[0], NULL, p, 2, &s[p], &e), 0);
	free(h1);
	h1 = packed(s[1], 0, &h1n);
	assert_int_equal(otf2_share_add_piece(s[0], h1, h1n, &e), 0);
	struct err e7 = { 0 };
	assert_int_equal(otf2_share_finish(s[0], NULL, &t, &e7), ERR_FORMAT);
	assert_null(t);
	assert_non_null(strstr(e7.msg, "blocks of the other parts' shares came"));
	for (uint32_t p = 0; p < 2; p++)
		otf2_share_destroy(s[p]);
	/* a part outside the parts */
	assert_int_equal(otf2_share_read(paths[0], NULL, 3, 3, &s[0], &e), ERR_USAGE);
	assert_null(s[0]);
	free(h1);
	free(h2);
	free(b1);
}

int
main(void)
{
	dt_workers();
	char pat[1200];
	glob_t g;
	PROJECT_PATH(pat, "traces/corpus/*/traces.otf2");
	if (glob(pat, 0, NULL, &g) != 0 || g.gl_pathc == 0) {
		fprintf(stderr, "test_share: no traces/corpus/*/traces.otf2\n");
		return 1;
	}
	paths = dt_corpus(&g, &n_paths);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(shares_join_to_the_serial_model),
		cmocka_unit_test(bad_pieces_refused),
		cmocka_unit_test(local_definitions_of_other_shares),
		cmocka_unit_test(local_definitions_without_maps),
	};
	int rc = cmocka_run_group_tests_name("distributed read", tests, NULL, NULL);
	free(paths);
	globfree(&g);
	return rc;
}
