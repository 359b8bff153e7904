/* samples_csv.c — the samples CSV, streamed: records are cut from a
 * buffer refilled as it drains, so memory holds one chunk of text, not
 * the file. RFC 4180 quoting ("a,b", "say ""x"""), CRLF or LF line ends,
 * a UTF-8 byte-order mark, blank lines. Every malformed record is an
 * error naming the file and the line it starts on.
 */
#include "samples_impl.h"

#include "base/text.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK (256u << 10)
#define MAX_RECORD (1u << 20)       /* one record, quoted newlines included */

struct csv {
	FILE *f;
	const char *name;
	char *buf;
	size_t cap, len, pos;
	int eof;
	uint32_t line;                /* line of the next record */
	uint32_t rec_line;            /* line the current record started on */
	char **field;
	size_t *flen;
	uint32_t nf, fcap;
};

static int
refill(struct csv *c, struct err *e)
{
	if (c->pos > 0) {
		memmove(c->buf, c->buf + c->pos, c->len - c->pos);
		c->len -= c->pos;
		c->pos = 0;
	}
	if (c->len + CHUNK + 1 > c->cap) {
		size_t cap = c->len + CHUNK + 1;
		if (c->len > MAX_RECORD)
			return err_set(e, ERR_FORMAT, "%s:%u: a record longer than %u MiB (an unclosed quote?)",
				       c->name, c->line, MAX_RECORD >> 20);
		char *b = realloc(c->buf, cap);
		if (!b)
			return err_set(e, ERR_NOMEM, "out of memory");
		c->buf = b;
		c->cap = cap;
	}
	size_t got = fread(c->buf + c->len, 1, c->cap - c->len - 1, c->f);
	if (got == 0) {
		if (ferror(c->f))
			return err_set(e, ERR_IO, "%s: read error: %s", c->name, strerror(errno));
		c->eof = 1;
	}
	c->len += got;
	return 0;
}

/* End of the record at pos (its '\n', or len at the end of the file), or
 * SIZE_MAX when more text is needed. *lines counts its newlines. */
static size_t
record_end(const struct csv *c, uint32_t *lines)
{
	const char *p = c->buf + c->pos, *end = c->buf + c->len;
	const char *nl = memchr(p, '\n', (size_t)(end - p));
	*lines = 0;
	if (nl && !memchr(p, '"', (size_t)(nl - p)))
		return (size_t)(nl - c->buf);
	int quoted = 0;
	for (const char *q = p; q < end; q++) {
		if (*q == '"')
			quoted = !quoted;
		else if (*q == '\n') {
			if (!quoted)
				return (size_t)(q - c->buf);
			(*lines)++;
		}
	}
	return c->eof ? c->len : SIZE_MAX;
}

static int
add_field(struct csv *c, char *s, size_t n)
{
	if (c->nf == c->fcap) {
		uint32_t cap = c->fcap ? c->fcap * 2 : 32;
		char **f = realloc(c->field, cap * sizeof *f);
		if (!f)
			return ERR_NOMEM;
		c->field = f;
		size_t *l = realloc(c->flen, cap * sizeof *l);
		if (!l)
			return ERR_NOMEM;
		c->flen = l;
		c->fcap = cap;
	}
	c->field[c->nf] = s;
	c->flen[c->nf++] = n;
	s[n] = 0;
	return 0;
}

/* Splits the record [pos, end) into fields in place (quotes removed,
 * doubled quotes made single). */
