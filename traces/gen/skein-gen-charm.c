/* skein-gen-charm.c — a deterministic synthetic Charm++ run, written as
 * Projections logs (format 11.0): a Jacobi-like 2-D chare array.
 *
 * The run mirrors charm-jacobi2d in ../shared/traces/projections: an
 * X x Y array of Jacobi chares, block-mapped onto the PEs (chare (x,y)
 * is element i = x*Y + y, on PE i*P/(X*Y)); Main on PE 0 constructs the
 * array and starts it by broadcast. Every iteration each chare sends a
 * ghost to each of its (up to 4, not periodic) neighbours, runs
 * receiveGhosts and an SDAG serial per ghost, computes once it has them
 * all, and contributes to a reduction; the reduction managers (one per
 * PE) combine their PE's contributions and their children's in a binary
 * tree to PE 0, which broadcasts the result (redn_wrapper_...) to every
 * chare, which then starts the next iteration. After the last one chare
 * (0,0) calls Main::done.
 *
 * Timing is a discrete-event simulation of one scheduler per PE: a PE
 * runs the earliest message that has arrived, one at a time; when none
 * has, it is idle (BEGIN/END_IDLE). Computation is -c microseconds with a
 * small jitter from -s; -d D:X,Y:I adds D microseconds to chare (X,Y)'s
 * compute in iteration I, so the run has a known hotspot and known idle
 * on the PEs that wait for it at the next reduction. Same arguments,
 * same bytes.
 *
 * Records per PE are counted in a first pass (the header of each log
 * states its record count) and written in a second; --dry-run prints the
 * counts only. Logs are gzip-compressed unless --plain.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#define MAX_PES 4096
#define MAX_DIM 4096
#define MAX_DELAYS 64
#define T0 20000u            /* BEGIN_COMPUTATION, microseconds */

/* .sts ids */
enum { CH_SDAG, CH_REDMGR, CH_MAIN, CH_JACOBI, CH_COUNT };
enum {
	EP_SDAG_RTS, EP_RECVMSG, EP_REDMGR_CTOR, EP_MAIN_CTOR, EP_DONE, EP_CTOR, EP_RUN, EP_GHOSTS,
	EP_REDN, EP_BEGIN_ITER, EP_PROCESS, EP_COMPUTE, EP_CONVERGE, EP_CHECK, EP_COUNT
};
static const struct {
	const char *name;
	int chare, msg;
} entries[EP_COUNT] = {
	[EP_SDAG_RTS] = { "SDAG_RTS", CH_SDAG, 0 },
	[EP_RECVMSG] = { "RecvMsg(CkReductionMsg* impl_msg)", CH_REDMGR, 1 },
	[EP_REDMGR_CTOR] = { "CkReductionMgr()", CH_REDMGR, 0 },
	[EP_MAIN_CTOR] = { "Main(CkArgMsg* impl_msg)", CH_MAIN, 2 },
	[EP_DONE] = { "done(int totalIter)", CH_MAIN, 3 },
	[EP_CTOR] = { "Jacobi()", CH_JACOBI, 0 },
	[EP_RUN] = { "run()", CH_JACOBI, 0 },
	[EP_GHOSTS] = { "receiveGhosts(int iter, int dir, int size, const double *ghosts)", CH_JACOBI, 3 },
	[EP_REDN] = { "redn_wrapper_recvConvergeResult(CkReductionMsg *impl_msg)", CH_JACOBI, 3 },
	[EP_BEGIN_ITER] = { "Jacobi_begin_iteration", CH_JACOBI, 0 },
	[EP_PROCESS] = { "Jacobi_process_ghosts", CH_JACOBI, 0 },
	[EP_COMPUTE] = { "Jacobi_compute", CH_JACOBI, 0 },
	[EP_CONVERGE] = { "Jacobi_compute_converge", CH_JACOBI, 0 },
	[EP_CHECK] = { "Jacobi_check_converge", CH_JACOBI, 0 },
};

/* record types, as Projections numbers them */
enum { R_CREATION = 1, R_BEGIN = 2, R_END = 3, R_BEGIN_COMP = 6, R_END_COMP = 7, R_BEGIN_IDLE = 14,
       R_END_IDLE = 15, R_BCAST = 20, R_TYPES = 21 };
static const char *const rec_names[R_TYPES] = {
	[R_CREATION] = "CREATION", [R_BEGIN] = "BEGIN_PROCESSING", [R_END] = "END_PROCESSING",
	[R_BEGIN_COMP] = "BEGIN_COMPUTATION", [R_END_COMP] = "END_COMPUTATION",
	[R_BEGIN_IDLE] = "BEGIN_IDLE", [R_END_IDLE] = "END_IDLE", [R_BCAST] = "CREATION_BCAST",
};

