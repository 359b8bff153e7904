/* otf2_evt.c — decoding an OTF2 event file (see otf2_evt.h and
 * doc/otf2-events.md for the layout).
 *
 * Every check libotf2's reader makes on a record's bounds is made here
 * too, and a few it does not make: a record's fields must lie within its
 * announced length, and a file that ends before its end-of-file record
 * is an error rather than a chunk of stale memory (libotf2 reads a short
 * chunk into the buffer the previous chunk left behind). */
#include "otf2_evt.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "base/vec.h"
#include "model/trace.h"

#include <otf2/OTF2_GeneralDefinitions.h>

/* record types (OTF2's buffer and event record identifiers) */
enum {
	T_END_OF_CHUNK = 0, T_END_OF_FILE = 2, T_CHUNK_HEADER = 3, T_TIMESTAMP = 5,
	T_ATTRIBUTE_LIST = 6,
	T_MEASUREMENT_ON_OFF = 11, T_ENTER = 12, T_LEAVE = 13, T_MPI_SEND = 14,
	T_MPI_ISEND = 15, T_MPI_ISEND_COMPLETE = 16, T_MPI_IRECV_REQUEST = 17,
	T_MPI_RECV = 18, T_MPI_IRECV = 19, T_MPI_REQUEST_TEST = 20,
	T_MPI_REQUEST_CANCELLED = 21, T_MPI_COLLECTIVE_BEGIN = 22,
	T_MPI_COLLECTIVE_END = 23, T_OMP_FORK = 24, T_OMP_TASK_CREATE = 28,
	T_OMP_TASK_SWITCH = 29, T_OMP_TASK_COMPLETE = 30,
	T_OMP_ACQUIRE_LOCK = 26, T_OMP_RELEASE_LOCK = 27,
	T_THREAD_TEAM_BEGIN = 55, T_THREAD_ACQUIRE_LOCK = 57, T_THREAD_RELEASE_LOCK = 58,
	T_THREAD_TASK_CREATE = 59, T_THREAD_TASK_SWITCH = 60,
	T_BUFFER_FLUSH = 10, T_CALLING_CONTEXT_ENTER = 66, T_CALLING_CONTEXT_LEAVE = 67,
	/* one-sided communication, 35 .. 52 in OTF2's order (REC_RMA_WIN_CREATE ..) */
	T_RMA_WIN_CREATE = 35, T_RMA_WIN_DESTROY, T_RMA_COLLECTIVE_BEGIN, T_RMA_COLLECTIVE_END,
	T_RMA_GROUP_SYNC, T_RMA_REQUEST_LOCK, T_RMA_ACQUIRE_LOCK, T_RMA_TRY_LOCK,
	T_RMA_RELEASE_LOCK, T_RMA_SYNC, T_RMA_WAIT_CHANGE, T_RMA_PUT, T_RMA_GET, T_RMA_ATOMIC,
	T_RMA_OP_COMPLETE_BLOCKING, T_RMA_OP_COMPLETE_NON_BLOCKING, T_RMA_OP_TEST,
	T_RMA_OP_COMPLETE_REMOTE = 52,
	T_NBC_REQUEST = 85, T_NBC_COMPLETE = 86,
};
_Static_assert(REC_RMA_OP_COMPLETE_REMOTE - REC_RMA_WIN_CREATE ==
	       T_RMA_OP_COMPLETE_REMOTE - T_RMA_WIN_CREATE, "RMA records in OTF2's order");
enum { BIG_ENDIAN_MARK = 0x23, LITTLE_ENDIAN_MARK = 0x42 };
/* type, byte order, first and last event number */
#define CHUNK_HEADER_SIZE 18

long
otf2_clock_intervals(const uint64_t *time, const int64_t *offset, size_t n,
		     struct otf2_clock_iv *iv)
{
	long k = 0;
	for (size_t i = 1; i < n; i++) {
		if (time[i - 1] >= time[i])
			return -1;
		/* the difference in double, not each value (libotf2's way,
		 * to lose less precision), taken modulo 2^64 as libotf2's
		 * build wraps it (a signed overflow in C) */
		int64_t d = (int64_t)((uint64_t)offset[i] - (uint64_t)offset[i - 1]);
		iv[k++] = (struct otf2_clock_iv){
			.begin = time[i - 1], .end = time[i], .offset = offset[i - 1],
			.slope = (double)d / (double)(time[i] - time[i - 1]),
		};
	}
	return k;
}