static int
split(struct csv *c, size_t end, struct err *e)
{
	char *p = c->buf + c->pos, *stop = c->buf + end;
	if (stop > p && stop[-1] == '\r')
		stop--;
	c->nf = 0;
	if (memchr(p, 0, (size_t)(stop - p)))
		return err_set(e, ERR_FORMAT, "%s:%u: a NUL byte (not a text file?)", c->name, c->rec_line);
	for (;;) {
		if (p < stop && *p == '"') {
			char *w = p, *r = p + 1;
			for (;;) {
				if (r >= stop)
					return err_set(e, ERR_FORMAT, "%s:%u: a quoted field is not closed",
						       c->name, c->rec_line);
				if (*r == '"') {
					if (r + 1 < stop && r[1] == '"') {
						*w++ = '"';
						r += 2;
						continue;
					}
					r++;
					break;
				}
				*w++ = *r++;
			}
			if (r < stop && *r != ',')
				return err_set(e, ERR_FORMAT, "%s:%u: text after the closing quote of field %u",
					       c->name, c->rec_line, c->nf + 1);
			if (add_field(c, p, (size_t)(w - p)))
				return err_set(e, ERR_NOMEM, "out of memory");
			if (r >= stop)
				return 0;
			p = r + 1;
			continue;
		}
		if (p > stop)
			return 0;
		char *comma = memchr(p, ',', (size_t)(stop - p));
		char *fe = comma ? comma : stop;
		for (char *q = p; q < fe; q++)
			if (*q == '"')
				return err_set(e, ERR_FORMAT, "%s:%u: a quote inside unquoted field %u",
					       c->name, c->rec_line, c->nf + 1);
		if (add_field(c, p, (size_t)(fe - p)))
			return err_set(e, ERR_NOMEM, "out of memory");
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

/* The next record into c->field: 1, 0 at the end, or an error. Blank
 * lines are skipped. */
static int
next_record(struct csv *c, struct err *e)
{
	for (;;) {
		uint32_t lines = 0;
		size_t end;
		int rc;
		while ((end = c->pos < c->len ? record_end(c, &lines) : SIZE_MAX) == SIZE_MAX) {
			if (c->eof)
				return 0;
			if ((rc = refill(c, e)))
				return rc;
		}
		c->rec_line = c->line;
		c->line += lines + 1;
		size_t next = end < c->len ? end + 1 : end;
		if (end == c->pos || (end == c->pos + 1 && c->buf[c->pos] == '\r')) {
			c->pos = next;          /* a blank line */
			continue;
		}
		if ((rc = split(c, end, e)))
			return rc;
		c->pos = next;
		return 1;
	}
}

/* ---- values ---- */

static int
is_missing(const char *s, size_t n)
{
	return n == 0 || (n == 2 && s[0] == '?' && s[1] == '?') || (n == 6 && !memcmp(s, "(null)", 6));
}

/* A whole number, decimal or hexadecimal (with or without 0x, as hex
 * says). 0, -1 not a number, -2 too large. */
static int
parse_u64(const char *s, size_t n, int hex, uint64_t *out)
{
	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		n -= 2;
		hex = 1;
	}
	if (n == 0)
		return -1;
	uint64_t x = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned d;
		char ch = s[i];
		if (ch >= '0' && ch <= '9')
			d = (unsigned)(ch - '0');
		else if (hex && ch >= 'a' && ch <= 'f')
			d = (unsigned)(ch - 'a' + 10);
		else if (hex && ch >= 'A' && ch <= 'F')
			d = (unsigned)(ch - 'A' + 10);
		else
			return -1;
		unsigned base = hex ? 16 : 10;
		if (x > (UINT64_MAX - d) / base)
			return -2;
		x = x * base + d;
	}
	*out = x;
	return 0;
}

/* Any number: a whole number (possibly negative, or 0x hexadecimal) or
 * a decimal with a fraction or exponent. 0, -1, or -2 out of range. */
static int
parse_number(const char *s, size_t n, int hex, double *out)
{
	int neg = n > 0 && (s[0] == '-' || s[0] == '+');
	uint64_t u;
	int rc = parse_u64(s + neg, n - (size_t)neg, hex, &u);
	if (rc == 0) {
		*out = s[0] == '-' ? -(double)u : (double)u;
		return 0;
	}
	if (hex)
		return rc;
	/* strtod on the NUL-terminated field; no inf, nan or hex floats */
	for (size_t i = 0; i < n; i++)
		if (!strchr("0123456789+-.eE", s[i]))
			return -1;
	char *end;
	errno = 0;
	double x = strtod(s, &end);
	if (end != s + n || end == s)
		return -1;
	if (errno == ERANGE && fabs(x) > 1)
		return -2;
	*out = x;
	return 0;
}

/* ---- columns ---- */

struct col {
	enum col_role role;
	int attr;                     /* attribute index, or -1 */
	int hex;
};

static const char *const string_columns[] = { "variable", "source", "instruction", "symbol", "function", "file" };

