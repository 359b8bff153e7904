/* prj_log.c — one PE's Projections log: lines, fields, records.
 *
 * A log is text (zlib reads gzip-compressed and plain files alike): a
 * header line "PROJECTIONS-RECORD N", where N is the number of records of
 * the tracer's first buffer flush, then one record per line, its type
 * first. The layout of each type depends on the format version; rather
 * than trusting the version, the reader counts a record's fields and
 * takes the layout that count names (doc/charm.md has the table, from
 * Charm++'s LogEntry::pup and Projections' GenericLogReader). A record
 * whose field count fits no layout, a number out of range, an entry or a
 * PE the .sts does not define, is an error naming file, line and record.
 * Unknown record types are counted and skipped.
 */
#include "prj_impl.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "base/file.h"
#include "base/vec.h"

#define LOG_BUF (1u << 20)          /* read chunk; also the longest line */
#define MAX_FIELDS 4096             /* a multicast to more PEs is an error */
#define MAX_TIME (UINT64_C(1) << 62)

/* Projections record type numbers (Charm++ src/ck-perf/trace-common.h). */
enum {
	T_CREATION = 1, T_BEGIN_PROCESSING, T_END_PROCESSING, T_ENQUEUE, T_DEQUEUE,
	T_BEGIN_COMPUTATION, T_END_COMPUTATION, T_BEGIN_INTERRUPT, T_END_INTERRUPT,
	T_MESSAGE_RECV, T_BEGIN_TRACE, T_END_TRACE, T_USER_EVENT, T_BEGIN_IDLE,
	T_END_IDLE, T_BEGIN_PACK, T_END_PACK, T_BEGIN_UNPACK, T_END_UNPACK,
	T_CREATION_BCAST, T_CREATION_MULTICAST,
	T_MEMORY_MALLOC = 24, T_MEMORY_FREE, T_USER_SUPPLIED, T_MEMORY_USAGE_CURRENT,
	T_USER_SUPPLIED_NOTE, T_USER_SUPPLIED_BRACKETED_NOTE, T_END_PHASE,
	T_SURROGATE_BLOCK, T_USER_STAT,
	T_BEGIN_USER_EVENT_PAIR = 98, T_END_USER_EVENT_PAIR, T_USER_EVENT_PAIR,
};

static int
crec_of(int64_t type)
{
	if (type >= 1 && type <= 21)
		return (int)type - 1;
	if (type >= 24 && type <= 32)
		return CREC_MEMORY_MALLOC + (int)(type - 24);
	if (type >= 98 && type <= 100)
		return CREC_BEGIN_USER_EVENT_PAIR + (int)(type - 98);
	return CREC_OTHER;
}

struct lp {
	const struct prj_sts *s;
	struct prj_pe_log *l;
	uint32_t pe;
	struct err *e;
	uint64_t lineno;
	int64_t f[MAX_FIELDS];
	int nf;
	uint32_t open;             /* open execution, or UINT32_MAX */
	int idle_open;
	uint64_t idle_t0;
	uint64_t last_time;        /* for the monotonic check */
	uint32_t recent[8];        /* the last executions, for resumed fragments */
	uint32_t n_recent;
};

