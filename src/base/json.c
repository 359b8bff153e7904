/* json.c — JSON output (json.h). The reports write millions of values:
 * separators and quotes go out with putc_unlocked (one thread writes a
 * report), runs of plain text and numbers in one fwrite each. */
#include "json.h"
#include "text.h"

#include <inttypes.h>
#include <math.h>

void
json_init(struct json *j, FILE *out, int pretty)
{
	j->out = out;
	j->depth = 0;
	j->count[0] = 0;
	j->pretty = pretty;
	j->key_pending = 0;
}

/* A newline and two spaces a level, in one write (a report of 10^7
 * events writes millions of them: the JSON report took three times the
 * analysis in calls of one or two bytes each). */
static void
indent(struct json *j)
{
	static const char spaces[] = "\n                                                                "
				     "                                                                ";
	if (!j->pretty)
		return;
	size_t n = 1 + 2 * (size_t)j->depth;
	fwrite(spaces, 1, n < sizeof spaces - 1 ? n : sizeof spaces - 1, j->out);
}

/* Writes the separator before a value (not after a key). */
static void
before_value(struct json *j)
{
	if (j->key_pending) {
		j->key_pending = 0;
		return;
	}
	if (j->depth > 0) {
		if (j->count[j->depth]++)
			putc_unlocked(',', j->out);
		indent(j);
	}
}

/* Control characters (C0, DEL, C1) are escaped and bytes that are not
 * UTF-8 become U+FFFD, so the output is valid JSON whatever the trace
 * held, and safe to print on a terminal. */
static void
put_string(FILE *out, const char *s)
{
	putc_unlocked('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		/* a run of printable ASCII that needs no escape, at once */
		const unsigned char *r = p;
		while (*r >= 0x20 && *r < 0x7f && *r != '"' && *r != '\\')
			r++;
		if (r > p) {
			fwrite(p, 1, (size_t)(r - p), out);
			p = r;
			continue;
		}
		const unsigned char *q = p;
		uint32_t c = text_utf8_next(&q);
		switch (c) {
		case '"': fputs("\\\"", out); break;
		case '\\': fputs("\\\\", out); break;
		case '\n': fputs("\\n", out); break;
		case '\t': fputs("\\t", out); break;
		case '\r': fputs("\\r", out); break;
		default:
			if (c == '?' && *p != '?')
				fputs("\\ufffd", out);
			else if (text_is_control(c))
				fprintf(out, "\\u%04x", (unsigned)c);
			else
				fwrite(p, 1, (size_t)(q - p), out);
		}
		p = q;
	}
	putc_unlocked('"', out);
}

void
json_key(struct json *j, const char *key)
{
	before_value(j);
	put_string(j->out, key);
	fputs(j->pretty ? ": " : ":", j->out);
	j->key_pending = 1;
}

static void
open_(struct json *j, char c)
{
	before_value(j);
	putc_unlocked(c, j->out);
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
		indent(j);
	putc_unlocked(c, j->out);
}

void json_begin_object(struct json *j) { open_(j, '{'); }
void json_end_object(struct json *j) { close_(j, '}'); }
void json_begin_array(struct json *j) { open_(j, '['); }
void json_end_array(struct json *j) { close_(j, ']'); }

void
json_string(struct json *j, const char *s)
{
	before_value(j);
	put_string(j->out, s ? s : "");
}

/* v in decimal, as "%" PRIu64 writes it. */
static void
put_uint(FILE *out, uint64_t v)
{
	char b[24], *p = b + sizeof b;
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	fwrite(p, 1, (size_t)(b + sizeof b - p), out);
}

void
json_uint(struct json *j, uint64_t v)
{
	before_value(j);
	put_uint(j->out, v);
}

void
json_int(struct json *j, int64_t v)
{
	before_value(j);
	fprintf(j->out, "%" PRId64, v);
}

void
json_double(struct json *j, double v)
{
	before_value(j);
	if (isfinite(v))
		fprintf(j->out, "%.9g", v);
	else
		fputs("null", j->out);
}

void
json_bool(struct json *j, int v)
{
	before_value(j);
	fputs(v ? "true" : "false", j->out);
}

void
json_null(struct json *j)
{
	before_value(j);
	fputs("null", j->out);
}

void
json_finish(struct json *j)
{
	putc_unlocked('\n', j->out);
}
