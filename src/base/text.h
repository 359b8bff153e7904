/* text.h — strings from input files, made safe for a terminal.
 *
 * Names in a trace, a configuration or a key map are whatever bytes the
 * file held; written raw to a terminal, ESC [2J clears it and ESC ]0;
 * retitles the window, and a right-to-left override (U+202E) shows the
 * rest of the line reversed. Every text output (info, analyze, CSV,
 * messages on stderr, the explorer's cells) shows them through one rule:
 * a control character (text_is_control: C0, DEL, C1, the bidirectional
 * and line-breaking format characters) or a byte that is not UTF-8 shows
 * as '?'. JSON escapes the same characters instead, and writes U+FFFD
 * for a byte that is not UTF-8 (json.c).
 *
 * And one rule for the columns a text takes, for every output that lays
 * text out in columns (the explorer's cells, the reports' tables): a
 * wide character (CJK, an emoji) takes two, a combining mark or a
 * zero-width character none, a character shown as '?' one, any other
 * one — what a terminal draws, from tables of text.c (Unicode's East
 * Asian Width and general categories; mk/text-width.py writes them), not
 * the C library's wcwidth, whose answer depends on the locale.
 */
#ifndef SKEIN_TEXT_H
#define SKEIN_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* What text_utf8_next returns for a byte that starts no UTF-8 sequence:
 * no code point (above U+10FFFF), and text_is_control is 1 for it. */
#define TEXT_BAD 0xffffffffu

/* Decodes the UTF-8 character at *s and advances *s past it, as RFC 3629
 * defines UTF-8: the shortest form only, no surrogate (U+D800-DFFF),
 * nothing above U+10FFFF. A byte that does not begin such a sequence
 * (a stray continuation byte, an overlong or truncated sequence, a lead
 * byte F5-FF) decodes to TEXT_BAD and advances by that one byte. No byte
 * after a NUL is read; *s must not be at the terminating NUL. */
uint32_t text_utf8_next(const unsigned char **s);

/* 1 if c shows as '?': a control character (C0, DEL, C1), a
 * bidirectional control (U+061C, U+200E-200F, U+202A-202E, U+2066-2069),
 * a line or paragraph separator (U+2028-2029), the byte-order mark
 * U+FEFF, or what is no code point (TEXT_BAD, a surrogate, above
 * U+10FFFF). */
int text_is_control(uint32_t c);

/* s as it may be shown: s itself when it needs no change, else a copy
 * with each control character and malformed byte replaced by '?', written
 * into buf (n bytes, truncated if need be, at a character's end) and
 * returned. NULL shows as "". */
const char *text_safe(const char *s, char *buf, size_t n);

/* Writes s as text_safe shows it, without a length limit. */
void text_put(FILE *out, const char *s);

/* Columns c takes on a terminal: 0 for a combining mark (Mn, Me), a
 * zero-width format character (U+200B, the joiner U+200D, a variation
 * selector) and the conjoining Hangul vowels and final consonants; 2 for
 * East Asian Wide and Fullwidth characters; 1 for any other, and for
 * what text_is_control shows as '?' (TEXT_BAD included). */
int text_char_width(uint32_t c);

/* Columns s takes as text_safe shows it: the sum of text_char_width over
 * its characters, a byte that is not UTF-8 one column ('?'). NULL is 0. */
int text_width(const char *s);

/* Bytes of s's first cols columns: a wide character that would cross
 * the end is left out, the zero-width characters after the last one
 * kept (an accent stays on its letter). */
size_t text_cols_bytes(const char *s, int cols);

/* s in w columns: s itself when it fits (or w < 2), else s cut into buf
 * (n bytes), the cut ending in "…": a name with a place after its last
 * '@' (Score-P's "!$omp parallel @jacobi.c:122") keeps the place whole
 * after as much of the rest as fits, when four columns of the rest do,
 * so that the constructs of one file stay apart; any other is cut at its
 * end. The text takes at most w columns (fewer where a wide character
 * would cross the cut, or where buf has no room for them: a short buf
 * gets fewer columns, then no place, then "" when not even "…" fits;
 * never half a character). */
const char *text_cut(const char *s, int w, char *buf, size_t n);

/* s as text_safe shows it (into buf, n bytes), then blanks up to w
 * columns: a column of a text table padded by columns, as printf's
 * "%-*s" pads ASCII by bytes. s made safe alone when it takes w columns
 * or more, or when buf has no room for the blanks. */
const char *text_safe_pad(const char *s, int w, char *buf, size_t n);

/* s in a column of exactly w columns (w >= 2): made safe, cut as
 * text_cut cuts, then padded as text_safe_pad pads (into buf, n bytes;
 * a buf too short for the column holds as many whole characters as fit). */
const char *text_fit(const char *s, int w, char *buf, size_t n);

#endif
