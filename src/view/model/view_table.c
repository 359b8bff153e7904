/* view_table.c — a sortable table with a selection (view_table.h). */
#include "view_table.h"

#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/sort.h"
#include "base/vec.h"

void
vt_init(struct vtable *t, int sort)
{
	memset(t, 0, sizeof *t);
	t->sort = sort;
}

void
vt_fini(struct vtable *t)
{
	free(t->order);
	t->order = NULL;
	t->cap = 0;
}

static void
clamp(struct vtable *t)
{
	if (t->sel >= t->n)
		t->sel = t->n ? t->n - 1 : 0;
	int rows = t->rows > 0 ? t->rows : 1;
	if (t->sel < t->top)
		t->top = t->sel;
	if (t->sel >= t->top + (uint32_t)rows)
		t->top = t->sel - (uint32_t)rows + 1;
	if (t->n <= (uint32_t)rows)
		t->top = 0;
	else if (t->top > t->n - (uint32_t)rows)
		t->top = t->n - (uint32_t)rows;
}

int
vt_reset(struct vtable *t, uint32_t n)
{
	if (n > t->cap && vec_reserve((void **)&t->order, &t->cap, n, sizeof *t->order))
		return ERR_NOMEM;
	for (uint32_t i = 0; i < n; i++)
		t->order[i] = i;
	t->n = n;
	memset(t->fit, 0, sizeof t->fit);
	t->fit_scanned = 0;
	clamp(t);
	return 0;
}

struct by {
	const struct vt_source *s;
	int c, desc;
};

static int
cmp(const void *ctx, uint32_t a, uint32_t b)
{
	const struct by *x = ctx;
	const struct vt_source *s = x->s;
	int r;
	if (s->key && !s->cols[x->c].text) {
		double ka = s->key(s->ctx, a, x->c), kb = s->key(s->ctx, b, x->c);
		r = ka > kb ? -1 : ka < kb;      /* largest first */
	} else {
		char ta[128] = "", tb[128] = "";    /* a cell may leave its text empty */
		s->cell(s->ctx, a, x->c, ta, sizeof ta);
		s->cell(s->ctx, b, x->c, tb, sizeof tb);
		r = strcmp(ta, tb);
	}
	return x->desc ? -r : r;
}

/* A numeric column's keys, computed once: a list of a million rows
 * sorts without calling back on every comparison. The order is the
 * largest key first, ties in the pane's order (by row), whatever the
 * sort: below RADIX_MIN rows a comparison sort, above a radix sort of
 * the keys' bits (sort_keyed; a list of 357,000 wait states sorted in
 * 4 ms, where qsort took 40). */
struct keyed {
	double k;
	uint32_t r;
};

enum { RADIX_MIN = 2048 };

static int
keyed_cmp(const void *p, const void *q)
{
	const struct keyed *x = p, *y = q;
	int xn = x->k != x->k, yn = y->k != y->k;     /* NaN last */
	if (xn != yn)
		return xn - yn;
	if (!xn && x->k != y->k)
		return x->k > y->k ? -1 : 1;
	return x->r < y->r ? -1 : x->r > y->r;
}

/* k as bits whose unsigned order is the doubles' order reversed: the
 * largest first. -0 sorts as 0, every NaN last. */
static uint64_t
desc_bits(double k)
{
	uint64_t b;
	if (k != k)
		return UINT64_MAX;
	if (k == 0)
		k = 0;
	memcpy(&b, &k, sizeof b);
	b = b >> 63 ? ~b : b | (uint64_t)1 << 63;   /* ascending as unsigned */
	return ~b;
}

/* Sorts rows 0..n-1 by key (largest first, ties by row) into out: a
 * stable radix sort (base/sort.h) of the keys' bits. */
static int
radix_sort(const struct vt_source *s, int c, uint32_t n, uint32_t *out)
{
	struct sort_kv *kv = malloc((size_t)n * sizeof *kv);
	if (!kv)
		return ERR_NOMEM;
	for (uint32_t i = 0; i < n; i++)
		kv[i] = (struct sort_kv){ desc_bits(s->key(s->ctx, i, c)), i };
	int rc = sort_keyed(kv, n);
	for (uint32_t i = 0; i < n && !rc; i++)
		out[i] = kv[i].id;
	free(kv);
	return rc;
}