static int
rec_error(struct lp *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int
rec_error(struct lp *p, const char *fmt, ...)
{
	char m[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(m, sizeof m, fmt, ap);
	va_end(ap);
	const char *rec = p->nf > 0 ? trace_crec_name((enum trace_crec)crec_of(p->f[0])) : "record";
	if (p->nf > 0 && crec_of(p->f[0]) == CREC_OTHER)
		rec = "record";
	return err_set(p->e, ERR_FORMAT, "%s:%llu: %s record: %s", p->l->path,
		       (unsigned long long)p->lineno, rec, m);
}

/* Splits a line into integer fields. Returns 0, or -1 with the 1-based
 * position of the offending field in *bad (0: too many fields). */
static int
int_fields(const char *s, const char *end, int64_t *f, int *nf, int *bad)
{
	int n = 0;
	for (;;) {
		while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
			s++;
		if (s >= end)
			break;
		if (n == MAX_FIELDS) {
			*bad = 0;
			return -1;
		}
		int neg = 0;
		if (*s == '-') {
			neg = 1;
			s++;
		}
		const char *d = s;
		uint64_t v = 0;
		while (s < end && *s >= '0' && *s <= '9') {
			if (v > (UINT64_C(1) << 62))
				break;
			v = v * 10 + (uint64_t)(*s - '0');
			s++;
		}
		if (s == d || v > (UINT64_C(1) << 62) ||
		    (s < end && *s != ' ' && *s != '\t' && *s != '\r')) {
			*bad = n + 1;
			return -1;
		}
		f[n++] = neg ? -(int64_t)v : (int64_t)v;
	}
	*nf = n;
	return 0;
}

static int
check_time(struct lp *p, int64_t t)
{
	if (t < 0 || (uint64_t)t >= MAX_TIME)
		return rec_error(p, "time %lld is out of range", (long long)t);
	return 0;
}

/* Time of a record that must not go back on its PE (processing, idle,
 * creations); a step back is clamped and counted. */
static uint64_t
forward(struct lp *p, int64_t t)
{
	uint64_t u = (uint64_t)t;
	if (u < p->last_time) {
		p->l->warnings[WARN_TIME_BACKWARDS]++;
		return p->last_time;
	}
	p->last_time = u;
	return u;
}

static int
check_pe(struct lp *p, int64_t pe, const char *what)
{
	if (pe < 0 || (uint64_t)pe >= p->s->pes)
		return rec_error(p, "%s %lld is not one of the %u PEs the .sts names "
				 "(is the .sts from another run?)", what, (long long)pe, p->s->pes);
	return 0;
}

/* Entry ep of the .sts: its index in the .sts's entries in *k. */
static int
check_ep(struct lp *p, int64_t ep, uint32_t *k)
{
	if ((*k = prj_ids_get(&p->s->entry_at, ep)) == UINT32_MAX)
		return rec_error(p, "entry %lld is not defined in %s (is the .sts from another run?)",
				 (long long)ep, p->s->path);
	return 0;
}

static int
check_event(struct lp *p, int64_t ev)
{
	if (ev < -1 || ev > INT32_MAX)
		return rec_error(p, "event id %lld is out of range", (long long)ev);
	return 0;
}

static void
touch(struct lp *p, uint64_t t)
{
	struct prj_pe_log *l = p->l;
	if (!l->any || t < l->t_first)
		l->t_first = t;
	if (!l->any || t > l->t_last)
		l->t_last = t;
	l->any = 1;
}

static void
close_exec(struct lp *p, uint64_t t)
{
	struct prj_exec *x = &p->l->execs[p->open];
	x->t1 = t < x->t0 ? x->t0 : t;
	p->recent[p->n_recent++ % 8] = p->open;
	p->open = UINT32_MAX;
}

/* Creation, broadcast and multicast: mtype ep time event pe [msglen]
 * [sendtime] [npes [pes...]]. */
static int
creation(struct lp *p, int type)
{
	int n = p->nf - 1;
	const int64_t *f = p->f + 1;
	int base;
	if (type == T_CREATION) {
		base = n;
		if (n < 5 || n > 7)
			return rec_error(p, "%d fields; 6 to 8 expected", p->nf);
	} else if (type == T_CREATION_BCAST) {
		base = n - 1;
		if (n < 6 || n > 8)
			return rec_error(p, "%d fields; 7 to 9 expected", p->nf);
	} else {
		/* the destination list makes the count: base + 1 + npes */
		base = 0;
		int want = prj_sts_at_least(p->s, 5, 0) ? 7 : prj_sts_at_least(p->s, 2, 0) ? 6 : 5;
		int tries[3] = { want, 7, 6 };
		for (int i = 0; i < 3 && !base; i++)
			if (tries[i] < n && f[tries[i]] >= 0 && f[tries[i]] == n - tries[i] - 1)
				base = tries[i];
		if (!base && n > 5 && f[5] >= 0 && f[5] == n - 6)
			base = 5;
		if (!base)
			return rec_error(p, "%d fields do not match the destination count", p->nf);
	}
	int rc;
	uint32_t ep;
	if ((rc = check_ep(p, f[1], &ep)) || (rc = check_time(p, f[2])) || (rc = check_event(p, f[3])) ||
	    (rc = check_pe(p, f[4], "PE")))
		return rc;
	int64_t bytes = base >= 6 ? f[5] : 0;
	int64_t npes = type == T_CREATION ? 0 : f[base];
	if (bytes < 0)
		bytes = 0;
	if (npes < 0 || npes > (int64_t)p->s->pes * 64 + 64)
		return rec_error(p, "destination count %lld is out of range", (long long)npes);
	for (int i = 0; type == T_CREATION_MULTICAST && i < npes; i++)
		if ((rc = check_pe(p, f[base + 1 + i], "destination PE")))
			return rc;
	struct prj_pe_log *l = p->l;
	if (VEC_GROW(l->cres, l->n_cres, l->cap_cres))
		return ERR_NOMEM;
	if (l->n_cres >= UINT32_MAX - 1)
		return ERR_LIMIT;
	uint64_t t = forward(p, f[2]);
	touch(p, t);
	uint32_t id = (uint32_t)l->n_cres++;
	l->cres[id] = (struct prj_cre){
		.t = t, .bytes = (uint64_t)bytes, .ep = ep, .event = (int32_t)f[3],
		.exec = p->open, .npes = (uint32_t)npes,
	};
	if (p->open != UINT32_MAX) {
		struct prj_exec *x = &l->execs[p->open];
		if (!x->n_cre)
			x->cre_first = id;
		x->n_cre++;
	}
	return 0;
}

static int
same_object(const struct prj_exec *x, const struct prj_exec *y)
{
	return x->ep == y->ep && x->event == y->event && x->srcpe == y->srcpe &&
	       x->key_a == y->key_a && x->key_b == y->key_b && x->nids == y->nids;
}

/* BEGIN_PROCESSING: mtype ep time event pe [msglen] [recvtime] [ids...]
 * [cputime] [counters...]. The ids are what the count leaves. */
static int
begin_processing(struct lp *p)
{
	const struct prj_sts *s = p->s;
	int n = p->nf - 1;
	const int64_t *f = p->f + 1;
	if (n < 5)
		return rec_error(p, "%d fields; at least 6 expected", p->nf);
	int rc;
	uint32_t ep;
	if ((rc = check_ep(p, f[1], &ep)) || (rc = check_time(p, f[2])) || (rc = check_event(p, f[3])))
		return rc;
	/* the sending PE is copied from the message's envelope, and real
	 * logs carry garbage there for the runtime's thread entry (PE 262145
	 * in Pipit's pingpong): the execution then names no creation */
	int64_t srcpe = f[4], event = f[3];
	if (srcpe < 0 || (uint64_t)srcpe >= p->s->pes) {
		p->l->warnings[WARN_BAD_PE]++;
		srcpe = p->pe;
		event = -1;
	}
	int lead = prj_sts_at_least(s, 2, 0) + prj_sts_at_least(s, 4, 0);
	int trail = prj_sts_at_least(s, 6, 5) + (prj_sts_at_least(s, 6, 6) ? (int)s->npapi : 0);
	int nids = n - 5 - lead - trail;
	if (nids < 0 || nids > 6)
		return rec_error(p, "%d fields do not fit format %u.%u (%s)", p->nf, s->vmajor, s->vminor,
				 nids < 0 ? "too few" : "too many");
	const struct prj_chare_def *ch = &s->chares[s->entries[ep].chare];
	struct prj_pe_log *l = p->l;
	if (VEC_GROW(l->execs, l->n_execs, l->cap_execs))
		return ERR_NOMEM;
	if (l->n_execs >= UINT32_MAX - 1)
		return ERR_LIMIT;
	uint64_t t = forward(p, f[2]);
	touch(p, t);
	if (p->open != UINT32_MAX) {
		l->warnings[WARN_NESTED_BEGIN]++;
		close_exec(p, t);
	}
	uint32_t id = (uint32_t)l->n_execs++;
	struct prj_exec *x = &l->execs[id];
	*x = (struct prj_exec){
		.t0 = t, .t1 = t, .ep = ep, .event = (int32_t)event,
		.srcpe = (uint32_t)srcpe, .mtype = f[0] < 0 || f[0] > UINT32_MAX ? 0 : (uint32_t)f[0],
		.nids = (uint8_t)nids,
	};
	if (nids && prj_key(f + 5 + lead, (uint32_t)nids, &x->key_a, &x->key_b) == 0 &&
	    prj_sts_at_least(s, 9, 0) && ch->dims >= 1 && nids == ch->dims)
		x->flags |= PRJ_X_INDEX;
	else if (nids && prj_key(f + 5 + lead, (uint32_t)nids, &x->key_a, &x->key_b) != 0)
		x->key_a = x->key_b = UINT64_MAX;
	/* a nested execution ends the one it interrupts, which then begins
	 * again with the same identity: mark the later fragments */
	if (x->event >= 0)
		for (uint32_t i = 0; i < 8 && i < p->n_recent; i++) {
			uint32_t r = p->recent[i];
			if (r != id && same_object(&l->execs[r], x)) {
				x->flags |= PRJ_X_RESUMED;
				break;
			}
		}
	p->open = id;
	return 0;
}

/* END_PROCESSING: mtype ep time event pe [msglen] [cputime] [counters]. */
static int
end_processing(struct lp *p)
{
	const struct prj_sts *s = p->s;
	int n = p->nf - 1;
	int most = 5 + prj_sts_at_least(s, 2, 0) + prj_sts_at_least(s, 6, 5) +
		   (prj_sts_at_least(s, 6, 6) ? (int)s->npapi : 0);
	if (n < 5 || n > most)
		return rec_error(p, "%d fields; %d to %d expected", p->nf, 6, most + 1);
	int rc;
	uint32_t ep;
	if ((rc = check_ep(p, p->f[2], &ep)) || (rc = check_time(p, p->f[3])) ||
	    (rc = check_event(p, p->f[4])))
		return rc;
	uint64_t t = forward(p, p->f[3]);
	touch(p, t);
	if (p->open == UINT32_MAX) {
		p->l->warnings[WARN_STRAY_LEAVE]++;
		return 0;
	}
	close_exec(p, t);
	return 0;
}

static int
idle(struct lp *p, int type)
{
	if (p->nf != 3)
		return rec_error(p, "%d fields; 3 expected", p->nf);
	int rc;
	if ((rc = check_time(p, p->f[1])) || (rc = check_pe(p, p->f[2], "PE")))
		return rc;
	uint64_t t = forward(p, p->f[1]);
	touch(p, t);
	if (type == T_BEGIN_IDLE) {
		p->idle_open = 1;
		p->idle_t0 = t;
		return 0;
	}
	if (type != T_END_IDLE || !p->idle_open)
		return 0;
	struct prj_pe_log *l = p->l;
	if (VEC_GROW(l->idles, l->n_idles, l->cap_idles))
		return ERR_NOMEM;
	l->idles[l->n_idles++] = (struct trace_idle){ .t_begin = p->idle_t0, .t_end = t };
	p->idle_open = 0;
	return 0;
}

/* Records whose fields skein only counts: the field count must fit. */
static int
counted(struct lp *p, int lo, int hi, int time_at)
{
	if (p->nf < lo || p->nf > hi)
		return lo == hi ? rec_error(p, "%d fields; %d expected", p->nf, lo)
				: rec_error(p, "%d fields; %d to %d expected", p->nf, lo, hi);
	if (time_at) {
		int rc = check_time(p, p->f[time_at]);
		if (rc)
			return rc;
		touch(p, (uint64_t)p->f[time_at]);
	}
	return 0;
}

/* Records with text or decimals: only the leading integers are checked;
 * the first is the time. */
static int
text_record(struct lp *p, const char *s, const char *end, int ints)
{
	int64_t v[4];
	const char *q = s;
	for (int i = 0; i < ints; i++) {
		while (q < end && (*q == ' ' || *q == '\t'))
			q++;
		int neg = q < end && *q == '-';
		q += neg;
		const char *d = q;
		uint64_t x = 0;
		while (q < end && *q >= '0' && *q <= '9' && x <= (UINT64_C(1) << 62))
			x = x * 10 + (uint64_t)(*q++ - '0');
		if (q == d || x > (UINT64_C(1) << 62))
			return rec_error(p, "field %d is not a number", i + 1);
		v[i] = neg ? -(int64_t)x : (int64_t)x;
	}
	int rc = check_time(p, v[0]);
	if (!rc)
		touch(p, (uint64_t)v[0]);
	return rc;
}

static int
record(struct lp *p, const char *s, const char *end)
{
	struct prj_pe_log *l = p->l;
	/* the type decides how the rest is read */
	const char *q = s;
	while (q < end && (*q == ' ' || *q == '\t'))
		q++;
	if (q == end || *q == '\r')
		return 0;        /* blank line */
	int64_t type = 0;
	const char *d = q;
	while (q < end && *q >= '0' && *q <= '9' && type < 100000)
		type = type * 10 + (*q++ - '0');
	p->nf = 0;
	if (q == d || (q < end && *q != ' ' && *q != '\t' && *q != '\r'))
		return err_set(p->e, ERR_FORMAT, "%s:%llu: a record must start with its type number",
			       l->path, (unsigned long long)p->lineno);
	int crec = crec_of(type);
	l->records[crec]++;
	p->f[0] = type;
	p->nf = 1;
	switch (type) {
	case T_USER_SUPPLIED_NOTE: return text_record(p, q, end, 2);
	case T_USER_SUPPLIED_BRACKETED_NOTE: return text_record(p, q, end, 4);
	case T_USER_STAT: return text_record(p, q, end, 1);
	default: break;
	}
	if (crec == CREC_OTHER) {
		l->warnings[WARN_UNKNOWN_RECORD]++;
		return 0;
	}
	int bad, nf;
	if (int_fields(q, end, p->f + 1, &nf, &bad)) {
		if (bad == 0)
			return rec_error(p, "more than %d fields", MAX_FIELDS);
		return rec_error(p, "field %d is not a whole number in range", bad + 1);
	}
	p->nf = nf + 1;
	switch (type) {
	case T_CREATION: case T_CREATION_BCAST: case T_CREATION_MULTICAST:
		return creation(p, (int)type);
	case T_BEGIN_PROCESSING: return begin_processing(p);
	case T_END_PROCESSING: return end_processing(p);
	case T_BEGIN_IDLE: case T_END_IDLE: case T_BEGIN_PACK: case T_END_PACK:
	case T_BEGIN_UNPACK: case T_END_UNPACK:
		return idle(p, (int)type);
	case T_BEGIN_COMPUTATION: case T_END_COMPUTATION: {
		int rc = counted(p, 2, 2, 1);
		if (rc)
			return rc;
		if (type == T_BEGIN_COMPUTATION && !l->has_begin_comp) {
			l->t_begin_comp = (uint64_t)p->f[1];
			l->has_begin_comp = 1;
		} else if (type == T_END_COMPUTATION) {
			l->t_end_comp = (uint64_t)p->f[1];
			l->has_end_comp = 1;
		}
		return 0;
	}
	case T_BEGIN_TRACE: case T_END_TRACE: return counted(p, 2, 2, 1);
	case T_ENQUEUE: case T_DEQUEUE: return counted(p, 5, 5, 2);
	case T_BEGIN_INTERRUPT: case T_END_INTERRUPT: return counted(p, 4, 4, 1);
	case T_MESSAGE_RECV: return counted(p, 6, 7, p->nf == 7 ? 3 : 2);
	case T_USER_EVENT: return counted(p, 5, 5, 2);
	case T_USER_EVENT_PAIR: return counted(p, 5, 6, 2);
	case T_BEGIN_USER_EVENT_PAIR: case T_END_USER_EVENT_PAIR: return counted(p, 6, 6, 2);
	case T_USER_SUPPLIED: return counted(p, 2, 3, 0);
	case T_MEMORY_USAGE_CURRENT: return counted(p, 3, 3, 2);
	case T_END_PHASE: return counted(p, 2, 3, p->nf == 3 ? 2 : 1);
	default: return 0;      /* MEMORY_MALLOC/FREE, SURROGATE_BLOCK: counted */
	}
}

static int
header(struct lp *p, const char *s, const char *end, uint64_t *announced)
{
	static const char magic[] = "PROJECTIONS-RECORD";
	size_t m = sizeof magic - 1;
	if ((size_t)(end - s) < m || memcmp(s, magic, m) != 0)
		return err_set(p->e, ERR_FORMAT, "%s:1: not a Projections log (no PROJECTIONS-RECORD header)",
			       p->l->path);
	*announced = 0;
	for (s += m; s < end && *s == ' '; s++)
		;
	while (s < end && *s >= '0' && *s <= '9' && *announced < (UINT64_C(1) << 50))
		*announced = *announced * 10 + (uint64_t)(*s++ - '0');
	return 0;
}

/* The event -> creation index. Charm++ numbers a PE's events from 0, so
 * the ids are dense and a table indexed by them is the fast way; a log
 * whose ids are sparse (a corrupt or hostile one: a single id near 2^31
 * would ask for an 8 GB table) gets its creations sorted by event
 * instead (event << 32 | index), searched by halves. */
static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

int
prj_log_index(struct prj_pe_log *l)
{
	int64_t max = -1;
	for (size_t i = 0; i < l->n_cres; i++)
		if (l->cres[i].event > max)
			max = l->cres[i].event;
	if ((uint64_t)(max + 1) > 2 * (uint64_t)l->n_cres + 65536) {
		l->cre_by_event = malloc((l->n_cres + 1) * sizeof *l->cre_by_event);
		if (!l->cre_by_event)
			return ERR_NOMEM;
		for (size_t i = 0; i < l->n_cres; i++)
			if (l->cres[i].event >= 0)
				l->cre_by_event[l->n_by_event++] =
					(uint64_t)l->cres[i].event << 32 | (uint32_t)i;
		qsort(l->cre_by_event, l->n_by_event, sizeof *l->cre_by_event, cmp_u64);
		return 0;
	}
	l->n_events = (uint32_t)(max + 1);
	l->cre_of_event = malloc(((size_t)l->n_events + 1) * sizeof *l->cre_of_event);
	if (!l->cre_of_event)
		return ERR_NOMEM;
	memset(l->cre_of_event, 0xff, ((size_t)l->n_events + 1) * sizeof *l->cre_of_event);
	for (size_t i = 0; i < l->n_cres; i++) {
		int32_t ev = l->cres[i].event;
		if (ev >= 0 && l->cre_of_event[ev] == UINT32_MAX)
			l->cre_of_event[ev] = (uint32_t)i;
	}
	return 0;
}

uint32_t
prj_log_creation(const struct prj_pe_log *l, int32_t ev)
{
	if (ev < 0)
		return UINT32_MAX;
	if (l->cre_of_event)
		return (uint32_t)ev < l->n_events ? l->cre_of_event[ev] : UINT32_MAX;
	size_t lo = 0, hi = l->n_by_event;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->cre_by_event[mid] >> 32 < (uint64_t)ev)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < l->n_by_event && l->cre_by_event[lo] >> 32 == (uint64_t)ev)
		return (uint32_t)l->cre_by_event[lo];
	return UINT32_MAX;
}

