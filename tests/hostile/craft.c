/* craft.c — writes small hostile OTF2 archives with the OTF2 writer, for
 * tests/hostile.sh and the fuzz seeds (doc/robustness.md lists them).
 *
 *   craft KIND DIR [N]
 *
 * Every archive is valid OTF2 as far as the writer is concerned; what makes
 * it hostile is what it says:
 *
 *   plain N         N ranks (default 4) in a ring: each sends one message to
 *                   the next and receives one from the previous, four times.
 *                   Events name regions and the communicator by local ids
 *                   that only the local definitions' mapping tables turn
 *                   into the global ones, as Score-P writes them.
 *   big-ids         plain, with every definition id near 2^26 (strings,
 *                   regions, groups, communicators, system tree nodes,
 *                   location groups)
 *   spread-comms N  plain, plus N communicators whose ids are spread out
 *                   (id i * 3355), each with its own group
 *   wide-comms N    plain, plus one group of 100,000 members and N
 *                   communicators (default 20,000) that all name it
 *   many-locs N     plain, plus N non-rank locations (no events of their
 *                   own), the definition chunk size at OTF2's maximum (16
 *                   MiB)
 *   many-defs N     many-locs, each extra location with a local definitions
 *                   file of its own (a clock offset)
 *   global-ids      plain, but the events name the global ids and the
 *                   local definitions files are empty (no mapping tables)
 *   escape          plain, with terminal escape sequences in the creator,
 *                   region, rank, node and location names
 *   unicode         escape, each of those names followed by UNICODE below:
 *                   every bidirectional control, the line and paragraph
 *                   separators and the byte-order mark, characters of 2,
 *                   3 and 4 bytes, and bytes that are not UTF-8 (overlong,
 *                   surrogate, past U+10FFFF, 5-byte, stray and truncated)
 *   wide            plain, its main region named in characters two
 *                   columns wide (CJK, emoji) and with combining accents,
 *                   its node and ranks in short ones ("ノード", "ランク 0":
 *                   names that fit a report's column)
 *   wide-long       wide, its node and ranks named past any report's
 *                   column ("ノード計算クラスタ第一ラック_nid001234.cluster.
 *                   example.org", 58 columns, its 31st byte inside 一;
 *                   "ランク 0_計算プロセス_job-12345678", 33 columns)
 *   huge-bytes      plain, with messages claiming 2^63 bytes each
 *   no-comm N       plain without its messages: the calls, no records in
 *                   them (nothing to analyse: no communication, no threads)
 *   bad-locks       plain, each rank's main with thread lock records that
 *                   do not pair: a release of a lock never taken (9), lock 1
 *                   taken and released, lock 2 taken inside it and never
 *                   released, lock 3 taken at the end, and after main lock
 *                   5 released at the largest timestamp (two holds a rank)
 *   many-locks N    plain, each rank taking N distinct locks (default
 *                   200,000) and letting them go in the order it took them
 *   reversed N      plain, but MPI_COMM_WORLD lists the locations last
 *                   first: location k is rank N-1-k, so the ranks' event
 *                   files come in the reverse of rank order
 *   dup-defs        plain, with a string, a region, a location, a group and
 *                   the world communicator each defined a second time,
 *                   differently (a region renamed "MPI_Recv", ...)
 *   late-offset     plain, the clock's global offset past every event
 *   zero-resolution plain, the clock's resolution 0 ticks a second
 *   many-teams N    plain, each rank's main beginning N distinct OpenMP
 *                   teams (default 200,000; the first the undefined one),
 *                   each with a parallel region (main again), then creating
 *                   a task with no region open and switching to one with
 *                   no region entered after; and 10,000 threads of rank 0
 *                   (after the ranks) each beginning one team
 *
 * Exit status 0, or 1 with a message naming the failing call.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otf2/otf2.h>

#define BIG (1u << 26)
#define ITERS 4

/* What the unicode kind adds to every name: U+202E (the text after it
 * shown right to left: "gnp." reads ".png"), the other bidirectional
 * controls, U+2028-2029 and U+FEFF; then é, € and U+1F600; then C0 AF,
 * E0 80 AF and F0 80 80 AF (overlong '/'), ED A0 80 (U+D800), F4 90 80
 * 80 (U+110000), F8 88 80 80 80 (a 5-byte form), a stray 80, E2 82 cut
 * short by '!', and F0 9F 98 cut short by the end of the name. */