struct opts {
	const char *out;
	uint32_t pes, x, y, iters, compute, jitter_pct;
	uint64_t events, seed;
	int plain, dry, force, quiet;
	struct { uint32_t us, chare, iter; } delay[MAX_DELAYS];
	int n_delays;
};

/* a message on its way to a PE */
enum { K_CTOR, K_RUN, K_GHOST, K_REDN, K_BCAST, K_DONE };
struct msg {
	uint64_t t, seq;
	uint32_t to;          /* chare, or PE for K_REDN */
	int32_t event;
	uint32_t src, iter;
	uint8_t kind;
};

struct pe {
	uint64_t clock;
	int32_t next_event;
	struct msg *heap;
	uint32_t n_heap, cap_heap;
	/* reduction of iteration i (by parity): inputs seen, inputs wanted */
	uint32_t got[2], want;
	uint32_t n_chares;
	/* output */
	uint64_t counts[R_TYPES], total, expect;
	gzFile gz;
	FILE *f;
	char *buf;
	size_t len;
};

struct chare {
	uint32_t pe, nb, got[2], iter;
	int begun;            /* iteration `iter` has begun (ghosts sent) */
	uint64_t rng;
};

struct sim {
	const struct opts *o;
	uint32_t n;           /* chares */
	struct pe *pe;
	struct chare *ch;
	uint64_t seq;
	int write;
	uint64_t end;
};

#define BUF_SIZE (1u << 16)

static void
die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("skein-gen-charm: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);
	if (!p)
		die("out of memory");
	return p;
}

/* ---- records ------------------------------------------------------------ */

static void
flush_pe(struct pe *p)
{
	if (!p->len)
		return;
	if (p->gz ? gzwrite(p->gz, p->buf, (unsigned)p->len) != (int)p->len
		  : fwrite(p->buf, 1, p->len, p->f) != p->len)
		die("writing a log failed");
	p->len = 0;
}

static char *
put_int(char *s, int64_t v)
{
	char tmp[24];
	int n = 0;
	uint64_t u = v < 0 ? (uint64_t)-v : (uint64_t)v;
	do
		tmp[n++] = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*s++ = '-';
	while (n)
		*s++ = tmp[--n];
	return s;
}

/* One record: its type and n integer fields. */
static void
rec(struct sim *s, uint32_t pe, int type, int n, ...)
{
	struct pe *p = &s->pe[pe];
	p->counts[type]++;
	p->total++;
	if (!s->write)
		return;
	if (p->len + 32 * (size_t)(n + 1) > BUF_SIZE)
		flush_pe(p);
	char *w = p->buf + p->len;
	w = put_int(w, type);
	va_list ap;
	va_start(ap, n);
	for (int i = 0; i < n; i++) {
		*w++ = ' ';
		w = put_int(w, va_arg(ap, int64_t));
	}
	va_end(ap);
	*w++ = '\n';
	p->len = (size_t)(w - p->buf);
}

#define I(v) ((int64_t)(v))

static void
chare_xy(const struct sim *s, uint32_t c, int64_t *x, int64_t *y)
{
	*x = c / s->o->y;
	*y = c % s->o->y;
}

/* BEGIN/END_PROCESSING of entry ep on PE pe for chare c (UINT32_MAX:
 * a group or Main, whose ids are four zeros), [t0, t1). */
static void
exec_rec(struct sim *s, uint32_t pe, uint32_t ep, uint32_t c, uint64_t t0, uint64_t t1, int mtype,
	 int32_t event, uint32_t src, uint32_t bytes)
{
	int64_t x = 0, y = 0;
	if (c != UINT32_MAX)
		chare_xy(s, c, &x, &y);
	if (c == UINT32_MAX || ep == EP_SDAG_RTS)
		rec(s, pe, R_BEGIN, 12, I(mtype), I(ep), I(t0), I(event), I(src), I(bytes), I(0), x, y,
		    I(0), I(0), I(t0 / 2));
	else
		rec(s, pe, R_BEGIN, 10, I(mtype), I(ep), I(t0), I(event), I(src), I(bytes), I(0), x, y,
		    I(t0 / 2));
	rec(s, pe, R_END, 7, I(0), I(ep), I(t1), I(event), I(src), I(0), I(t1 / 2));
}

