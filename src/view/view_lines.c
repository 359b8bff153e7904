/* view_lines.c — a pane of text lines, built in prepare and scrolled:
 * the details pane and the help overlay. Long lines wrap at spaces to
 * the pane's width (a number keeps its unit); the first row shows ↑ while
 * lines are scrolled off above, the last ↓ while more follow. */
#include "view_impl.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int
view_lines_init(struct view_lines *L)
{
	memset(L, 0, sizeof *L);
	L->cap = 64;
	L->text_cap = 4096;
	L->line = calloc((size_t)L->cap, sizeof *L->line);
	L->text = malloc(L->text_cap);
	if (!L->line || !L->text) {
		view_lines_fini(L);
		return ERR_NOMEM;
	}
	return 0;
}

void
view_lines_fini(struct view_lines *L)
{
	free(L->line);
	free(L->text);
	L->line = NULL;
	L->text = NULL;
	L->cap = 0;
	L->text_cap = L->text_n = 0;
}

void
view_lines_begin(struct view_lines *L, int w, int h)
{
	L->n = 0;
	L->text_n = 0;
	L->failed = 0;
	L->w = w;
	L->rows = h;
}

void
view_lines_end(struct view_lines *L)
{
	int max = L->n - L->rows;
	if (L->scroll > max)
		L->scroll = max > 0 ? max : 0;
	if (L->scroll < 0)
		L->scroll = 0;
}

/* Room for one more line of len bytes; 0 when memory ran out. */
static int
grow(struct view_lines *L, size_t len)
{
	if (L->n == L->cap) {
		int cap = L->cap ? 2 * L->cap : 64;
		struct dline *d = realloc(L->line, (size_t)cap * sizeof *d);
		if (!d)
			return 0;
		L->line = d;
		L->cap = cap;
	}
	if (L->text_n + len + 1 > L->text_cap) {
		size_t cap = L->text_cap ? L->text_cap : 4096;
		while (L->text_n + len + 1 > cap)
			cap *= 2;
		char *t = realloc(L->text, cap);
		if (!t)
			return 0;
		L->text = t;
		L->text_cap = cap;
	}
	return 1;
}

static void
push(struct view_lines *L, int style, int indent, const char *text, size_t len)
{
	if (L->failed)
		return;
	size_t ind = indent > 0 ? (size_t)indent : 0;
	if (!grow(L, ind + len)) {
		/* every line is kept while memory lasts; then the last one
		 * that fits says what is missing */
		static const char oom[] = "(out of memory: the rest is not shown)";
		L->failed = 1;
		if (L->n && L->text_cap - L->line[L->n - 1].off >= sizeof oom) {
			struct dline *d = &L->line[L->n - 1];
			memcpy(L->text + d->off, oom, sizeof oom);
			d->style = ST_ERROR;
		}
		return;
	}
	struct dline *d = &L->line[L->n++];
	d->off = L->text_n;
	d->style = (uint8_t)style;
	memset(L->text + L->text_n, ' ', ind);
	memcpy(L->text + L->text_n + ind, text, len);
	L->text_n += ind + len;
	L->text[L->text_n++] = 0;
}

void
view_lines_text(struct view_lines *L, int style, int indent, int cont, const char *text)
{
	const char *p = text;
	int first = 1;
	if (!*p)
		push(L, style, 0, "", 0);
	while (*p) {
		int ind = first ? indent : cont;
		int room = L->w - ind < 12 ? 12 : L->w - ind;
		size_t take = grid_wrap(p, room);
		push(L, style, ind, p, take);
		p += take;
		while (*p == ' ')
			p++;
		first = 0;
	}
}

void
view_lines_add(struct view_lines *L, int style, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	view_lines_text(L, style, 0, 2, buf);
}

void
view_lines_row(const struct view_lines *L, int y, int x, struct grid *row)
{
	int i = y + L->scroll;
	if (i < L->n)
		grid_text(row, x, 0, row->w - x, L->line[i].style, L->text + L->line[i].off);
	/* arrows in the last column say there is more above or below */
	if (y == 0 && L->scroll > 0)
		grid_text(row, row->w - 1, 0, 1, ST_EMPH, "\u2191");
	if (y == L->rows - 1 && L->n > L->scroll + L->rows)
		grid_text(row, row->w - 1, 0, 1, ST_EMPH, "\u2193");
}

int
view_lines_scroll(struct view_lines *L, enum action act)
{
	int page = L->rows > 1 ? L->rows - 1 : 1;
	switch (act) {
	case ACT_MOVE_DOWN: L->scroll++; break;
	case ACT_MOVE_UP: L->scroll--; break;
	case ACT_PAGE_DOWN: L->scroll += page; break;
	case ACT_PAGE_UP: L->scroll -= page; break;
	case ACT_FIRST_RANK: case ACT_FIRST_STEP: L->scroll = 0; break;
	case ACT_LAST_RANK: case ACT_LAST_STEP: L->scroll = L->n; break;
	default: return 0;
	}
	if (L->scroll < 0)
		L->scroll = 0;
	return 1;
}
