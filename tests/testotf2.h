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

/* An archive DIR/traces written serially, its event files open. */
static inline OTF2_Archive *
tu_new_archive(const char *dir)
{
	OTF2_Archive *a = OTF2_Archive_Open(dir, "traces", OTF2_FILEMODE_WRITE, 1 << 20, 4 << 20,
					    OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
	assert_non_null(a);
	static OTF2_FlushCallbacks flush = { tu_pre_flush, tu_post_flush };
	OTF2_Archive_SetFlushCallbacks(a, &flush, NULL);
	OTF2_Archive_SetSerialCollectiveCallbacks(a);
	OTF2_Archive_OpenEvtFiles(a);
	return a;
}

#endif
