/* otf2_evt.h — an OTF2 event file decoded by skein itself.
 *
 * libotf2's event reader calls a function per record, through a buffer
 * layer that checks, maps and clears an attribute list for each: about
 * 38 ns an event on this machine, more than skein's building of the
 * model from it. The file format is simple (doc/otf2-events.md): chunks
 * of the archive's event chunk size, each a header and records, a record
 * a type byte after an optional timestamp, its fields compressed
 * integers. This decoder reads the records skein uses into a small array
 * at a time and skips the others by their length, applying the
 * location's mapping tables and clock offsets exactly as libotf2 does,
 * so the model built from it is the same (tests/test_evt.c compares
 * every record with libotf2's on every trace at hand).
 *
 * Call order: otf2_evt_open, otf2_evt_read until it gives no records,
 * otf2_evt_close. The tables given to open are borrowed and must outlive
 * the reading. Not thread-safe per decoder; decoders on
 * different files run in parallel.
 */
#ifndef SKEIN_OTF2_EVT_H
#define SKEIN_OTF2_EVT_H

#include <stddef.h>
#include <stdint.h>

#include <otf2/OTF2_IdMap.h>

/* A stretch between two clock offsets of a location: times in
 * [begin, end] are shifted by offset plus slope times their distance
 * from begin (libotf2's linear interpolation; past the last stretch, the
 * last one's line goes on). */
struct otf2_clock_iv {
	uint64_t begin, end;
	int64_t offset;
	double slope;
};

/* Turns n clock offsets (time, offset), in the order the definitions
 * gave them, into n - 1 stretches (none for fewer than two offsets: the
 * clock is then left alone, as libotf2 leaves it). Returns the number,
 * or -1 when two offsets are not in increasing time (libotf2 refuses
 * those). iv holds n entries. */
long otf2_clock_intervals(const uint64_t *time, const int64_t *offset, size_t n,
			  struct otf2_clock_iv *iv);

/* The global calling contexts' regions, kept as libotf2 keeps them to
 * deliver a CallingContextEnter or Leave as an Enter or Leave (when, as
 * for skein, no calling-context callback is set): in definition order,
 * with an index map for contexts defined out of order. */
struct otf2_ccmap {
	uint32_t *region;        /* [n] in definition order */
	size_t n, cap;
	OTF2_IdMap *index;       /* context -> position, or NULL */
};

/* Adds context self of region, as libotf2's archive does. Returns 0 or
 * ERR_NOMEM. */
int otf2_ccmap_add(struct otf2_ccmap *m, uint32_t self, uint32_t region);
void otf2_ccmap_fini(struct otf2_ccmap *m);

/* What the events of a location are read with: its mapping tables
 * (libotf2's, held by the open reader until it is closed; NULL: none),
 * the archive's calling contexts, and its clock stretches (the window
 * table maps RMA windows). */
struct otf2_evt_maps {
	const OTF2_IdMap *region, *comm, *calling_context, *win, *attr, *loc;
	uint32_t team_attr;      /* the attributes tagging an Enter (global ref + 1), 0: none: */
	uint32_t stream_attr;    /* a team id (uint64), a stream (location) */
	const struct otf2_ccmap *cc;
	const struct otf2_clock_iv *iv;
	uint32_t n_iv;
};

/* One record skein reads; fields its kind does not have are 0.
 *
 *   kind                        ref      comm     tag         len     aux       request
 *   Enter, Leave                region                                  team tag + 1
 *   MpiSend .. MpiIrecv         peer     comm     tag         bytes             request
 *   MpiCollectiveEnd            root     comm     operation   sent    received
 *   MeasurementOnOff            mode
 *   RmaCollectiveEnd            root     window   operation   sent    received
 *   RmaPut, RmaGet              remote   window               bytes             matching
 *   RmaAtomic                   remote   window   type        sent    received  matching
 *   RmaOpComplete*, RmaOpTest            window                                 matching
 *   Rma{Request,Acquire,Try}Lock remote  window   lock type
 *   RmaReleaseLock, RmaSync     remote   window
 *   RmaGroupSync, WinCreate, WinDestroy, WaitChange       window
 *   NonBlockingCollectiveRequest                                               request
 *   NonBlockingCollectiveComplete root   comm     operation   sent    received  request
 *   ThreadAcquireLock, ThreadReleaseLock (and OpenMP's older records)
 *                               lock              model       order
 *   ThreadTeamBegin                      team
 *   ThreadTaskCreate, ThreadTaskSwitch (and OpenMP's older records)
 *                                                            task (otf2_task_id; the older: the task id)
 *
 * (MpiCollectiveEnd keeps its bytes received in request, as before.) */
