/* test_samples.c — the samples reader (src/samples/): the three CSV
 * variants on crafted data and on the shared sets (LULESH, Mitos, and a
 * decimal data_source CSV made here from LULESH's hexadecimal one), the
 * data-source decoding, MemAxes' hardware XML and hwloc's, and hostile
 * CSV and XML, each of which must give one clear "file:line:" error. */
#include "testutil.h"

#include <math.h>
#include <string.h>

#include "samples/samples.h"

/* 4 CPUs: 0 and 1 under NUMA 0, 2 and 3 under NUMA 1; an L3 per NUMA
 * node, an L2 and L1 per CPU. */
static const char toy_xml[] =
	"<Hardware id=\"0\" name=\"toy\">\n"
	" <NUMA id=\"0\" size=\"100\">\n"
	"  <Cache id=\"3\"><Cache id=\"2\"><Cache id=\"1\"><CPU id=\"0\"></CPU></Cache></Cache>\n"
	"   <Cache id=\"2\"><Cache id=\"1\"><CPU id=\"1\"/></Cache></Cache></Cache>\n"
	" </NUMA>\n"
	" <NUMA id=\"1\">\n"
	"  <Cache id=\"3\"><Cache id=\"2\"><Cache id=\"1\"><CPU id=\"2\"/></Cache></Cache>\n"
	"   <Cache id=\"2\"><Cache id=\"1\"><CPU id=\"3\"/></Cache></Cache></Cache>\n"
	" </NUMA>\n"
	"</Hardware>\n";

static struct topo *
toy_topo(void)
{
	struct topo *t = NULL;
	struct err e = { 0 };
	if (samples_parse_hardware("toy.xml", toy_xml, strlen(toy_xml), &t, &e)) {
		print_error("%s\n", e.msg);
		fail();
	}
	return t;
}

/* Reads text as a CSV on the toy hardware: 0 and the set, or the code
 * and the message. */
static int
read_text(const char *text, size_t len, struct samples **out, struct err *e)
{
	*out = NULL;
	struct samples *s;
	int rc = samples_create(toy_topo(), &s, e);
	assert_int_equal(rc, 0);
	FILE *f = fmemopen((void *)text, len ? len : 1, "r");
	assert_non_null(f);
	if (len == 0)                 /* fmemopen refuses a size of 0 */
		fgetc(f);
	rc = samples_read_csv(s, "t.csv", f, e);
	fclose(f);
	if (rc)
		samples_destroy(s);
	else
		*out = s;
	return rc;
}

static struct samples *
read_ok(const char *text)
{
	struct samples *s;
	struct err e = { 0 };
	if (read_text(text, strlen(text), &s, &e)) {
		print_error("%s\n", e.msg);
		fail();
	}
	return s;
}

static void
toy_hardware(void **state)
{
	(void)state;
	struct topo *t = toy_topo();
	assert_int_equal(topo_count(t, TOPO_MACHINE), 1);
	assert_int_equal(topo_count(t, TOPO_NUMA), 2);
	assert_int_equal(topo_count(t, TOPO_L3), 2);
	assert_int_equal(topo_count(t, TOPO_L2), 4);
	assert_int_equal(topo_count(t, TOPO_L1), 4);
	assert_int_equal(topo_count(t, TOPO_PU), 4);
	uint32_t n;
	const struct topo_obj *o = topo_objs(t, &n);
	assert_string_equal(topo_str(t, o[0].name), "toy");
	/* machine > NUMA > L3 > L2 > L1 > PU */
	const uint32_t *pu = topo_pu_objs(t, NULL);
	uint32_t chain[6], k = 6;
	for (uint32_t x = pu[3]; x != TRACE_NONE; x = o[x].parent)
		chain[--k] = o[x].type;
	assert_int_equal(k, 0);
	const uint32_t want[6] = { TOPO_MACHINE, TOPO_NUMA, TOPO_L3, TOPO_L2, TOPO_L1, TOPO_PU };
	for (int i = 0; i < 6; i++)
		assert_int_equal(chain[i], want[i]);
	assert_int_equal(o[pu[3]].os_index, 3);
	topo_destroy(t);
}