int
vt_sort(struct vtable *t, const struct vt_source *s)
{
	uint32_t keep = vt_selected(t);
	for (uint32_t i = 0; i < t->n; i++)
		t->order[i] = i;
	if (t->sort < 0 || t->sort >= s->ncols)
		t->sort = 0;
	int rc = 0;
	if (t->n >= RADIX_MIN && s->key && !s->cols[t->sort].text) {
		if ((rc = radix_sort(s, t->sort, t->n, t->order)))
			return rc;
		if (t->desc)
			for (uint32_t i = 0, j = t->n - 1; i < j; i++, j--) {
				uint32_t x = t->order[i];
				t->order[i] = t->order[j];
				t->order[j] = x;
			}
	} else if (t->n > 1 && s->key && !s->cols[t->sort].text) {
		struct keyed *k = malloc(t->n * sizeof *k);
		if (!k)
			return ERR_NOMEM;
		for (uint32_t i = 0; i < t->n; i++)
			k[i] = (struct keyed){ s->key(s->ctx, i, t->sort), i };
		qsort(k, t->n, sizeof *k, keyed_cmp);
		for (uint32_t i = 0; i < t->n; i++)
			t->order[t->desc ? t->n - 1 - i : i] = k[i].r;
		free(k);
	} else if (t->n > 1) {
		struct by x = { s, t->sort, t->desc };
		rc = sort_ids(t->order, t->n, cmp, &x);
	}
	if (keep != UINT32_MAX)
		vt_select_row(t, keep);
	t->fit_scanned = 0;          /* the new ends are measured at the next layout */
	return rc;
}

void
vt_adopt(struct vtable *t, uint32_t *order, size_t cap, uint32_t n)
{
	free(t->order);
	t->order = order;
	t->cap = cap;
	t->n = n;
	memset(t->fit, 0, sizeof t->fit);
	t->fit_scanned = 0;
	clamp(t);
	/* vt_reset's order was the rows' own: the selected place's row */
	if (n)
		vt_select_row(t, t->sel);
}

int
vt_sort_by(struct vtable *t, const struct vt_source *s, int c)
{
	if (c == t->sort)
		t->desc = !t->desc;
	else
		t->sort = c, t->desc = 0;
	return vt_sort(t, s);
}

int
vt_sort_next(struct vtable *t, const struct vt_source *s, int dir)
{
	int at = -1, n = t->nshown;
	for (int i = 0; i < n; i++)
		if (t->col[i] == t->sort)
			at = i;
	if (n > 0)
		t->sort = t->col[at < 0 ? 0 : ((at + dir) % n + n) % n];
	t->desc = 0;
	return vt_sort(t, s);
}

uint32_t
vt_selected(const struct vtable *t)
{
	return t->sel < t->n && t->order ? t->order[t->sel] : UINT32_MAX;
}

void
vt_select_row(struct vtable *t, uint32_t r)
{
	for (uint32_t i = 0; i < t->n; i++)
		if (t->order[i] == r) {
			t->sel = i;
			break;
		}
	clamp(t);
}

/* How many rows at each end of the order, and in view, are measured:
 * a list of a million rows is not read whole for its widths. */
enum { FIT_ENDS = 128 };

static void
measure(struct vtable *t, const struct vt_source *s, int nc, uint32_t from, uint32_t to)
{
	char buf[160];
	for (uint32_t i = from; i < to && i < t->n; i++)
		for (int c = 0; c < nc; c++) {
			buf[0] = 0;
			s->cell(s->ctx, t->order[i], c, buf, sizeof buf);
			int n = text_width(buf);
			t->fit[c] = n > t->fit[c] ? n : t->fit[c];
		}
}

static const char *shorten(const char *s, int w, int mid, char *buf, size_t n);

/* Whether column c's texts in view, cut at the end to w, read alike
 * where they differ whole: then they are cut keeping both ends. */
static int
cuts_alike(const struct vtable *t, const struct vt_source *s, int c, int w)
{
	uint32_t n = t->n - t->top < (uint32_t)t->rows ? t->n - t->top : (uint32_t)t->rows;
	if (n < 2 || t->fit[c] <= w)
		return 0;
	char (*full)[160] = malloc(n * sizeof *full), (*cut)[192] = malloc(n * sizeof *cut);
	int alike = 0;
	for (uint32_t i = 0; full && cut && i < n; i++) {
		full[i][0] = 0;
		s->cell(s->ctx, t->order[t->top + i], c, full[i], sizeof full[i]);
		const char *x = shorten(full[i], w, 0, cut[i], sizeof cut[i]);
		if (x != cut[i])
			snprintf(cut[i], sizeof cut[i], "%s", x);
		for (uint32_t j = 0; j < i && !alike; j++)
			alike = !strcmp(cut[i], cut[j]) && strcmp(full[i], full[j]);
	}
	free(full);
	free(cut);
	return alike;
}

