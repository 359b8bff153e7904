/* samples.c — a sample set: its columns, queries, and opening a MemAxes
 * directory (samples_csv.c reads the CSV, samples_xml.c the hardware). */
#include "samples_impl.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/file.h"
#include "base/text.h"
#include "base/vec.h"

int
samples_create(struct topo *t, struct samples **out, struct err *e)
{
	*out = NULL;
	struct samples *s = calloc(1, sizeof *s);
	if (!s || !(s->strings = intern_create())) {
		free(s);
		topo_destroy(t);
		return err_set(e, ERR_NOMEM, "out of memory");
	}
	s->topo = t;
	s->info.a_latency = s->info.a_cpu = s->info.a_dsrc = s->info.a_level = -1;
	s->info.a_time = s->info.a_symbol = s->info.a_file = s->info.a_line = -1;
	uint32_t n_obj;
	const struct topo_obj *o = topo_objs(t, &n_obj);
	for (uint32_t i = 0; i < n_obj; i++)
		if (o[i].type == TOPO_PU && hmap_put(&s->pu_of_os, o[i].os_index, 0, o[i].pu_first)) {
			samples_destroy(s);
			return err_set(e, ERR_NOMEM, "out of memory");
		}
	*out = s;
	return 0;
}

void
samples_destroy(struct samples *s)
{
	if (!s)
		return;
	for (uint32_t i = 0; i < s->n_attr; i++) {
		free(s->attr[i].v);
		free(s->attr[i].cat);
		hmap_fini(&s->attr[i].cat_of);
	}
	free(s->pu);
	free(s->latency);
	free(s->level);
	free(s->symbol);
	free(s->codeline);
	free(s->lines);
	hmap_fini(&s->line_of);
	hmap_fini(&s->pu_of_os);
	for (uint32_t i = 0; i < s->n_warn; i++)
		free(s->warn[i]);
	for (size_t i = 0; i < sizeof s->paths / sizeof s->paths[0]; i++)
		free(s->paths[i]);
	intern_destroy(s->strings);
	topo_destroy(s->topo);
	free(s);
}

void
samples_warn(struct samples *s, const char *fmt, ...)
{
	if (s->n_warn == SAMPLES_MAX_WARN) {
		s->n_warn_dropped++;
		return;
	}
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if ((s->warn[s->n_warn] = strdup(buf)))
		s->n_warn++;
}

int
samples_add_attr(struct samples *s, const char *name, enum samples_kind kind)
{
	if (s->n_attr == SAMPLES_MAX_ATTRS)
		return ERR_LIMIT;
	struct sattr *a = &s->attr[s->n_attr];
	memset(a, 0, sizeof *a);
	if (intern_add(s->strings, name, strlen(name), &a->name))
		return ERR_NOMEM;
	a->kind = kind;
	if (s->cap && !(a->v = malloc(s->cap * sizeof *a->v)))
		return ERR_NOMEM;
	a->cap = s->cap;
	return (int)s->n_attr++;
}

int
samples_add_category(struct samples *s, uint32_t ai, const char *str, size_t len, uint32_t *id)
{
	struct sattr *a = &s->attr[ai];
	uint32_t sid;
	int rc = intern_add(s->strings, str, len, &sid);
	if (rc)
		return rc;
	uint32_t *have = hmap_get(&a->cat_of, sid, 0);
	if (have) {
		*id = *have;
		return 0;
	}
	if (VEC_GROW(a->cat, a->n_cats, a->cat_cap) || hmap_put(&a->cat_of, sid, 0, a->n_cats))
		return ERR_NOMEM;
	a->cat[a->n_cats] = sid;
	*id = a->n_cats++;
	return 0;
}

int
samples_add_codeline(struct samples *s, uint32_t file, uint32_t line, uint32_t *id)
{
	uint32_t *have = hmap_get(&s->line_of, file, line);
	if (have) {
		*id = *have;
		return 0;
	}
	if (VEC_GROW(s->lines, s->n_lines, s->lines_cap) || hmap_put(&s->line_of, file, line, s->n_lines))
		return ERR_NOMEM;
	s->lines[s->n_lines] = (struct samples_codeline){ file, line };
	*id = s->n_lines++;
	return 0;
}