int
otf2_ccmap_add(struct otf2_ccmap *m, uint32_t self, uint32_t region)
{
	if (VEC_GROW(m->region, m->n, m->cap))
		return ERR_NOMEM;
	if (self != m->n) {
		/* a context out of order: libotf2 maps it to its position */
		if (!m->index && !(m->index = OTF2_IdMap_Create(OTF2_ID_MAP_SPARSE, 16)))
			return ERR_NOMEM;
		if (OTF2_IdMap_AddIdPair(m->index, self, m->n) != OTF2_SUCCESS)
			return ERR_NOMEM;
	}
	m->region[m->n++] = region;
	return 0;
}

void
otf2_ccmap_fini(struct otf2_ccmap *m)
{
	free(m->region);
	if (m->index)
		OTF2_IdMap_Free(m->index);
	*m = (struct otf2_ccmap){ 0 };
}

/* The region of a calling context (already mapped to the global one), or
 * -1 when libotf2 would deliver nothing: the context undefined, or past
 * those defined. */
static int64_t
cc_region(const struct otf2_ccmap *m, uint64_t cc)
{
	if (cc == UINT32_MAX || !m)
		return -1;
	uint64_t i = cc;
	if (m->index && OTF2_IdMap_GetGlobalId(m->index, cc, &i) != OTF2_SUCCESS)
		return -1;
	return i < m->n ? (int64_t)m->region[i] : -1;
}

static int
bad(struct otf2_evt *e, const char *why)
{
	e->why = why;
	return ERR_FORMAT;
}