static int
finish(struct lp *p)
{
	struct prj_pe_log *l = p->l;
	uint64_t end = l->has_end_comp && l->t_end_comp > l->t_last ? l->t_end_comp : l->t_last;
	if (p->open != UINT32_MAX) {
		/* the trace shutdown leaves one execution open on every PE */
		l->warnings[WARN_UNCLOSED_REGION]++;
		l->execs[p->open].flags |= PRJ_X_OPEN;
		close_exec(p, end);
	}
	if (p->idle_open) {
		if (VEC_GROW(l->idles, l->n_idles, l->cap_idles))
			return ERR_NOMEM;
		l->idles[l->n_idles++] = (struct trace_idle){ .t_begin = p->idle_t0, .t_end = end };
	}
	return prj_log_index(l);
}

static int
gz_failed(gzFile gz, struct lp *p, uint64_t line)
{
	int code;
	const char *m = gzerror(gz, &code);
	if (code == Z_ERRNO)
		m = strerror(errno);
	/* zlib names a gzdopen'ed file "<fd:N>", a number of no use to the
	 * user (and another on each run): the path comes first anyway */
	if (m && strncmp(m, "<fd:", 4) == 0 && strstr(m, ">: "))
		m = strstr(m, ">: ") + 3;
	return err_set(p->e, code == Z_MEM_ERROR ? ERR_NOMEM : ERR_FORMAT,
		       "%s: %s after line %llu (the file is truncated or corrupt)", p->l->path,
		       m && *m ? m : "read error", (unsigned long long)line);
}

