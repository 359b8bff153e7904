/* json.c — JSON output (json.h). The reports write millions of values
 * (134 MB for the wait states of a 10^7-event trace): every byte goes
 * into the writer's buffer, which goes to the FILE in one fwrite when
 * full (a FILE call per separator, quote and number took a fifth of
 * `analyze --format json` there), or straight into a piece's memory.
 * Separators, keys and numbers are written in place after one check
 * for room (room()). */
#include "json.h"

#include "fmt.h"
#include "text.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void
json_init(struct json *j, FILE *out, int pretty)
{
	j->out = out;
	j->mem = NULL;
	j->depth = 0;
	j->count[0] = 0;
	j->pretty = pretty;
	j->key_pending = 0;
	j->n = 0;
}

/* Room for k more bytes where the writer's bytes go, the place to write
 * them (the caller then adds what it wrote to j->n). A writer to a FILE
 * has its buffer (k at most JSON_BUF), written out when full; a piece
 * writes into its memory, grown as needed (a copy through the buffer
 * was a tenth of the items' time). A piece out of memory writes into
 * its buffer from the start each time: its text is cut short (m->bad),
 * and the caller writes that round again in place. */
static char *
room_slow(struct json *j, size_t k)
{
	struct json_mem *m = j->mem;
	if (!m) {
		if (j->n + k > sizeof j->buf) {
			fwrite(j->buf, 1, j->n, j->out);
			j->n = 0;
		}
		return j->buf + j->n;
	}
	if (!m->bad && j->n + k > m->cap) {
		size_t cap = m->cap ? 2 * m->cap : (size_t)1 << 16;
		cap = cap < j->n + k ? j->n + k : cap;
		char *q = realloc(m->p, cap);
		if (q) {
			m->p = q;
			m->cap = cap;
		} else {
			m->bad = 1;
		}
	}
	if (m->bad) {
		j->n = 0;
		return k <= sizeof j->buf ? j->buf : NULL;
	}
	return m->p + j->n;
}

static inline char *
room(struct json *j, size_t k)
{
	const struct json_mem *m = j->mem;
	if (!m ? j->n + k <= sizeof j->buf : !m->bad && j->n + k <= m->cap)
		return (m ? m->p : j->buf) + j->n;
	return room_slow(j, k);
}

static void
flush(struct json *j)
{
	if (j->mem) {
		if (!j->mem->bad)
			j->mem->len = j->n;
		return;
	}
	if (j->n)
		fwrite(j->buf, 1, j->n, j->out);
	j->n = 0;
}

static void
put(struct json *j, const void *p, size_t n)
{
	if (!j->mem && n > sizeof j->buf) {
		flush(j);
		fwrite(p, 1, n, j->out);
		return;
	}
	char *d = room(j, n);
	if (!d)
		return;
	memcpy(d, p, n);
	j->n += n;
}

static void
putch(struct json *j, char c)
{
	char *d = room(j, 1);
	*d = c;
	j->n++;
}

void
json_piece_open(const struct json *j, struct json *piece, struct json_mem *m)
{
	json_init(piece, NULL, j->pretty);
	piece->mem = m;
	m->len = 0;
	m->bad = 0;
	piece->depth = j->depth;
	piece->count[j->depth] = 0;
}

int
json_piece_close(struct json *piece)
{
	flush(piece);
	return piece->mem->bad ? -1 : 0;
}

void
json_piece_append(struct json *j, const struct json *piece)
{
	int n = piece->count[piece->depth];
	if (!n)
		return;
	/* the piece's first item has no comma before it */
	if (j->count[j->depth])
		putch(j, ',');
	put(j, piece->mem->p, piece->mem->len);
	j->count[j->depth] += n;
}

static void
puts_(struct json *j, const char *s)
{
	put(j, s, strlen(s));
}

/* Eight spaces, stored a word at a time. */
static const char spaces8[8] = { ' ', ' ', ' ', ' ', ' ', ' ', ' ', ' ' };

/* A comma when comma is set, then (pretty) a newline and two spaces a
 * level, in one place (a report of 10^7 events writes millions of them:
 * the JSON report took three times the analysis in calls of one or two
 * bytes each). The spaces go eight at a time into room for the whole
 * words. */