/* An SDAG serial of chare c on its PE from *t, lasting d; *t moves on. */
static void
serial(struct sim *s, uint32_t c, uint32_t ep, uint64_t *t, uint64_t d)
{
	exec_rec(s, s->ch[c].pe, ep, c, *t, *t + d, 65535, -1, s->ch[c].pe, 0);
	*t += d;
}

/* ---- messages ----------------------------------------------------------- */

static uint64_t
latency(const struct sim *s, uint32_t from, uint32_t to, uint32_t bytes)
{
	(void)s;
	return from == to ? 1 : 3 + bytes / 1000;
}

static void
push(struct sim *s, uint32_t pe, struct msg m)
{
	struct pe *p = &s->pe[pe];
	if (p->n_heap == p->cap_heap) {
		p->cap_heap = p->cap_heap ? 2 * p->cap_heap : 64;
		p->heap = realloc(p->heap, p->cap_heap * sizeof *p->heap);
		if (!p->heap)
			die("out of memory");
	}
	m.seq = s->seq++;
	uint32_t i = p->n_heap++;
	while (i) {
		uint32_t up = (i - 1) / 2;
		const struct msg *u = &p->heap[up];
		if (u->t < m.t || (u->t == m.t && u->seq < m.seq))
			break;
		p->heap[i] = *u;
		i = up;
	}
	p->heap[i] = m;
}

static struct msg
pop(struct pe *p)
{
	struct msg top = p->heap[0], last = p->heap[--p->n_heap];
	uint32_t i = 0;
	for (;;) {
		uint32_t c = 2 * i + 1;
		if (c >= p->n_heap)
			break;
		if (c + 1 < p->n_heap && (p->heap[c + 1].t < p->heap[c].t ||
					  (p->heap[c + 1].t == p->heap[c].t && p->heap[c + 1].seq < p->heap[c].seq)))
			c++;
		if (last.t < p->heap[c].t || (last.t == p->heap[c].t && last.seq < p->heap[c].seq))
			break;
		p->heap[i] = p->heap[c];
		i = c;
	}
	p->heap[i] = last;
	return top;
}

/* A creation record on PE pe at time t; returns its event id. */
static int32_t
create(struct sim *s, uint32_t pe, uint32_t ep, uint64_t t, uint32_t bytes, int bcast)
{
	int32_t ev = s->pe[pe].next_event++;
	if (bcast)
		rec(s, pe, R_BCAST, 8, I(3), I(ep), I(t), I(ev), I(pe), I(bytes), I(0), I(s->o->pes));
	else
		rec(s, pe, R_CREATION, 7, I(ep == EP_GHOSTS ? 21 : 5), I(ep), I(t), I(ev), I(pe), I(bytes),
		    I(0));
	return ev;
}

static void
send(struct sim *s, uint32_t from, uint32_t to_pe, uint64_t t, uint32_t bytes, struct msg m)
{
	m.t = t + latency(s, from, to_pe, bytes);
	m.src = from;
	push(s, to_pe, m);
}

static int
neighbour(const struct sim *s, uint32_t c, int d, uint32_t *out)
{
	int64_t x, y;
	chare_xy(s, c, &x, &y);
	x += d == 0 ? -1 : d == 1 ? 1 : 0;
	y += d == 2 ? -1 : d == 3 ? 1 : 0;
	if (x < 0 || y < 0 || x >= (int64_t)s->o->x || y >= (int64_t)s->o->y)
		return 0;
	*out = (uint32_t)(x * s->o->y + y);
	return 1;
}

/* ---- the Jacobi chare --------------------------------------------------- */

static uint64_t
compute_us(struct sim *s, uint32_t c, uint32_t iter)
{
	struct chare *k = &s->ch[c];
	k->rng ^= k->rng << 13;
	k->rng ^= k->rng >> 7;
	k->rng ^= k->rng << 17;
	uint64_t base = s->o->compute;
	uint64_t amp = base * s->o->jitter_pct / 100;
	uint64_t d = base + (amp ? k->rng % (2 * amp + 1) : 0) - amp;
	for (int i = 0; i < s->o->n_delays; i++)
		if (s->o->delay[i].chare == c && s->o->delay[i].iter == iter)
			d += s->o->delay[i].us;
	return d ? d : 1;
}

/* PE pe's reduction of iteration `iter` got one more input at time *t,
 * inside the execution running there; sends it on when complete. */
