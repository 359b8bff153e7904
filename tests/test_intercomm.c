/* test_intercomm.c — messages and collectives on intercommunicators
 * (OTF2's InterComm; otf2/otf2_defs.c, model/build.c), in an archive
 * written by libotf2: 4 ranks, intercommunicator 1 between group A,
 * world ranks {0, 1}, and group B, {3, 2} (B's rank 0 is world rank 3),
 * and intercommunicator 2 between a COMM_SELF group and {1}.
 *
 *   rank 0: MPI_Send to remote rank 1 on 1    -> world 2 (B[1])
 *           MPI_Send to remote rank 0 on 2    -> world 1 (it is listed
 *                                                in neither group: the
 *                                                COMM_SELF side), unmatched
 *   rank 1: MPI_Send to remote rank 2 on 1    -> none (B has 2): dropped
 *           MPI_Recv from remote rank 0 on 1  -> world 3 (B[0])
 *   rank 2: MPI_Test that completed nothing   -> no records
 *           MPI_Recv from remote rank 0 on 1  -> world 0 (A[0])
 *   rank 3: MPI_Send to remote rank 1 on 1    -> world 1 (A[1])
 *   all:    MPI_Bcast on 1 (roots: OTF2's ROOT_SELF on rank 0,
 *           THIS_GROUP on 1, remote rank 0 on 2 and 3): not analysed,
 *           each record dropped and counted; then MPI_Barrier on
 *           MPI_COMM_WORLD, a collective as ever.
 *
 * Worked out: 3 messages (0 -> 2 and 3 -> 1 matched, 0 -> 1 a send
 * without its receive), 5 records dropped (one send, four collective
 * halves), 1 collective; 1 communication call without records (the
 * MPI_Test: a call whose records were dropped is none). Both event
 * decoders (skein's and libotf2's). */
#include "testutil.h"
#include "testotf2.h"

#include <stdlib.h>
#include <string.h>

#include "base/err.h"

static char tmpdir[] = "/tmp/skein-inter-XXXXXX";

enum { R_MAIN, R_SEND, R_RECV, R_BCAST, R_BARRIER, R_TEST, N_REGIONS };
enum { C_WORLD, C_INTER, C_INTER_SELF };

static void
defs(OTF2_Archive *a)
{
	OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(a);
	assert_non_null(g);
	OTF2_GlobalDefWriter_WriteClockProperties(g, 1000, 0, 1000, OTF2_UNDEFINED_TIMESTAMP);
	const char *s[] = { "", "main", "MPI_Send", "MPI_Recv", "MPI_Bcast", "MPI_Barrier",
			    "MPI_Test", "rank", "node", "MPI_COMM_WORLD" };
	for (uint32_t i = 0; i < sizeof s / sizeof *s; i++)
		OTF2_GlobalDefWriter_WriteString(g, i, s[i]);
	for (uint32_t r = 0; r < N_REGIONS; r++)
		OTF2_GlobalDefWriter_WriteRegion(g, r, r + 1, r + 1, 0, OTF2_REGION_ROLE_FUNCTION,
						 r ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_USER,
						 OTF2_REGION_FLAG_NONE, 0, 0, 0);
	OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, 8, 8, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
	for (uint32_t l = 0; l < 4; l++) {
		OTF2_GlobalDefWriter_WriteLocationGroup(g, l, 7, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
							OTF2_UNDEFINED_LOCATION_GROUP);
		OTF2_GlobalDefWriter_WriteLocation(g, l, 7, OTF2_LOCATION_TYPE_CPU_THREAD, 0, l);
	}
	const uint64_t all[] = { 0, 1, 2, 3 }, a_side[] = { 0, 1 }, b_side[] = { 3, 2 }, one[] = { 1 };
	OTF2_GlobalDefWriter_WriteGroup(g, 0, 0, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
					OTF2_GROUP_FLAG_NONE, 4, all);
	OTF2_GlobalDefWriter_WriteGroup(g, 1, 0, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
					OTF2_GROUP_FLAG_NONE, 4, all);
	OTF2_GlobalDefWriter_WriteGroup(g, 2, 0, OTF2_GROUP_TYPE_COMM_SELF, OTF2_PARADIGM_MPI,
					OTF2_GROUP_FLAG_NONE, 0, NULL);
	OTF2_GlobalDefWriter_WriteGroup(g, 3, 0, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
					OTF2_GROUP_FLAG_NONE, 2, a_side);
	OTF2_GlobalDefWriter_WriteGroup(g, 4, 0, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
					OTF2_GROUP_FLAG_NONE, 2, b_side);
	OTF2_GlobalDefWriter_WriteGroup(g, 5, 0, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
					OTF2_GROUP_FLAG_NONE, 1, one);
	OTF2_GlobalDefWriter_WriteComm(g, C_WORLD, 9, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
	OTF2_GlobalDefWriter_WriteInterComm(g, C_INTER, 0, 3, 4, C_WORLD, OTF2_COMM_FLAG_NONE);
	OTF2_GlobalDefWriter_WriteInterComm(g, C_INTER_SELF, 0, 2, 5, C_WORLD, OTF2_COMM_FLAG_NONE);
	OTF2_Archive_CloseGlobalDefWriter(a, g);
}

/* An MPI call of region r over [t, t + 3), its record at t + 1. */
#define CALL(w, t, r, rec) \
	do { \
		OTF2_EvtWriter_Enter(w, NULL, (t), (r)); \
		rec; \
		OTF2_EvtWriter_Leave(w, NULL, (t) + 3, (r)); \
	} while (0)

static void
events(OTF2_Archive *a, uint32_t l)
{
	OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(a, l);
	assert_non_null(w);
	OTF2_EvtWriter_Enter(w, NULL, 1, R_MAIN);
	switch (l) {
	case 0:
		CALL(w, 10, R_SEND, OTF2_EvtWriter_MpiSend(w, NULL, 11, 1, C_INTER, 5, 8));
		CALL(w, 20, R_SEND, OTF2_EvtWriter_MpiSend(w, NULL, 21, 0, C_INTER_SELF, 7, 8));
		break;
	case 1:
		CALL(w, 10, R_SEND, OTF2_EvtWriter_MpiSend(w, NULL, 11, 2, C_INTER, 5, 8));
		CALL(w, 20, R_RECV, OTF2_EvtWriter_MpiRecv(w, NULL, 21, 0, C_INTER, 6, 16));
		break;
	case 2:
		CALL(w, 10, R_TEST, (void)0);
		CALL(w, 20, R_RECV, OTF2_EvtWriter_MpiRecv(w, NULL, 21, 0, C_INTER, 5, 8));
		break;
	case 3:
		CALL(w, 10, R_SEND, OTF2_EvtWriter_MpiSend(w, NULL, 11, 1, C_INTER, 6, 16));
		break;
	}
	uint32_t root = l == 0 ? OTF2_COLLECTIVE_ROOT_SELF : l == 1 ? OTF2_COLLECTIVE_ROOT_THIS_GROUP : 0;
	OTF2_EvtWriter_Enter(w, NULL, 30, R_BCAST);
	OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, 30);
	OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, 32, OTF2_COLLECTIVE_OP_BCAST, C_INTER, root,
					l == 0 ? 16 : 0, l >= 2 ? 8 : 0);
	OTF2_EvtWriter_Leave(w, NULL, 33, R_BCAST);
	OTF2_EvtWriter_Enter(w, NULL, 40, R_BARRIER);
	OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, 40);
	OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, 42, OTF2_COLLECTIVE_OP_BARRIER, C_WORLD,
					OTF2_UNDEFINED_UINT32, 0, 0);
	OTF2_EvtWriter_Leave(w, NULL, 43, R_BARRIER);
	OTF2_EvtWriter_Leave(w, NULL, 50, R_MAIN);
	OTF2_Archive_CloseEvtWriter(a, w);
}