#define UNICODE "\xe2\x80\xae" "gnp." "\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad" \
	"\xe2\x81\xa6\xe2\x81\xa7\xe2\x81\xa8\xe2\x81\xa9\xe2\x80\x8e\xe2\x80\x8f\xd8\x9c" \
	"\xe2\x80\xa8\xe2\x80\xa9\xef\xbb\xbf" "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80" \
	"\xc0\xaf\xe0\x80\xaf\xf0\x80\x80\xaf\xed\xa0\x80\xf4\x90\x80\x80\xf8\x88\x80\x80\x80\x80" \
	"\xe2\x82" "!" "\xf0\x9f\x98"

struct spec {
	const char *kind;
	uint32_t ranks;
	uint32_t base;           /* added to every definition id */
	uint32_t spread_comms;
	uint32_t wide_comms;     /* communicators over one large group */
	uint32_t extra_locs;
	bool extra_defs;         /* the extra locations have local definitions */
	uint64_t def_chunk;
	uint64_t msg_bytes;
	bool escape;
	bool unicode;            /* UNICODE after every escaped name */
	bool wide;               /* wide and combining characters in main's name */
	bool long_names;         /* wide, with the node's and ranks' names long */
	bool global_ids;         /* events name global ids; no mapping tables */
	bool no_msgs;            /* the send and receive calls hold no records */
	bool bad_locks;          /* lock records that do not pair (above) */
	uint32_t many_locks;     /* locks held at once */
	uint32_t many_teams;     /* teams begun */
	uint32_t team_threads;   /* threads of rank 0 beginning one team each */
	bool reversed;           /* location k is rank ranks-1-k */
	uint64_t resolution, offset;     /* the clock properties */
	bool dup_defs;           /* five ids defined twice */
};
#define LOCK_EVENTS 7

/* global ids, before spec.base is added */
enum { S_EMPTY, S_MPI, S_MAIN, S_SEND, S_RECV, S_WORLD, S_NODE, S_MACHINE, S_THREAD,
       S_RANK0 };
enum { R_MAIN, R_SEND, R_RECV, R_COUNT };
enum { G_LOCS, G_WORLD };
enum { C_WORLD };

static void
check(OTF2_ErrorCode rc, const char *what)
{
	if (rc != OTF2_SUCCESS) {
		fprintf(stderr, "craft: %s: %s\n", what, OTF2_Error_GetDescription(rc));
		exit(1);
	}
}
#define CHECK(call) check((call), #call)

static OTF2_FlushType
pre_flush(void *u, OTF2_FileType t, OTF2_LocationRef l, void *c, bool final)
{
	(void)u; (void)t; (void)l; (void)c; (void)final;
	return OTF2_FLUSH;
}

static OTF2_FlushCallbacks flush_cb = { .otf2_pre_flush = pre_flush, .otf2_post_flush = NULL };

/* Local ids in the event files: the reverse of the global order, so that
 * an archive read without its mapping tables names the wrong things. */
static bool global_ids;
static uint32_t local_region(uint32_t g) { return global_ids ? g : R_COUNT - 1 - g; }
#define LOCAL_COMM (global_ids ? (uint32_t)C_WORLD : 7u)