static inline uint64_t
load64(const uint8_t *p, int big)
{
	uint64_t x;
	memcpy(&x, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return big ? x : __builtin_bswap64(x);
#else
	return big ? __builtin_bswap64(x) : x;
#endif
}

/* A compressed integer of at most max bytes at *pp, within lim: a size
 * byte, then that many bytes of the value (0xff alone: all ones).
 * Returns 0, or -1 when it is malformed or runs past lim. Reads 8 bytes
 * after the size byte whatever the size (the buffer's padding). */
static inline int
cint(const uint8_t **pp, const uint8_t *lim, int big, unsigned max, uint64_t *v)
{
	const uint8_t *p = *pp;
	if (p >= lim)
		return -1;
	unsigned s = *p;
	if (s == 0 || s == 0xff) {
		*v = s == 0 ? 0 : max == 4 ? UINT32_MAX : UINT64_MAX;
		*pp = p + 1;
		return 0;
	}
	if (s > max || (size_t)(lim - p - 1) < s)
		return -1;
	uint64_t x = load64(p + 1, big);
	/* little-endian: the low s bytes; big-endian: the first s bytes
	 * are the value's last s, most significant first */
	if (s < 8)
		x = big ? x >> (64 - 8 * s) : x & ((UINT64_C(1) << (8 * s)) - 1);
	*v = x;
	*pp = p + 1 + s;
	return 0;
}

/* Reads the next chunk of the file into the buffer and checks its
 * header. */
static int
next_chunk(struct otf2_evt *e)
{
	size_t got = 0;
	while (got < e->chunk) {
		ssize_t r = read(e->fd, e->buf + got, e->chunk - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return ERR_IO;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	memset(e->buf + got, 0, OTF2_EVT_PAD);
	if (got == 0)
		return bad(e, "the file ends before its end-of-file record");
	if (got < CHUNK_HEADER_SIZE)
		return bad(e, "a chunk header is cut short");
	if (e->buf[0] != T_CHUNK_HEADER)
		return bad(e, "a chunk does not start with a chunk header");
	if (e->buf[1] != BIG_ENDIAN_MARK && e->buf[1] != LITTLE_ENDIAN_MARK)
		return bad(e, "a chunk header names no byte order");
	e->big = e->buf[1] == BIG_ENDIAN_MARK;
	e->p = e->buf + CHUNK_HEADER_SIZE;
	e->end = e->buf + got;
	return 0;
}

int
otf2_evt_open(struct otf2_evt *e, const char *path, uint64_t chunk, struct otf2_evt_buf *b,
	      const struct otf2_evt_maps *m)
{
	*e = (struct otf2_evt){ .chunk = chunk };
	if (m)
		e->m = *m;
	e->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (e->fd < 0)
		return ERR_IO;
	struct stat st;
	if (fstat(e->fd, &st) == 0 && st.st_size >= 0 && (uint64_t)st.st_size < chunk)
		e->chunk = st.st_size ? (uint64_t)st.st_size : 1;
	int rc = 0;
	if (b->cap < e->chunk + OTF2_EVT_PAD) {
		uint8_t *p = realloc(b->p, e->chunk + OTF2_EVT_PAD);
		if (p)
			*b = (struct otf2_evt_buf){ p, e->chunk + OTF2_EVT_PAD };
		else
			rc = ERR_NOMEM;
	}
	e->buf = b->p;
	if (!rc)
		rc = next_chunk(e);
	if (rc) {
		int saved = errno;
		close(e->fd);
		e->fd = -1;
		errno = saved;
	}
	return rc;
}

void
otf2_evt_close(struct otf2_evt *e)
{
	if (e->fd >= 0)
		close(e->fd);
	e->fd = -1;
}

/* libotf2's clock correction: the stretch that holds t, searched forward
 * from the last one used (times grow along a location), its offset plus
 * the slope times the distance, rounded to nearest. Every event record
 * moves the search on, whether skein reads it or not, as in libotf2. */
static inline uint64_t
correct(struct otf2_evt *e, uint64_t t)
{
	if (!e->m.n_iv)
		return t;
	while (e->cur_iv + 1 < e->m.n_iv && t > e->m.iv[e->cur_iv].end)
		e->cur_iv++;
	const struct otf2_clock_iv *v = &e->m.iv[e->cur_iv];
	double diff = t >= v->begin ? (double)(t - v->begin) : -(double)(v->begin - t);
	double d = rint(v->slope * diff);
	/* a slope from a corrupt archive can move a time past any clock:
	 * held at 2^62 ticks (decades at a GHz), where the conversion and the
	 * sum below stay defined (the times are then refused as out of order
	 * or kept as they fall) */
	if (!(d > -0x1p62 && d < 0x1p62))
		d = d < 0 ? -0x1p62 : 0x1p62;
	uint64_t off = (uint64_t)v->offset + (uint64_t)(int64_t)d;
	return t + off;
}

static inline uint32_t
mapped(const OTF2_IdMap *m, uint64_t id)
{
	if (m) {
		uint64_t g;
		if (OTF2_IdMap_GetGlobalId(m, id, &g) == OTF2_SUCCESS)
			id = g;
	}
	return (uint32_t)id;
}

/* The team or stream attribute's value (+ 1) in an attribute list [p, lim): a count,
 * then each attribute's ref (mapped), type and value (1 or 2 bytes for
 * 8- and 16-bit integers, 4 or 8 for floating point, compressed
 * otherwise, as libotf2 writes them); 0 when it is not there, or the
 * list cannot be read (the list is skipped by its length either way). */
static uint64_t
team_tag(const struct otf2_evt *e, const uint8_t *p, const uint8_t *lim)
{
	uint64_t n, a, v;
	int big = e->big;
	if (cint(&p, lim, big, 4, &n))
		return 0;
	for (uint64_t i = 0; i < n; i++) {
		if (cint(&p, lim, big, 4, &a) || p >= lim)
			return 0;
		unsigned type = *p++, width = type == 1 || type == 5 ? 1 : type == 2 || type == 6 ? 2
			: type == 9 ? 4 : type == 10 ? 8 : 0;
		v = 0;
		if (width) {
			if ((size_t)(lim - p) < width)
				return 0;
			p += width;
		} else if (cint(&p, lim, big, 8, &v)) {
			return 0;
		}
		uint64_t ref = (uint64_t)mapped(e->m.attr, a) + 1, g;
		/* a location is a local reference, mapped as libotf2 maps it */
		if (type == 13 && e->m.loc && OTF2_IdMap_GetGlobalId(e->m.loc, v, &g) == OTF2_SUCCESS)
			v = g;
		if ((type == 4 && ref == e->m.team_attr) || (type == 13 && ref == e->m.stream_attr))
			return v < UINT64_MAX ? v + 1 : 0;
	}
	return 0;
}

/* The fields of a record with a length, [p, lim), into r; returns 0 or
 * -1 when they do not fit. Sets r->kind to REC_OTHER for records skein
 * does not read. */
static int
fields(const struct otf2_evt *e, unsigned type, const uint8_t *p, const uint8_t *lim,
       struct otf2_evt_rec *r)
{
	uint64_t a, c, tag;
	int big = e->big;
	switch (type) {
	case T_MEASUREMENT_ON_OFF:
		if (p >= lim)
			return -1;
		r->kind = REC_MEASUREMENT_ON_OFF;
		r->ref = *p;
		return 0;
	case T_MPI_SEND: case T_MPI_ISEND: case T_MPI_RECV: case T_MPI_IRECV:
		if (cint(&p, lim, big, 4, &a) || cint(&p, lim, big, 4, &c) ||
		    cint(&p, lim, big, 4, &tag) || cint(&p, lim, big, 8, &r->len))
			return -1;
		r->request = UINT64_MAX;
		if ((type == T_MPI_ISEND || type == T_MPI_IRECV) && cint(&p, lim, big, 8, &r->request))
			return -1;
		r->kind = type == T_MPI_SEND ? REC_MPI_SEND : type == T_MPI_ISEND ? REC_MPI_ISEND
			: type == T_MPI_RECV ? REC_MPI_RECV : REC_MPI_IRECV;
		r->ref = (uint32_t)a;
		r->comm = mapped(e->m.comm, c);
		r->tag = (uint32_t)tag;
		return 0;
	case T_MPI_COLLECTIVE_BEGIN:
		r->kind = REC_MPI_COLLECTIVE_BEGIN;
		return 0;
	case T_MPI_COLLECTIVE_END:
		if (p >= lim)
			return -1;
		r->tag = *p++;
		if (cint(&p, lim, big, 4, &c) || cint(&p, lim, big, 4, &a) ||
		    cint(&p, lim, big, 8, &r->len) || cint(&p, lim, big, 8, &r->request))
			return -1;
		r->kind = REC_MPI_COLLECTIVE_END;
		r->comm = mapped(e->m.comm, c);
		r->ref = (uint32_t)a;
		return 0;
	case T_RMA_WIN_CREATE: case T_RMA_WIN_DESTROY: case T_RMA_WAIT_CHANGE:
		/* window (c) */
		if (cint(&p, lim, big, 4, &c))
			return -1;
		r->comm = mapped(e->m.win, c);
		break;
	case T_RMA_COLLECTIVE_BEGIN:
		break;
	case T_RMA_COLLECTIVE_END:
		/* operation (1 byte), sync level (c), window (c), root (c),
		 * bytes sent (c), bytes received (c) */
		if (p >= lim)
			return -1;
		r->tag = *p++;
		if (cint(&p, lim, big, 4, &a) || cint(&p, lim, big, 4, &c) ||
		    cint(&p, lim, big, 4, &tag) || cint(&p, lim, big, 8, &r->len) ||
		    cint(&p, lim, big, 8, &r->aux))
			return -1;
		r->comm = mapped(e->m.win, c);
		r->ref = (uint32_t)tag;
		break;
	case T_RMA_GROUP_SYNC:
		/* sync level (c), window (c), group (c) */
		if (cint(&p, lim, big, 4, &a) || cint(&p, lim, big, 4, &c) ||
		    cint(&p, lim, big, 4, &tag))
			return -1;
		r->comm = mapped(e->m.win, c);
		break;
	case T_RMA_REQUEST_LOCK: case T_RMA_ACQUIRE_LOCK: case T_RMA_TRY_LOCK:
	case T_RMA_RELEASE_LOCK: case T_RMA_SYNC:
		/* window (c), remote (c), then a lock's id (c) and type (1
		 * byte), a release's id (c), a sync's type (1 byte) */
		if (cint(&p, lim, big, 4, &c) || cint(&p, lim, big, 4, &a))
			return -1;
		if (type != T_RMA_SYNC && cint(&p, lim, big, 8, &tag))
			return -1;
		if (type != T_RMA_RELEASE_LOCK) {
			if (p >= lim)
				return -1;
			r->tag = *p++;
		}
		r->comm = mapped(e->m.win, c);
		r->ref = (uint32_t)a;
		break;
	case T_RMA_PUT: case T_RMA_GET: case T_RMA_ATOMIC:
		/* window (c), remote (c), then bytes (c), or an atomic's
		 * type (1 byte), bytes sent (c) and received (c); matching
		 * id (c) */
		if (cint(&p, lim, big, 4, &c) || cint(&p, lim, big, 4, &a))
			return -1;
		if (type == T_RMA_ATOMIC) {
			if (p >= lim)
				return -1;
			r->tag = *p++;
		}
		if (cint(&p, lim, big, 8, &r->len) ||
		    (type == T_RMA_ATOMIC && cint(&p, lim, big, 8, &r->aux)) ||
		    cint(&p, lim, big, 8, &r->request))
			return -1;
		r->comm = mapped(e->m.win, c);
		r->ref = (uint32_t)a;
		break;
	case T_RMA_OP_COMPLETE_BLOCKING: case T_RMA_OP_COMPLETE_NON_BLOCKING: case T_RMA_OP_TEST:
	case T_RMA_OP_COMPLETE_REMOTE:
		/* window (c), matching id (c) */
		if (cint(&p, lim, big, 4, &c) || cint(&p, lim, big, 8, &r->request))
			return -1;
		r->comm = mapped(e->m.win, c);
		break;
	case T_NBC_REQUEST:
		if (cint(&p, lim, big, 8, &r->request))
			return -1;
		r->kind = REC_NBC_REQUEST;
		return 0;
	case T_NBC_COMPLETE:
		/* operation (1 byte), communicator (c), root (c), bytes sent
		 * (c) and received (c), request (c) */
		if (p >= lim)
			return -1;
		r->tag = *p++;
		if (cint(&p, lim, big, 4, &c) || cint(&p, lim, big, 4, &a) ||
		    cint(&p, lim, big, 8, &r->len) || cint(&p, lim, big, 8, &r->aux) ||
		    cint(&p, lim, big, 8, &r->request))
			return -1;
		r->kind = REC_NBC_COMPLETE;
		r->comm = mapped(e->m.comm, c);
		r->ref = (uint32_t)a;
		return 0;
	case T_THREAD_ACQUIRE_LOCK: case T_THREAD_RELEASE_LOCK:
	case T_OMP_ACQUIRE_LOCK: case T_OMP_RELEASE_LOCK:
		/* the model (1 byte; OpenMP's records have none), the lock's
		 * id (c), the acquisition order (c) */
		r->tag = OTF2_PARADIGM_OPENMP;
		if (type == T_THREAD_ACQUIRE_LOCK || type == T_THREAD_RELEASE_LOCK) {
			if (p >= lim)
				return -1;
			r->tag = *p++;
		}
		if (cint(&p, lim, big, 4, &a) || cint(&p, lim, big, 4, &c))
			return -1;
		r->kind = type == T_THREAD_ACQUIRE_LOCK || type == T_OMP_ACQUIRE_LOCK ? REC_THREAD_ACQUIRE_LOCK
			: REC_THREAD_RELEASE_LOCK;
		r->ref = (uint32_t)a;
		r->len = c;
		return 0;
	case T_THREAD_TEAM_BEGIN:
		/* the team (c) */
		if (cint(&p, lim, big, 4, &c))
			return -1;
		r->kind = REC_THREAD_TEAM_BEGIN;
		r->comm = mapped(e->m.comm, c);
		return 0;
	case T_THREAD_TASK_CREATE: case T_THREAD_TASK_SWITCH:
		/* the team (c), the creating thread (c), the generation (c) */
		if (cint(&p, lim, big, 4, &c) || cint(&p, lim, big, 4, &a) || cint(&p, lim, big, 4, &tag))
			return -1;
		r->kind = type == T_THREAD_TASK_CREATE ? REC_THREAD_TASK_CREATE : REC_THREAD_TASK_SWITCH;
		r->request = otf2_task_id(mapped(e->m.comm, c), (uint32_t)a, (uint32_t)tag);
		return 0;
	case T_CALLING_CONTEXT_ENTER: case T_CALLING_CONTEXT_LEAVE: {
		/* delivered as an Enter or a Leave of the context's region
		 * (global, not mapped again); the unwind distance is read
		 * and not used */
		if (cint(&p, lim, big, 4, &c) ||
		    (type == T_CALLING_CONTEXT_ENTER && cint(&p, lim, big, 4, &a)))
			return -1;
		int64_t region = cc_region(e->m.cc, mapped(e->m.calling_context, c));
		r->kind = region < 0 ? REC_OTHER : type == T_CALLING_CONTEXT_ENTER ? REC_ENTER : REC_LEAVE;
		r->ref = region < 0 ? 0 : (uint32_t)region;
		return 0;
	}
	default:
		r->kind = REC_OTHER;
		return 0;
	}
	/* the RMA records, in OTF2's order */
	r->kind = (uint8_t)(REC_RMA_WIN_CREATE + (type - T_RMA_WIN_CREATE));
	return 0;
}

int
otf2_evt_read(struct otf2_evt *e, struct otf2_evt_rec *out, uint32_t max, uint32_t *n)
{
	uint32_t k = 0;
	const uint8_t *p = e->p, *end = e->end;
	uint64_t time = e->time;
	int rc = 0;
	while (k < max && !e->done) {
		if (p >= end) {
			rc = bad(e, "a record runs past the end of its chunk");
			break;
		}
		if (*p == T_TIMESTAMP) {
			if (end - p < 10) {
				rc = bad(e, "a timestamp runs past the end of its chunk");
				break;
			}
			time = load64(p + 1, e->big);
			p += 9;
		}
		unsigned type = *p++;
		if (type == T_END_OF_CHUNK) {
			if ((rc = next_chunk(e)))
				break;
			p = e->p;
			end = e->end;
			continue;
		}
		if (type == T_END_OF_FILE) {
			e->done = 1;
			break;
		}
		struct otf2_evt_rec *r = &out[k];
		uint64_t v;
		switch (type) {
		case T_ENTER: case T_LEAVE: case T_MPI_ISEND_COMPLETE: case T_MPI_IRECV_REQUEST:
		case T_MPI_REQUEST_TEST: case T_MPI_REQUEST_CANCELLED: case T_OMP_FORK:
		case T_OMP_TASK_CREATE: case T_OMP_TASK_SWITCH: case T_OMP_TASK_COMPLETE:
			/* one compressed field and no length; a byte must follow */
			if (end - p <= 1 || (*p != 0xff && *p > 8) ||
			    end - p <= (*p == 0xff ? 0 : *p) + 1) {
				rc = bad(e, "a record runs past the end of its chunk");
				goto stop;
			}
			if (cint(&p, end, e->big, type <= T_LEAVE || type == T_OMP_FORK ? 4 : 8, &v)) {
				rc = bad(e, "a record holds a malformed number");
				goto stop;
			}
			e->events++;
			*r = (struct otf2_evt_rec){ .time = correct(e, time) };
			if (type == T_ENTER || type == T_LEAVE) {
				r->kind = type == T_ENTER ? REC_ENTER : REC_LEAVE;
				r->ref = mapped(e->m.region, v);
				r->aux = type == T_ENTER ? e->tag : 0;
				k++;
			} else if (type == T_MPI_ISEND_COMPLETE || type == T_MPI_IRECV_REQUEST) {
				r->kind = type == T_MPI_ISEND_COMPLETE ? REC_MPI_ISEND_COMPLETE
					: REC_MPI_IRECV_REQUEST;
				r->request = v;
				k++;
			} else if (type == T_OMP_TASK_CREATE || type == T_OMP_TASK_SWITCH) {
				r->kind = type == T_OMP_TASK_CREATE ? REC_THREAD_TASK_CREATE
					: REC_THREAD_TASK_SWITCH;
				r->request = v;
				k++;
			}
			e->tag = 0;
			continue;
		}
		/* a length: one byte, or 0xff and eight more; a byte must
		 * follow the record */
		if (end - p <= 1) {
			rc = bad(e, "a record runs past the end of its chunk");
			break;
		}
		uint64_t len = *p++;
		if (len == 0xff) {
			if (end - p <= 8) {
				rc = bad(e, "a record runs past the end of its chunk");
				break;
			}
			len = load64(p, e->big);
			p += 8;
		}
		if ((uint64_t)(end - p) <= len) {
			rc = bad(e, "a record runs past the end of its chunk");
			break;
		}
		const uint8_t *lim = p + len;
		if (type == T_ATTRIBUTE_LIST) {
			/* it belongs to the record after it */
			e->tag = e->m.team_attr || e->m.stream_attr ? team_tag(e, p, lim) : 0;
			p = lim;
			continue;
		}
		e->tag = 0;
		*r = (struct otf2_evt_rec){ .time = correct(e, time) };
		/* libotf2 corrects a buffer flush's stop time too (8 bytes,
		 * read whatever the length), which moves its search on */
		if (type == T_BUFFER_FLUSH)
			correct(e, load64(p, e->big));
		if (fields(e, type, p, lim, r)) {
			rc = bad(e, "a record's fields run past its length");
			break;
		}
		e->events++;
		p = lim;
		k += r->kind != REC_OTHER;
	}
stop:
	e->p = p;
	e->time = time;
	*n = rc ? 0 : k;
	return rc;
}