static void
reduction_input(struct sim *s, uint32_t pe, uint32_t iter, uint64_t *t)
{
	struct pe *p = &s->pe[pe];
	if (++p->got[iter % 2] < p->want)
		return;
	p->got[iter % 2] = 0;
	*t += 1;
	if (pe == 0) {       /* the root: broadcast the result to every chare */
		int32_t ev = create(s, 0, EP_REDN, *t, 224, 1);
		for (uint32_t c = 0; c < s->n; c++)
			send(s, 0, s->ch[c].pe, *t, 224,
			     (struct msg){ .kind = K_BCAST, .to = c, .event = ev, .iter = iter });
	} else {
		uint32_t parent = (pe - 1) / 2;
		int32_t ev = create(s, pe, EP_RECVMSG, *t, 224, 0);
		send(s, pe, parent, *t, 224, (struct msg){ .kind = K_REDN, .to = parent, .event = ev, .iter = iter });
	}
}

/* Chare c begins iteration iter at *t: its ghosts go out. */
static void
begin_iteration(struct sim *s, uint32_t c, uint64_t *t)
{
	struct chare *k = &s->ch[c];
	uint64_t t0 = *t;
	uint64_t t1 = t0 + 1;
	/* the serial's record first, then its creations inside it */
	int64_t x, y;
	chare_xy(s, c, &x, &y);
	rec(s, k->pe, R_BEGIN, 10, I(65535), I(EP_BEGIN_ITER), I(t0), I(-1), I(k->pe), I(0), I(0), x, y,
	    I(t0 / 2));
	for (int d = 0; d < 4; d++) {
		uint32_t nb;
		if (!neighbour(s, c, d, &nb))
			continue;
		int32_t ev = create(s, k->pe, EP_GHOSTS, t1, 1152, 0);
		send(s, k->pe, s->ch[nb].pe, t1, 1152,
		     (struct msg){ .kind = K_GHOST, .to = nb, .event = ev, .iter = k->iter });
		t1++;
	}
	rec(s, k->pe, R_END, 7, I(0), I(EP_BEGIN_ITER), I(t1), I(-1), I(k->pe), I(0), I(t1 / 2));
	*t = t1;
	serial(s, c, EP_SDAG_RTS, t, 1);
	k->begun = 1;
}

/* Chare c has all its ghosts of the iteration it began: compute, contribute. */
static void
compute(struct sim *s, uint32_t c, uint64_t *t)
{
	struct chare *k = &s->ch[c];
	k->got[k->iter % 2] = 0;
	k->begun = 0;
	serial(s, c, EP_COMPUTE, t, compute_us(s, c, k->iter));
	/* compute_converge contributes: the creation, if any, is inside it */
	int64_t x, y;
	chare_xy(s, c, &x, &y);
	rec(s, k->pe, R_BEGIN, 10, I(65535), I(EP_CONVERGE), I(*t), I(-1), I(k->pe), I(0), I(0), x, y,
	    I(*t / 2));
	*t += 1;
	reduction_input(s, k->pe, k->iter, t);
	rec(s, k->pe, R_END, 7, I(0), I(EP_CONVERGE), I(*t), I(-1), I(k->pe), I(0), I(*t / 2));
	serial(s, c, EP_SDAG_RTS, t, 1);
}

static void
try_compute(struct sim *s, uint32_t c, uint64_t *t)
{
	struct chare *k = &s->ch[c];
	if (k->begun && k->got[k->iter % 2] == k->nb)
		compute(s, c, t);
}

/* Runs message m on PE pe from time t; returns when the PE is free. */
static uint64_t
run_msg(struct sim *s, uint32_t pe, const struct msg *m, uint64_t t)
{
	uint32_t c = m->to;
	switch (m->kind) {
	case K_CTOR:
		exec_rec(s, pe, EP_CTOR, c, t, t + 3, 4, m->event, m->src, 80);
		return t + 3;
	case K_RUN:
		exec_rec(s, pe, EP_RUN, c, t, t + 1, 4, m->event, m->src, 80);
		t += 1;
		s->ch[c].iter = 0;
		begin_iteration(s, c, &t);
		try_compute(s, c, &t);
		return t;
	case K_GHOST:
		exec_rec(s, pe, EP_GHOSTS, c, t, t + 1, 4, m->event, m->src, 1152);
		t += 1;
		s->ch[c].got[m->iter % 2]++;
		serial(s, c, EP_PROCESS, &t, 1);
		serial(s, c, EP_SDAG_RTS, &t, 1);
		try_compute(s, c, &t);
		return t;
	case K_REDN: {
		uint64_t t1 = t + 2;
		int64_t z = 0;
		rec(s, pe, R_BEGIN, 12, I(5), I(EP_RECVMSG), I(t), I(m->event), I(m->src), I(224), I(0), z, z,
		    z, z, I(t / 2));
		reduction_input(s, pe, m->iter, &t1);
		rec(s, pe, R_END, 7, I(0), I(EP_RECVMSG), I(t1), I(m->event), I(m->src), I(0), I(t1 / 2));
		return t1;
	}
	case K_BCAST: {
		struct chare *k = &s->ch[c];
		exec_rec(s, pe, EP_REDN, c, t, t + 1, 4, m->event, m->src, 224);
		t += 1;
		serial(s, c, EP_CHECK, &t, 1);
		if (m->iter + 1 < s->o->iters) {
			k->iter = m->iter + 1;
			begin_iteration(s, c, &t);
			try_compute(s, c, &t);
		} else if (c == 0) {
			int64_t x = 0, y = 0;
			rec(s, pe, R_BEGIN, 10, I(65535), I(EP_BEGIN_ITER), I(t), I(-1), I(pe), I(0), I(0), x, y,
			    I(t / 2));
			int32_t ev = create(s, pe, EP_DONE, t + 1, 112, 0);
			send(s, pe, 0, t + 1, 112, (struct msg){ .kind = K_DONE, .to = 0, .event = ev });
			rec(s, pe, R_END, 7, I(0), I(EP_BEGIN_ITER), I(t + 2), I(-1), I(pe), I(0), I((t + 2) / 2));
			t += 2;
		}
		return t;
	}
	case K_DONE:
		exec_rec(s, pe, EP_DONE, UINT32_MAX, t, t + 1, 4, m->event, m->src, 112);
		return t + 1;
	}
	return t;
}