static void
write_events(OTF2_Archive *a, const struct spec *s)
{
	CHECK(OTF2_Archive_OpenEvtFiles(a));
	uint32_t n = s->ranks;
	for (uint32_t loc = 0; loc < n; loc++) {
		OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(a, loc);
		if (!w)
			check(OTF2_ERROR_INVALID, "OTF2_Archive_GetEvtWriter");
		uint32_t r = s->reversed ? n - 1 - loc : loc;      /* its rank */
		uint64_t t = 1000;
		CHECK(OTF2_EvtWriter_Enter(w, NULL, t++, local_region(R_MAIN)));
		if (s->bad_locks) {
			CHECK(OTF2_EvtWriter_ThreadReleaseLock(w, NULL, t++, OTF2_PARADIGM_OPENMP, 9, 1));
			CHECK(OTF2_EvtWriter_ThreadAcquireLock(w, NULL, t++, OTF2_PARADIGM_OPENMP, 1, 1));
			CHECK(OTF2_EvtWriter_ThreadAcquireLock(w, NULL, t++, OTF2_PARADIGM_OPENMP, 2, 1));
			CHECK(OTF2_EvtWriter_ThreadReleaseLock(w, NULL, t++, OTF2_PARADIGM_OPENMP, 1, 1));
		}
		for (uint32_t i = 0; i < ITERS; i++) {
			/* even ranks send first; the ring never deadlocks */
			for (int half = 0; half < 2; half++) {
				int sending = (r % 2 == 0) == (half == 0);
				uint32_t g = sending ? R_SEND : R_RECV;
				t += 100 + 10 * r;
				CHECK(OTF2_EvtWriter_Enter(w, NULL, t++, local_region(g)));
				if (s->no_msgs)
					;
				else if (sending)
					CHECK(OTF2_EvtWriter_MpiSend(w, NULL, t++, (r + 1) % n, LOCAL_COMM, i,
								     s->msg_bytes));
				else
					CHECK(OTF2_EvtWriter_MpiRecv(w, NULL, t++, (r + n - 1) % n, LOCAL_COMM, i,
								     s->msg_bytes));
				CHECK(OTF2_EvtWriter_Leave(w, NULL, t++, local_region(g)));
			}
		}
		if (s->bad_locks)
			CHECK(OTF2_EvtWriter_ThreadAcquireLock(w, NULL, t++, OTF2_PARADIGM_OPENMP, 3, 1));
		for (uint32_t k = 0; k < s->many_locks; k++)
			CHECK(OTF2_EvtWriter_ThreadAcquireLock(w, NULL, t++, OTF2_PARADIGM_PTHREAD, k, 1));
		for (uint32_t k = 0; k < s->many_locks; k++)
			CHECK(OTF2_EvtWriter_ThreadReleaseLock(w, NULL, t++, OTF2_PARADIGM_PTHREAD, k, 1));
		for (uint32_t k = 0; k < s->many_teams; k++) {
			CHECK(OTF2_EvtWriter_ThreadTeamBegin(w, NULL, t++, k ? k * 2654435761u : OTF2_UNDEFINED_COMM));
			CHECK(OTF2_EvtWriter_Enter(w, NULL, t++, local_region(R_MAIN)));
			CHECK(OTF2_EvtWriter_Leave(w, NULL, t++, local_region(R_MAIN)));
		}
		if (s->many_teams) {
			CHECK(OTF2_EvtWriter_ThreadTaskCreate(w, NULL, t++, 1, 0, 1));
			CHECK(OTF2_EvtWriter_ThreadTaskSwitch(w, NULL, t++, 1, 0, 1));
		}
		CHECK(OTF2_EvtWriter_Leave(w, NULL, t++, local_region(R_MAIN)));
		if (s->bad_locks) {      /* the largest time marks no open hold */
			CHECK(OTF2_EvtWriter_ThreadAcquireLock(w, NULL, t++, OTF2_PARADIGM_OPENMP, 5, 1));
			CHECK(OTF2_EvtWriter_ThreadReleaseLock(w, NULL, UINT64_MAX, OTF2_PARADIGM_OPENMP, 5, 1));
		}
		CHECK(OTF2_Archive_CloseEvtWriter(a, w));
	}
	for (uint32_t k = 0; k < s->team_threads; k++) {
		OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(a, (uint64_t)n + k);
		if (!w)
			check(OTF2_ERROR_INVALID, "OTF2_Archive_GetEvtWriter");
		CHECK(OTF2_EvtWriter_ThreadTeamBegin(w, NULL, 2000, 5));
		CHECK(OTF2_EvtWriter_Enter(w, NULL, 2001, local_region(R_MAIN)));
		CHECK(OTF2_EvtWriter_Leave(w, NULL, 2002, local_region(R_MAIN)));
		CHECK(OTF2_Archive_CloseEvtWriter(a, w));
	}
	CHECK(OTF2_Archive_CloseEvtFiles(a));
}

