/* test_config_errors.c — every class of bad configuration gives one line
 * "file:line:column: message", exactly as below, and changes nothing.
 * The fixtures are in tests/config/ (they also seed the fuzzer).
 */
#include "testconfig.h"

#include <string.h>
#include <unistd.h>

#include "view/surface/action.h"
#include "config/config.h"

struct bad {
	const char *file;
	int code;
	const char *msg;     /* after "tests/config/FILE:" */
};

static const struct bad load_errors[] = {
	/* unknown keys, with a suggestion for a misspelling */
	{ "unknown-key.yaml", ERR_FORMAT, "3:3: unknown key 'leap_merj' in structure (did you mean 'leap_merge'?)" },
	{ "unknown-section.yaml", ERR_FORMAT, "2:1: unknown section 'veiw' (did you mean 'view'?)" },
	{ "misspelt-colours.yaml", ERR_FORMAT, "2:3: unknown key 'colors' in view (did you mean 'colours'?)" },
	{ "bad-enum.yaml", ERR_FORMAT, "2:11: view.metric: 'latenes' is not one of lateness, diff, global, "
	  "duration, partition, function, delta, diff-duration, idle, imbalance, wait, path, threads or auto (did you mean 'lateness'?)" },
	/* wrong types */
	{ "bad-bool.yaml", ERR_FORMAT, "2:13: structure.coalesce: expected true or false, got 'maybe'" },
	/* "false" is a string: it was refused as "expected true or false, got 'false'" */
	{ "quoted-bool.yaml", ERR_FORMAT, "2:13: structure.coalesce: expected true or false unquoted "
	  "(a quoted one is a string), got 'false'" },
	{ "bad-number.yaml", ERR_FORMAT, "2:16: structure.leap_factor: expected a number, got 'ten'" },
	{ "layout-not-list.yaml", ERR_FORMAT, "2:11: view.layout: expected a list, got 'grid'" },
	{ "topology-explicit.yaml", ERR_FORMAT, "2:20: topology.explicit: expected a whole number, got 'two'" },
	{ "not-a-mapping.yaml", ERR_FORMAT, "1:1: expected a mapping with structure, phases, view, topology, "
	  "charm, keys or samples at the top level, got a list" },
	/* the samples section */
	{ "samples-step.yaml", ERR_FORMAT, "2:11: samples.step: the windows must overlap: step 50 must be less than window 10" },
	{ "samples-metric.yaml", ERR_FORMAT, "2:11: samples.metric: 'latncy' is not one of latency or imbalance (did you mean 'latency'?)" },
	{ "samples-pick.yaml", ERR_FORMAT, "3:7: samples.selection: attribute 'zidx' needs a range or a value (one of them)" },
	{ "samples-pick-two.yaml", ERR_FORMAT, "2:12: samples.filter: a pick names one of attribute (with range or value), line or resource" },
	{ "samples-line.yaml", ERR_FORMAT, "2:19: samples.filter.line: expected FILE:LINE, got 'x.c:1a'" },
	{ "samples-range.yaml", ERR_FORMAT, "2:37: samples.selection.range: the low end is above the high end" },
	{ "samples-depth.yaml", ERR_FORMAT, "2:10: samples.depth: 'l4' is not one of cpu, core, l1, l2, l3, numa, package or machine" },
	/* out of range */
	{ "leap-factor-zero.yaml", ERR_FORMAT, "2:16: structure.leap_factor: must be greater than 0, got 0" },
	{ "leap-factor-negative.yaml", ERR_FORMAT, "2:16: structure.leap_factor: must be greater than 0, got -2.5" },
	{ "clusters-too-many.yaml", ERR_FORMAT, "2:13: view.clusters: must be at most 20, got 25" },
	{ "window-negative.yaml", ERR_FORMAT, "2:11: view.ranks: must not be negative, got -1" },
	{ "window-reversed.yaml", ERR_FORMAT, "2:10: view.steps: the first (40) is after the last (12)" },
	{ "zoom-zero.yaml", ERR_FORMAT, "3:12: view.zoom.steps: must be at least 1, got 0" },
	{ "scale-no-unit.yaml", ERR_FORMAT, "2:14: view.scale: '25' needs a unit: s, ms, us or ns" },
	{ "scale-reversed.yaml", ERR_FORMAT, "2:10: view.scale: the maximum (1ms) must be greater than the minimum (5ms)" },
	{ "selection-too-big.yaml", ERR_FORMAT, "3:11: view.selection.rank: must be at most 4294967294, got 4294967295" },
	{ "hotspots-huge.yaml", ERR_FORMAT, "2:13: structure.hotspots: must be at most 1000000, got 18446744073709551616" },
	/* duplicates and inconsistent entries */
	{ "duplicate-key.yaml", ERR_FORMAT, "4:3: duplicate key 'coalesce' in structure (first at line 2, column 3)" },
	{ "pane-twice.yaml", ERR_FORMAT, "4:15: view.layout: pane 'grid' appears twice (first at line 3, column 15)" },
	{ "layout-no-panes.yaml", ERR_FORMAT, "3:7: view.layout: column has no 'panes'" },
	{ "named-no-region.yaml", ERR_FORMAT, "3:7: phases.named: entry has no 'region'" },
	{ "named-twice.yaml", ERR_FORMAT, "4:14: phases.named: phase 'solve' is defined twice (first at line 3, column 7)" },
	{ "restrict-unknown.yaml", ERR_FORMAT, "5:14: phases.restrict: no named phase 'solver' (did you mean 'solve'?)" },
	{ "key-bound-twice.yaml", ERR_FORMAT, "3:21: keys: 'h' is already bound to zoom-in at line 2, column 13" },
	/* documents */
	{ "empty.yaml", ERR_FORMAT, "1:1: empty document: expected a mapping with structure, phases, view, topology, charm, keys or samples" },
	{ "empty-document.yaml", ERR_FORMAT, "2:1: empty document: expected a mapping with structure, phases, view, topology, charm, keys or samples" },
	{ "two-documents.yaml", ERR_FORMAT, "3:1: only one YAML document is allowed in a configuration file" },
	/* malformed YAML: libyaml's own message and position */
	{ "malformed-indent.yaml", ERR_FORMAT, "3:17: mapping values are not allowed in this context" },
	{ "malformed-flow.yaml", ERR_FORMAT, "3:1: did not find expected ',' or ']' (while parsing a flow sequence at line 2, column 13)" },
	{ "bad-utf8.yaml", ERR_FORMAT, "2:18: invalid trailing UTF-8 octet (0x5d)" },
	/* YAML the schema has no use for */
	{ "anchor.yaml", ERR_FORMAT, "1:12: anchors and aliases are not supported" },
	{ "tag.yaml", ERR_FORMAT, "2:13: tags are not supported (quote a value to make it a string)" },
	{ "nul-string.yaml", ERR_FORMAT, "2:14: strings must not contain NUL characters" },
	{ "too-deep.yaml", ERR_FORMAT, "2:73: nesting deeper than 64 levels" },
	/* found by the fuzzer: a folded multi-line scalar put line breaks into
	 * the message; control characters in quoted values show as '?' */
	{ "fuzz-newline-in-message.yaml", ERR_FORMAT, "12:14: phases.restrict: no named phase "
	  "'i0000000000000000000000000000000000000000000000000000000122978 r05?O?` O29382473034411teration'" },
};

