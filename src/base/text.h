/* text.h — strings from input files, made safe for a terminal.
 *
 * Names in a trace, a configuration or a key map are whatever bytes the
 * file held; written raw to a terminal, ESC [2J clears it and ESC ]0;
 * retitles the window. Every text output (info, analyze, CSV, messages on
 * stderr, the explorer's cells) shows them through one rule: a control
 * character (C0, DEL, C1) or a byte that is not UTF-8 shows as '?'.
 * JSON escapes the same characters instead.
 */
#ifndef SKEIN_TEXT_H
#define SKEIN_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Decodes the UTF-8 character at *s and advances *s past it; a malformed
 * sequence decodes to '?' and advances by one byte. *s must not be at the
 * terminating NUL. */
uint32_t text_utf8_next(const unsigned char **s);

/* 1 if code point c shows as '?' (a control character). */
int text_is_control(uint32_t c);

/* s as it may be shown: s itself when it needs no change, else a copy
 * with each control character and malformed byte replaced by '?', written
 * into buf (n bytes, truncated if need be) and returned. NULL shows as "". */
const char *text_safe(const char *s, char *buf, size_t n);

/* Writes s as text_safe shows it, without a length limit. */
void text_put(FILE *out, const char *s);

#endif