static void
new_line(struct json *j, int comma)
{
	if (!j->pretty) {
		if (comma)
			putch(j, ',');
		return;
	}
	size_t sp = 2 * (size_t)j->depth, k = (size_t)comma + 1 + sp;
	char *d = room(j, k + 8);
	if (!d)
		return;
	if (comma)
		*d++ = ',';
	*d++ = '\n';
	for (size_t i = 0; i < sp; i += 8)
		memcpy(d + i, spaces8, 8);
	j->n += k;
}

/* The separator before a value (not after a key). */
static void
before_value(struct json *j)
{
	if (j->key_pending) {
		j->key_pending = 0;
		return;
	}
	if (j->depth > 0)
		new_line(j, j->count[j->depth]++ > 0);
}

/* The bytes a string's run goes out as they are: printable ASCII but
 * the quote and the backslash (not NUL, which ends it). */
static const unsigned char plain[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

/* The characters text output shows as '?' (base/text.h: C0, DEL, C1,
 * the bidirectional controls, U+2028-2029, U+FEFF) are escaped as \uXXXX
 * and each byte that is not UTF-8 becomes \ufffd (U+FFFD), so the output
 * is valid JSON (RFC 8259) whatever the trace held, carries every valid
 * name exactly, and is safe to print on a terminal. */
static void
put_string(struct json *j, const char *s)
{
	putch(j, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		/* a run of printable ASCII that needs no escape, at once */
		const unsigned char *r = p;
		while (plain[*r])
			r++;
		if (r > p) {
			put(j, p, (size_t)(r - p));
			p = r;
			continue;
		}
		const unsigned char *q = p;
		uint32_t c = text_utf8_next(&q);
		char u[8];
		switch (c) {
		case '"': puts_(j, "\\\""); break;
		case '\\': puts_(j, "\\\\"); break;
		case '\n': puts_(j, "\\n"); break;
		case '\t': puts_(j, "\\t"); break;
		case '\r': puts_(j, "\\r"); break;
		default:
			if (c == TEXT_BAD) {
				puts_(j, "\\ufffd");
			} else if (text_is_control(c)) {
				/* all of them in the BMP: the decoder yields no surrogate */
				snprintf(u, sizeof u, "\\u%04x", (unsigned)c);
				puts_(j, u);
			} else {
				put(j, p, (size_t)(q - p));
			}
		}
		p = q;
	}
	putch(j, '"');
}

void
json_key(struct json *j, const char *key)
{
	before_value(j);
	/* a key is a name from the code: its bytes plain, at once */
	size_t len = strlen(key), sep = j->pretty ? 2 : 1;
	char *d = len <= 256 ? room(j, len + 4) : NULL;
	size_t i = 0;
	if (d) {
		for (; i < len && plain[(unsigned char)key[i]]; i++)
			d[1 + i] = key[i];
	}
	if (d && i == len) {
		d[0] = '"';
		d[1 + len] = '"';
		d[2 + len] = ':';
		d[3 + len] = ' ';           /* written, counted when pretty */
		j->n += len + 2 + sep;
	} else {
		put_string(j, key);
		put(j, ": ", sep);
	}
	j->key_pending = 1;
}

static void
open_(struct json *j, char c)
{
	before_value(j);
	putch(j, c);
	if (j->depth < JSON_MAX_DEPTH - 1)
		j->depth++;
	j->count[j->depth] = 0;
}

static void
close_(struct json *j, char c)
{
	int had = j->count[j->depth];
	if (j->depth > 0)
		j->depth--;
	if (had)
		new_line(j, 0);
	putch(j, c);
}

void json_begin_object(struct json *j) { open_(j, '{'); }
void json_end_object(struct json *j) { close_(j, '}'); }
void json_begin_array(struct json *j) { open_(j, '['); }
void json_end_array(struct json *j) { close_(j, ']'); }

void
json_string(struct json *j, const char *s)
{
	before_value(j);
	put_string(j, s ? s : "");
}

/* v in decimal, as "%" PRIu64 writes it, straight into the writer. */
static void
put_uint(struct json *j, uint64_t v)
{
	j->n += (size_t)fmt_uint(v, room(j, 20));
}

void
json_uint(struct json *j, uint64_t v)
{
	before_value(j);
	put_uint(j, v);
}

void
json_int(struct json *j, int64_t v)
{
	before_value(j);
	if (v < 0)
		putch(j, '-');
	put_uint(j, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v);
}

/* Powers of ten a double holds exactly. */
static const double p10[23] = {
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
	1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* v as "%.9g" writes it, into b (32 bytes); its length, or 0 where it
 * is not sure to match (printf's digits then). v scaled to nine digits
 * before the point by one exactly rounded product or quotient with an
 * exact power of ten is within 1.2e-7 of the true value, so it rounds
 * the same way unless its fraction is within 1e-6 of a half; v must be
 * finite, not 0, and within [1e-14, 1e22) (below about 1.06e-14 the
 * exponent's estimate is one low where the scale would pass 10^22:
 * printf then). printf's digits of a report's seconds took a tenth of
 * `analyze --format json`. */
int
json_g9(double v, char *b)
{
	double a = fabs(v);
	if (!(a >= 1e-14 && a < 1e22))
		return 0;
	/* the decimal exponent from the binary one and the mantissa, f in
	 * [1/2, 1): log2 f is 2 f - 2 within 0.09, so this is floor(log10 a)
	 * but near a power of ten, where the scaling below corrects it by
	 * one (log10 took a third of this function) */
	int b2, k;
	double f = frexp(a, &b2);
	int e = (int)floor((b2 + 2 * f - 2) * 0.30102999566398120);
	double m = 0;
	for (k = 0; k < 2; k++) {
		int sc = 8 - e;
		if (sc > 22 || sc < -22)
			return 0;       /* a log10 a hair off at the range's ends */
		m = sc >= 0 ? a * p10[sc] : a / p10[-sc];
		if (m < 1e8)
			e--;
		else if (m >= 1e9)
			e++;
		else
			break;
	}
	if (k == 2)
		return 0;
	double fl = floor(m), fr = m - fl;
	if (fabs(fr - 0.5) < 1e-6)
		return 0;
	uint64_t d = (uint64_t)fl + (fr > 0.5);
	if (d == 1000000000) {
		d = 100000000;
		e++;
	}
	char dig[9];
	for (int i = 8; i >= 0; i--, d /= 10)
		dig[i] = (char)('0' + d % 10);
	int nd = 9;
	while (nd > 1 && dig[nd - 1] == '0')
		nd--;                          /* %g drops trailing zeros */
	char *p = b;
	if (v < 0)
		*p++ = '-';
	if (e < -4 || e >= 9) {
		*p++ = dig[0];
		if (nd > 1) {
			*p++ = '.';
			for (int i = 1; i < nd; i++)
				*p++ = dig[i];
		}
		*p++ = 'e';
		*p++ = e < 0 ? '-' : '+';
		int x = e < 0 ? -e : e;
		if (x >= 10)
			*p++ = (char)('0' + x / 10);
		else
			*p++ = '0';
		*p++ = (char)('0' + x % 10);
	} else if (e >= 0) {
		for (int i = 0; i <= e; i++)
			*p++ = dig[i];
		if (nd > e + 1) {
			*p++ = '.';
			for (int i = e + 1; i < nd; i++)
				*p++ = dig[i];
		}
	} else {
		*p++ = '0';
		*p++ = '.';
		for (int i = 0; i < -e - 1; i++)
			*p++ = '0';
		for (int i = 0; i < nd; i++)
			*p++ = dig[i];
	}
	return (int)(p - b);
}

void
json_double(struct json *j, double v)
{
	before_value(j);
	char b[40];
	if (!isfinite(v)) {
		puts_(j, "null");
		return;
	}
	char *d = room(j, 32);
	int n = d ? json_g9(v, d) : 0;
	if (n) {
		j->n += (size_t)n;
		return;
	}
	n = snprintf(b, sizeof b, "%.9g", v);
	put(j, b, n > 0 && (size_t)n < sizeof b ? (size_t)n : 0);
}

void
json_bool(struct json *j, int v)
{
	before_value(j);
	puts_(j, v ? "true" : "false");
}

void
json_null(struct json *j)
{
	before_value(j);
	puts_(j, "null");
}

void
json_flush(struct json *j)
{
	flush(j);
}

void
json_finish(struct json *j)
{
	putch(j, '\n');
	flush(j);
}
