/* test_view_topo.c — names from input files in the topology pane, cut by
 * columns and never inside a character: gen-stencil-8-2nodes-delay (two
 * nodes, no hardware given: the trace's nodes and ranks) with its nodes
 * renamed past every buffer of the pane ("xy" then 30 × 'ノ', three
 * bytes each: the 64-byte label buffer's last byte fell inside the 18th
 * 'ノ', shown as '?'), drawn as skein render draws it; and an object's
 * label (vt_obj_label) for a name with combining accents. */
#include "testutil.h"

#include <string.h>

#include "analysis/core/analysis.h"
#include "base/text.h"
#include "model/trace_impl.h"
#include "topo/topo.h"
#include "view/view.h"
#include "view/view_topo_impl.h"

static struct trace *tr;
static struct analysis *an;

#define NO "\u30ce"
#define NO10 NO NO NO NO NO NO NO NO NO NO
static const char *const names[2] = { "zw" NO10 NO10 NO10, "xy" NO10 NO10 NO10 };

static int
setup(void **state)
{
	(void)state;
	tr = tu_load_corpus("gen-stencil-8-2nodes-delay");
	/* the nodes the ranks run on, "node0" and "node1" (under a machine) */
	uint32_t nn, renamed = 0;
	const struct trace_node *nodes = trace_nodes(tr, &nn);
	for (uint32_t k = 0; k < nn; k++)
		if (!strncmp(trace_str(tr, nodes[k].name), "node", 4) && renamed < 2)
			assert_int_equal(trace_intern(tr, names[renamed++], &tr->nodes[k].name), 0);
	assert_int_equal(renamed, 2);
	an = tu_analyse(tr, NULL);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	analysis_destroy(an);
	trace_destroy(tr);
	return 0;
}

/* The screen after keys, as skein render --pane topology draws it. */
static char *
render(const char *keys, int w, int h)
{
	struct view_opts vo = { .label = "gen-stencil-8-2nodes-delay", .pane = "topology", .start_origin = 1,
				.this_host = TU_HOST, .this_machine = TU_MACHINE };
	struct view_render_opts ro = { .w = w, .h = h, .keys = keys, .depth = DEPTH_NONE };
	char *got = NULL;
	size_t n = 0;
	FILE *mem = open_memstream(&got, &n);
	assert_non_null(mem);
	struct err e = { 0 };
	assert_int_equal(view_render(an, &vo, &ro, mem, NULL, &e), 0);
	fclose(mem);
	return got;
}

/* The line of s holding what, as a string the caller frees, or fails. */
static char *
line_with(const char *s, const char *what)
{
	const char *at = strstr(s, what);
	if (!at)
		fail_msg("no line holds '%s' in\n%s", what, s);
	const char *b = at, *e = strchr(at, '\n');
	while (b > s && b[-1] != '\n')
		b--;
	return strndup(b, e ? (size_t)(e - b) : strlen(b));
}

/* No name was split: the screen holds no '?' (what half a character
 * shows as). */
static void
no_split(const char *screen)
{
	if (strchr(screen, '?'))
		fail_msg("a character shown as '?':\n%s", screen);
}

/* The tree's header names the hottest node by its label, which a
 * 64-byte buffer held: cut whole, 17 'ノ' and '…' (7 + 51 + 3 bytes;
 * an 18th would pass 63), where it was cut at byte 63, inside the 18th. */
static void
tree_labels(void **state)
{
	(void)state;
	char *s = render("", 140, 24);
	no_split(s);
	char *l = line_with(s, "hottest:");
	if (!strstr(l, "hottest: Node xy" NO10 NO NO NO NO NO NO NO "\u2026 / r"))
		fail_msg("the hottest node's label: %s", l);
	free(l);
	/* the tree's own row: a 96-byte buffer, cut then to the column */
	l = line_with(s, "\u25be Node xy");
	assert_non_null(strstr(l, "\u2026"));
	free(l);
	free(s);
	/* the icicle and its selection, the first node selected */
	s = render("vj", 140, 24);
	no_split(s);
	l = line_with(s, "selected Node zw");
	if (!strstr(l, "selected Node zw" NO10 NO NO NO NO NO NO NO "\u2026:"))
		fail_msg("the icicle's selection: %s", l);
	free(l);
	free(s);
}

