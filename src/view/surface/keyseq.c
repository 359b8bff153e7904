/* keyseq.c — terminal input sequences into key codes (see keyseq.h).
 *
 * The grammar is ECMA-48's: CSI is ESC [ then parameter bytes 0x30–0x3F,
 * intermediate bytes 0x20–0x2F and one final byte 0x40–0x7E; SS3 is ESC O
 * and one byte. Which sequences mean which key is the union of what
 * xterm, VT220/rxvt (ESC [ n ~), the Linux console (ESC [ [ A) and
 * tmux/screen send; modifiers (ESC [ 1 ; 2 C) keep the key, except that
 * Shift+Left/Right are S-Left/S-Right, which are bound.
 */
#include "keyseq.h"

#include "keymap.h"

#define ESC 0x1b
#define MAX_SEQ 32          /* longer "sequences" are noise: dropped */

/* ESC [ n ~ */
static uint32_t
tilde_key(unsigned n)
{
	switch (n) {
	case 1: case 7: return KM_HOME;
	case 2: return KM_INSERT;
	case 3: return KM_DELETE;
	case 4: case 8: return KM_END;
	case 5: return KM_PGUP;
	case 6: return KM_PGDN;
	case 11: case 12: case 13: case 14: case 15: return KM_F1 + (n - 11);
	case 17: case 18: case 19: case 20: case 21: return KM_F6 + (n - 17);
	case 23: return KM_F11;
	case 24: return KM_F12;
	}
	return 0;
}

/* The final byte of CSI or SS3 with the modifier parameter (1: none). */
static uint32_t
letter_key(unsigned char c, unsigned mod)
{
	int shift = mod >= 2 && ((mod - 1) & 1);
	switch (c) {
	case 'A': return KM_UP;
	case 'B': return KM_DOWN;
	case 'C': return shift ? KM_SRIGHT : KM_RIGHT;
	case 'D': return shift ? KM_SLEFT : KM_LEFT;
	case 'H': return KM_HOME;
	case 'F': return KM_END;
	case 'Z': return KM_BTAB;
	case 'P': return KM_F1;
	case 'Q': return KM_F2;
	case 'R': return KM_F3;
	case 'S': return KM_F4;
	case 'M': return KM_ENTER;     /* SS3 M: keypad Enter */
	}
	return 0;
}

/* SGR mouse: ESC [ < b ; x ; y (M|m), x and y from 1. Presses, and
 * the left button's release (the end of a drag); motion is dropped. */
static enum keyseq_result
sgr_mouse(const unsigned long *p, int np, unsigned char final, uint32_t *key)
{
	if (np != 3 || (final != 'M' && final != 'm') || p[1] < 1 || p[2] < 1)
		return KEYSEQ_DROP;
	unsigned long b = p[0];
	if (b & 32)                      /* motion */
		return KEYSEQ_DROP;
	enum km_mouse_kind kind;
	if (final == 'm')
		kind = (b & 67) == 0 || (b & 67) == 3 ? MOUSE_RELEASE : MOUSE_KINDS;
	else if (b & 64)
		kind = (b & 3) == 0 ? MOUSE_WHEEL_UP : (b & 3) == 1 ? MOUSE_WHEEL_DOWN : MOUSE_KINDS;
	else
		kind = (b & 3) == 0 ? MOUSE_LEFT : (b & 3) == 1 ? MOUSE_MIDDLE : (b & 3) == 2 ? MOUSE_RIGHT : MOUSE_KINDS;
	if (kind == MOUSE_KINDS)
		return KEYSEQ_DROP;
	*key = keymap_mouse(kind, (int)(p[1] > 16384 ? 16383 : p[1] - 1), (int)(p[2] > 16384 ? 16383 : p[2] - 1));
	return KEYSEQ_KEY;
}

/* X10 mouse: ESC [ M b x y, each byte 32 + value (x, y from 1). */
static enum keyseq_result
x10_mouse(const unsigned char *s, uint32_t *key)
{
	unsigned long p[3] = { (unsigned long)s[3] - 32, (unsigned long)s[4] - 32, (unsigned long)s[5] - 32 };
	if (s[3] < 32 || s[4] < 33 || s[5] < 33)
		return KEYSEQ_DROP;
	if ((p[0] & 3) == 3 && !(p[0] & 64))    /* X10 release: of whichever button */
		return sgr_mouse(p, 3, 'm', key);
	return sgr_mouse(p, 3, 'M', key);
}

