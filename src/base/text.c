/* text.c — strings from input files, made safe for a terminal (text.h). */
#include "text.h"

#include <string.h>

uint32_t
text_utf8_next(const unsigned char **s)
{
	const unsigned char *p = *s;
	uint32_t c = p[0];
	*s = p + 1;
	if (c < 0x80)
		return c;
	/* the continuation bytes a lead byte takes, and the range of the
	 * first of them (RFC 3629, section 4): E0 and F0 refuse what a
	 * shorter form holds, ED the surrogates, F4 what passes U+10FFFF;
	 * C0, C1 and F5-FF lead nothing */
	int n;
	unsigned lo = 0x80, hi = 0xbf;
	if (c >= 0xc2 && c <= 0xdf) {
		n = 1;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 2;
		lo = c == 0xe0 ? 0xa0 : lo;
		hi = c == 0xed ? 0x9f : hi;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 3;
		lo = c == 0xf0 ? 0x90 : lo;
		hi = c == 0xf4 ? 0x8f : hi;
	} else {
		return TEXT_BAD;
	}
	if (p[1] < lo || p[1] > hi)
		return TEXT_BAD;
	c &= 0x3fu >> n;
	for (int i = 1; i <= n; i++) {
		/* a NUL is no continuation: nothing after it is read */
		if (i > 1 && (p[i] & 0xc0) != 0x80)
			return TEXT_BAD;
		c = (c << 6) | (p[i] & 0x3fu);
	}
	*s = p + n + 1;
	return c;
}

int
text_is_control(uint32_t c)
{
	if (c < 0xa0)
		return c < 0x20 || c >= 0x7f;
	return c == 0x061c ||                     /* Arabic letter mark */
	       c == 0x200e || c == 0x200f ||      /* left-to-right, right-to-left marks */
	       (c >= 0x2028 && c <= 0x202e) ||    /* line and paragraph separators, embeddings, overrides */
	       (c >= 0x2066 && c <= 0x2069) ||    /* isolates */
	       c == 0xfeff ||                     /* byte-order mark */
	       (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff;
}

/* The clean prefix of s: bytes up to the first that needs replacing. */
static size_t
clean_prefix(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		if (*p >= 0x20 && *p < 0x7f) {
			p++;                /* printable ASCII: itself */
			continue;
		}
		const unsigned char *q = p;
		uint32_t c = text_utf8_next(&q);
		if (text_is_control(c))
			break;
		p = q;
	}
	return (size_t)(p - (const unsigned char *)s);
}

const char *
text_safe(const char *s, char *buf, size_t n)
{
	if (!s)
		return "";
	size_t k = clean_prefix(s);
	if (!s[k] || n == 0)
		return n || !s[k] ? s : "";
	size_t o = k < n - 1 ? k : n - 1;
	while (o < k && o > 0 && ((unsigned char)s[o] & 0xc0) == 0x80)
		o--;                        /* not half a character of the clean part */
	memcpy(buf, s, o);
	const unsigned char *p = (const unsigned char *)s + o;
	while (*p && o + 1 < n) {
		const unsigned char *q = p;
		uint32_t c = text_utf8_next(&q);
		if (text_is_control(c)) {
			buf[o++] = '?';
		} else {
			size_t len = (size_t)(q - p);
			if (o + len >= n)
				break;
			memcpy(buf + o, p, len);
			o += len;
		}
		p = q;
	}
	buf[o] = '\0';
	return buf;
}

void
text_put(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	while (*p) {
		size_t k = clean_prefix((const char *)p);
		fwrite(p, 1, k, out);
		p += k;
		if (!*p)
			break;
		text_utf8_next(&p);
		fputc('?', out);
	}
}