/* The radial drawing's legend names each ring's hottest object in 40
 * columns: cut, it ends in '…' ("xy" and 18 'ノ', 39 columns, then
 * '…'), where it was cut at 40 columns without saying so. */
static void
ring_legend(void **state)
{
	(void)state;
	char *s = render("vv", 140, 30);
	no_split(s);
	char *l = line_with(s, "1 Node     ");
	const char *name = strstr(l, "1 Node     ") + strlen("1 Node     ");
	const char *want = "xy" NO10 NO NO NO NO NO NO NO NO "\u2026 ";
	if (strncmp(name, want, strlen(want)))
		fail_msg("the node's ring in the legend: %s", l);
	free(l);
	free(s);
	/* three rows for the legend: the rings side by side, two on a
	 * line whose bytes the node's name passes; the ring that does not
	 * fit them is cut, where the line was cut inside a character */
	s = render("vv", 220, 7);
	no_split(s);
	l = line_with(s, "0 Cluster");
	name = strstr(l, "1 Node     ");
	assert_non_null(name);
	const char *end = strchr(name + strlen("1 Node     "), ' ');
	assert_non_null(end);
	assert_true(end - name > 3 && !memcmp(end - 3, "\u2026", 3));
	free(l);
	free(s);
}

/* The bytes the text functions read (tests/test_view_topo.c is linked
 * with -Wl,--wrap for each): the whole string for those that read it to
 * its end, the bytes a cut by columns takes, the bytes a character
 * decoded takes. Counting work, not time: a test on any machine. */
static size_t text_bytes;

int __real_text_width(const char *s);
const char *__real_text_cut(const char *s, int w, char *buf, size_t n);
const char *__real_text_safe(const char *s, char *buf, size_t n);
const char *__real_text_safe_pad(const char *s, int w, char *buf, size_t n);
const char *__real_text_fit(const char *s, int w, char *buf, size_t n);
void __real_text_put(FILE *out, const char *s);
size_t __real_text_cols_bytes(const char *s, int cols);
uint32_t __real_text_utf8_next(const unsigned char **s);
int __wrap_text_width(const char *s);
const char *__wrap_text_cut(const char *s, int w, char *buf, size_t n);
const char *__wrap_text_safe(const char *s, char *buf, size_t n);
const char *__wrap_text_safe_pad(const char *s, int w, char *buf, size_t n);
const char *__wrap_text_fit(const char *s, int w, char *buf, size_t n);
void __wrap_text_put(FILE *out, const char *s);
size_t __wrap_text_cols_bytes(const char *s, int cols);
uint32_t __wrap_text_utf8_next(const unsigned char **s);

static void
count(const char *s)
{
	text_bytes += s ? strlen(s) + 1 : 0;
}

int
__wrap_text_width(const char *s)
{
	count(s);
	return __real_text_width(s);
}

const char *
__wrap_text_cut(const char *s, int w, char *buf, size_t n)
{
	count(s);
	return __real_text_cut(s, w, buf, n);
}

const char *
__wrap_text_safe(const char *s, char *buf, size_t n)
{
	count(s);
	return __real_text_safe(s, buf, n);
}

const char *
__wrap_text_safe_pad(const char *s, int w, char *buf, size_t n)
{
	count(s);
	return __real_text_safe_pad(s, w, buf, n);
}

const char *
__wrap_text_fit(const char *s, int w, char *buf, size_t n)
{
	count(s);
	return __real_text_fit(s, w, buf, n);
}

void
__wrap_text_put(FILE *out, const char *s)
{
	count(s);
	__real_text_put(out, s);
}

size_t
__wrap_text_cols_bytes(const char *s, int cols)
{
	size_t b = __real_text_cols_bytes(s, cols);
	text_bytes += b;
	return b;
}

uint32_t
__wrap_text_utf8_next(const unsigned char **s)
{
	const unsigned char *was = *s;
	uint32_t c = __real_text_utf8_next(s);
	text_bytes += (size_t)(*s - was);
	return c;
}