struct otf2_evt_rec {
	uint64_t time;           /* corrected by the clock offsets */
	uint64_t len;            /* message length; a collective's bytes sent */
	uint64_t request;        /* request id; MpiCollectiveEnd's bytes received; RMA matching id */
	uint64_t aux;            /* bytes received (RMA and non-blocking collectives) */
	uint32_t ref;            /* region; peer rank; a collective's root; measurement mode */
	uint32_t comm;           /* communicator or window (mapped) */
	uint32_t tag;            /* message tag; a collective's operation */
	uint8_t kind;            /* enum trace_rec, below REC_OTHER */
};

/* An OpenMP task's id from its records' team, creating thread (its
 * number in the team) and generation (the creating thread's count of the
 * tasks it created): exact while the team's and the thread's numbers are
 * below 2^16, folded above. OTF2 1.x's records give the id itself. */
static inline uint64_t
otf2_task_id(uint32_t team, uint32_t creator, uint32_t generation)
{
	uint64_t hi = (uint64_t)team << 16 ^ creator;
	if (team >> 16 || creator >> 16)
		hi = (hi * 0x9e3779b97f4a7c15u) >> 32 | 1u << 31;
	return hi << 32 | generation;
}

/* Bytes past a chunk the caller's buffer must have (the decoder reads a
 * compressed integer as one 8-byte load). */
#define OTF2_EVT_PAD 16

/* A reader's chunk buffer, kept from file to file: p (malloc'd, or NULL
 * with cap 0) holds cap bytes. otf2_evt_open grows it to the smaller of
 * the chunk and the file, + OTF2_EVT_PAD: most locations' files are a
 * few KiB where a chunk is 1 MiB. */
struct otf2_evt_buf {
	uint8_t *p;
	size_t cap;
};

struct otf2_evt {
	int fd;
	uint64_t chunk;          /* the bytes read as one chunk */
	uint8_t *buf;            /* chunk + OTF2_EVT_PAD bytes */
	const uint8_t *p, *end;  /* what is left of the chunk in buf */
	uint64_t time;           /* the last timestamp, as written */
	uint64_t events;         /* event records read so far, of any kind */
	int big;                 /* the chunk is big-endian */
	int done;                /* the end-of-file record was read */
	struct otf2_evt_maps m;
	uint32_t cur_iv;
	uint64_t tag;            /* the team attribute before the next record, + 1 */
	const char *why;         /* what is wrong, after ERR_FORMAT */
};

/* Opens path for decoding with chunks of the given size into b (grown
 * as its comment says; a file longer than it was when opened reads as
 * cut chunks, ERR_FORMAT); m (copied; what it points to is borrowed) may
 * be NULL: no mapping, no clock correction, no calling contexts.
 * Returns 0, ERR_NOMEM, ERR_IO (errno says why) or ERR_FORMAT (e->why). */
int otf2_evt_open(struct otf2_evt *e, const char *path, uint64_t chunk, struct otf2_evt_buf *b,
		  const struct otf2_evt_maps *m);

/* Decodes the next records of the kinds skein reads, at most max, into
 * out; *n is how many (0: the file is read to its end). Returns 0,
 * ERR_IO (errno says why) or ERR_FORMAT (e->why says what, e->events how
 * far it got): the file is truncated or corrupt. */
int otf2_evt_read(struct otf2_evt *e, struct otf2_evt_rec *out, uint32_t max, uint32_t *n);

void otf2_evt_close(struct otf2_evt *e);

#endif
