/* prj_sts.c — the .sts file: a run's definitions, one keyword per line.
 *
 * What is read (Projections' StsReader and Charm++'s trace-common.C write
 * and read the same keywords):
 *
 *   VERSION 11.0            format version of the logs
 *   PROCESSORS 4            PEs, one log each
 *   CHARMVERSION v80000, MACHINE "...": for `skein info`
 *   CHARE id "name" dims    chare types; names quoted since 9.0, dims
 *                           (array dimensions, -1 for none) since 9.0
 *   ENTRY CHARE id "name" chare msg   entry methods; older files leave the
 *                           name unquoted, with spaces inside
 *   TOTAL_PAPI_EVENTS n     counters appended to BEGIN/END_PROCESSING
 *   END                     the end of the definitions
 *
 * Every other keyword (MESSAGE, EVENT, STAT, TOTAL_*, TIMESTAMP, ...) is
 * accepted and not needed. A malformed line is an error naming
 * file:line:column. The chares and entries are kept as they are read,
 * hashed by id, then put in id order with their look-ups (seal): an id
 * of 10^7 costs what its line does, not a table that large.
 */
#include "prj_impl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "base/vec.h"

#define STS_MAX_BYTES (256u << 20)
#define STS_MAX_ID TRACE_STS_ID_MAX
#define STS_MAX_PES (1u << 24)

struct cursor {
	const char *path;
	const char *line;      /* start of the current line */
	const char *p;         /* next character */
	const char *end;       /* end of the line (no newline) */
	uint32_t lineno;
};

static int
sts_error(const struct cursor *c, struct err *e, const char *what)
{
	return err_set(e, ERR_FORMAT, "%s:%u:%u: %s", c->path, c->lineno,
		       (unsigned)(c->p - c->line) + 1, what);
}

static void
skip_space(struct cursor *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\r'))
		c->p++;
}

/* The next whitespace-separated word: [*w, *w + *n). 0 if none. */
static int
word(struct cursor *c, const char **w, size_t *n)
{
	skip_space(c);
	if (c->p >= c->end)
		return 0;
	*w = c->p;
	while (c->p < c->end && *c->p != ' ' && *c->p != '\t' && *c->p != '\r')
		c->p++;
	*n = (size_t)(c->p - *w);
	return 1;
}

/* A whole number from min to max; any other word is an error saying that
 * range, at the word. */
static int
parse_u32(struct cursor *c, uint32_t min, uint32_t max, uint32_t *v, struct err *e, const char *what)
{
	const char *w;
	size_t n;
	const char *at = (skip_space(c), c->p);
	if (!word(c, &w, &n)) {
		char m[96];
		snprintf(m, sizeof m, "%s expected", what);
		return sts_error(c, e, m);
	}
	uint64_t x = 0;
	size_t i = 0;
	for (; i < n; i++) {
		if (w[i] < '0' || w[i] > '9' || x > max)
			break;
		x = x * 10 + (uint64_t)(w[i] - '0');
	}
	if (i < n || x < min || x > max) {
		c->p = at;
		char m[96];
		snprintf(m, sizeof m, "%s must be a number from %u to %u", what, min, max);
		return sts_error(c, e, m);
	}
	*v = (uint32_t)x;
	return 0;
}

static int
parse_i32(struct cursor *c, int32_t *v, struct err *e, const char *what)
{
	skip_space(c);
	int neg = c->p < c->end && *c->p == '-';
	if (neg)
		c->p++;
	uint32_t u;
	int rc = parse_u32(c, 0, 1000000, &u, e, what);
	if (rc)
		return rc;
	*v = neg ? -(int32_t)u : (int32_t)u;
	return 0;
}

/* A name: quoted ("..." with spaces inside), or bare. A bare name takes
 * the words up to the last `keep` words of the line (older .sts files
 * leave names with spaces unquoted). */