static void
write_local_defs(OTF2_Archive *a, const struct spec *s)
{
	CHECK(OTF2_Archive_OpenDefFiles(a));
	for (uint32_t r = 0; r < s->ranks + s->team_threads; r++) {
		OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(a, r);
		if (!dw)
			check(OTF2_ERROR_INVALID, "OTF2_Archive_GetDefWriter");
		if (s->global_ids) {            /* an empty file */
			CHECK(OTF2_Archive_CloseDefWriter(a, dw));
			continue;
		}
		OTF2_IdMap *m = OTF2_IdMap_Create(OTF2_ID_MAP_SPARSE, R_COUNT);
		for (uint32_t g = 0; g < R_COUNT; g++)
			CHECK(OTF2_IdMap_AddIdPair(m, local_region(g), s->base + g));
		CHECK(OTF2_DefWriter_WriteMappingTable(dw, OTF2_MAPPING_REGION, m));
		OTF2_IdMap_Free(m);
		m = OTF2_IdMap_Create(OTF2_ID_MAP_SPARSE, 1);
		CHECK(OTF2_IdMap_AddIdPair(m, LOCAL_COMM, s->base + C_WORLD));
		CHECK(OTF2_DefWriter_WriteMappingTable(dw, OTF2_MAPPING_COMM, m));
		OTF2_IdMap_Free(m);
		CHECK(OTF2_Archive_CloseDefWriter(a, dw));
	}
	for (uint32_t k = 0; s->extra_defs && k < s->extra_locs; k++) {
		OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(a, (uint64_t)s->ranks + k);
		if (!dw)
			check(OTF2_ERROR_INVALID, "OTF2_Archive_GetDefWriter");
		CHECK(OTF2_DefWriter_WriteClockOffset(dw, 0, 0, 0.0));
		CHECK(OTF2_Archive_CloseDefWriter(a, dw));
	}
	CHECK(OTF2_Archive_CloseDefFiles(a));
}

/* The name plain, or hostile, or hostile with UNICODE after it (in one
 * of a few buffers: the writer copies it before the next call reuses
 * it). */
static const char *
name(const struct spec *s, const char *plain, const char *hostile)
{
	static char buf[4][256];
	static unsigned k;
	if (!s->unicode)
		return s->escape ? hostile : plain;
	char *b = buf[k++ % 4];
	snprintf(b, sizeof buf[0], "%s%s", hostile, UNICODE);
	return b;
}