/* Every column holds s->cap samples; grown by half each time. */
int
samples_grow(struct samples *s)
{
	if (s->n < s->cap)
		return 0;
	if (s->n == SAMPLES_NONE - 1)
		return ERR_LIMIT;
	size_t cap = s->cap ? s->cap + s->cap / 2 : 4096;
	if (cap > SAMPLES_NONE - 1)
		cap = SAMPLES_NONE - 1;
#define GROW(p) do { void *q = realloc((p), cap * sizeof *(p)); if (!q) return ERR_NOMEM; (p) = q; } while (0)
	GROW(s->pu);
	GROW(s->latency);
	GROW(s->level);
	GROW(s->symbol);
	GROW(s->codeline);
	for (uint32_t i = 0; i < s->n_attr; i++) {
		GROW(s->attr[i].v);
		s->attr[i].cap = cap;
	}
#undef GROW
	s->cap = cap;
	return 0;
}

void
samples_seal(struct samples *s)
{
	s->info.n = s->n;
	for (uint32_t i = 0; i < s->n_attr; i++) {
		struct sattr *a = &s->attr[i];
		double lo = INFINITY, hi = -INFINITY;
		uint32_t missing = 0;
		int whole = 1;
		for (uint32_t k = 0; k < s->n; k++) {
			double x = a->v[k];
			if (isnan(x)) {
				missing++;
				continue;
			}
			lo = x < lo ? x : lo;
			hi = x > hi ? x : hi;
			whole = whole && x == floor(x);
		}
		a->lo = lo;
		a->hi = hi;
		a->missing = missing;
		s->pub[i] = (struct samples_attr){
			.name = intern_str(s->strings, a->name), .kind = a->kind, .v = a->v,
			.lo = lo, .hi = hi, .n_cats = a->n_cats, .missing = missing, .whole = whole,
		};
	}
}

/* ---- queries ---- */

const struct samples_info *samples_info(const struct samples *s) { return &s->info; }
const struct topo *samples_topo(const struct samples *s) { return s->topo; }
uint32_t samples_attr_count(const struct samples *s) { return s->n_attr; }
const uint32_t *samples_pu(const struct samples *s) { return s->pu; }
const uint64_t *samples_latency(const struct samples *s) { return s->latency; }
const uint8_t *samples_levels(const struct samples *s) { return s->level; }
const uint32_t *samples_symbol(const struct samples *s) { return s->symbol; }
const uint32_t *samples_codeline(const struct samples *s) { return s->codeline; }

const struct samples_attr *
samples_attr(const struct samples *s, uint32_t i)
{
	return i < s->n_attr ? &s->pub[i] : NULL;
}

int
samples_attr_find(const struct samples *s, const char *name)
{
	for (uint32_t i = 0; i < s->n_attr; i++)
		if (strcmp(intern_str(s->strings, s->attr[i].name), name) == 0)
			return (int)i;
	return -1;
}

const char *
samples_category(const struct samples *s, uint32_t a, uint32_t id)
{
	if (a >= s->n_attr || id >= s->attr[a].n_cats)
		return "";
	return intern_str(s->strings, s->attr[a].cat[id]);
}

uint32_t
samples_category_find(const struct samples *s, uint32_t a, const char *name)
{
	if (a >= s->n_attr)
		return SAMPLES_NONE;
	for (uint32_t i = 0; i < s->attr[a].n_cats; i++)
		if (strcmp(intern_str(s->strings, s->attr[a].cat[i]), name) == 0)
			return i;
	return SAMPLES_NONE;
}

const struct samples_codeline *
samples_codelines(const struct samples *s, uint32_t *n)
{
	if (n)
		*n = s->n_lines;
	return s->lines;
}

const char *const *
samples_warnings(const struct samples *s, uint32_t *n)
{
	*n = s->n_warn;
	return (const char *const *)s->warn;
}

/* ---- directories ---- */

static int
is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int
is_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Something is there (a FIFO, a directory ...): opening it says what is
 * wrong with it (base/file.h) instead of calling it missing. */
static int
exists(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0;
}

/* The set's directory for path: path itself, or DIR for DIR/data/FILE. */
static int
set_dir(const char *path, char *dir, size_t n, int *is_data_file)
{
	*is_data_file = 0;
	if (is_dir(path)) {
		snprintf(dir, n, "%s", path);
		return 0;
	}
	if (!is_file(path))
		return -1;
	const char *slash = strrchr(path, '/');
	size_t len = slash ? (size_t)(slash - path) : 0;
	char parent[4096];
	snprintf(parent, sizeof parent, "%.*s", (int)len, slash ? path : ".");
	const char *base = strrchr(parent, '/');
	base = base ? base + 1 : parent;
	if (strcmp(base, "data") != 0)
		return -1;
	snprintf(dir, n, "%s/..", parent);
	*is_data_file = 1;
	return 0;
}

