/* text.c — strings from input files, made safe for a terminal (text.h). */
#include "text.h"

#include <string.h>

uint32_t
text_utf8_next(const unsigned char **s)
{
	const unsigned char *p = *s;
	uint32_t c = p[0];
	int n = c < 0x80 ? 0 : (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2 : (c & 0xf8) == 0xf0 ? 3 : -1;
	if (n < 0) {
		*s = p + 1;
		return '?';
	}
	if (n == 0) {
		*s = p + 1;
		return c;
	}
	c &= 0x3fu >> n;
	for (int i = 1; i <= n; i++) {
		if ((p[i] & 0xc0) != 0x80) {
			*s = p + i;
			return '?';
		}
		c = (c << 6) | (p[i] & 0x3f);
	}
	*s = p + n + 1;
	return c;
}

int
text_is_control(uint32_t c)
{
	return c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0);
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
		if (text_is_control(c) || (c == '?' && *p != '?'))
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
	memcpy(buf, s, o);
	const unsigned char *p = (const unsigned char *)s + o;
	while (*p && o + 1 < n) {
		const unsigned char *q = p;
		uint32_t c = text_utf8_next(&q);
		if (text_is_control(c) || (c == '?' && *p != '?')) {
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