void
vt_layout(struct vtable *t, const struct vt_source *s, int w, int rows)
{
	t->rows = rows;
	clamp(t);
	/* rows that scroll: the last column is the arrows' (vt_row), as in
	 * the details, so that they never cover a character */
	if (t->n > (uint32_t)(rows > 0 ? rows : 1) && w > 1)
		w--;
	int nc = s->ncols < VT_MAX_COLS ? s->ncols : VT_MAX_COLS;
	if (!t->fit_scanned) {
		measure(t, s, nc, 0, FIT_ENDS);
		measure(t, s, nc, t->n > FIT_ENDS ? t->n - FIT_ENDS : 0, t->n);
		t->fit_scanned = 1;
	}
	measure(t, s, nc, t->top, t->top + (uint32_t)(rows > 0 ? rows : 1));
	/* a column's width: a number's, its widest (never cut); a text's,
	 * its own to start with, its widest if there is room; either, room
	 * for its header, the sorted one's with its mark (▼ ▲) */
	int want[VT_MAX_COLS], cw[VT_MAX_COLS];
	for (int c = 0; c < nc; c++) {
		int name = text_width(s->cols[c].name) + (c == t->sort);
		want[c] = s->cols[c].width > name ? s->cols[c].width : name;
		want[c] = t->fit[c] > want[c] ? t->fit[c] : want[c];
		cw[c] = !s->cols[c].text ? want[c] : s->cols[c].width > name ? s->cols[c].width : name;
	}
	/* a name in the first column: it keeps 12 columns (or its own
	 * width, when less) while the others are chosen by priority */
	int num0 = !s->cols[0].text;
	int room0 = num0 ? want[0] : s->cols[0].width > 0 && s->cols[0].width < 12 ? s->cols[0].width : 12;
	int keep[VT_MAX_COLS] = { 0 }, used = 0;
	for (int c = 1; c < nc; c++)
		if (s->cols[c].prio == 0) {
			keep[c] = 1;
			used += cw[c] + 1;
		}
	for (int p = 1; p < 100; p++)
		for (int c = 1; c < nc; c++)
			if (s->cols[c].prio == p && used + cw[c] + 1 + room0 <= w) {
				keep[c] = 1;
				used += cw[c] + 1;
			}
	keep[0] = 1;
	cw[0] = room0;
	/* too wide with the columns always kept: text columns narrow down
	 * to 6 (the first to 4) before a number would be cut */
	int over = used + cw[0] - w;
	for (int c = nc - 1; c >= 0 && over > 0; c--) {
		if (!keep[c] || !s->cols[c].text)
			continue;
		int floor = c == 0 ? 4 : 6, give = cw[c] - floor;
		give = give > over ? over : give;
		if (give > 0) {
			cw[c] -= give;
			over -= give;
			if (c > 0)
				used -= give;
		}
	}
	/* room left: the first column up to its widest text, then the
	 * other text columns up to theirs */
	int left = w - used - cw[0];
	for (int c = 0; c < nc && left > 0; c++) {
		if (!keep[c] || !s->cols[c].text)
			continue;
		int more = want[c] - cw[c];
		more = more > left ? left : more;
		if (more > 0) {
			cw[c] += more;
			left -= more;
		}
	}
	t->nshown = 0;
	int x = 0;
	for (int c = 0; c < nc; c++) {
		if (!keep[c])
			continue;
		t->col[t->nshown] = c;
		t->x[t->nshown] = x;
		t->w[t->nshown] = cw[c];
		t->mid[t->nshown] = s->cols[c].text || c == 0 ? cuts_alike(t, s, c, cw[c]) : 0;
		t->nshown++;
		x += cw[c] + 1;
	}
}

/* Text too wide for w columns, shortened so rows still differ: a
 * "Chare::entry" loses its "Chare::" first (a name before "::" that has
 * a character no C++ name has, as APEX's "/phylanx/store$16::eval",
 * stays), an "Array(1,2)" keeps its index ("Jac…(1,2)"), and what is
 * still cut is cut as the text reports cut it (text_cut: "…" at the
 * cut, a place after '@' kept whole: "!$omp parallel…@jacobi.c:122") —
 * or, with mid (rows that would read alike), keeps its start and its
 * end around the "…" ("MPI_Win_f…ocal_all"). */
