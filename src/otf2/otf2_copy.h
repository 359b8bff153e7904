/* otf2_copy.h — copying OTF2 records from a reader to a writer (the
 * callbacks are generated into otf2_copy.c by mk/otf2-copy.py). Internal
 * to src/otf2/: OTF2 types appear here. */
#ifndef SKEIN_OTF2_COPY_H
#define SKEIN_OTF2_COPY_H

#include <otf2/otf2.h>

/* The user data every copying callback is registered with: where the
 * definitions and the current location's events go; the last time
 * written to them (set it to 0 for each location), and how many times
 * that went back were written as at it. */
struct otf2_copy {
	OTF2_GlobalDefWriter *defs;
	OTF2_EvtWriter *events;
	uint64_t last, moved;
};

/* An event's time as written: never before the location's last (the
 * writer refuses a time that goes back; skein's reader took such a time
 * as its predecessor's, WARN_TIME_BACKWARDS, and so does the copy). */
static inline OTF2_TimeStamp
otf2_copy_time(struct otf2_copy *c, OTF2_TimeStamp t)
{
	if (t < c->last) {
		c->moved++;
		return c->last;
	}
	return c->last = t;
}

/* Registers a copying callback for every global definition except
 * String, Attribute, Parameter, Location, Region and ClockProperties. */
void otf2_copy_defs(OTF2_GlobalDefReaderCallbacks *cb);
/* Registers a copying callback for every event record except Enter and
 * Leave. */
void otf2_copy_events(OTF2_EvtReaderCallbacks *cb);

#endif