static void
write_global_defs(OTF2_Archive *a, const struct spec *s)
{
	OTF2_GlobalDefWriter *w = OTF2_Archive_GetGlobalDefWriter(a);
	if (!w)
		check(OTF2_ERROR_INVALID, "OTF2_Archive_GetGlobalDefWriter");
	uint32_t b = s->base, n = s->ranks;
	CHECK(OTF2_GlobalDefWriter_WriteClockProperties(w, s->resolution, s->offset, 1000000, 0));
	CHECK(OTF2_GlobalDefWriter_WriteString(w, b + S_EMPTY, ""));
	CHECK(OTF2_GlobalDefWriter_WriteString(w, b + S_MPI, "MPI"));
	CHECK(OTF2_GlobalDefWriter_WriteString(w, b + S_MAIN, s->wide
		? "\u8a08\u7b97\u30eb\u30fc\u30d7_\u4e3b\u8981\u90e8\u5206_\U0001F680\U0001F680_"
		  "cafe\u0301_re\u0301sume\u0301_\u8a08\u7b97\u30eb\u30fc\u30d7\u306e\u7d42\u308f\u308a"
		: name(s, "main", "ma\"in,\033[2J")));
	CHECK(OTF2_GlobalDefWriter_WriteString(w, b + S_SEND, "MPI_Send"));
	CHECK(OTF2_GlobalDefWriter_WriteString(w, b + S_RECV, "MPI_Recv"));
	CHECK(OTF2_GlobalDefWriter_WriteString(w, b + S_WORLD, "MPI_COMM_WORLD"));
	CHECK(OTF2_GlobalDefWriter_WriteString(w, b + S_NODE, s->long_names
		? "\u30ce\u30fc\u30c9\u8a08\u7b97\u30af\u30e9\u30b9\u30bf\u7b2c\u4e00\u30e9\u30c3\u30af"
		  "_nid001234.cluster.example.org"
		: s->wide ? "\u30ce\u30fc\u30c9" : name(s, "node", "no\033]0;owned\007de")));
	CHECK(OTF2_GlobalDefWriter_WriteString(w, b + S_MACHINE, "machine"));
	CHECK(OTF2_GlobalDefWriter_WriteString(w, b + S_THREAD, name(s, "Master thread", "thread\r\033[K")));
	char buf[64];
	for (uint32_t r = 0; r < n; r++) {
		snprintf(buf, sizeof buf, s->escape ? "rank\033[31m%u"
			 : s->long_names ? "\u30e9\u30f3\u30af %u_\u8a08\u7b97\u30d7\u30ed\u30bb\u30b9_job-12345678"
			 : s->wide ? "\u30e9\u30f3\u30af %u" : "MPI Rank %u", r);
		CHECK(OTF2_GlobalDefWriter_WriteString(w, b + S_RANK0 + r, name(s, buf, buf)));
	}
	CHECK(OTF2_GlobalDefWriter_WriteSystemTreeNode(w, b, b + S_MACHINE, b + S_MACHINE,
						       OTF2_UNDEFINED_SYSTEM_TREE_NODE));
	CHECK(OTF2_GlobalDefWriter_WriteSystemTreeNode(w, b + 1, b + S_NODE, b + S_NODE, b));
	for (uint32_t r = 0; r < n; r++)
		CHECK(OTF2_GlobalDefWriter_WriteLocationGroup(w, b + r, b + S_RANK0 + (s->reversed ? n - 1 - r : r),
							      OTF2_LOCATION_GROUP_TYPE_PROCESS, b + 1,
							      OTF2_UNDEFINED_LOCATION_GROUP));
	for (uint32_t r = 0; r < n; r++)
		CHECK(OTF2_GlobalDefWriter_WriteLocation(w, r, b + S_THREAD, OTF2_LOCATION_TYPE_CPU_THREAD,
							 2 + ITERS * 6 + (s->bad_locks ? LOCK_EVENTS : 0) +
							 2 * (uint64_t)s->many_locks +
							 (s->many_teams ? 3 * (uint64_t)s->many_teams + 2 : 0), b + r));
	/* locations without events (e.g. metric locations) */
	for (uint32_t k = 0; k < s->team_threads; k++)
		CHECK(OTF2_GlobalDefWriter_WriteLocation(w, (uint64_t)n + k, b + S_THREAD,
							 OTF2_LOCATION_TYPE_CPU_THREAD, 3, b));
	for (uint32_t k = 0; k < s->extra_locs; k++)
		CHECK(OTF2_GlobalDefWriter_WriteLocation(w, (uint64_t)n + k, b + S_THREAD,
							 OTF2_LOCATION_TYPE_METRIC, 0, b));
	static const struct { uint32_t str; OTF2_RegionRole role; OTF2_Paradigm par; } reg[R_COUNT] = {
		[R_MAIN] = { S_MAIN, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER },
		[R_SEND] = { S_SEND, OTF2_REGION_ROLE_POINT2POINT, OTF2_PARADIGM_MPI },
		[R_RECV] = { S_RECV, OTF2_REGION_ROLE_POINT2POINT, OTF2_PARADIGM_MPI },
	};
	for (uint32_t g = 0; g < R_COUNT; g++)
		CHECK(OTF2_GlobalDefWriter_WriteRegion(w, b + g, b + reg[g].str, b + reg[g].str, b + S_EMPTY,
						       reg[g].role, reg[g].par, OTF2_REGION_FLAG_NONE,
						       b + S_EMPTY, 0, 0));
	uint64_t *members = malloc((n ? n : 1) * sizeof *members);
	if (!members)
		check(OTF2_ERROR_MEM_ALLOC_FAILED, "malloc");
	for (uint32_t r = 0; r < n; r++)
		members[r] = s->reversed ? n - 1 - r : r;
	CHECK(OTF2_GlobalDefWriter_WriteGroup(w, b + G_LOCS, b + S_EMPTY, OTF2_GROUP_TYPE_COMM_LOCATIONS,
					      OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, n, members));
	for (uint32_t r = 0; r < n; r++)
		members[r] = r;      /* the world's ranks, in the locations' group */
	CHECK(OTF2_GlobalDefWriter_WriteGroup(w, b + G_WORLD, b + S_EMPTY, OTF2_GROUP_TYPE_COMM_GROUP,
					      OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, n, members));
	CHECK(OTF2_GlobalDefWriter_WriteComm(w, b + C_WORLD, b + S_WORLD, b + G_WORLD,
					     OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE));
	if (s->dup_defs) {      /* each id again, saying something else */
		CHECK(OTF2_GlobalDefWriter_WriteString(w, b + S_MAIN, "other"));
		CHECK(OTF2_GlobalDefWriter_WriteRegion(w, b + R_MAIN, b + S_RECV, b + S_RECV, b + S_EMPTY,
						       OTF2_REGION_ROLE_POINT2POINT, OTF2_PARADIGM_MPI,
						       OTF2_REGION_FLAG_NONE, b + S_EMPTY, 0, 0));
		CHECK(OTF2_GlobalDefWriter_WriteLocation(w, 0, b + S_THREAD, OTF2_LOCATION_TYPE_METRIC, 0, b));
		CHECK(OTF2_GlobalDefWriter_WriteGroup(w, b + G_WORLD, b + S_EMPTY, OTF2_GROUP_TYPE_COMM_GROUP,
						      OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 1, members));
		CHECK(OTF2_GlobalDefWriter_WriteComm(w, b + C_WORLD, b + S_MAIN, b + G_LOCS,
						     OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE));
	}
	/* communicators with spread-out ids, each over its own group */
	for (uint32_t k = 0; k < s->spread_comms; k++) {
		uint32_t id = (k + 1) * 3355u;
		CHECK(OTF2_GlobalDefWriter_WriteGroup(w, id, b + S_EMPTY, OTF2_GROUP_TYPE_COMM_GROUP,
						      OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, n, members));
		CHECK(OTF2_GlobalDefWriter_WriteComm(w, id, b + S_WORLD, id, b + C_WORLD,
						     OTF2_COMM_FLAG_NONE));
	}
	free(members);
	if (s->wide_comms) {
		enum { WIDE = 100000 };
		uint64_t *wide = malloc(WIDE * sizeof *wide);
		if (!wide)
			check(OTF2_ERROR_MEM_ALLOC_FAILED, "malloc");
		for (uint32_t k = 0; k < WIDE; k++)
			wide[k] = k;
		CHECK(OTF2_GlobalDefWriter_WriteGroup(w, b + 100, b + S_EMPTY, OTF2_GROUP_TYPE_COMM_GROUP,
						      OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, WIDE, wide));
		free(wide);
		for (uint32_t k = 0; k < s->wide_comms; k++)
			CHECK(OTF2_GlobalDefWriter_WriteComm(w, b + 100 + k, b + S_WORLD, b + 100,
							     b + C_WORLD, OTF2_COMM_FLAG_NONE));
	}
	CHECK(OTF2_Archive_CloseGlobalDefWriter(a, w));
}

