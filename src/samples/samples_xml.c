/* samples_xml.c — the hardware of a sample set.
 *
 * MemAxes' own format (LLNL/MemAxes src/hwtopo.cpp reads it) is a tree of
 * elements: <Hardware name=...> at the root, <NUMA id=N size=...>,
 * <Cache id=LEVEL size=...> nested from L3 down to L1, and <CPU id=N> at
 * the leaves, id being the OS CPU number the samples' cpu column holds.
 * It is read with libxml2 (no DTD, no entities, no network); an hwloc
 * export (root <topology>) is handed to hwloc through topo/, keeping the
 * L1 and L2 caches that serve samples.
 *
 * libxml2 is opened (dlopen) at the first hardware file, not linked: on
 * Debian it brings ICU and the C++ runtime, whose loading and
 * relocations took 5 of the 8 ms every skein process spent starting on
 * a 2-core VM (2026-12-02), where most commands never read XML. Its
 * headers still give the types and the prototypes the functions are
 * checked against.
 */
#include "samples.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"

#define MAX_DEPTH 64

/* The functions of libxml2 used here, once opened. */
static struct {
	int ok;
	char why[160];
	__typeof__(xmlGetLineNo) *GetLineNo;
	__typeof__(xmlGetProp) *GetProp;
	xmlFreeFunc *Free;                /* the variable xmlFree */
	__typeof__(xmlNewParserCtxt) *NewParserCtxt;
	__typeof__(xmlSetStructuredErrorFunc) *SetStructuredErrorFunc;
	__typeof__(xmlCtxtReadMemory) *CtxtReadMemory;
	__typeof__(xmlCtxtGetLastError) *CtxtGetLastError;
	__typeof__(xmlFreeParserCtxt) *FreeParserCtxt;
	__typeof__(xmlDocGetRootElement) *DocGetRootElement;
	__typeof__(xmlFreeDoc) *FreeDoc;
#ifdef LIBXML_THREAD_ENABLED
	__typeof__(__xmlStructuredError) *StructuredError;
	__typeof__(__xmlStructuredErrorContext) *StructuredErrorContext;
#else
	xmlStructuredErrorFunc *StructuredError;
	void **StructuredErrorContext;
#endif
} lx;
static pthread_once_t lx_once = PTHREAD_ONCE_INIT;

/* *field (a pointer to a function of lx) set to h's symbol name: dlsym's
 * void * as a pointer to a function, which POSIX has the same; 0 when h
 * has no such symbol. */
static int
lx_sym(void *h, void *field, const char *name)
{
	return (*(void **)field = dlsym(h, name)) != NULL;
}

/* The names libxml2 goes by: Debian 12's and 13's, 2.14's on, and the
 * development link. */
static const char *const lx_names[] = { "libxml2.so.2", "libxml2.so.16", "libxml2.so" };

static void
lx_open(void)
{
	void *h = NULL;
	for (size_t i = 0; !h && i < sizeof lx_names / sizeof *lx_names; i++)
		if (!(h = dlopen(lx_names[i], RTLD_NOW | RTLD_LOCAL)) && i == 0) {
			const char *w = dlerror();
			snprintf(lx.why, sizeof lx.why, "%s", w ? w : "libxml2.so.2 not found");
		}
	if (!h)
		return;
	lx.ok = lx_sym(h, &lx.GetLineNo, "xmlGetLineNo") && lx_sym(h, &lx.GetProp, "xmlGetProp") &&
		lx_sym(h, &lx.Free, "xmlFree") && lx_sym(h, &lx.NewParserCtxt, "xmlNewParserCtxt") &&
		lx_sym(h, &lx.SetStructuredErrorFunc, "xmlSetStructuredErrorFunc") &&
		lx_sym(h, &lx.CtxtReadMemory, "xmlCtxtReadMemory") &&
		lx_sym(h, &lx.CtxtGetLastError, "xmlCtxtGetLastError") &&
		lx_sym(h, &lx.FreeParserCtxt, "xmlFreeParserCtxt") &&
		lx_sym(h, &lx.DocGetRootElement, "xmlDocGetRootElement") && lx_sym(h, &lx.FreeDoc, "xmlFreeDoc") &&
#ifdef LIBXML_THREAD_ENABLED
		lx_sym(h, &lx.StructuredError, "__xmlStructuredError") &&
		lx_sym(h, &lx.StructuredErrorContext, "__xmlStructuredErrorContext");
#else
		lx_sym(h, &lx.StructuredError, "xmlStructuredError") &&
		lx_sym(h, &lx.StructuredErrorContext, "xmlStructuredErrorContext");
#endif
	if (!lx.ok)
		snprintf(lx.why, sizeof lx.why, "this libxml2 lacks a function skein uses");
}

/* libxml2 opened, or e set. */
static int
lx_ready(const char *name, struct err *e)
{
	pthread_once(&lx_once, lx_open);
	return lx.ok ? 0 : err_set(e, ERR_IO, "%s: reading XML needs libxml2: %s", name, lx.why);
}