static void
load_errors_exact(void **state)
{
	(void)state;
	struct config c;
	struct err e = { 0 };
	assert_int_equal(config_init(&c, &e), 0);
	char *before = tc_dump(&c);
	int failed = 0;
	for (size_t i = 0; i < sizeof load_errors / sizeof load_errors[0]; i++) {
		const struct bad *b = &load_errors[i];
		char path[128], want[600];
		snprintf(path, sizeof path, "tests/config/%s", b->file);
		snprintf(want, sizeof want, "%s:%s", path, b->msg);
		err_clear(&e);
		int rc = config_load_file(&c, path, &e);
		if (rc != b->code || strcmp(e.msg, want) != 0) {
			print_error("%s: got %d \"%s\"\n%*s want %d \"%s\"\n", b->file, rc, e.msg,
				    (int)strlen(b->file), "", b->code, want);
			failed = 1;
		}
		assert_null(strchr(e.msg, '\n'));
	}
	char *after = tc_dump(&c);
	assert_string_equal(before, after);   /* nothing was applied */
	free(before);
	free(after);
	config_fini(&c);
	assert_false(failed);
}

static void
missing_file(void **state)
{
	(void)state;
	struct config c;
	struct err e = { 0 };
	assert_int_equal(config_init(&c, &e), 0);
	assert_int_equal(config_load_file(&c, "tests/config/absent.yaml", &e), ERR_IO);
	assert_string_equal(e.msg, "tests/config/absent.yaml: No such file or directory");
	err_clear(&e);
	assert_int_equal(config_load_file(&c, "tests/config", &e), ERR_IO);
	assert_string_equal(e.msg, "tests/config: is a directory, not a regular file");
	config_fini(&c);
}