int
prj_log_read(const struct prj_sts *s, uint32_t pe, struct prj_pe_log *l,
	     const atomic_int *cancel, struct err *e)
{
	struct lp *p = calloc(1, sizeof *p);
	char *buf = malloc(LOG_BUF + 1);
	if (!p || !buf) {
		free(p);
		free(buf);
		return err_set(e, ERR_NOMEM, "out of memory");
	}
	p->s = s;
	p->l = l;
	p->pe = pe;
	p->e = e;
	p->open = UINT32_MAX;
	int rc = 0;
	/* opened as every input is (base/file.h): a FIFO would block */
	int fd = file_open_fd(l->path, e);
	gzFile gz = fd < 0 ? NULL : gzdopen(fd, "rb");
	if (fd < 0) {
		rc = ERR_IO;
		goto out;
	}
	if (!gz) {
		close(fd);
		rc = err_set(e, ERR_NOMEM, "%s: out of memory", l->path);
		goto out;
	}
	gzbuffer(gz, 256 * 1024);
	size_t have = 0;
	uint64_t announced = 0;
	int eof = 0;
	while (!rc) {
		if (!eof && have < LOG_BUF) {
			int got = gzread(gz, buf + have, (unsigned)(LOG_BUF - have));
			if (got < 0) {
				rc = gz_failed(gz, p, p->lineno);
				break;
			}
			if (got == 0) {
				int code;
				gzerror(gz, &code);
				if (code != Z_OK) {
					rc = gz_failed(gz, p, p->lineno);
					break;
				}
				eof = 1;
			}
			have += (size_t)got;
		}
		if (have == 0)
			break;
		char *start = buf, *end = buf + have;
		if (!eof && !memchr(start, '\n', have)) {
			if (have >= LOG_BUF) {
				rc = err_set(e, ERR_FORMAT, "%s:%llu: a line longer than %u KiB: not a "
					     "Projections log", l->path, (unsigned long long)p->lineno + 1,
					     LOG_BUF >> 10);
				break;
			}
			continue;
		}
		while (!rc && start < end) {
			char *nl = memchr(start, '\n', (size_t)(end - start));
			if (!nl && !eof)
				break;
			char *lend = nl ? nl : end;
			p->lineno++;
			if (memchr(start, 0, (size_t)(lend - start)))
				rc = err_set(e, ERR_FORMAT, "%s:%llu: binary data: not a Projections log",
					     l->path, (unsigned long long)p->lineno);
			else if (p->lineno == 1)
				rc = header(p, start, lend, &announced);
			else
				rc = record(p, start, lend);
			start = nl ? nl + 1 : end;
			if (!rc && cancel && (p->lineno & 0xffff) == 0 && atomic_load(cancel))
				rc = ERR_CANCELLED;
		}
		have = (size_t)(end - start);
		memmove(buf, start, have);
		if (eof && have == 0)
			break;
	}
	if (!rc && p->lineno == 0)
		rc = err_set(e, ERR_FORMAT, "%s: empty: not a Projections log", l->path);
	l->lines = p->lineno;
	if (!rc && p->lineno && p->lineno - 1 < announced)
		rc = err_set(e, ERR_FORMAT, "%s:%llu: truncated: the header announces %llu records, "
			     "the log ends after %llu", l->path, (unsigned long long)p->lineno,
			     (unsigned long long)announced, (unsigned long long)(p->lineno - 1));
	if (!rc)
		rc = finish(p);
	if (rc == ERR_NOMEM)
		err_set(e, rc, "out of memory");
	if (rc == ERR_LIMIT)
		err_set(e, rc, "%s: more records than skein can index", l->path);
	gzclose(gz);
out:
	free(buf);
	free(p);
	return rc;
}