#ifdef LIBXML_THREAD_ENABLED
#define LX_HANDLER (*lx.StructuredError())
#define LX_HANDLER_UD (*lx.StructuredErrorContext())
#else
#define LX_HANDLER (*lx.StructuredError)
#define LX_HANDLER_UD (*lx.StructuredErrorContext)
#endif

struct hw {
	const char *name;
	struct topo *t;
	struct err *e;
	uint32_t cpus;
	uint8_t *cpu_seen;        /* a bit per CPU number below 65536 */
};

static int fail(struct hw *h, const xmlNode *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int
fail(struct hw *h, const xmlNode *n, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return err_set(h->e, ERR_FORMAT, "%s:%ld: %s", h->name, n ? lx.GetLineNo(n) : 0L, msg);
}

/* A whole-number attribute; 0, 1 absent, or an error. */
static int
num_attr(struct hw *h, const xmlNode *n, const char *attr, uint32_t max, uint32_t *out)
{
	xmlChar *v = lx.GetProp(n, (const xmlChar *)attr);
	if (!v)
		return 1;
	const char *s = (const char *)v;
	char *end;
	errno = 0;
	unsigned long long x = strtoull(s, &end, 10);
	int bad = !*s || *s == '-' || *s == ' ' || *end || errno || x > max;
	char shown[40];
	snprintf(shown, sizeof shown, "%.32s", s);
	(*lx.Free)(v);
	if (bad)
		return fail(h, n, "%s is not a whole number in range: '%s'", attr, shown);
	*out = (uint32_t)x;
	return 0;
}

static int
need_attr(struct hw *h, const xmlNode *n, const char *attr, uint32_t max, uint32_t *out)
{
	int rc = num_attr(h, n, attr, max, out);
	if (rc == 1)
		return fail(h, n, "<%s> has no %s", (const char *)n->name, attr);
	return rc;
}

static int
add(struct hw *h, const xmlNode *n, enum topo_type type, uint32_t parent, uint32_t os, const char *name,
    uint32_t *id)
{
	int rc = topo_add(h->t, type, parent, os, name, id);
	if (rc == ERR_NOMEM)
		return err_set(h->e, rc, "out of memory");
	if (rc)
		return fail(h, n, "<%s> cannot go here%s", (const char *)n->name, rc == ERR_LIMIT ? " (too many objects)" : "");
	return 0;
}

static int
element(struct hw *h, const xmlNode *n, uint32_t parent, int depth, int parent_is_cpu)
{
	const char *tag = (const char *)n->name;
	uint32_t id = 0, here = parent;
	int rc;
	if (depth > MAX_DEPTH)
		return fail(h, n, "nested more than %d deep", MAX_DEPTH);
	if (parent_is_cpu)
		return fail(h, n, "<%s> inside a <CPU>: CPUs are the leaves", tag);
	if (!strcmp(tag, "NUMA")) {
		if ((rc = need_attr(h, n, "id", UINT32_MAX - 1, &id)) || (rc = add(h, n, TOPO_NUMA, parent, id, NULL, &here)))
			return rc;
	} else if (!strcmp(tag, "Cache")) {
		if ((rc = need_attr(h, n, "id", UINT32_MAX - 1, &id)))
			return rc;
		if (id < 1 || id > 3)
			return fail(h, n, "<Cache id=\"%u\">: the id is the cache level, 1 to 3", id);
		static const enum topo_type level[4] = { TOPO_TYPE_COUNT, TOPO_L1, TOPO_L2, TOPO_L3 };
		if ((rc = add(h, n, level[id], parent, 0, NULL, &here)))
			return rc;
	} else if (!strcmp(tag, "CPU")) {
		if ((rc = need_attr(h, n, "id", UINT32_MAX - 1, &id)))
			return rc;
		if (id < 65536) {
			if (h->cpu_seen[id >> 3] & (1u << (id & 7)))
				return fail(h, n, "CPU %u appears twice", id);
			h->cpu_seen[id >> 3] |= (uint8_t)(1u << (id & 7));
		}
		if ((rc = add(h, n, TOPO_PU, parent, id, NULL, &here)))
			return rc;
		h->cpus++;
	} else if (!strcmp(tag, "Hardware")) {
		return fail(h, n, "<Hardware> is the root; it cannot be nested");
	} else {
		return fail(h, n, "unknown element <%s> (MemAxes' hardware has NUMA, Cache and CPU)", tag);
	}
	for (const xmlNode *c = n->children; c; c = c->next)
		if (c->type == XML_ELEMENT_NODE && (rc = element(h, c, here, depth + 1, !strcmp(tag, "CPU"))))
			return rc;
	return 0;
}

/* The first error libxml2 reports (the last is often a consequence). */
struct first_error {
	int line, set;
	char msg[200];
};

static void
on_error(void *ud, xmlErrorPtr x)
{
	struct first_error *f = ud;
	if (f->set || !x || x->level < XML_ERR_ERROR)
		return;
	f->set = 1;
	f->line = x->line;
	snprintf(f->msg, sizeof f->msg, "%s", x->message ? x->message : "not well-formed XML");
	f->msg[strcspn(f->msg, "\n")] = 0;
}

/* Parses text; *doc NULL with e set on failure. The handler is libxml2's
 * per-thread one, put back afterwards. */
static int
parse(const char *name, const char *text, size_t len, xmlDoc **doc, struct err *e)
{
	*doc = NULL;
	int rc = lx_ready(name, e);
	if (rc)
		return rc;
	if (len > INT32_MAX)
		return err_set(e, ERR_LIMIT, "%s: too large", name);
	xmlParserCtxt *ctx = lx.NewParserCtxt();
	if (!ctx)
		return err_set(e, ERR_NOMEM, "out of memory");
	struct first_error fe = { 0 };
	xmlStructuredErrorFunc saved = LX_HANDLER;
	void *saved_ud = LX_HANDLER_UD;
	lx.SetStructuredErrorFunc(&fe, on_error);
	*doc = lx.CtxtReadMemory(ctx, text, (int)len, name, NULL,
				 XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_BIG_LINES);
	lx.SetStructuredErrorFunc(saved_ud, saved);
	if (!*doc) {
		const xmlError *x = lx.CtxtGetLastError(ctx);
		if (!fe.set && x) {
			fe.line = x->line;
			snprintf(fe.msg, sizeof fe.msg, "%s", x->message ? x->message : "not well-formed XML");
			fe.msg[strcspn(fe.msg, "\n")] = 0;
		}
		rc = err_set(e, ERR_FORMAT, "%s:%d: %s", name, fe.line, fe.msg[0] ? fe.msg : "not well-formed XML");
	}
	lx.FreeParserCtxt(ctx);
	return rc;
}

static int
memaxes(const char *name, xmlDoc *doc, struct topo **out, struct err *e)
{
	const xmlNode *root = lx.DocGetRootElement(doc);
	struct hw h = { .name = name, .e = e };
	if (!root)
		return err_set(e, ERR_FORMAT, "%s: no root element", name);
	if (strcmp((const char *)root->name, "Hardware") != 0)
		return fail(&h, root, "the root element is <%s>, not MemAxes' <Hardware> or hwloc's <topology>",
			    (const char *)root->name);
	h.t = topo_create();
	h.cpu_seen = calloc(65536 / 8, 1);
	int rc = h.t && h.cpu_seen ? 0 : err_set(e, ERR_NOMEM, "out of memory");
	xmlChar *host = rc ? NULL : lx.GetProp(root, (const xmlChar *)"name");
	uint32_t top;
	if (!rc)
		rc = add(&h, root, TOPO_MACHINE, TRACE_NONE, 0, host ? (const char *)host : NULL, &top);
	if (host)
		(*lx.Free)(host);
	for (const xmlNode *c = root->children; c && !rc; c = c->next)
		if (c->type == XML_ELEMENT_NODE)
			rc = element(&h, c, top, 1, 0);
	if (!rc && h.cpus == 0)
		rc = fail(&h, root, "no <CPU>: the samples need somewhere to run");
	if (!rc && topo_finish(h.t))
		rc = err_set(e, ERR_NOMEM, "out of memory");
	free(h.cpu_seen);
	if (rc) {
		topo_destroy(h.t);
		return rc;
	}
	*out = h.t;
	return 0;
}

int
samples_parse_hardware(const char *name, const char *text, size_t len, struct topo **out, struct err *e)
{
	*out = NULL;
	xmlDoc *doc;
	int rc = parse(name, text, len, &doc, e);
	if (!rc)
		rc = memaxes(name, doc, out, e);
	if (doc)
		lx.FreeDoc(doc);
	return rc;
}

int
samples_read_hardware(const char *path, struct topo **out, const char **format, struct err *e)
{
	*out = NULL;
	*format = NULL;
	FILE *f = file_open_read(path, e);      /* a FIFO would block the read */
	if (!f)
		return ERR_IO;
	char *text = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;
	for (;;) {
		if (n + 65536 > cap) {
			cap = cap ? cap * 2 : 65536;
			char *q = cap <= (256u << 20) ? realloc(text, cap) : NULL;
			if (!q) {
				rc = err_set(e, cap > (256u << 20) ? ERR_LIMIT : ERR_NOMEM, "%s: too large", path);
				break;
			}
			text = q;
		}
		size_t got = fread(text + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (!rc && ferror(f))
		rc = err_set(e, ERR_IO, "%s: read error", path);
	fclose(f);
	xmlDoc *doc = NULL;
	if (!rc)
		rc = parse(path, text, n, &doc, e);
	free(text);
	if (rc)
		return rc;
	const xmlNode *root = lx.DocGetRootElement(doc);
	if (root && strcmp((const char *)root->name, "topology") == 0) {
		lx.FreeDoc(doc);
		*format = "hwloc XML";
		return topo_load_xml_flags(path, TOPO_LOAD_CACHES, out, e);
	}
	*format = "MemAxes XML";
	rc = memaxes(path, doc, out, e);
	lx.FreeDoc(doc);
	return rc;
}