int
samples_probe(const char *path)
{
	char dir[4200], p[4300];
	int data_file;
	if (set_dir(path, dir, sizeof dir, &data_file))
		return 0;
	snprintf(p, sizeof p, "%s/hardware.xml", dir);
	if (!exists(p))
		return 0;
	snprintf(p, sizeof p, "%s/data", dir);
	return data_file || is_dir(p);
}

int
samples_open(const char *path, const struct samples_opts *o, struct samples **out, struct err *e)
{
	*out = NULL;
	char dir[4200], hw[4300], data[4300], src[4300];
	int data_file;
	if (set_dir(path, dir, sizeof dir, &data_file))
		return err_set(e, ERR_IO, "%s: %s", path, is_file(path)
			       ? "not a sample set (a CSV of samples sits in DIR/data/, beside DIR/hardware.xml)"
			       : strerror(errno ? errno : ENOENT));
	snprintf(hw, sizeof hw, "%s/hardware.xml", dir);
	if (o && o->data)
		snprintf(data, sizeof data, "%s", o->data);
	else if (data_file)
		snprintf(data, sizeof data, "%s", path);
	else {
		snprintf(data, sizeof data, "%s/data/samples.out", dir);
		if (!exists(data))
			snprintf(data, sizeof data, "%s/data/samples.csv", dir);
		if (!exists(data))
			return err_set(e, ERR_IO, "%s: no data/samples.out or data/samples.csv", path);
	}
	if (!exists(hw))
		return err_set(e, ERR_IO, "%s: no hardware.xml (the node's topology)", dir);
	struct topo *t = NULL;
	const char *format = NULL;
	int rc = samples_read_hardware(hw, &t, &format, e);
	if (rc)
		return rc;
	struct samples *s;
	if ((rc = samples_create(t, &s, e)))
		return rc;
	FILE *f = file_open_read(data, e);      /* a FIFO would block the read */
	if (!f) {
		samples_destroy(s);
		return ERR_IO;
	}
	rc = samples_read_csv(s, data, f, e);
	fclose(f);
	snprintf(src, sizeof src, "%s/src", dir);
	s->paths[0] = strdup(data);
	s->paths[1] = strdup(hw);
	s->paths[2] = is_dir(src) ? strdup(src) : NULL;
	if (!rc && (!s->paths[0] || !s->paths[1] || (is_dir(src) && !s->paths[2])))
		rc = err_set(e, ERR_NOMEM, "out of memory");
	if (rc) {
		samples_destroy(s);
		return rc;
	}
	s->info.data_path = s->paths[0];
	s->info.hardware_path = s->paths[1];
	s->info.source_dir = s->paths[2];
	s->info.hardware_format = format;
	*out = s;
	return 0;
}

int
samples_source_read(const struct samples *s, uint32_t file, char **text, size_t *len, struct err *e)
{
	*text = NULL;
	*len = 0;
	if (!s->info.source_dir || s->info.a_file < 0)
		return err_set(e, ERR_IO, "no source directory");
	const char *name = samples_category(s, (uint32_t)s->info.a_file, file);
	if (!*name || strstr(name, "..") || strcmp(name, "??") == 0) {
		char safe[256];
		return err_set(e, ERR_IO, "no source file for '%s'", text_safe(name, safe, sizeof safe));
	}
	char p[4600];
	const char *base = strrchr(name, '/');
	FILE *f = NULL;
	for (int k = 0; k < 2 && !f; k++) {
		snprintf(p, sizeof p, "%s/%s", s->info.source_dir, k == 0 ? name : base ? base + 1 : name);
		struct err fe = { 0 };
		if (is_file(p))
			f = file_open_read(p, &fe);
	}
	if (!f)
		return err_set(e, ERR_IO, "%s: not in %s", name, s->info.source_dir);
	size_t cap = 0, n = 0;
	char *buf = NULL;
	for (;;) {
		if (n + 4096 + 1 > cap) {
			size_t nc = cap ? cap * 2 : 65536;
			char *q = nc <= (64u << 20) ? realloc(buf, nc) : NULL;
			if (!q) {
				free(buf);
				fclose(f);
				return err_set(e, nc > (64u << 20) ? ERR_LIMIT : ERR_NOMEM, "%s: too large", p);
			}
			buf = q;
			cap = nc;
		}
		size_t got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
	}
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		free(buf);
		return err_set(e, ERR_IO, "%s: read error", p);
	}
	buf[n] = 0;
	*text = buf;
	*len = n;
	return 0;
}
