/* testotf2.h — archives written by libotf2 for the tests: serial, every
 * buffer flushed, no timestamps taken at a flush. */
#ifndef SKEIN_TESTOTF2_H
#define SKEIN_TESTOTF2_H

#include <stdbool.h>

#include <otf2/otf2.h>

static inline OTF2_FlushType
tu_pre_flush(void *ud, OTF2_FileType type, OTF2_LocationRef loc, void *data, bool final)
{
	(void)ud; (void)type; (void)loc; (void)data; (void)final;
	return OTF2_FLUSH;
}

static inline OTF2_TimeStamp
tu_post_flush(void *ud, OTF2_FileType type, OTF2_LocationRef loc)
{
	(void)ud; (void)type; (void)loc;
	return 0;
}

/* An archive DIR/traces written serially, with definition chunks of
 * def_chunk bytes (events: 1 MiB), its event files open. */
static inline OTF2_Archive *
tu_new_archive_chunks(const char *dir, uint64_t def_chunk)
{
	OTF2_Archive *a = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, 1 << 20, def_chunk,
					    OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
	assert_non_null(a);
	static OTF2_FlushCallbacks flush = { tu_pre_flush, tu_post_flush };
	OTF2_Archive_SetFlushCallbacks(a, &flush, NULL);
	OTF2_Archive_SetSerialCollectiveCallbacks(a);
	OTF2_Archive_OpenEvtFiles(a);
	return a;
}

/* An archive DIR/traces written serially (4 MiB definition chunks), its
 * event files open. */
static inline OTF2_Archive *
tu_new_archive(const char *dir)
{
	return tu_new_archive_chunks(dir, 4 << 20);
}

/* The global definitions of a plain run into g: clock ticks of 1 up to
 * t_end, strings 0 "" and 1 "f", n_regions functions "f" (ids 0 ..), one
 * system tree node, and n_locs processes of one thread each (location l
 * in group l), each declaring `events` events. */
static inline void
tu_plain_defs(OTF2_GlobalDefWriter *g, uint64_t t_end, uint32_t n_regions, uint32_t n_locs,
	      uint64_t events)
{
	OTF2_GlobalDefWriter_WriteClockProperties(g, 1, 0, t_end, OTF2_UNDEFINED_TIMESTAMP);
	OTF2_GlobalDefWriter_WriteString(g, 0, "");
	OTF2_GlobalDefWriter_WriteString(g, 1, "f");
	for (OTF2_RegionRef r = 0; r < n_regions; r++)
		OTF2_GlobalDefWriter_WriteRegion(g, r, 1, 1, 0, OTF2_REGION_ROLE_FUNCTION,
						 OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE, 0, 0, 0);
	OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, 1, 1, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
	for (uint32_t l = 0; l < n_locs; l++) {
		OTF2_GlobalDefWriter_WriteLocationGroup(g, l, 1, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
							OTF2_UNDEFINED_LOCATION_GROUP);
		OTF2_GlobalDefWriter_WriteLocation(g, l, 1, OTF2_LOCATION_TYPE_CPU_THREAD, events, l);
	}
}

#endif