static enum keyseq_result
csi(const unsigned char *s, size_t n, uint32_t *key, size_t *used)
{
	if (n < 3)
		return KEYSEQ_PARTIAL;
	if (s[2] == '[') {               /* Linux console F1-F5: ESC [ [ A..E */
		if (n < 4)
			return KEYSEQ_PARTIAL;
		*used = 4;
		if (s[3] < 'A' || s[3] > 'E')
			return KEYSEQ_DROP;
		*key = KM_F1 + (uint32_t)(s[3] - 'A');
		return KEYSEQ_KEY;
	}
	if (s[2] == 'M') {               /* X10 mouse: three raw bytes follow */
		if (n < 6)
			return KEYSEQ_PARTIAL;
		*used = 6;
		return x10_mouse(s, key);
	}
	size_t i = 2;
	while (i < n && s[i] >= 0x30 && s[i] <= 0x3f)
		i++;
	while (i < n && s[i] >= 0x20 && s[i] <= 0x2f)
		i++;
	if (i == n) {
		if (n >= MAX_SEQ) {
			*used = n;
			return KEYSEQ_DROP;
		}
		return KEYSEQ_PARTIAL;
	}
	unsigned char final = s[i];
	*used = i + 1;
	if (final < 0x40 || final > 0x7e) {  /* not a sequence after all: drop what was read */
		*used = i;
		return KEYSEQ_DROP;
	}
	/* parameters: numbers separated by ';', an optional private marker */
	unsigned long p[4] = { 0, 0, 0, 0 };
	int np = 0, priv = 0, bad = 0;
	size_t j = 2;
	if (j < i && (s[j] == '<' || s[j] == '?' || s[j] == '>' || s[j] == '='))
		priv = s[j++];
	if (j < i)
		np = 1;
	for (; j < i && s[j] >= 0x30 && s[j] <= 0x3f; j++) {
		if (s[j] == ';') {
			if (np == 4)
				bad = 1;
			else
				np++;
		} else if (s[j] >= '0' && s[j] <= '9') {
			unsigned long *d = &p[np - 1];
			*d = *d > 100000 ? *d : *d * 10 + (unsigned long)(s[j] - '0');
		} else {
			bad = 1;
		}
	}
	if (bad || (j < i && final != '~'))      /* intermediates: nothing we use */
		return KEYSEQ_DROP;
	if (priv == '<')
		return sgr_mouse(p, np, final, key);
	if (priv)
		return KEYSEQ_DROP;
	uint32_t k = final == '~' ? tilde_key((unsigned)p[0])
		: letter_key(final, np >= 2 ? (unsigned)p[1] : 1);
	if (final == 'M' || !k)              /* CSI M without bytes is no Enter */
		return KEYSEQ_DROP;
	*key = k;
	return KEYSEQ_KEY;
}

enum keyseq_result
keyseq_decode(const unsigned char *s, size_t n, uint32_t *key, size_t *used)
{
	*used = 1;
	*key = KM_ESC;
	if (n < 2)
		return KEYSEQ_PARTIAL;
	if (s[1] == '[')
		return csi(s, n, key, used);
	if (s[1] == 'O') {
		if (n < 3)
			return KEYSEQ_PARTIAL;
		size_t i = 2;
		while (i < n && i < MAX_SEQ && s[i] >= '0' && s[i] <= '9')    /* ESC O 2 P: modifiers */
			i++;
		if (i == n)
			return KEYSEQ_PARTIAL;
		*used = i + 1;
		uint32_t k = letter_key(s[i], i > 2 ? (unsigned)(s[2] - '0') : 1);
		if (!k || s[i] == 'Z')
			return KEYSEQ_DROP;
		*key = k;
		return KEYSEQ_KEY;
	}
	return KEYSEQ_KEY;          /* Esc, then the next byte on its own */
}