static const char toy_csv[] =
	"variable,source,line,time,latency,dataSource,cpu,xidx\n"
	"a,f.c,10,1f,100,1,0,5\n"              /* L1 on CPU 0 */
	"b,\"f.c\",11,20,200,43,1,6\n"         /* L2 (0x43: bit 6 set, code 3) on CPU 1 */
	"a,g.c,10,21,300,4,2,7\n"              /* L3 on CPU 2 */
	"\"c,d\",f.c,10,22,400,a,3,8\n"        /* local RAM on CPU 3 */
	"b,f.c,12,23,50,0,0,??\n";             /* an L3 miss from CPU 0, no x */

static void
toy_samples(void **state)
{
	(void)state;
	struct samples *s = read_ok(toy_csv);
	const struct samples_info *in = samples_info(s);
	assert_int_equal(in->n, 5);
	assert_int_equal(in->encoding, SAMPLES_PEBS_HEX);
	assert_int_equal(in->unmapped, 0);
	/* every column an attribute, and the decoded level after the data source */
	assert_int_equal(samples_attr_count(s), 9);
	assert_int_equal(samples_attr_find(s, "level"), in->a_dsrc + 1);
	const struct samples_attr *time = samples_attr(s, (uint32_t)in->a_time);
	assert_true(time->v[0] == 0x1f && time->v[4] == 0x23);      /* hexadecimal in this variant */
	const struct samples_attr *x = samples_attr(s, (uint32_t)samples_attr_find(s, "xidx"));
	assert_true(isnan(x->v[4]) && x->missing == 1 && x->lo == 5 && x->hi == 8 && x->whole);
	const struct samples_attr *var = samples_attr(s, (uint32_t)in->a_symbol);
	assert_int_equal(var->kind, SAMPLES_CATEGORY);
	assert_int_equal(var->n_cats, 3);
	assert_string_equal(samples_category(s, (uint32_t)in->a_symbol, 2), "c,d");   /* quoted comma */
	const uint8_t *lvl = samples_levels(s);
	assert_int_equal(lvl[0], SL_L1);
	assert_int_equal(lvl[1], SL_L2);
	assert_int_equal(lvl[2], SL_L3);
	assert_int_equal(lvl[3], SL_LOCAL_RAM);
	assert_int_equal(lvl[4], SL_L3_MISS);
	const uint64_t *lat = samples_latency(s);
	assert_int_equal(lat[3], 400);
	/* code lines: f.c:10 twice, the rest once */
	uint32_t nl;
	const struct samples_codeline *cl = samples_codelines(s, &nl);
	const uint32_t *line = samples_codeline(s);
	assert_int_equal(nl, 4);
	assert_int_equal(line[0], line[3]);
	assert_int_equal(cl[line[0]].line, 10);
	assert_string_equal(samples_category(s, (uint32_t)in->a_file, cl[line[2]].file), "g.c");
	const uint32_t *pu = samples_pu(s);
	for (uint32_t i = 0; i < 4; i++)
		assert_int_equal(pu[i], i);
	samples_destroy(s);
}

/* The same samples in each variant, line ends and quoting. */
static void
variants(void **state)
{
	(void)state;
	static const char *const texts[] = {
		"data_source,cpu,latency\n4,2,300\n10,3,400\n",                         /* decimal PEBS */
		"\xef\xbb\xbf" "cpu,latency,dataSource\r\n2,300,4\r\n\r\n3,400,a\r\n",   /* BOM, CRLF, blank */
		"cpu,latency,dataSource\n\"2\",\"300\",\"4\"\n3,400,0xa",                /* quotes, no last newline */
		"cpu , latency,dataSource\n 2,300 ,4\n3,400,A\n",                        /* spaces */
		/* perf: mem_lvl HIT|L3 = 0x42 << 5; LOC_RAM = 0x82 << 5 */
		"cpu,latency,data_src\n2,300,2114\n3,400,4162\n",
	};
	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		struct samples *s = read_ok(texts[i]);
		const struct samples_info *in = samples_info(s);
		assert_int_equal(in->n, 2);
		assert_int_equal(samples_levels(s)[0], SL_L3);
		assert_int_equal(samples_levels(s)[1], SL_LOCAL_RAM);
		assert_int_equal(samples_pu(s)[1], 3);
		assert_int_equal(samples_latency(s)[0], 300);
		assert_int_equal(in->encoding, i == 0 ? SAMPLES_PEBS : i == 4 ? SAMPLES_PERF : SAMPLES_PEBS_HEX);
		samples_destroy(s);
	}
	/* a quoted newline is one record: the next error names the right line */
	struct samples *s;
	struct err e = { 0 };
	const char *t = "variable,cpu,latency,dataSource\n\"two\nlines\",0,1,1\nx,0,oops,1\n";
	assert_int_equal(read_text(t, strlen(t), &s, &e), ERR_FORMAT);
	assert_string_equal(e.msg, "t.csv:4: latency: 'oops' is not a whole number");
}