static int
parse(int argc, char **argv, struct spec *s)
{
	if (argc < 3)
		return -1;
	*s = (struct spec){ .kind = argv[1], .ranks = 4, .def_chunk = OTF2_CHUNK_SIZE_MIN,
			    .msg_bytes = 64, .resolution = 1000000000 };
	uint32_t n = argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 10) : 0;
	if (!strcmp(s->kind, "plain")) {
		s->ranks = n ? n : 4;
	} else if (!strcmp(s->kind, "big-ids")) {
		s->base = BIG - 64;
	} else if (!strcmp(s->kind, "spread-comms")) {
		s->spread_comms = n ? n : 20000;
	} else if (!strcmp(s->kind, "wide-comms")) {
		s->wide_comms = n ? n : 20000;
		s->def_chunk = OTF2_CHUNK_SIZE_MIN * 4;     /* the group is one 334 KB record */
	} else if (!strcmp(s->kind, "many-locs")) {
		s->extra_locs = n ? n : 10000;
		s->def_chunk = OTF2_CHUNK_SIZE_MAX;
	} else if (!strcmp(s->kind, "many-defs")) {
		s->extra_locs = n ? n : 10000;
		s->extra_defs = true;
		s->def_chunk = OTF2_CHUNK_SIZE_MAX;
	} else if (!strcmp(s->kind, "global-ids")) {
		s->global_ids = global_ids = true;
	} else if (!strcmp(s->kind, "escape")) {
		s->escape = true;
	} else if (!strcmp(s->kind, "unicode")) {
		s->escape = s->unicode = true;
	} else if (!strcmp(s->kind, "wide")) {
		s->wide = true;
	} else if (!strcmp(s->kind, "wide-long")) {
		s->wide = s->long_names = true;
	} else if (!strcmp(s->kind, "huge-bytes")) {
		s->msg_bytes = UINT64_C(1) << 63;
	} else if (!strcmp(s->kind, "bad-locks")) {
		s->bad_locks = true;
	} else if (!strcmp(s->kind, "many-locks")) {
		s->many_locks = n ? n : 200000;
	} else if (!strcmp(s->kind, "many-teams")) {
		s->many_teams = n ? n : 200000;
		s->team_threads = 10000;
	} else if (!strcmp(s->kind, "dup-defs")) {
		s->dup_defs = true;
	} else if (!strcmp(s->kind, "late-offset")) {
		s->offset = 1000000000;
	} else if (!strcmp(s->kind, "zero-resolution")) {
		s->resolution = 0;
	} else if (!strcmp(s->kind, "reversed")) {
		s->ranks = n ? n : 4;
		s->reversed = true;
	} else if (!strcmp(s->kind, "no-comm")) {
		s->ranks = n ? n : 4;
		s->no_msgs = true;
	} else {
		return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct spec s;
	if (parse(argc, argv, &s)) {
		fprintf(stderr, "usage: craft plain|big-ids|spread-comms|wide-comms|many-locs|many-defs|global-ids|escape|unicode|wide|wide-long|huge-bytes|no-comm|reversed|dup-defs|late-offset|zero-resolution|bad-locks|many-locks|many-teams DIR [N]\n");
		return 2;
	}
	OTF2_Archive *a = OTF2_Archive_Open(argv[2], "traces", OTF2_FILEMODE_WRITE,
					    OTF2_CHUNK_SIZE_MIN, s.def_chunk,
					    OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
	if (!a)
		check(OTF2_ERROR_INVALID, "OTF2_Archive_Open");
	CHECK(OTF2_Archive_SetFlushCallbacks(a, &flush_cb, NULL));
	CHECK(OTF2_Archive_SetSerialCollectiveCallbacks(a));
	CHECK(OTF2_Archive_SetCreator(a, name(&s, "craft", "craft\033]0;pwned\007\033[2J")));
	CHECK(OTF2_Archive_SetDescription(a, s.kind));
	write_events(a, &s);
	write_local_defs(a, &s);
	write_global_defs(a, &s);
	CHECK(OTF2_Archive_Close(a));
	return 0;
}