static void
check(const char *anchor)
{
	struct trace *t = tu_load(anchor);
	const struct trace_info *info = trace_info(t);
	uint32_t n = 0;
	const struct trace_msg *m = trace_msgs(t, &n);
	assert_int_equal(n, 3);
	/* (sender, receiver, tag, matched) in the order sent */
	unsigned seen = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (m[i].sender == 0 && m[i].receiver == 2 && m[i].tag == 5) {
			assert_int_equal(m[i].comm, C_INTER);
			assert_true(m[i].recv_op != TRACE_NONE);
			seen |= 1;
		} else if (m[i].sender == 3 && m[i].receiver == 1 && m[i].tag == 6) {
			assert_true(m[i].recv_op != TRACE_NONE);
			assert_int_equal(m[i].bytes, 16);
			seen |= 2;
		} else if (m[i].sender == 0 && m[i].receiver == 1 && m[i].tag == 7) {
			assert_int_equal(m[i].comm, C_INTER_SELF);
			assert_true(m[i].recv_op == TRACE_NONE);
			seen |= 4;
		}
	}
	assert_int_equal(seen, 7);
	assert_int_equal(info->warnings[WARN_BAD_PEER], 5);
	assert_int_equal(info->warnings[WARN_UNMATCHED_SEND], 1);
	assert_int_equal(info->warnings[WARN_UNMATCHED_RECV], 0);
	assert_int_equal(info->warnings[WARN_INCOMPLETE_COLL], 0);
	/* rank 2's MPI_Test carried nothing; the calls whose records were
	 * dropped (rank 1's send, the four MPI_Bcast) did carry some */
	assert_int_equal(info->mpi_calls_without_records, 1);
	const struct trace_coll *c = trace_colls(t, &n);
	assert_int_equal(n, 1);
	assert_int_equal(c[0].comm, C_WORLD);
	/* an intercommunicator's members: both groups, A's first */
	const struct trace_comm *cm = trace_comms(t, &n);
	const uint32_t *mem = trace_comm_members(t);
	assert_int_equal(n, 3);
	assert_int_equal(cm[C_INTER].size, 4);
	assert_int_equal(mem[cm[C_INTER].member_first + 2], 3);
	assert_int_equal(cm[C_INTER].parent, C_WORLD);
	trace_destroy(t);
}

static void
messages_on_intercommunicators(void **state)
{
	(void)state;
	char dir[64], anchor[80];
	snprintf(dir, sizeof dir, "%s/a", tmpdir);
	OTF2_Archive *a = tu_new_archive(dir);
	for (uint32_t l = 0; l < 4; l++)
		events(a, l);
	OTF2_Archive_CloseEvtFiles(a);
	defs(a);
	OTF2_Archive_Close(a);
	snprintf(anchor, sizeof anchor, "%s/traces.otf2", dir);
	check(anchor);
	setenv("SKEIN_OTF2_EVENTS", "library", 1);
	check(anchor);
	unsetenv("SKEIN_OTF2_EVENTS");
}

static int
setup(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int
teardown(void **state)
{
	(void)state;
	char cmd[64];
	snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
	return getenv("KEEP") ? 0 : system(cmd) == 0 ? 0 : -1;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(messages_on_intercommunicators),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