static void
decoding(void **state)
{
	(void)state;
	static const enum samples_level pebs[16] = {
		SL_L3_MISS, SL_L1, SL_LFB, SL_L2, SL_L3, SL_L3_SNOOP, SL_L3_SNOOP, SL_L3_SNOOP,
		SL_REMOTE_CACHE, SL_UNKNOWN, SL_LOCAL_RAM, SL_REMOTE_RAM, SL_LOCAL_RAM, SL_REMOTE_RAM,
		SL_IO, SL_UNCACHED,
	};
	for (uint64_t c = 0; c < 16; c++) {
		assert_int_equal(samples_decode(SAMPLES_PEBS, c), pebs[c]);
		/* STLB miss (bit 4), lock (bit 5) and higher bits leave the level */
		assert_int_equal(samples_decode(SAMPLES_PEBS_HEX, c | 0x30 | 0x100), pebs[c]);
	}
	/* perf: mem_op LOAD (2) alone says nothing (Mitos' samples) */
	assert_int_equal(samples_decode(SAMPLES_PERF, 2), SL_UNKNOWN);
	const struct { uint32_t lvl; enum samples_level want; } hits[] = {
		{ 0x08, SL_L1 }, { 0x10, SL_LFB }, { 0x20, SL_L2 }, { 0x40, SL_L3 }, { 0x80, SL_LOCAL_RAM },
		{ 0x100, SL_REMOTE_RAM }, { 0x200, SL_REMOTE_RAM }, { 0x400, SL_REMOTE_CACHE },
		{ 0x800, SL_REMOTE_CACHE }, { 0x1000, SL_IO }, { 0x2000, SL_UNCACHED },
	};
	for (size_t i = 0; i < sizeof hits / sizeof hits[0]; i++) {
		assert_int_equal(samples_decode(SAMPLES_PERF, (uint64_t)(hits[i].lvl | 0x02) << 5 | 2), hits[i].want);
		/* the same level missed is not where the data came from */
		assert_int_equal(samples_decode(SAMPLES_PERF, (uint64_t)(hits[i].lvl | 0x04) << 5 | 2), SL_UNKNOWN);
	}
	/* mem_lvl_num (bits 33-36) with mem_lvl NA; mem_remote is bit 37 */
	assert_int_equal(samples_decode(SAMPLES_PERF, (uint64_t)0x01 << 5 | (uint64_t)2 << 33), SL_L2);
	assert_int_equal(samples_decode(SAMPLES_PERF, (uint64_t)0xd << 33), SL_LOCAL_RAM);
	assert_int_equal(samples_decode(SAMPLES_PERF, (uint64_t)0xd << 33 | (uint64_t)1 << 37), SL_REMOTE_RAM);
	assert_int_equal(samples_level_server(SL_LFB), TOPO_L1);
	assert_int_equal(samples_level_server(SL_L3_SNOOP), TOPO_L3);
	assert_int_equal(samples_level_server(SL_REMOTE_RAM), TOPO_MACHINE);
	assert_int_equal(samples_level_server(SL_L3_MISS), TOPO_TYPE_COUNT);
}