/* ---- the run ------------------------------------------------------------ */

static void
sim_init(struct sim *s, const struct opts *o, int write)
{
	memset(s, 0, sizeof *s);
	s->o = o;
	s->write = write;
	s->n = o->x * o->y;
	s->pe = xcalloc(o->pes, sizeof *s->pe);
	s->ch = xcalloc(s->n, sizeof *s->ch);
	for (uint32_t c = 0; c < s->n; c++) {
		struct chare *k = &s->ch[c];
		k->pe = (uint32_t)((uint64_t)c * o->pes / s->n);
		s->pe[k->pe].n_chares++;
		for (int d = 0; d < 4; d++) {
			uint32_t nb;
			k->nb += (uint32_t)neighbour(s, c, d, &nb);
		}
		k->rng = (o->seed + 1) * 0x9E3779B97F4A7C15ull ^ ((uint64_t)c + 1) * 0xBF58476D1CE4E5B9ull;
		if (!k->rng)
			k->rng = 1;
	}
	for (uint32_t p = 0; p < o->pes; p++) {
		uint32_t children = (2 * p + 1 < o->pes) + (2 * p + 2 < o->pes);
		s->pe[p].want = s->pe[p].n_chares + children;
		s->pe[p].clock = T0;
	}
}

static void
sim_free(struct sim *s)
{
	for (uint32_t p = 0; p < s->o->pes; p++) {
		free(s->pe[p].heap);
		free(s->pe[p].buf);
	}
	free(s->pe);
	free(s->ch);
}

static void
sim_run(struct sim *s)
{
	const struct opts *o = s->o;
	for (uint32_t p = 0; p < o->pes; p++)
		rec(s, p, R_BEGIN_COMP, 1, I(T0));
	/* Main on PE 0: constructs the array, then starts it */
	uint64_t t = T0 + 10;
	int64_t z = 0;
	rec(s, 0, R_BEGIN, 12, I(0), I(EP_MAIN_CTOR), I(t), I(-1), I(0), I(0), I(0), z, z, z, z, I(t / 2));
	int32_t ctor = create(s, 0, EP_CTOR, t + 2, 80, 1);
	int32_t run = create(s, 0, EP_RUN, t + 4, 80, 1);
	for (uint32_t c = 0; c < s->n; c++) {
		send(s, 0, s->ch[c].pe, t + 2, 80, (struct msg){ .kind = K_CTOR, .to = c, .event = ctor });
		send(s, 0, s->ch[c].pe, t + 4, 80, (struct msg){ .kind = K_RUN, .to = c, .event = run });
	}
	rec(s, 0, R_END, 7, I(0), I(EP_MAIN_CTOR), I(t + 5), I(-1), I(0), I(0), I((t + 5) / 2));
	s->pe[0].clock = t + 5;
	for (;;) {
		uint32_t best = UINT32_MAX;
		uint64_t when = UINT64_MAX;
		for (uint32_t p = 0; p < o->pes; p++) {
			struct pe *q = &s->pe[p];
			if (!q->n_heap)
				continue;
			uint64_t w = q->heap[0].t > q->clock ? q->heap[0].t : q->clock;
			if (w < when) {
				when = w;
				best = p;
			}
		}
		if (best == UINT32_MAX)
			break;
		struct pe *q = &s->pe[best];
		if (when >= q->clock + 2) {      /* nothing to run: idle */
			rec(s, best, R_BEGIN_IDLE, 2, I(q->clock), I(best));
			rec(s, best, R_END_IDLE, 2, I(when), I(best));
		}
		struct msg m = pop(q);
		q->clock = run_msg(s, best, &m, when);
		if (q->clock > s->end)
			s->end = q->clock;
	}
	for (uint32_t p = 0; p < o->pes; p++) {
		if (s->pe[p].clock + 2 <= s->end) {
			rec(s, p, R_BEGIN_IDLE, 2, I(s->pe[p].clock), I(p));
			rec(s, p, R_END_IDLE, 2, I(s->end), I(p));
		}
		rec(s, p, R_END_COMP, 1, I(s->end + 1));
	}
}