/* Names of megabytes (8 MiB of 'ノ' each) cost what names of
 * kilobytes do: each label is cut from the name's first 4 KiB, where
 * every cut tried read the whole name (38 s of CPU time for the three
 * drawings, 8.2 GB read by the text functions; 4 MB now). Bounded by
 * the bytes read, twice the two names: a count, not a time. */
static void
huge_names(void **state)
{
	(void)state;
	size_t n = (size_t)8 << 20;
	char *big = malloc(n + 2);
	assert_non_null(big);
	for (size_t i = 1; i + 3 <= n; i += 3)      /* a letter, then 'ノ' */
		memcpy(big + i, NO, 3);
	big[1 + (n - 1) / 3 * 3] = '\0';
	uint32_t nn, at[2], was[2], k = 0;
	const struct trace_node *nodes = trace_nodes(tr, &nn);
	for (uint32_t i = 0; i < nn && k < 2; i++)
		if (!strcmp(trace_str(tr, nodes[i].name), names[k])) {
			at[k] = i;
			was[k] = nodes[i].name;
			big[0] = (char)('a' + k);            /* two names, one string each */
			assert_int_equal(trace_intern(tr, big, &tr->nodes[i].name), 0);
			k++;
		}
	assert_int_equal(k, 2);
	text_bytes = 0;
	static const char *const keys[] = { "", "vj", "vv" };
	for (int i = 0; i < 3; i++) {
		char *s = render(keys[i], 140, 30);
		no_split(s);
		free(s);
	}
	if (text_bytes > 2 * n)
		fail_msg("three drawings of the topology read %zu bytes of text (names of %zu)", text_bytes,
			 n);
	assert_true(text_bytes > 0);     /* the wrapped functions are the ones called */
	for (k = 0; k < 2; k++)
		tr->nodes[at[k]].name = was[k];
	free(big);
}

/* A name of letters with combining accents: cut at a letter's end, its
 * accents kept, with '…'; the label fits its buffer whole. */
static void
label_accents(void **state)
{
	(void)state;
	struct topo *t = topo_create();
	assert_non_null(t);
	char name[400] = "";
	for (int i = 0; i < 20; i++)
		strcat(name, "re\u0301sume\u0301 ");      /* 'e' + U+0301: 3 bytes, 1 column */
	uint32_t m, pu;
	assert_int_equal(topo_add(t, TOPO_MACHINE, TRACE_NONE, 0, name, &m), 0);
	assert_int_equal(topo_add(t, TOPO_PU, m, 0, NULL, &pu), 0);
	assert_int_equal(topo_finish(t), 0);
	struct view_topo vt = { .t = t };
	vt.obj = topo_objs(t, &vt.n_obj);
	char full[512], buf[64];
	snprintf(full, sizeof full, "Machine %s", name);
	vt_obj_label(&vt, m, 0, buf, sizeof buf);
	size_t len = strlen(buf), dots = strlen("\u2026");
	assert_true(len > dots && len < sizeof buf);
	assert_string_equal(buf + len - dots, "\u2026");
	/* what comes before '…' is the name's start, up to a letter whose
	 * accents are all there: what follows it in the name is no accent */
	size_t kept = len - dots;
	assert_memory_equal(buf, full, kept);
	const unsigned char *p = (const unsigned char *)full + kept, *q;
	assert_int_not_equal(text_char_width(text_utf8_next(&p)), 0);
	/* and as much as fits: the next letter with its accents would not */
	for (q = p; *q && text_char_width(text_utf8_next(&q)) == 0; p = q)
		;
	assert_true((size_t)(p - (const unsigned char *)full) + dots >= sizeof buf);
	/* the brief form names no machine; a buffer the name fits holds it */
	vt_obj_label(&vt, m, 1, buf, sizeof buf);
	assert_string_equal(buf, "M");
	char big[512];
	vt_obj_label(&vt, m, 0, big, sizeof big);
	assert_string_equal(big, full);
	topo_destroy(t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tree_labels),
		cmocka_unit_test(ring_legend),
		cmocka_unit_test(label_accents),
		cmocka_unit_test(huge_names),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