static int
role_of(const char *name, enum samples_encoding *enc, int *have_dsrc)
{
	static const struct { const char *name; enum samples_encoding enc; } dsrc[] = {
		{ "dataSource", SAMPLES_PEBS_HEX }, { "data_source", SAMPLES_PEBS }, { "data_src", SAMPLES_PERF },
	};
	for (size_t i = 0; i < 3; i++)
		if (strcmp(name, dsrc[i].name) == 0 && !*have_dsrc) {
			*enc = dsrc[i].enc;
			*have_dsrc = 1;
			return COL_DSRC;
		}
	if (!strcmp(name, "latency"))
		return COL_LATENCY;
	if (!strcmp(name, "cpu"))
		return COL_CPU;
	if (!strcmp(name, "time"))
		return COL_TIME;
	if (!strcmp(name, "line"))
		return COL_LINE;
	if (!strcmp(name, "variable"))
		return COL_SYMBOL;
	if (!strcmp(name, "source"))
		return COL_FILE;
	for (size_t i = 0; i < sizeof string_columns / sizeof string_columns[0]; i++)
		if (!strcmp(name, string_columns[i]))
			return COL_STRING;
	return COL_NUMBER;
}

static void
trim(char **s, size_t *n)
{
	while (*n && ((*s)[0] == ' ' || (*s)[0] == '\t')) {
		(*s)++;
		(*n)--;
	}
	while (*n && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t'))
		(*n)--;
	(*s)[*n] = 0;
}

static int
header(struct samples *s, struct csv *c, struct col **cols, struct err *e)
{
	int rc = next_record(c, e);
	if (rc < 0)
		return rc;
	if (rc == 0)
		return err_set(e, ERR_FORMAT, "%s: empty: no header line", c->name);
	struct col *k = calloc(c->nf, sizeof *k);
	if (!k)
		return err_set(e, ERR_NOMEM, "out of memory");
	*cols = k;
	int have_dsrc = 0;
	enum samples_encoding enc = SAMPLES_PEBS_HEX;
	uint32_t dsrc_col = 0;
	for (uint32_t i = 0; i < c->nf; i++) {
		char *name = c->field[i];
		size_t n = c->flen[i];
		trim(&name, &n);
		c->field[i] = name;
		if (n == 0)
			return err_set(e, ERR_FORMAT, "%s:%u: column %u has no name", c->name, c->rec_line, i + 1);
		for (uint32_t j = 0; j < i; j++)
			if (strcmp(c->field[j], name) == 0) {
				char safe[128];
				return err_set(e, ERR_FORMAT, "%s:%u: column '%s' appears twice (columns %u and %u)",
					       c->name, c->rec_line, text_safe(name, safe, sizeof safe), j + 1, i + 1);
			}
		k[i].role = (enum col_role)role_of(name, &enc, &have_dsrc);
		if (k[i].role == COL_DSRC)
			dsrc_col = i;
	}
	if (!have_dsrc)
		return err_set(e, ERR_FORMAT, "%s:%u: no data-source column (dataSource, data_source or data_src)",
			       c->name, c->rec_line);
	s->info.encoding = enc;
	int rc2 = 0;
	for (uint32_t i = 0; i < c->nf && rc2 >= 0; i++) {
		enum col_role r = k[i].role;
		int cat = r == COL_STRING || r == COL_SYMBOL || r == COL_FILE;
		k[i].hex = enc == SAMPLES_PEBS_HEX && (r == COL_DSRC || r == COL_TIME);
		rc2 = k[i].attr = samples_add_attr(s, c->field[i], cat ? SAMPLES_CATEGORY : SAMPLES_NUMBER);
		int *slot = r == COL_LATENCY ? &s->info.a_latency : r == COL_CPU ? &s->info.a_cpu
			: r == COL_DSRC ? &s->info.a_dsrc : r == COL_TIME ? &s->info.a_time
			: r == COL_LINE ? &s->info.a_line : r == COL_SYMBOL ? &s->info.a_symbol
			: r == COL_FILE ? &s->info.a_file : NULL;
		if (slot && *slot < 0)
			*slot = k[i].attr;
		if (i == dsrc_col && rc2 >= 0)
			rc2 = s->info.a_level = samples_add_attr(s, "level", SAMPLES_CATEGORY);
	}
	if (rc2 < 0)
		return err_set(e, rc2, "%s:%u: %s", c->name, c->rec_line,
			       rc2 == ERR_LIMIT ? "more than 255 columns" : "out of memory");
	if (s->info.a_cpu < 0 || s->info.a_latency < 0)
		return err_set(e, ERR_FORMAT, "%s:%u: no '%s' column", c->name, c->rec_line,
			       s->info.a_cpu < 0 ? "cpu" : "latency");
	/* the level's categories in level order, so histograms read L1 → RAM */
	for (int l = 0; l < SL_COUNT; l++) {
		const char *name = samples_level_name((enum samples_level)l);
		uint32_t id;
		if (samples_add_category(s, (uint32_t)s->info.a_level, name, strlen(name), &id))
			return err_set(e, ERR_NOMEM, "out of memory");
	}
	return 0;
}

/* One record into sample n. */
static int
row(struct samples *s, struct csv *c, const struct col *k, uint32_t ncol, struct err *e)
{
	if (c->nf != ncol)
		return err_set(e, ERR_FORMAT, "%s:%u: %u field%s, the header has %u", c->name, c->rec_line,
			       c->nf, c->nf == 1 ? "" : "s", ncol);
	int rc = samples_grow(s);
	if (rc)
		return err_set(e, rc, "%s:%u: %s", c->name, c->rec_line,
			       rc == ERR_LIMIT ? "too many samples" : "out of memory");
	uint32_t n = s->n;
	uint32_t file = SAMPLES_NONE, line = 0;
	s->symbol[n] = SAMPLES_NONE;
	s->pu[n] = SAMPLES_NONE;
	s->level[n] = SL_UNKNOWN;
	for (uint32_t i = 0; i < ncol; i++) {
		char *f = c->field[i];
		size_t len = c->flen[i];
		double *slot = &s->attr[k[i].attr].v[n];
		struct sattr *a = &s->attr[k[i].attr];
		if (a->kind == SAMPLES_CATEGORY) {
			uint32_t id;
			if (samples_add_category(s, (uint32_t)k[i].attr, f, len, &id))
				return err_set(e, ERR_NOMEM, "out of memory");
			*slot = id;
			if (k[i].role == COL_SYMBOL)
				s->symbol[n] = id;
			else if (k[i].role == COL_FILE)
				file = id;
			continue;
		}
		const char *what = NULL;
		int prc;
		char bound[64];
		if (len && (f[0] == ' ' || f[len - 1] == ' ' || f[0] == '\t' || f[len - 1] == '\t'))
			trim(&f, &len);
		if (k[i].role == COL_LATENCY || k[i].role == COL_CPU || k[i].role == COL_DSRC) {
			uint64_t u;
			prc = is_missing(f, len) ? -3 : parse_u64(f, len, k[i].hex, &u);
			if (prc == 0 && k[i].role == COL_CPU && u > UINT32_MAX)
				prc = -2;
			if (k[i].role == COL_LATENCY && (prc == -2 || (prc == 0 && u > SAMPLES_MAX_LATENCY)))
				prc = -4;       /* latencies are summed: their bound says why */
			if (prc == 0) {
				*slot = (double)u;
				if (k[i].role == COL_LATENCY) {
					s->latency[n] = u;
				} else if (k[i].role == COL_CPU) {
					uint32_t *pu = hmap_get(&s->pu_of_os, u, 0);
					if (pu)
						s->pu[n] = *pu;
				} else {
					s->level[n] = (uint8_t)samples_decode(s->info.encoding, u);
					s->attr[s->info.a_level].v[n] = s->level[n];
				}
				continue;
			}
			snprintf(bound, sizeof bound, "is too large (a latency is at most %llu cycles)",
				 (unsigned long long)SAMPLES_MAX_LATENCY);
			what = prc == -3 ? "is empty" : prc == -2 ? "is too large" : prc == -4 ? bound
				: k[i].hex ? "is not a hexadecimal number" : "is not a whole number";
		} else if (is_missing(f, len)) {
			*slot = NAN;
			continue;
		} else {
			prc = parse_number(f, len, k[i].hex, slot);
			if (prc == 0) {
				if (k[i].role == COL_LINE) {
					if (*slot >= 0 && *slot <= UINT32_MAX && *slot == floor(*slot))
						line = (uint32_t)*slot;
					else
						prc = -1;
				}
				if (prc == 0)
					continue;
			}
			what = prc == -2 ? "is out of range" : k[i].role == COL_LINE ? "is not a line number"
				: k[i].hex ? "is not a hexadecimal number" : "is not a number";
		}
		char shown[48];
		snprintf(shown, sizeof shown, "%.40s%s", f, len > 40 ? "..." : "");
		for (char *p = shown; *p; p++)
			if ((unsigned char)*p < 0x20)
				*p = '?';
		char col[128];
		return err_set(e, ERR_FORMAT, "%s:%u: %s: '%s' %s", c->name, c->rec_line,
			       text_safe(intern_str(s->strings, a->name), col, sizeof col), shown, what);
	}
	s->codeline[n] = SAMPLES_NONE;
	if (file != SAMPLES_NONE && samples_add_codeline(s, file, line, &s->codeline[n]))
		return err_set(e, ERR_NOMEM, "out of memory");
	s->n++;
	return 0;
}

/* MemAxes' CSV may carry each sample's NUMA node (LULESH's `node`
 * column), which the hardware also says by placing the sample's CPU
 * under a NUMA node. Where they disagree — a hardware.xml from another
 * machine, or CPUs numbered otherwise — the topology's counts are not
 * what the samples recorded: one warning says how many and the first,
 * and the result keeps the hardware's placement (best effort). Samples
 * without a node value, CPUs outside the hardware and hardware without
 * NUMA nodes are not compared. */
static int
check_nodes(struct samples *s, const char *name)
{
	int a = samples_attr_find(s, "node");
	if (a < 0 || s->attr[a].kind != SAMPLES_NUMBER || !s->topo)
		return 0;
	uint32_t n_obj, n_pu;
	const struct topo_obj *o = topo_objs(s->topo, &n_obj);
	const uint32_t *pu_obj = topo_pu_objs(s->topo, &n_pu);
	uint32_t *numa = malloc(((size_t)n_pu + 1) * sizeof *numa);
	if (!numa)
		return 0;          /* a check, not the reading: skipped */
	for (uint32_t p = 0; p < n_pu; p++) {
		uint32_t x = pu_obj[p];
		while (x != TRACE_NONE && x < n_obj && o[x].type != TOPO_NUMA)
			x = o[x].parent;
		numa[p] = x != TRACE_NONE && x < n_obj ? o[x].os_index : UINT32_MAX;
	}
	const double *node = s->attr[a].v;
	uint32_t bad = 0, first = UINT32_MAX;
	for (uint32_t i = 0; i < s->n; i++) {
		uint32_t p = s->pu[i];
		if (p == SAMPLES_NONE || p >= n_pu || numa[p] == UINT32_MAX || isnan(node[i]) ||
		    node[i] == (double)numa[p])
			continue;
		if (first == UINT32_MAX)
			first = i;
		bad++;
	}
	if (bad)
		samples_warn(s, "%s: the node column disagrees with the hardware for %u of %u samples (the "
			     "first, sample %u: cpu %.0f is on NUMA node %u there, node %.0f here); the "
			     "topology counts them where the hardware puts their CPUs", name, bad, s->n,
			     first + 1, s->attr[s->info.a_cpu].v[first], numa[s->pu[first]], node[first]);
	free(numa);
	return 0;
}

int
samples_read_csv(struct samples *s, const char *name, FILE *f, struct err *e)
{
	if (s->n_attr)
		return err_set(e, ERR_USAGE, "%s: the set already holds a CSV", name);
	struct csv c = { .f = f, .name = name, .line = 1 };
	struct col *cols = NULL;
	int rc = refill(&c, e);
	if (!rc && c.len >= 3 && !memcmp(c.buf, "\xef\xbb\xbf", 3))
		c.pos = 3;                  /* UTF-8 byte-order mark */
	if (!rc)
		rc = header(s, &c, &cols, e);
	uint32_t ncol = c.nf;
	while (!rc) {
		int got = next_record(&c, e);
		if (got <= 0) {
			rc = got;
			break;
		}
		rc = row(s, &c, cols, ncol, e);
	}
	free(cols);
	free(c.buf);
	free(c.field);
	free(c.flen);
	if (rc)
		return rc;
	uint32_t unmapped = 0, first = SAMPLES_NONE;
	for (uint32_t i = 0; i < s->n; i++)
		if (s->pu[i] == SAMPLES_NONE) {
			if (first == SAMPLES_NONE)
				first = i;
			unmapped++;
		}
	s->info.unmapped = unmapped;
	if (unmapped)
		samples_warn(s, "%s: %u sample%s on CPUs the hardware does not have (the first: cpu %.0f); "
			     "they count everywhere but on the topology", name, unmapped, unmapped == 1 ? "" : "s",
			     s->attr[s->info.a_cpu].v[first]);
	if (s->n == 0)
		samples_warn(s, "%s: no samples, only a header", name);
	samples_seal(s);
	return check_nodes(s, name);
}