void
prj_log_fini(struct prj_pe_log *l)
{
	free(l->path);
	free(l->execs);
	free(l->cres);
	free(l->idles);
	free(l->cre_of_event);
	free(l->cre_by_event);
	memset(l, 0, sizeof *l);
}

/* Keys: a high word of (mode << 56 | n << 48), so keys with different
 * counts differ. Mode 1: up to 3 ids of 32 bits; mode 2: up to 6 ids of
 * 16 bits (Charm++ writes 4D-6D indices as shorts). */
int
prj_key(const int64_t *ids, uint32_t n, uint64_t *a, uint64_t *b)
{
	if (n > 6)
		return -1;
	int fits32 = n <= 3, fits16 = 1;
	for (uint32_t i = 0; i < n; i++) {
		if (ids[i] < INT32_MIN || ids[i] > INT32_MAX)
			fits32 = 0;
		if (ids[i] < INT16_MIN || ids[i] > INT16_MAX)
			fits16 = 0;
	}
	if (fits32) {
		uint32_t v[3] = { 0, 0, 0 };
		for (uint32_t i = 0; i < n; i++)
			v[i] = (uint32_t)(int32_t)ids[i];
		*a = (UINT64_C(1) << 56) | ((uint64_t)n << 48) | v[0];
		*b = ((uint64_t)v[1] << 32) | v[2];
		return 0;
	}
	if (!fits16)
		return -1;
	uint16_t v[6] = { 0 };
	for (uint32_t i = 0; i < n; i++)
		v[i] = (uint16_t)(int16_t)ids[i];
	*a = (UINT64_C(2) << 56) | ((uint64_t)n << 48) | ((uint64_t)v[0] << 16) | v[1];
	*b = ((uint64_t)v[2] << 48) | ((uint64_t)v[3] << 32) | ((uint64_t)v[4] << 16) | v[5];
	return 0;
}

void
prj_unkey(uint64_t a, uint64_t b, uint32_t n, int32_t *ids)
{
	if ((a >> 56) == 1) {
		uint32_t v[3] = { (uint32_t)a, (uint32_t)(b >> 32), (uint32_t)b };
		for (uint32_t i = 0; i < n && i < 3; i++)
			ids[i] = (int32_t)v[i];
		return;
	}
	uint16_t v[6] = { (uint16_t)(a >> 16), (uint16_t)a, (uint16_t)(b >> 48),
			  (uint16_t)(b >> 32), (uint16_t)(b >> 16), (uint16_t)b };
	for (uint32_t i = 0; i < n && i < 6; i++)
		ids[i] = (int16_t)v[i];
}
