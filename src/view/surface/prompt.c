/* prompt.c — a one-line editor with history (see prompt.h). */
#include "prompt.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/err.h"
#include "base/text.h"
#include "grid.h"
#include "keymap.h"

int
prompt_init(struct prompt *p)
{
	memset(p, 0, sizeof *p);
	p->hist = calloc(PROMPT_HISTORY, sizeof *p->hist);
	return p->hist ? 0 : ERR_NOMEM;
}

void
prompt_fini(struct prompt *p)
{
	free(p->hist);
	p->hist = NULL;
	p->n_hist = 0;
}

void
prompt_set(struct prompt *p, const char *text)
{
	snprintf(p->buf, sizeof p->buf, "%s", text);
	p->len = p->cur = strlen(p->buf);
}

void
prompt_start(struct prompt *p)
{
	prompt_set(p, "");
	p->at = p->n_hist;
	p->tab = 0;
}

void
prompt_history_add(struct prompt *p, const char *line)
{
	if (!p->hist || !line[0] || (p->n_hist && strcmp(p->hist[p->n_hist - 1], line) == 0))
		return;
	if (p->n_hist == PROMPT_HISTORY) {
		memmove(p->hist, p->hist + 1, (PROMPT_HISTORY - 1) * sizeof *p->hist);
		p->n_hist--;
	}
	snprintf(p->hist[p->n_hist++], PROMPT_MAX, "%s", line);
	p->at = p->n_hist;
}

static int
cont_byte(char c)
{
	return ((unsigned char)c & 0xc0) == 0x80;
}

/* Does a character that takes no column (a combining accent, a joiner:
 * text_char_width) start at byte i? */
static int
zero_width_at(const struct prompt *p, size_t i)
{
	const unsigned char *q = (const unsigned char *)p->buf + i;
	return i < p->len && text_char_width(text_utf8_next(&q)) == 0;
}

/* The cursor moves, and Backspace and Delete remove, a character with
 * the zero-width ones after it ("e" and its accent): it never stands
 * between a letter and its accent. */
static size_t
prev_char(const struct prompt *p, size_t i)
{
	do
		while (i > 0 && cont_byte(p->buf[--i]))
			;
	while (i > 0 && zero_width_at(p, i));
	return i;
}

static size_t
next_char(const struct prompt *p, size_t i)
{
	do
		if (i < p->len)
			for (i++; i < p->len && cont_byte(p->buf[i]); i++)
				;
	while (zero_width_at(p, i));
	return i;
}

/* Removes bytes [a, b). */
static void
cut(struct prompt *p, size_t a, size_t b)
{
	memmove(p->buf + a, p->buf + b, p->len - b + 1);
	p->len -= b - a;
	p->cur = a;
}

static void
insert(struct prompt *p, const char *s, size_t n)
{
	if (p->len + n >= sizeof p->buf)
		return;
	memmove(p->buf + p->cur + n, p->buf + p->cur, p->len - p->cur + 1);
	memcpy(p->buf + p->cur, s, n);
	p->len += n;
	p->cur += n;
}

size_t
prompt_word_start(const struct prompt *p)
{
	size_t i = p->cur;
	while (i > 0 && p->buf[i - 1] != ' ')
		i--;
	return i;
}

static void
browse(struct prompt *p, int dir)
{
	if (!p->n_hist || (dir < 0 && p->at == 0) || (dir > 0 && p->at >= p->n_hist))
		return;
	if (p->at == p->n_hist)
		snprintf(p->draft, sizeof p->draft, "%s", p->buf);
	p->at = dir < 0 ? p->at - 1 : p->at + 1;
	prompt_set(p, p->at == p->n_hist ? p->draft : p->hist[p->at]);
}