static void
hostile_csv(void **state)
{
	(void)state;
	static const struct { const char *text; size_t len; const char *msg; } cases[] = {
		{ "", 0, "t.csv: empty: no header line" },
		{ "\n\n", 0, "t.csv: empty: no header line" },
		{ "cpu,latency\n1,2\n", 0, "t.csv:1: no data-source column (dataSource, data_source or data_src)" },
		{ "cpu,dataSource\n1,2\n", 0, "t.csv:1: no 'latency' column" },
		{ "latency,data_src\n", 0, "t.csv:1: no 'cpu' column" },
		{ "cpu,latency,cpu,dataSource\n", 0, "t.csv:1: column 'cpu' appears twice (columns 1 and 3)" },
		/* fuzz_samples: a quoted name holding a line feed and an escape is shown safe */
		{ "cpu,latency,\"a\n\x1b]0;x\",dataSource,\"a\n\x1b]0;x\"\n", 0,
		  "t.csv:1: column 'a??]0;x' appears twice (columns 3 and 5)" },
		{ "cpu,,latency,dataSource\n", 0, "t.csv:1: column 2 has no name" },
		{ "cpu,latency,dataSource\n1,2\n", 0, "t.csv:2: 2 fields, the header has 3" },
		{ "cpu,latency,dataSource\n1,2,3\n1,2,3,4\n", 0, "t.csv:3: 4 fields, the header has 3" },
		{ "cpu,latency,dataSource\n1,abc,3\n", 0, "t.csv:2: latency: 'abc' is not a whole number" },
		{ "cpu,latency,dataSource\n1,99999999999999999999999,3\n", 0,
		  "t.csv:2: latency: '99999999999999999999999' is too large (a latency is at most 4294967295 cycles)" },
		/* latencies are summed in 64 bits: one of 2^64 - 1 wrapped the set's cycles */
		{ "cpu,latency,dataSource\n0,5,1\n0,18446744073709551615,1\n", 0,
		  "t.csv:3: latency: '18446744073709551615' is too large (a latency is at most 4294967295 cycles)" },
		{ "cpu,latency,dataSource\n0,4294967296,1\n", 0,
		  "t.csv:2: latency: '4294967296' is too large (a latency is at most 4294967295 cycles)" },
		{ "cpu,latency,dataSource\n-1,2,3\n", 0, "t.csv:2: cpu: '-1' is not a whole number" },
		{ "cpu,latency,dataSource\n4294967296,2,3\n", 0, "t.csv:2: cpu: '4294967296' is too large" },
		{ "cpu,latency,dataSource\n1,2,zz\n", 0, "t.csv:2: dataSource: 'zz' is not a hexadecimal number" },
		{ "cpu,latency,data_source\n1,2,1f\n", 0, "t.csv:2: data_source: '1f' is not a whole number" },
		{ "cpu,latency,dataSource\n1,,3\n", 0, "t.csv:2: latency: '' is empty" },
		{ "cpu,latency,dataSource\n\"1,2,3\n", 0, "t.csv:2: a quoted field is not closed" },
		{ "cpu,latency,dataSource\n\"1\"x,2,3\n", 0, "t.csv:2: text after the closing quote of field 1" },
		{ "cpu,latency,dataSource\n1,2\"3,4\n", 0, "t.csv:2: a quote inside unquoted field 2" },
		{ "cpu,latency,dataSource\n1,2,3\n1,\0,3\n", 32, "t.csv:3: a NUL byte (not a text file?)" },
		{ "cpu,latency,dataSource,x\n0,1,1,abc\n", 0, "t.csv:2: x: 'abc' is not a number" },
		{ "cpu,latency,dataSource,x\n0,1,1,1e999\n", 0, "t.csv:2: x: '1e999' is out of range" },
		{ "cpu,latency,dataSource,x\n0,1,1,nan\n", 0, "t.csv:2: x: 'nan' is not a number" },
		{ "cpu,latency,dataSource,line\n0,1,1,1.5\n", 0, "t.csv:2: line: '1.5' is not a line number" },
		{ "cpu,latency,dataSource,time\n0,1,1,12g\n", 0, "t.csv:2: time: '12g' is not a hexadecimal number" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct samples *s;
		struct err e = { 0 };
		size_t len = cases[i].len ? cases[i].len : strlen(cases[i].text);
		int rc = read_text(cases[i].text, len, &s, &e);
		if (rc == 0 || strcmp(e.msg, cases[i].msg) != 0) {
			print_error("case %zu: rc %d, got '%s', want '%s'\n", i, rc, e.msg, cases[i].msg);
			fail();
		}
		assert_null(s);
	}
	/* a record longer than the limit (an unclosed quote) stops, with its line */
	size_t big = (2u << 20) + 100;
	char *text = malloc(big);
	assert_non_null(text);
	const char *head = "cpu,latency,dataSource\n\"";
	memcpy(text, head, strlen(head));
	memset(text + strlen(head), 'x', big - strlen(head));
	struct samples *s;
	struct err e = { 0 };
	assert_int_equal(read_text(text, big, &s, &e), ERR_FORMAT);
	assert_non_null(strstr(e.msg, "t.csv:2: a record longer than 1 MiB"));
	free(text);
	/* a CPU the hardware lacks: a warning, the sample kept off the topology */
	s = read_ok("cpu,latency,dataSource\n0,1,1\n9,2,1\n");
	assert_int_equal(samples_info(s)->unmapped, 1);
	assert_int_equal(samples_pu(s)[1], SAMPLES_NONE);
	uint32_t nw;
	const char *const *w = samples_warnings(s, &nw);
	assert_int_equal(nw, 1);
	assert_non_null(strstr(w[0], "1 sample on CPUs the hardware does not have (the first: cpu 9)"));
	samples_destroy(s);
}

static void
hostile_xml(void **state)
{
	(void)state;
	static const struct { const char *text; const char *msg; } cases[] = {
		{ "", "x.xml:" },
		{ "<Hardware>\n<NUMA id=\"0\">", "x.xml:2: " },
		{ "<foo/>", "x.xml:1: the root element is <foo>, not MemAxes' <Hardware> or hwloc's <topology>" },
		{ "<Hardware>\n<Cache id=\"5\"><CPU id=\"0\"/></Cache></Hardware>",
		  "x.xml:2: <Cache id=\"5\">: the id is the cache level, 1 to 3" },
		{ "<Hardware><CPU/></Hardware>", "x.xml:1: <CPU> has no id" },
		{ "<Hardware><CPU id=\"x\"/></Hardware>", "x.xml:1: id is not a whole number in range: 'x'" },
		{ "<Hardware><CPU id=\"-1\"/></Hardware>", "x.xml:1: id is not a whole number in range: '-1'" },
		{ "<Hardware><CPU id=\"99999999999\"/></Hardware>", "x.xml:1: id is not a whole number in range" },
		{ "<Hardware>\n<CPU id=\"1\"/>\n<CPU id=\"1\"/></Hardware>", "x.xml:3: CPU 1 appears twice" },
		{ "<Hardware><CPU id=\"1\"><CPU id=\"2\"/></CPU></Hardware>", "x.xml:1: <CPU> inside a <CPU>: CPUs are the leaves" },
		{ "<Hardware><NUMA id=\"0\"/></Hardware>", "x.xml:1: no <CPU>: the samples need somewhere to run" },
		{ "<Hardware><Bogus/></Hardware>", "x.xml:1: unknown element <Bogus> (MemAxes' hardware has NUMA, Cache and CPU)" },
		{ "<Hardware><Hardware/></Hardware>", "x.xml:1: <Hardware> is the root; it cannot be nested" },
		/* entities are not expanded, nor external ones fetched */
		{ "<?xml version=\"1.0\"?>\n<!DOCTYPE h [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>\n"
		  "<Hardware name=\"&e;\"><Bogus/></Hardware>", "x.xml:3: " },
		{ "<?xml version=\"1.0\"?>\n<!DOCTYPE h [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\">"
		  "<!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\"><!ENTITY d \"&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;\">"
		  "<!ENTITY f \"&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;\"><!ENTITY g \"&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;\">"
		  "<!ENTITY h \"&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;\"><!ENTITY i \"&h;&h;&h;&h;&h;&h;&h;&h;&h;&h;\">]>\n"
		  "<Hardware name=\"&i;\"/>", "x.xml:" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct topo *t = NULL;
		struct err e = { 0 };
		int rc = samples_parse_hardware("x.xml", cases[i].text, strlen(cases[i].text), &t, &e);
		if (rc == 0 || strncmp(e.msg, cases[i].msg, strlen(cases[i].msg)) != 0 || strchr(e.msg, '\n') ||
		    strstr(e.msg, "root:")) {
			print_error("case %zu: rc %d, got '%s', want '%s...'\n", i, rc, e.msg, cases[i].msg);
			fail();
		}
		assert_null(t);
	}
	/* 100 nested caches stop at the depth limit */
	char deep[4096] = "<Hardware>";
	for (int i = 0; i < 100; i++)
		strcat(deep, "<Cache id=\"1\">");
	strcat(deep, "<CPU id=\"0\"/>");
	for (int i = 0; i < 100; i++)
		strcat(deep, "</Cache>");
	strcat(deep, "</Hardware>");
	struct topo *t = NULL;
	struct err e = { 0 };
	assert_int_equal(samples_parse_hardware("x.xml", deep, strlen(deep), &t, &e), ERR_FORMAT);
	assert_string_equal(e.msg, "x.xml:1: nested more than 64 deep");
}

/* ---- the shared sets ---- */

/* A node column that the hardware contradicts is warned of, in one line
 * saying how many samples disagree and the first; one that agrees, a
 * missing node and a CPU the hardware lacks are not. */
static void
node_column(void **state)
{
	(void)state;
	static const char agree[] =
		"latency,dataSource,cpu,node\n"
		"10,1,0,0\n10,1,1,0\n10,1,2,1\n10,1,3,1\n10,1,3,\n";
	static const char differ[] =
		"latency,dataSource,cpu,node\n"
		"10,1,0,0\n10,1,1,0\n10,1,2,0\n10,1,3,1\n10,1,1,1\n10,1,9,0\n10,1,2,\n";
	struct samples *s = read_ok(agree);
	uint32_t nw;
	samples_warnings(s, &nw);
	assert_int_equal(nw, 0);
	samples_destroy(s);
	s = read_ok(differ);
	const char *const *w = samples_warnings(s, &nw);
	/* the unmapped CPU 9's warning, and this one */
	assert_int_equal(nw, 2);
	assert_non_null(strstr(w[0], "CPUs the hardware does not have"));
	assert_string_equal(w[1], "t.csv: the node column disagrees with the hardware for 2 of 7 samples (the "
			    "first, sample 3: cpu 2 is on NUMA node 1 there, node 0 here); the topology counts "
			    "them where the hardware puts their CPUs");
	/* best effort: the samples stay where the hardware puts their CPUs */
	const uint32_t *pu = samples_pu(s);
	const struct topo_obj *o = topo_objs(samples_topo(s), NULL);
	const uint32_t *pu_obj = topo_pu_objs(samples_topo(s), NULL);
	assert_int_equal(o[pu_obj[pu[2]]].os_index, 2);
	samples_destroy(s);
}

static struct samples *
open_set(const char *path)
{
	struct samples *s = NULL;
	struct err e = { 0 };
	if (samples_open(path, NULL, &s, &e)) {
		print_error("%s\n", e.msg);
		fail();
	}
	return s;
}

static void
lulesh(void **state)
{
	(void)state;
	char dir[1024];
	SHARED_TRACE(dir, "memaxes/llnl-main-lulesh");
	assert_true(samples_probe(dir));
	struct samples *s = open_set(dir);
	const struct samples_info *in = samples_info(s);
	assert_int_equal(in->n, 15676);
	assert_int_equal(in->encoding, SAMPLES_PEBS_HEX);
	assert_string_equal(in->hardware_format, "MemAxes XML");
	assert_int_equal(in->unmapped, 0);
	assert_null(in->source_dir);
	const struct topo *t = samples_topo(s);
	assert_int_equal(topo_count(t, TOPO_PU), 32);
	assert_int_equal(topo_count(t, TOPO_NUMA), 2);
	assert_int_equal(topo_count(t, TOPO_L1), 16);
	/* the extra columns are attributes */
	assert_true(samples_attr_find(s, "zidx") >= 0 && samples_attr_find(s, "iter") >= 0);
	uint32_t nw;
	samples_warnings(s, &nw);
	assert_int_equal(nw, 0);
	samples_destroy(s);
	/* the second run, named by its data file */
	char data[1100];
	snprintf(data, sizeof data, "%s/data/lulesh_inorder.out", dir);
	assert_true(samples_probe(data));
	s = open_set(data);
	assert_int_equal(samples_info(s)->n, 16360);
	samples_destroy(s);
}

static void
mitos(void **state)
{
	(void)state;
	char dir[1024];
	SHARED_TRACE(dir, "memaxes/capstum-mitos_1636037395");
	struct samples *s = open_set(dir);
	const struct samples_info *in = samples_info(s);
	assert_int_equal(in->n, 7062);
	assert_int_equal(in->encoding, SAMPLES_PERF);
	assert_string_equal(in->hardware_format, "hwloc XML");
	const struct topo *t = samples_topo(s);
	assert_int_equal(topo_count(t, TOPO_PU), 24);
	assert_int_equal(topo_count(t, TOPO_NUMA), 4);
	assert_int_equal(topo_count(t, TOPO_L2), 24);       /* caches kept for the samples */
	assert_int_equal(topo_count(t, TOPO_L1), 24);
	/* every sample on CPU 17, data_src 2: a load, level not recorded */
	const uint32_t *pu = samples_pu(s);
	const struct topo_obj *o = topo_objs(t, NULL);
	const uint32_t *pu_obj = topo_pu_objs(t, NULL);
	for (uint32_t i = 0; i < in->n; i++) {
		assert_int_equal(o[pu_obj[pu[i]]].os_index, 17);
		assert_int_equal(samples_levels(s)[i], SL_UNKNOWN);
	}
	/* "??" in line and bytes is a missing value */
	assert_int_equal(samples_attr(s, (uint32_t)in->a_line)->missing, 37);
	assert_int_equal(samples_attr(s, (uint32_t)samples_attr_find(s, "bytes"))->missing, 38);
	samples_destroy(s);
}

/* An hwloc 2 export (the shared quartz node) keeps its L1 and L2 caches
 * for the samples, which the trace's topology pane leaves out. */
static void
hwloc2(void **state)
{
	(void)state;
	char path[1024];
	SHARED_TRACE(path, "hwloc/cts1-quartz-smt1.xml");
	struct topo *t = NULL;
	const char *fmt = NULL;
	struct err e = { 0 };
	assert_int_equal(samples_read_hardware(path, &t, &fmt, &e), 0);
	assert_string_equal(fmt, "hwloc XML");
	assert_int_equal(topo_count(t, TOPO_PU), 36);
	assert_int_equal(topo_count(t, TOPO_NUMA), 2);
	assert_int_equal(topo_count(t, TOPO_L3), 2);
	assert_int_equal(topo_count(t, TOPO_L2), 36);
	assert_int_equal(topo_count(t, TOPO_L1), 36);
	/* samples on it: an L2 hit on CPU 35 is served by CPU 35's own L2 */
	struct samples *s;
	assert_int_equal(samples_create(t, &s, &e), 0);
	const char *csv = "cpu,latency,dataSource\n35,12,3\n";
	FILE *f = fmemopen((void *)csv, strlen(csv), "r");
	assert_int_equal(samples_read_csv(s, "q.csv", f, &e), 0);
	fclose(f);
	const struct topo_obj *o = topo_objs(samples_topo(s), NULL);
	const uint32_t *pu = topo_pu_objs(samples_topo(s), NULL);
	uint32_t p = pu[samples_pu(s)[0]];
	assert_int_equal(o[p].os_index, 35);
	uint32_t l2 = p;
	while (o[l2].type != TOPO_L2)
		l2 = o[l2].parent;
	assert_true(o[l2].pu_count == 1 && o[l2].pu_first == o[p].pu_first);
	samples_destroy(s);
}

/* LULESH's CSV with the data source and time written in decimal, under
 * later MemAxes' column name data_source: the same samples and levels. */
static void
lulesh_decimal(void **state)
{
	(void)state;
	char dir[1024], path[1100];
	SHARED_TRACE(dir, "memaxes/llnl-main-lulesh");
	snprintf(path, sizeof path, "%s/data/samples.out", dir);
	FILE *in = fopen(path, "r");
	assert_non_null(in);
	char *out = NULL;
	size_t len = 0;
	FILE *o = open_memstream(&out, &len);
	char line[4096];
	int first = 1;
	while (fgets(line, sizeof line, in)) {
		char *f[32];
		int n = 0;
		line[strcspn(line, "\n")] = 0;
		for (char *p = strtok(line, ","); p && n < 32; p = strtok(NULL, ","))
			f[n++] = p;
		assert_int_equal(n, 14);
		for (int i = 0; i < n; i++) {
			if (first)
				fprintf(o, "%s%s", i ? "," : "", i == 6 ? "data_source" : f[i]);
			else if (i == 3 || i == 6)   /* time, dataSource: hexadecimal */
				fprintf(o, "%s%llu", i ? "," : "", strtoull(f[i], NULL, 16));
			else
				fprintf(o, "%s%s", i ? "," : "", f[i]);
		}
		fputc('\n', o);
		first = 0;
	}
	fclose(in);
	fclose(o);
	struct samples *hex = open_set(dir), *dec;
	struct err e = { 0 };
	char hw[1100];
	snprintf(hw, sizeof hw, "%s/hardware.xml", dir);
	struct topo *t;
	const char *fmt;
	assert_int_equal(samples_read_hardware(hw, &t, &fmt, &e), 0);
	assert_int_equal(samples_create(t, &dec, &e), 0);
	FILE *f = fmemopen(out, len, "r");
	assert_int_equal(samples_read_csv(dec, "decimal.csv", f, &e), 0);
	fclose(f);
	assert_int_equal(samples_info(dec)->encoding, SAMPLES_PEBS);
	uint32_t n = samples_info(hex)->n;
	assert_int_equal(samples_info(dec)->n, n);
	const struct samples_attr *th = samples_attr(hex, (uint32_t)samples_info(hex)->a_time);
	const struct samples_attr *td = samples_attr(dec, (uint32_t)samples_info(dec)->a_time);
	for (uint32_t i = 0; i < n; i++) {
		assert_int_equal(samples_levels(hex)[i], samples_levels(dec)[i]);
		assert_int_equal(samples_pu(hex)[i], samples_pu(dec)[i]);
		assert_int_equal(samples_latency(hex)[i], samples_latency(dec)[i]);
		assert_true(th->v[i] == td->v[i]);
	}
	samples_destroy(hex);
	samples_destroy(dec);
	free(out);
}

static void
bad_sets(void **state)
{
	(void)state;
	struct samples *s;
	struct err e = { 0 };
	assert_int_equal(samples_open("/nonexistent/set", NULL, &s, &e), ERR_IO);
	assert_string_equal(e.msg, "/nonexistent/set: No such file or directory");
	char path[1024];
	PROJECT_PATH(path, "Makefile");
	err_clear(&e);
	assert_int_equal(samples_open(path, NULL, &s, &e), ERR_IO);
	assert_non_null(strstr(e.msg, "not a sample set"));
	assert_false(samples_probe(path));
	PROJECT_PATH(path, "src");
	err_clear(&e);
	assert_int_equal(samples_open(path, NULL, &s, &e), ERR_IO);
	assert_non_null(strstr(e.msg, "no data/samples.out or data/samples.csv"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(toy_hardware),
		cmocka_unit_test(toy_samples),
		cmocka_unit_test(variants),
		cmocka_unit_test(decoding),
		cmocka_unit_test(hostile_csv),
		cmocka_unit_test(hostile_xml),
		cmocka_unit_test(node_column),
		cmocka_unit_test(lulesh),
		cmocka_unit_test(mitos),
		cmocka_unit_test(hwloc2),
		cmocka_unit_test(lulesh_decimal),
		cmocka_unit_test(bad_sets),
	};
	return cmocka_run_group_tests_name("samples", tests, NULL, NULL);
}