static int
parse_name(struct cursor *c, int keep, char **out, struct err *e)
{
	skip_space(c);
	const char *s, *t;
	if (c->p < c->end && *c->p == '"') {
		s = ++c->p;
		while (c->p < c->end && *c->p != '"')
			c->p++;
		if (c->p >= c->end)
			return sts_error(c, e, "unterminated quoted name");
		t = c->p++;
	} else {
		/* find where the last `keep` words begin */
		const char *q = c->end;
		for (int k = 0; k < keep; k++) {
			while (q > c->p && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\r'))
				q--;
			while (q > c->p && q[-1] != ' ' && q[-1] != '\t')
				q--;
		}
		while (q > c->p && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\r'))
			q--;
		if (q <= c->p)
			return sts_error(c, e, "name expected");
		s = c->p;
		t = q;
		c->p = q;
	}
	*out = strndup(s, (size_t)(t - s));
	return *out ? 0 : ERR_NOMEM;
}

static int
at_end(struct cursor *c, struct err *e)
{
	skip_space(c);
	return c->p < c->end ? sts_error(c, e, "unexpected text at the end of the line") : 0;
}

/* The definition of chare id, a new one (zeroed) when the file has not
 * defined it yet: its index in *k. While the file is read, ids are
 * hashed (seal makes their look-up after). 0 or ERR_NOMEM. */
static int
chare_def(struct prj_sts *s, uint32_t id, uint32_t *k)
{
	if ((*k = prj_ids_get(&s->chare_at, id)) != UINT32_MAX)
		return 0;
	if (VEC_GROW(s->chares, s->n_chares, s->cap_chares) ||
	    hmap_put(&s->chare_at.sparse, id, 0, s->n_chares))
		return ERR_NOMEM;
	*k = s->n_chares++;
	s->chares[*k] = (struct prj_chare_def){ .id = id };
	return 0;
}

static int
entry_def(struct prj_sts *s, uint32_t id, uint32_t *k)
{
	if ((*k = prj_ids_get(&s->entry_at, id)) != UINT32_MAX)
		return 0;
	if (VEC_GROW(s->entries, s->n_entries, s->cap_entries) ||
	    hmap_put(&s->entry_at.sparse, id, 0, s->n_entries))
		return ERR_NOMEM;
	*k = s->n_entries++;
	s->entries[*k] = (struct prj_entry_def){ .id = id };
	return 0;
}

static int
parse_version(struct cursor *c, struct prj_sts *s, struct err *e)
{
	const char *w;
	size_t n;
	skip_space(c);
	const char *at = c->p;
	if (!word(c, &w, &n))
		return sts_error(c, e, "VERSION needs a number such as 11.0");
	uint32_t maj = 0, min = 0;
	size_t i = 0;
	int digits = 0;
	for (; i < n && w[i] >= '0' && w[i] <= '9' && maj < 1000; i++, digits++)
		maj = maj * 10 + (uint32_t)(w[i] - '0');
	if (i < n && w[i] == '.')
		for (i++; i < n && w[i] >= '0' && w[i] <= '9' && min < 1000; i++)
			min = min * 10 + (uint32_t)(w[i] - '0');
	if (!digits || i != n || maj >= 1000) {
		c->p = at;
		return sts_error(c, e, "VERSION needs a number such as 11.0");
	}
	s->vmajor = maj;
	s->vminor = min;
	return 0;
}

static int
parse_line(struct cursor *c, struct prj_sts *s, int *done, struct err *e)
{
	const char *w;
	size_t n;
	if (!word(c, &w, &n))
		return 0;                 /* blank line */
#define IS(k) (n == sizeof k - 1 && memcmp(w, k, n) == 0)
	int rc = 0;
	if (IS("VERSION")) {
		rc = parse_version(c, s, e);
	} else if (IS("PROCESSORS")) {
		rc = parse_u32(c, 1, STS_MAX_PES, &s->pes, e, "PROCESSORS");
	} else if (IS("CHARMVERSION") || IS("MACHINE")) {
		char **dst = IS("MACHINE") ? &s->machine : &s->charmversion;
		free(*dst);
		*dst = NULL;
		skip_space(c);
		rc = c->p < c->end ? parse_name(c, 0, dst, e) : 0;
	} else if (IS("CHARE")) {
		uint32_t id, k;
		char *name = NULL;
		int32_t dims = -1;
		int with_dims = prj_sts_at_least(s, 9, 0);
		if ((rc = parse_u32(c, 0, STS_MAX_ID, &id, e, "chare id")) ||
		    (rc = parse_name(c, with_dims, &name, e)) ||
		    (with_dims && (rc = parse_i32(c, &dims, e, "chare dimensions"))) ||
		    (rc = at_end(c, e))) {
			free(name);
			return rc;
		}
		if (dims > TRACE_CHARE_DIMS || dims < -1) {
			free(name);
			return sts_error(c, e, "chare dimensions must be -1 or 0 to 6");
		}
		if ((rc = chare_def(s, id, &k))) {
			free(name);
			return rc;
		}
		free(s->chares[k].name);
		s->chares[k] = (struct prj_chare_def){ .name = name, .id = id, .dims = dims };
	} else if (IS("ENTRY")) {
		uint32_t id, chare, msg, k;
		char *name = NULL;
		word(c, &w, &n);          /* the entry type: CHARE, FUNCTION ... */
		if ((rc = parse_u32(c, 0, STS_MAX_ID, &id, e, "entry id")) ||
		    (rc = parse_name(c, 2, &name, e)))
			return rc;
		const char *at = (skip_space(c), c->p);
		if ((rc = parse_u32(c, 0, STS_MAX_ID, &chare, e, "chare id of the entry"))) {
			free(name);
			return rc;
		}
		skip_space(c);
		int32_t m;
		if ((rc = parse_i32(c, &m, e, "message id of the entry")) || (rc = at_end(c, e))) {
			free(name);
			return rc;
		}
		msg = m < 0 ? UINT32_MAX : (uint32_t)m;
		if (prj_ids_get(&s->chare_at, chare) == UINT32_MAX) {
			free(name);
			c->p = at;
			return sts_error(c, e, "the entry names a chare the file has not defined");
		}
		if ((rc = entry_def(s, id, &k))) {
			free(name);
			return rc;
		}
		/* the chare's id until seal makes it an index */
		free(s->entries[k].name);
		s->entries[k] = (struct prj_entry_def){ .name = name, .id = id, .chare = chare, .msg = msg };
	} else if (IS("TOTAL_PAPI_EVENTS")) {
		rc = parse_u32(c, 0, 64, &s->npapi, e, "TOTAL_PAPI_EVENTS");
	} else if (IS("END")) {
		*done = 1;
	}
#undef IS
	return rc;
}

int
prj_sts_at_least(const struct prj_sts *s, uint32_t major, uint32_t minor)
{
	return s->vmajor > major || (s->vmajor == major && s->vminor >= minor);
}

static int
check_sts(struct prj_sts *s, const char *path, struct err *e)
{
	if (!s->vmajor)
		return err_set(e, ERR_FORMAT, "%s: no VERSION line: not a Projections .sts file", path);
	if (s->vmajor < 2 || s->vmajor > 11)
		return err_set(e, ERR_FORMAT, "%s: Projections format version %u.%u is not supported "
			       "(versions 2 to 11 are)", path, s->vmajor, s->vminor);
	if (!s->pes)
		return err_set(e, ERR_FORMAT, "%s: no PROCESSORS line", path);
	if (!s->n_entries)
		return err_set(e, ERR_FORMAT, "%s: defines no entry methods", path);
	return 0;
}

static int
cmp_chare(const void *a, const void *b)
{
	uint32_t x = ((const struct prj_chare_def *)a)->id, y = ((const struct prj_chare_def *)b)->id;
	return (x > y) - (x < y);
}

static int
cmp_entry(const void *a, const void *b)
{
	uint32_t x = ((const struct prj_entry_def *)a)->id, y = ((const struct prj_entry_def *)b)->id;
	return (x > y) - (x < y);
}

/* Makes m the look-up of n definitions whose largest id is top, in
 * place of the hash map it was while the file was read: an array while
 * top stays within 2n + PRJ_IDS_SLACK, else a hash map again (ids_set
 * fills either). 0 or ERR_NOMEM. */
static int
ids_init(struct prj_ids *m, uint32_t n, uint32_t top)
{
	hmap_fini(&m->sparse);
	if ((uint64_t)top + 1 > 2 * (uint64_t)n + PRJ_IDS_SLACK)
		return 0;
	m->n_dense = top + 1;
	if (!(m->dense = malloc((size_t)m->n_dense * sizeof *m->dense)))
		return ERR_NOMEM;
	memset(m->dense, 0xff, (size_t)m->n_dense * sizeof *m->dense);
	return 0;
}

static int
ids_set(struct prj_ids *m, uint32_t id, uint32_t k)
{
	if (m->dense) {
		m->dense[id] = k;
		return 0;
	}
	return hmap_put(&m->sparse, id, 0, k);
}

/* The definitions as they were read put in id order (the regions and the
 * timelines follow it, whatever order the file gave), their look-ups
 * made, and each entry's chare id made the chare's index. */
static int
seal(struct prj_sts *s)
{
	if (s->n_chares > 1)
		qsort(s->chares, s->n_chares, sizeof *s->chares, cmp_chare);
	if (s->n_entries > 1)
		qsort(s->entries, s->n_entries, sizeof *s->entries, cmp_entry);
	int rc = ids_init(&s->chare_at, s->n_chares, s->n_chares ? s->chares[s->n_chares - 1].id : 0);
	for (uint32_t k = 0; k < s->n_chares && !rc; k++)
		rc = ids_set(&s->chare_at, s->chares[k].id, k);
	if (!rc)
		rc = ids_init(&s->entry_at, s->n_entries, s->n_entries ? s->entries[s->n_entries - 1].id : 0);
	for (uint32_t k = 0; k < s->n_entries && !rc; k++)
		rc = ids_set(&s->entry_at, s->entries[k].id, k);
	for (uint32_t k = 0; k < s->n_entries && !rc; k++)
		s->entries[k].chare = prj_ids_get(&s->chare_at, s->entries[k].chare);
	return rc;
}

int
prj_sts_read(const char *path, struct prj_sts *s, struct err *e)
{
	s->path = path;
	FILE *f = file_open_read(path, e);      /* a FIFO would block the read */
	if (!f)
		return ERR_IO;
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int rc = 0;
	for (;;) {
		if (len + 65536 + 1 > cap) {
			size_t ncap = cap ? cap * 2 : 65536 + 1;
			char *p = realloc(buf, ncap);
			if (!p) {
				rc = err_set(e, ERR_NOMEM, "out of memory");
				break;
			}
			buf = p;
			cap = ncap;
		}
		size_t got = fread(buf + len, 1, cap - len - 1, f);
		len += got;
		if (got == 0)
			break;
		if (len > STS_MAX_BYTES) {
			rc = err_set(e, ERR_LIMIT, "%s: larger than %u MiB: not a .sts file", path,
				     STS_MAX_BYTES >> 20);
			break;
		}
	}
	if (!rc && ferror(f))
		rc = err_set(e, ERR_IO, "%s: read error", path);
	fclose(f);
	if (rc) {
		free(buf);
		return rc;
	}
	if (len && memchr(buf, 0, len)) {
		free(buf);
		return err_set(e, ERR_FORMAT, "%s: binary data: not a Projections .sts file", path);
	}
	struct cursor c = { .path = path, .lineno = 0 };
	int done = 0;
	for (const char *p = buf; !rc && !done && p < buf + len;) {
		const char *nl = memchr(p, '\n', (size_t)(buf + len - p));
		const char *end = nl ? nl : buf + len;
		c.line = c.p = p;
		c.end = end;
		c.lineno++;
		rc = parse_line(&c, s, &done, e);
		if (rc == ERR_NOMEM)
			err_set(e, rc, "out of memory");
		p = nl ? nl + 1 : end;
		if (!rc && c.lineno == 1 && !s->vmajor) {
			/* PROJECTIONS_ID comes first in every .sts; insist on a
			 * keyword line at least, so random text fails early */
			if (strncmp(c.line, "PROJECTIONS_ID", 14) != 0 && strncmp(c.line, "VERSION", 7) != 0)
				rc = err_set(e, ERR_FORMAT, "%s:1:1: not a Projections .sts file "
					     "(it starts neither with PROJECTIONS_ID nor VERSION)", path);
		}
	}
	free(buf);
	if (!rc && seal(s))
		rc = err_set(e, ERR_NOMEM, "out of memory");
	return rc ? rc : check_sts(s, path, e);
}

void
prj_sts_fini(struct prj_sts *s)
{
	for (uint32_t i = 0; i < s->n_chares; i++)
		free(s->chares[i].name);
	for (uint32_t i = 0; i < s->n_entries; i++)
		free(s->entries[i].name);
	free(s->chares);
	free(s->entries);
	for (int k = 0; k < 2; k++) {
		struct prj_ids *m = k ? &s->entry_at : &s->chare_at;
		free(m->dense);
		hmap_fini(&m->sparse);
	}
	free(s->charmversion);
	free(s->machine);
	memset(s, 0, sizeof *s);
}