enum prompt_result
prompt_key(struct prompt *p, uint32_t key)
{
	if (key != KM_TAB)
		p->tab = 0;
	switch (key) {
	case KM_ESC: case KM_CTRL('c'): case KM_CTRL('g'):
		return PROMPT_CANCEL;
	case KM_ENTER:
		return PROMPT_SUBMIT;
	case KM_TAB:
		return PROMPT_COMPLETE;
	case KM_BACKSPACE: case KM_CTRL('h'):
		if (p->len == 0)
			return PROMPT_CANCEL;      /* as in vi */
		if (p->cur > 0)
			cut(p, prev_char(p, p->cur), p->cur);
		return PROMPT_EDITED;
	case KM_DELETE: case KM_CTRL('d'):
		if (p->cur < p->len)
			cut(p, p->cur, next_char(p, p->cur));
		return PROMPT_EDITED;
	case KM_LEFT: case KM_CTRL('b'): p->cur = prev_char(p, p->cur); return PROMPT_EDITED;
	case KM_RIGHT: case KM_CTRL('f'): p->cur = next_char(p, p->cur); return PROMPT_EDITED;
	case KM_HOME: case KM_CTRL('a'): p->cur = 0; return PROMPT_EDITED;
	case KM_END: case KM_CTRL('e'): p->cur = p->len; return PROMPT_EDITED;
	case KM_CTRL('u'): cut(p, 0, p->cur); return PROMPT_EDITED;
	case KM_CTRL('k'): p->buf[p->cur] = 0; p->len = p->cur; return PROMPT_EDITED;
	case KM_CTRL('w'): {
		size_t i = p->cur;
		while (i > 0 && p->buf[i - 1] == ' ')
			i--;
		while (i > 0 && p->buf[i - 1] != ' ')
			i--;
		cut(p, i, p->cur);
		return PROMPT_EDITED;
	}
	case KM_UP: case KM_CTRL('p'): browse(p, -1); return PROMPT_EDITED;
	case KM_DOWN: case KM_CTRL('n'): browse(p, 1); return PROMPT_EDITED;
	default:
		break;
	}
	if (key < 0x20 || key >= KM_BASE)
		return PROMPT_EDITED;
	char b[8];
	insert(p, b, (size_t)grid_utf8(key, b));
	return PROMPT_EDITED;
}

/* Replaces the word before the cursor with s. */
static void
replace_word(struct prompt *p, const char *s, int space)
{
	cut(p, prompt_word_start(p), p->cur);
	insert(p, s, strlen(s));
	if (space && (p->cur == p->len || p->buf[p->cur] != ' '))
		insert(p, " ", 1);
}

size_t
prompt_complete(struct prompt *p, const char *const *cand, size_t n, int space_after)
{
	size_t ws = prompt_word_start(p);
	if (p->tab == 0)
		snprintf(p->tab_word, sizeof p->tab_word, "%.*s", (int)(p->cur - ws), p->buf + ws);
	p->tab++;
	size_t wl = strlen(p->tab_word), m = 0, first = 0, lcp = 0;
	for (size_t i = 0; i < n; i++) {
		if (strncasecmp(cand[i], p->tab_word, wl) != 0)
			continue;
		if (m == 0) {
			first = i;
			lcp = strlen(cand[i]);
		} else {
			size_t k = 0;
			while (k < lcp && cand[i][k] && cand[first][k] == cand[i][k])
				k++;
			lcp = k;
		}
		m++;
	}
	if (m == 0)
		return 0;
	if (m == 1) {
		replace_word(p, cand[first], space_after);
		p->tab = 0;
		return 1;
	}
	if (p->tab == 1) {
		if (lcp > wl) {           /* what they share */
			char s[PROMPT_MAX];
			snprintf(s, sizeof s, "%.*s", (int)lcp, cand[first]);
			replace_word(p, s, 0);
			return m;
		}
		p->tab = 2;               /* nothing shared: cycle at once */
	}
	size_t want = (p->tab - 2) % m, k = 0;
	for (size_t i = 0; i < n; i++)
		if (strncasecmp(cand[i], p->tab_word, wl) == 0 && k++ == want) {
			replace_word(p, cand[i], 0);
			break;
		}
	return m;
}