static uint64_t
count_run(const struct opts *o, uint64_t *per_pe)
{
	struct sim s;
	sim_init(&s, o, 0);
	sim_run(&s);
	uint64_t total = 0;
	for (uint32_t p = 0; p < o->pes; p++) {
		if (per_pe)
			per_pe[p] = s.pe[p].total;
		total += s.pe[p].total;
	}
	sim_free(&s);
	return total;
}

/* ---- output ------------------------------------------------------------- */

static void
write_sts(const struct opts *o, const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		die("%s: %s", path, strerror(errno));
	static const char *const chare_names[CH_COUNT] = { "SDAG", "CkReductionMgr", "Main", "Jacobi" };
	static const int dims[CH_COUNT] = { -1, -1, -1, 2 };
	static const int msg_sizes[] = { 0, 224, 112, 1152 };
	fprintf(f, "PROJECTIONS_ID \nVERSION 11.0\nTOTAL_PHASES 1\nMACHINE \"skein-gen-charm\"\n");
	/* the parameters, not argv: the same run gives the same bytes */
	fprintf(f, "PROCESSORS %u\nSMPMODE %u 1\nUSERNAME \"skein\"\nHOSTNAME \"skein\"\n"
		"COMMANDLINE \"skein-gen-charm -p %u -x %u -y %u -n %u -c %u --jitter %u -s %llu",
		o->pes, o->pes, o->pes, o->x, o->y, o->iters, o->compute, o->jitter_pct,
		(unsigned long long)o->seed);
	for (int i = 0; i < o->n_delays; i++)
		fprintf(f, " -d %u:%u,%u:%u", o->delay[i].us, o->delay[i].chare / o->y, o->delay[i].chare % o->y,
			o->delay[i].iter);
	fprintf(f, "\"\nCHARMVERSION v80000\nTOTAL_CHARES %d\nTOTAL_EPS %d\nTOTAL_MSGS %d\n", CH_COUNT, EP_COUNT,
		(int)(sizeof msg_sizes / sizeof msg_sizes[0]));
	fprintf(f, "TOTAL_PSEUDOS 0\nTOTAL_EVENTS 0\n");
	for (int c = 0; c < CH_COUNT; c++)
		fprintf(f, "CHARE %d \"%s\" %d\n", c, chare_names[c], dims[c]);
	for (int e = 0; e < EP_COUNT; e++)
		fprintf(f, "ENTRY CHARE %d \"%s\" %d %d\n", e, entries[e].name, entries[e].chare, entries[e].msg);
	for (size_t m = 0; m < sizeof msg_sizes / sizeof msg_sizes[0]; m++)
		fprintf(f, "MESSAGE %zu %d\n", m, msg_sizes[m]);
	fprintf(f, "TOTAL_STATS 0\nEND\n");
	if (fclose(f))
		die("%s: %s", path, strerror(errno));
}

