/* otf2_copy.h — copying OTF2 records from a reader to a writer (the
 * callbacks are generated into otf2_copy.c by mk/otf2-copy.py). Internal
 * to src/otf2/: OTF2 types appear here. */
#ifndef SKEIN_OTF2_COPY_H
#define SKEIN_OTF2_COPY_H

#include <otf2/otf2.h>

/* The user data every copying callback is registered with: where the
 * definitions and the current location's events go. */
struct otf2_copy {
	OTF2_GlobalDefWriter *defs;
	OTF2_EvtWriter *events;
};

/* Registers a copying callback for every global definition except
 * String, Attribute, Parameter, Location, Region and ClockProperties. */
void otf2_copy_defs(OTF2_GlobalDefReaderCallbacks *cb);
/* Registers a copying callback for every event record except Enter and
 * Leave. */
void otf2_copy_events(OTF2_EvtReaderCallbacks *cb);

#endif
