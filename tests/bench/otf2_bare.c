/* otf2_bare.c — the OTF2 library's own read speed, the floor skein is held
 * to: global definitions, each location's local definitions, then its
 * events through a per-location reader, with a counting callback for each
 * record kind skein handles. Prints: events seconds peak_rss_kb. */
#include <otf2/otf2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

static uint64_t counted;
static uint64_t *locs;
static uint64_t n_locs, cap_locs;

#define COUNT(name, ...) \
	static OTF2_CallbackCode name(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t p, \
				      void *u, OTF2_AttributeList *a, __VA_ARGS__) \
	{ (void)l; (void)t; (void)p; (void)u; (void)a; counted++; return OTF2_CALLBACK_SUCCESS; }

COUNT(on_enter, OTF2_RegionRef r)
COUNT(on_leave, OTF2_RegionRef r)
COUNT(on_send, uint32_t r, OTF2_CommRef c, uint32_t g, uint64_t n)
COUNT(on_isend, uint32_t r, OTF2_CommRef c, uint32_t g, uint64_t n, uint64_t q)
COUNT(on_isend_complete, uint64_t q)
COUNT(on_irecv_request, uint64_t q)
COUNT(on_irecv, uint32_t r, OTF2_CommRef c, uint32_t g, uint64_t n, uint64_t q)
COUNT(on_recv, uint32_t r, OTF2_CommRef c, uint32_t g, uint64_t n)
COUNT(on_coll_end, OTF2_CollectiveOp o, OTF2_CommRef c, uint32_t r, uint64_t s, uint64_t v)

static OTF2_CallbackCode
on_coll_begin(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t p, void *u, OTF2_AttributeList *a)
{
	(void)l; (void)t; (void)p; (void)u; (void)a;
	counted++;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
on_location(void *u, OTF2_LocationRef self, OTF2_StringRef name, OTF2_LocationType type,
	    uint64_t events, OTF2_LocationGroupRef group)
{
	(void)u; (void)name; (void)type; (void)events; (void)group;
	if (n_locs == cap_locs) {
		cap_locs = cap_locs ? 2 * cap_locs : 64;
		locs = realloc(locs, cap_locs * sizeof *locs);
		if (!locs)
			abort();
	}
	locs[n_locs++] = self;
	return OTF2_CALLBACK_SUCCESS;
}

int
main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: otf2_bare ANCHOR.otf2\n");
		return 2;
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	OTF2_Reader *rd = OTF2_Reader_Open(argv[1]);
	if (!rd)
		return 1;
	OTF2_Reader_SetSerialCollectiveCallbacks(rd);
	OTF2_GlobalDefReader *gd = OTF2_Reader_GetGlobalDefReader(rd);
	OTF2_GlobalDefReaderCallbacks *gcb = OTF2_GlobalDefReaderCallbacks_New();
	OTF2_GlobalDefReaderCallbacks_SetLocationCallback(gcb, on_location);
	OTF2_Reader_RegisterGlobalDefCallbacks(rd, gd, gcb, NULL);
	OTF2_GlobalDefReaderCallbacks_Delete(gcb);
	uint64_t n;
	OTF2_Reader_ReadAllGlobalDefinitions(rd, gd, &n);
	OTF2_Reader_CloseGlobalDefReader(rd, gd);
	for (uint64_t i = 0; i < n_locs; i++)
		OTF2_Reader_SelectLocation(rd, locs[i]);
	if (OTF2_Reader_OpenDefFiles(rd) == OTF2_SUCCESS) {
		for (uint64_t i = 0; i < n_locs; i++) {
			OTF2_DefReader *dr = OTF2_Reader_GetDefReader(rd, locs[i]);
			if (dr) {
				OTF2_Reader_ReadAllLocalDefinitions(rd, dr, &n);
				OTF2_Reader_CloseDefReader(rd, dr);
			}
		}
		OTF2_Reader_CloseDefFiles(rd);
	}
	OTF2_Reader_OpenEvtFiles(rd);
	OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
	OTF2_EvtReaderCallbacks_SetEnterCallback(cb, on_enter);
	OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, on_leave);
	OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, on_send);
	OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, on_isend);
	OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, on_isend_complete);
	OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, on_irecv_request);
	OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, on_irecv);
	OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, on_recv);
	OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, on_coll_begin);
	OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, on_coll_end);
	uint64_t events = 0;
	for (uint64_t i = 0; i < n_locs; i++) {
		OTF2_EvtReader *er = OTF2_Reader_GetEvtReader(rd, locs[i]);
		OTF2_Reader_RegisterEvtCallbacks(rd, er, cb, NULL);
		uint64_t got = 0;
		OTF2_Reader_ReadAllLocalEvents(rd, er, &got);
		events += got;
		OTF2_Reader_CloseEvtReader(rd, er);
	}
	OTF2_EvtReaderCallbacks_Delete(cb);
	OTF2_Reader_CloseEvtFiles(rd);
	OTF2_Reader_Close(rd);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	printf("%llu %.3f %ld\n", (unsigned long long)events,
	       (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9, ru.ru_maxrss);
	free(locs);
	return counted ? 0 : 1;
}