/* Region names are checked once the trace is loaded. */
static void
unknown_regions(void **state)
{
	(void)state;
	char path[512];
	struct trace *t = tu_load(PROJECT_PATH(path, "traces/corpus/stencil-4/traces.otf2"));
	static const struct { const char *file, *msg; } cases[] = {
		{ "region-unknown.yaml", "2:14: phases.split_at: 'iteraton' matches no region of the trace "
		  "(did you mean 'iteration'?)" },
		{ "region-glob-unknown.yaml", "4:15: phases.named: phase 'halo': region 'xchg*' matches no "
		  "region of the trace" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct config c;
		struct err e = { 0 };
		char file[128], want[600];
		snprintf(file, sizeof file, "tests/config/%s", cases[i].file);
		snprintf(want, sizeof want, "%s:%s", file, cases[i].msg);
		assert_int_equal(config_init(&c, &e), 0);
		assert_int_equal(config_load_file(&c, file, &e), 0);
		assert_int_equal(config_check_regions(&c, t, &e), ERR_FORMAT);
		assert_string_equal(e.msg, want);
		config_fini(&c);
	}
	/* every example that names regions names the stencil's */
	static const char *const ok[] = {
		"config/phases-by-function.yaml", "config/batch-report.yaml", "config/defaults.yaml",
	};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		struct config c;
		struct err e = { 0 };
		assert_int_equal(config_init(&c, &e), 0);
		assert_int_equal(config_load_file(&c, ok[i], &e), 0);
		assert_int_equal(config_check_regions(&c, t, &e), 0);
		config_fini(&c);
	}
	trace_destroy(t);
}

/* Action names are checked against the explorer's action table. */
static void
unknown_actions(void **state)
{
	(void)state;
	const char *names[ACT_COUNT];
	for (int i = 0; i < ACT_COUNT; i++)
		names[i] = action_info((enum action)i)->name;
	struct config c;
	struct err e = { 0 };
	assert_int_equal(config_init(&c, &e), 0);
	assert_int_equal(config_check_keys(&c, names, ACT_COUNT, NULL, &e), 0);
	assert_int_equal(config_load_file(&c, "tests/config/action-unknown.yaml", &e), 0);
	assert_int_equal(config_check_keys(&c, names, ACT_COUNT, NULL, &e), ERR_FORMAT);
	assert_string_equal(e.msg, "tests/config/action-unknown.yaml:2:3: keys: unknown action 'zoom-inn' "
				   "(did you mean 'zoom-in'?)");
	config_fini(&c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(load_errors_exact),
		cmocka_unit_test(missing_file),
		cmocka_unit_test(unknown_regions),
		cmocka_unit_test(unknown_actions),
	};
	return cmocka_run_group_tests(tests, tc_setup_root, NULL);
}