static void
write_run(const struct opts *o)
{
	char path[4096];
	if (mkdir(o->out, 0777) && errno != EEXIST)
		die("%s: %s", o->out, strerror(errno));
	snprintf(path, sizeof path, "%s/jacobi.sts", o->out);
	struct stat st;
	if (!o->force && stat(path, &st) == 0)
		die("%s exists (-f replaces it)", path);
	/* the other format's log of each PE, and logs of PEs beyond this
	 * run's, would be read with it: they go */
	for (uint32_t p = 0; p < o->pes; p++) {
		snprintf(path, sizeof path, "%s/jacobi.%u.log%s", o->out, p, o->plain ? ".gz" : "");
		remove(path);
	}
	for (uint32_t p = o->pes;; p++) {
		int gone = 0;
		snprintf(path, sizeof path, "%s/jacobi.%u.log", o->out, p);
		gone += remove(path) == 0;
		snprintf(path, sizeof path, "%s/jacobi.%u.log.gz", o->out, p);
		gone += remove(path) == 0;
		if (!gone)
			break;
	}
	uint64_t *expect = xcalloc(o->pes, sizeof *expect);
	count_run(o, expect);
	struct sim s;
	sim_init(&s, o, 1);
	for (uint32_t p = 0; p < o->pes; p++) {
		struct pe *q = &s.pe[p];
		q->buf = malloc(BUF_SIZE);
		if (!q->buf)
			die("out of memory");
		snprintf(path, sizeof path, "%s/jacobi.%u.log%s", o->out, p, o->plain ? "" : ".gz");
		if (o->plain)
			q->f = fopen(path, "w");
		else
			q->gz = gzopen(path, "wb6");
		if (!q->f && !q->gz)
			die("%s: cannot write", path);
		q->len = (size_t)snprintf(q->buf, BUF_SIZE, "PROJECTIONS-RECORD %llu\n",
					  (unsigned long long)expect[p]);
	}
	sim_run(&s);
	for (uint32_t p = 0; p < o->pes; p++) {
		struct pe *q = &s.pe[p];
		if (q->total != expect[p])
			die("internal error: PE %u wrote %llu records, counted %llu", p,
			    (unsigned long long)q->total, (unsigned long long)expect[p]);
		flush_pe(q);
		if (q->gz ? gzclose(q->gz) != Z_OK : fclose(q->f) != 0)
			die("closing the log of PE %u failed", p);
		q->gz = NULL;
		q->f = NULL;
	}
	snprintf(path, sizeof path, "%s/jacobi.sts", o->out);
	write_sts(o, path);
	if (!o->quiet) {
		uint64_t counts[R_TYPES] = { 0 }, total = 0;
		for (uint32_t p = 0; p < o->pes; p++)
			for (int r = 0; r < R_TYPES; r++) {
				counts[r] += s.pe[p].counts[r];
				total += s.pe[p].counts[r];
			}
		fprintf(stderr, "skein-gen-charm: %s: %u PEs, %u chares, %u iterations, %llu records\n", o->out,
			o->pes, s.n, o->iters, (unsigned long long)total);
	}
	sim_free(&s);
	free(expect);
}

/* ---- options ------------------------------------------------------------ */

static void
usage(FILE *f)
{
	fputs("usage: skein-gen-charm [options] -o DIR\n"
	      "Write a deterministic synthetic Charm++ run, a Jacobi-like 2-D chare array,\n"
	      "as Projections logs: DIR/jacobi.sts and DIR/jacobi.PE.log.gz.\n\n"
	      "  -o, --output DIR        output directory (created if missing)\n"
	      "  -p, --pes P             PEs (default 4)\n"
	      "  -x, --chares-x X        chare grid width (default 4)\n"
	      "  -y, --chares-y Y        chare grid height (default 4); X*Y >= P\n"
	      "  -n, --iterations N      iterations (default 10)\n"
	      "  -e, --events E          instead of -n: the fewest iterations giving at\n"
	      "                          least E records (E may be 1000000, 1M, 1e6)\n"
	      "  -c, --compute-us US     computation per chare and iteration (default 50)\n"
	      "      --jitter PCT        computation jitter in percent (default 2)\n"
	      "  -d, --delay D:X,Y:I     D more microseconds of computation on chare (X,Y)\n"
	      "                          in iteration I (0-based); repeatable\n"
	      "  -s, --seed S            seed of the jitter (default 1)\n"
	      "      --plain             write uncompressed .log files\n"
	      "      --dry-run           write nothing; print the record counts\n"
	      "  -f, --force             replace a run already in DIR\n"
	      "  -q, --quiet             no summary on stderr\n"
	      "  -h, --help              this text\n", f);
}

static uint64_t
parse_count(const char *s, const char *what)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (*end == 'K' || *end == 'k')
		v *= 1e3, end++;
	else if (*end == 'M')
		v *= 1e6, end++;
	else if (*end == 'G')
		v *= 1e9, end++;
	if (errno || end == s || *end || !(v >= 0) || v > 1e12)
		die("%s takes a number, not '%s'", what, s);
	return (uint64_t)v;
}