static const char *
shorten(const char *s, int w, int mid, char *buf, size_t n)
{
	if (text_width(s) <= w || w < 2)
		return s;
	const char *colons = strstr(s, "::");
	int ident = colons != NULL;
	for (const char *p = s; ident && p < colons; p++)
		ident = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
			*p == '_' || *p == '<' || *p == '>' || *p == ',' || *p == ' ' || *p == ':' ||
			(unsigned char)*p >= 0x80;
	if (ident && text_width(colons + 2) <= w)
		return colons + 2;
	if (ident)
		s = colons + 2;
	if (mid) {
		int tail = (w - 1) / 2, head = w - 1 - tail;
		const unsigned char *end = (const unsigned char *)s + text_cols_bytes(s, text_width(s) - tail);
		while (*end && text_width((const char *)end) > tail)     /* a wide character astride */
			text_utf8_next(&end);
		snprintf(buf, n, "%.*s\u2026%s", (int)text_cols_bytes(s, head), s, (const char *)end);
		return buf;
	}
	size_t len = strlen(s);
	const char *paren = len && s[len - 1] == ')' ? strrchr(s, '(') : NULL;
	int tail = paren ? text_width(paren) : 0;
	if (paren && paren > s && w - tail >= 2) {
		snprintf(buf, n, "%.*s\u2026%s", (int)text_cols_bytes(s, w - tail - 1), s, paren);
		return buf;
	}
	return text_cut(s, w, buf, n);
}

/* Text right-aligned in its column, or left for text columns; cut (a
 * number only where even its column could not be made wide enough)
 * with "…". */
static void
put(struct grid *row, int x, int w, int right, int mid, int style, const char *s)
{
	char cut[192];
	s = shorten(s, w, mid, cut, sizeof cut);
	int n = text_width(s);
	if (right && n < w)
		x += w - n;
	grid_text(row, x, 0, w, style, s);
}

void
vt_header(const struct vtable *t, const struct vt_source *s, struct grid *row, int x0)
{
	for (int i = 0; i < t->nshown; i++) {
		int c = t->col[i];
		char buf[64];
		int right = !s->cols[c].text;
		if (c == t->sort)
			snprintf(buf, sizeof buf, "%s%s", s->cols[c].name,
				 (t->desc != (s->cols[c].text || s->cols[c].asc)) ? "\u25b2" : "\u25bc");
		else
			snprintf(buf, sizeof buf, "%s", s->cols[c].name);
		put(row, x0 + t->x[i], t->w[i], right, 0, c == t->sort ? ST_EMPH : ST_LABEL, buf);
	}
}

void
vt_row(const struct vtable *t, const struct vt_source *s, int y, struct grid *row, int x0)
{
	uint32_t at = t->top + (uint32_t)y;
	if (y < 0 || at >= t->n)
		return;
	uint32_t r = t->order[at];
	for (int i = 0; i < t->nshown; i++) {
		int c = t->col[i];
		char buf[160] = "";
		s->cell(s->ctx, r, c, buf, sizeof buf);
		int style = s->style ? s->style(s->ctx, r, c) : c == 0 ? ST_LABEL : ST_NORMAL;
		put(row, x0 + t->x[i], t->w[i], !s->cols[c].text, t->mid[i], style, buf);
	}
	if (at == t->sel)
		grid_mark(row, x0, 0, row->w - x0, 1, MARK_SEL);
	/* more above or below */
	if (y == 0 && t->top > 0)
		grid_text(row, row->w - 1, 0, 1, ST_EMPH, "\u2191");
	if (y == t->rows - 1 && t->top + (uint32_t)t->rows < t->n)
		grid_text(row, row->w - 1, 0, 1, ST_EMPH, "\u2193");
}

void
vt_move(struct vtable *t, long d)
{
	long s = (long)t->sel + d;
	s = s < 0 ? 0 : s;
	t->sel = t->n ? (uint32_t)(s >= (long)t->n ? (long)t->n - 1 : s) : 0;
	clamp(t);
}

void
vt_home(struct vtable *t, int end)
{
	t->sel = end && t->n ? t->n - 1 : 0;
	clamp(t);
}

int
vt_column_at(const struct vtable *t, int x)
{
	for (int i = 0; i < t->nshown; i++)
		if (x >= t->x[i] && x < t->x[i] + t->w[i] + 1)
			return t->col[i];
	return -1;
}