static uint32_t
parse_u32(const char *s, const char *what, uint32_t lo, uint32_t hi)
{
	uint64_t v = parse_count(s, what);
	if (v < lo || v > hi)
		die("%s must be from %u to %u, not '%s'", what, lo, hi, s);
	return (uint32_t)v;
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' }, { "pes", required_argument, NULL, 'p' },
		{ "chares-x", required_argument, NULL, 'x' }, { "chares-y", required_argument, NULL, 'y' },
		{ "iterations", required_argument, NULL, 'n' }, { "events", required_argument, NULL, 'e' },
		{ "compute-us", required_argument, NULL, 'c' }, { "jitter", required_argument, NULL, 'J' },
		{ "delay", required_argument, NULL, 'd' }, { "seed", required_argument, NULL, 's' },
		{ "plain", no_argument, NULL, 'P' }, { "dry-run", no_argument, NULL, 'D' },
		{ "force", no_argument, NULL, 'f' }, { "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	struct opts o = { .pes = 4, .x = 4, .y = 4, .iters = 10, .compute = 50, .jitter_pct = 2, .seed = 1 };
	int c, have_n = 0;
	while ((c = getopt_long(argc, argv, "o:p:x:y:n:e:c:d:s:fqh", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': o.out = optarg; break;
		case 'p': o.pes = parse_u32(optarg, "--pes", 1, MAX_PES); break;
		case 'x': o.x = parse_u32(optarg, "--chares-x", 1, MAX_DIM); break;
		case 'y': o.y = parse_u32(optarg, "--chares-y", 1, MAX_DIM); break;
		case 'n': o.iters = parse_u32(optarg, "--iterations", 1, 100000000); have_n = 1; break;
		case 'e': o.events = parse_count(optarg, "--events"); break;
		case 'c': o.compute = parse_u32(optarg, "--compute-us", 1, 100000000); break;
		case 'J': o.jitter_pct = parse_u32(optarg, "--jitter", 0, 100); break;
		case 's': o.seed = parse_count(optarg, "--seed"); break;
		case 'd': {
			unsigned us, x, y, it;
			char tail;
			if (o.n_delays == MAX_DELAYS)
				die("at most %d delays", MAX_DELAYS);
			if (sscanf(optarg, "%u:%u,%u:%u%c", &us, &x, &y, &it, &tail) != 4)
				die("--delay takes D:X,Y:I, not '%s'", optarg);
			o.delay[o.n_delays].us = us;
			o.delay[o.n_delays].chare = x * 65536u + y;      /* resolved below */
			o.delay[o.n_delays].iter = it;
			o.n_delays++;
			break;
		}
		case 'P': o.plain = 1; break;
		case 'D': o.dry = 1; break;
		case 'f': o.force = 1; break;
		case 'q': o.quiet = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	if (!o.out && !o.dry)
		die("-o DIR is required (or --dry-run)");
	if ((uint64_t)o.x * o.y < o.pes)
		die("%u x %u chares cannot fill %u PEs", o.x, o.y, o.pes);
	if ((uint64_t)o.x * o.y > 16u << 20)
		die("%u x %u chares are too many", o.x, o.y);
	for (int i = 0; i < o.n_delays; i++) {
		uint32_t x = o.delay[i].chare / 65536u, y = o.delay[i].chare % 65536u;
		if (x >= o.x || y >= o.y)
			die("--delay names chare (%u,%u), outside the %u x %u grid", x, y, o.x, o.y);
		o.delay[i].chare = x * o.y + y;
	}
	if (o.events && have_n)
		die("-n and -e exclude each other");
	if (o.events) {      /* records grow by about one iteration's worth per iteration */
		o.iters = 1;
		uint64_t one = count_run(&o, NULL);
		o.iters = 2;
		uint64_t two = count_run(&o, NULL);
		uint64_t per = two > one ? two - one : 1;
		o.iters = o.events <= one ? 1 : (uint32_t)(1 + (o.events - one + per - 1) / per);
		while (count_run(&o, NULL) < o.events)
			o.iters++;
	}
	if (o.dry) {
		struct sim s;
		sim_init(&s, &o, 0);
		sim_run(&s);
		uint64_t counts[R_TYPES] = { 0 }, total = 0;
		for (uint32_t p = 0; p < o.pes; p++)
			for (int r = 0; r < R_TYPES; r++) {
				counts[r] += s.pe[p].counts[r];
				total += s.pe[p].counts[r];
			}
		printf("iterations %u\nchares %u\npes %u\nrecords %llu\n", o.iters, s.n, o.pes,
		       (unsigned long long)total);
		for (int r = 0; r < R_TYPES; r++)
			if (rec_names[r])
				printf("%s %llu\n", rec_names[r], (unsigned long long)counts[r]);
		sim_free(&s);
		return 0;
	}
	write_run(&o);
	return 0;
}
