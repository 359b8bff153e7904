/* test_config.c — the configuration: defaults, round trips, layering,
 * the user file lookup, and what the example files say they change.
 * (Errors: test_config_errors.c; effects on traces:
 * test_config_analysis.c; key bindings: test_config_keys.c.)
 */
#include "testconfig.h"

#include <string.h>
#include <unistd.h>

#include "config/config.h"

static const char *const examples[] = {
	"config/defaults.yaml", "config/bulk-synchronous.yaml", "config/phases-by-function.yaml",
	"config/hotspots.yaml", "config/batch-report.yaml", "config/ravel.yaml", "config/samples-zidx.yaml",
};
#define N_EXAMPLES (sizeof examples / sizeof examples[0])

/* dump → load onto the defaults → dump gives the same text. */
static void
assert_round_trip(const struct config *c)
{
	char *d1 = tc_dump(c);
	struct config c2;
	tc_init(&c2);
	struct err e = { 0 };
	if (config_load_string(&c2, "dump", d1, strlen(d1), &e)) {
		print_error("the dump does not load back: %s\n%s", e.msg, d1);
		fail();
	}
	char *d2 = tc_dump(&c2);
	assert_string_equal(d1, d2);
	free(d1);
	free(d2);
	config_fini(&c2);
}

static void
defaults(void **state)
{
	(void)state;
	struct config c;
	tc_init(&c);
	assert_true(c.structure.coalesce);
	assert_true(c.structure.waitall_merge);
	assert_false(c.structure.leap_merge);
	assert_true(c.structure.leap_factor == 10.0);
	assert_false(c.structure.force);
	assert_false(c.structure.global_step_merge);
	assert_false(c.structure.caller_merge);
	assert_false(c.structure.match_size);
	assert_int_equal(c.structure.hotspots, 20);
	assert_false(c.structure.reorder);
	assert_true(c.charm.reorder && c.charm.sdag && c.charm.repair && c.charm.infer &&
		    c.charm.leap_merge);
	assert_true(c.charm.n_runtime_chares > 10);
	assert_string_equal(c.charm.runtime_chare_globs[0], "dummy_*");
	assert_null(c.charm.runtime_chare_globs[c.charm.n_runtime_chares]);
	assert_int_equal(c.charm.n_runtime_entries, 2);
	assert_int_equal(c.phases.n_split_at + c.phases.n_named + c.phases.n_restrict, 0);
	assert_int_equal(c.view.metric, CONFIG_METRIC_AUTO);
	assert_true(c.view.scale_auto);
	assert_int_equal(c.view.n_columns, 2);
	assert_int_equal(c.view.layout[0].n_panes, 3);
	assert_int_equal(c.view.layout[0].panes[0], CONFIG_PANE_GRID);
	assert_int_equal(c.view.layout[0].panes[1], CONFIG_PANE_OVERVIEW);
	assert_int_equal(c.view.layout[0].panes[2], CONFIG_PANE_TIMELINE);
	assert_int_equal(c.view.layout[1].panes[0], CONFIG_PANE_DETAILS);
	assert_int_equal(c.view.layout[1].width, 0);
	assert_int_equal(c.view.focus, CONFIG_PANE_GRID);
	assert_true(c.view.ranks.all && c.view.steps.all);
	assert_int_equal(c.view.zoom_steps, 1);
	assert_int_equal(c.view.zoom_ranks, 1);
	assert_int_equal(c.view.clusters, 0);
	assert_int_equal(c.view.glyphs, CONFIG_GLYPHS_AUTO);
	assert_int_equal(c.view.colours, CONFIG_COLOURS_AUTO);
	assert_int_equal(c.view.sel_rank, 0);
	assert_int_equal(c.view.sel_step, 0);
	assert_int_equal(c.view.sel_op, CONFIG_SEL_AUTO);
	assert_int_equal(c.topology.source, CONFIG_TOPO_MACHINE);
	assert_string_equal(c.topology.hwloc, "");
	assert_string_equal(c.topology.synthetic, "");
	assert_int_equal(c.topology.placement, CONFIG_PLACE_SYSTEM_TREE);
	assert_true(c.n_keys > 0);   /* test_config_keys.c: the same as the keymap's */
	assert_string_equal(c.keys[0].action, "move-left");
	assert_int_equal(c.keys[0].n_keys, 2);
	assert_string_equal(c.keys[0].keys[0], "Left");
	assert_string_equal(c.keys[0].mark.file, "built-in defaults");

	/* the defaults are the analysis's own defaults */
	struct analysis_opts want, got;
	analysis_opts_default(&want);
	config_analysis_opts(&c, &got);
	assert_memory_equal(&want, &got, sizeof want);
	config_fini(&c);
	config_fini(&c);   /* twice is harmless */
}

/* The compiled-in defaults are config/defaults.yaml, byte for byte in
 * effect: loading the file onto them changes nothing. */
static void
defaults_file_is_builtin(void **state)
{
	(void)state;
	struct config a, b;
	tc_init(&a);
	tc_init(&b);
	tc_load_file(&b, "config/defaults.yaml");
	char *da = tc_dump(&a), *db = tc_dump(&b);
	assert_string_equal(da, db);
	free(da);
	free(db);
	config_fini(&a);
	config_fini(&b);
}

static void
round_trip_defaults(void **state)
{
	(void)state;
	struct config c;
	tc_init(&c);
	assert_round_trip(&c);
	config_fini(&c);
}

static void
round_trip_examples(void **state)
{
	(void)state;
	for (size_t i = 0; i < N_EXAMPLES; i++) {
		struct config c;
		tc_init(&c);
		tc_load_file(&c, examples[i]);
		assert_round_trip(&c);
		config_fini(&c);
	}
}

/* Strings YAML could misread, escapes, Unicode, times and odd numbers
 * survive dump → load → dump, with their values intact. */
static void
round_trip_awkward_values(void **state)
{
	(void)state;
	struct config c;
	tc_init(&c);
	tc_load_text(&c,
		  "phases:\n"
		  "  split_at: ['*', 'null', 'x y', '- x', 'a: b', \"tab\\there\", \"caf\\u00e9\", \"\\x85\\u2028\\U0001F600\", '#', 'true', '[x]', \"q\\\"uote\\\\\\\\\"]\n"
		  "  named: [{name: '~', region: '{a,b}*', split: yes}]\n"
		  "  restrict: ['~']\n"
		  "structure: {leap_factor: 0.1, hotspots: 0}\n"
		  "view: {scale: [1500us, 2.5s], ranks: [3, 3], steps: [0, 4294967294], selection: {rank: 7, step: 9}}\n"
		  "topology: {hwloc: 'my topo.xml', synthetic: 'node:2 pu:4', placement: explicit, explicit: [3, 2, 1, 0]}\n"
		  "keys: {'weird*action': [], quit: [Q, q]}\n");
	assert_int_equal(c.phases.n_split_at, 12);
	assert_string_equal(c.phases.split_at[4].value, "a: b");
	assert_string_equal(c.phases.split_at[6].value, "caf\xc3\xa9");
	/* a glob: the backslash escapes a backslash (a lone one is refused) */
	assert_string_equal(c.phases.split_at[11].value, "q\"uote\\\\");
	assert_true(c.structure.leap_factor == 0.1);
	assert_int_equal(c.view.scale_min_ns, 1500000);
	assert_int_equal(c.view.scale_max_ns, 2500000000);
	assert_round_trip(&c);
	char *d = tc_dump(&c);
	assert_non_null(strstr(d, "  scale: [1500us, 2500ms]\n"));
	assert_non_null(strstr(d, "  leap_factor: 0.1\n"));
	assert_non_null(strstr(d, "  \"weird*action\": []\n"));
	free(d);
	config_fini(&c);
}

/* Each example changes what its comment says, and nothing it does not
 * mention changes (every other value stays the default). */
static void
examples_change_what_they_say(void **state)
{
	(void)state;
	struct config d, c;
	struct analysis_opts o;
	tc_init(&d);

	tc_init(&c);
	tc_load_file(&c, "config/bulk-synchronous.yaml");
	config_analysis_opts(&c, &o);
	assert_true(o.leap_merge);
	assert_true(o.leap_factor == 10.0);
	assert_false(o.leap_force);
	assert_int_equal(c.view.clusters, 8);
	assert_int_equal(o.n_phases, 0);
	config_fini(&c);

	tc_init(&c);
	tc_load_file(&c, "config/phases-by-function.yaml");
	config_analysis_opts(&c, &o);
	assert_int_equal(c.phases.n_named, 2);
	assert_string_equal(c.phases.named[0].name, "halo");
	assert_string_equal(c.phases.named[1].region, "reduce");
	assert_int_equal(o.n_phases, 2);
	assert_string_equal(o.phases[0].region_glob, "exchange");
	assert_string_equal(o.phases[1].region_glob, "reduce");
	assert_int_equal(c.view.metric, CONFIG_METRIC_FUNCTION);
	config_fini(&c);

	tc_init(&c);
	tc_load_file(&c, "config/hotspots.yaml");
	config_analysis_opts(&c, &o);
	assert_int_equal(o.hotspots, 50);
	assert_int_equal(c.view.metric, CONFIG_METRIC_DIFF);
	assert_int_equal(c.view.n_columns, 2);
	assert_int_equal(c.view.layout[1].panes[0], CONFIG_PANE_DETAILS);
	assert_int_equal(c.view.layout[1].width, 48);
	assert_false(o.leap_merge);
	config_fini(&c);

	tc_init(&c);
	tc_load_file(&c, "config/samples-zidx.yaml");
	config_analysis_opts(&c, &o);
	assert_string_equal(c.samples.attribute, "zidx");
	assert_int_equal(c.samples.metric, CONFIG_SCORE_IMBALANCE);
	assert_int_equal(c.samples.depth, CONFIG_DEPTH_CPU);
	assert_int_equal(c.samples.clusters, 8);
	assert_int_equal(c.samples.n_filter, 1);
	assert_string_equal(c.samples.filter[0].attribute, "map3D");
	assert_true(c.samples.filter[0].lo == 1 && c.samples.filter[0].hi == 1);
	assert_int_equal(c.samples.n_selection, 0);
	assert_false(o.leap_merge);
	config_fini(&c);

	tc_init(&c);
	tc_load_file(&c, "config/batch-report.yaml");
	config_analysis_opts(&c, &o);
	assert_int_equal(o.hotspots, 10);
	assert_int_equal(o.n_phases, 1);
	assert_string_equal(o.phases[0].region_glob, "iteration");
	assert_int_equal(c.phases.n_restrict, 1);
	assert_string_equal(c.phases.restrict_to[0].value, "iteration");
	assert_int_equal(c.view.glyphs, CONFIG_GLYPHS_ASCII);
	assert_int_equal(c.view.colours, CONFIG_COLOURS_NONE);
	assert_false(c.view.scale_auto);
	assert_int_equal(c.view.scale_max_ns, 25000000);
	/* the layout and the keys are the defaults' */
	assert_int_equal(c.view.n_columns, d.view.n_columns);
	assert_int_equal(c.n_keys, d.n_keys);
	config_fini(&c);
	config_fini(&d);
}

static void
write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* Later layers override the keys they name; lists replace; mappings
 * merge, but a selection without its operation reads it as auto; a key
 * bound later leaves the action it was bound to. */
static void
layering(void **state)
{
	(void)state;
	char dir[] = "/tmp/skein-config-XXXXXX", a[300], b[300];
	assert_non_null(mkdtemp(dir));
	snprintf(a, sizeof a, "%s/a.yaml", dir);
	snprintf(b, sizeof b, "%s/b.yaml", dir);
	write_file(a, "structure: {leap_factor: 5, leap_merge: true}\n"
		      "phases: {split_at: [iteration, 'solve*']}\n"
		      "view: {zoom: {steps: 4, ranks: 2}, layout: [{panes: [grid]}],\n"
		      "       selection: {rank: 3, step: 9, operation: maximum}}\n"
		      "keys: {quit: [Q]}\n");
	/* b's selection was saved before view.selection.operation */
	write_file(b, "structure: {leap_factor: 2}\n"
		      "phases: {split_at: [exchange]}\n"
		      "view: {zoom: {ranks: 8}, selection: {rank: 5, step: 2}}\n"
		      "keys: {zoom-in: [h, '+']}\n");
	struct config c;
	tc_init(&c);
	const char *files[] = { a, b };
	for (int i = 0; i < 2; i++)
		tc_load_file(&c, files[i]);
	assert_true(c.structure.leap_factor == 2.0);     /* b overrides a */
	assert_true(c.structure.leap_merge);             /* a's, b is silent */
	assert_int_equal(c.phases.n_split_at, 1);        /* the list was replaced */
	assert_string_equal(c.phases.split_at[0].value, "exchange");
	assert_string_equal(c.phases.split_at[0].mark.file, b);
	assert_int_equal(c.phases.split_at[0].mark.line, 2);
	assert_int_equal(c.phases.split_at[0].mark.column, 21);
	assert_int_equal(c.view.zoom_steps, 4);          /* mappings merge */
	assert_int_equal(c.view.zoom_ranks, 8);
	assert_int_equal(c.view.n_columns, 1);
	/* a selection brings its own operation: b's, without the key, is
	 * read as files saved before it are (auto), not with a's maximum */
	assert_int_equal(c.view.sel_rank, 5);
	assert_int_equal(c.view.sel_step, 2);
	assert_int_equal(c.view.sel_op, CONFIG_SEL_AUTO);
	int saw_quit = 0, saw_move_left = 0;
	for (uint32_t i = 0; i < c.n_keys; i++) {
		const struct config_binding *k = &c.keys[i];
		if (strcmp(k->action, "quit") == 0) {
			assert_int_equal(k->n_keys, 1);
			assert_string_equal(k->keys[0], "Q");
			saw_quit = 1;
		} else if (strcmp(k->action, "move-left") == 0) {
			assert_int_equal(k->n_keys, 1);   /* h went to zoom-in */
			assert_string_equal(k->keys[0], "Left");
			saw_move_left = 1;
		} else if (strcmp(k->action, "zoom-in") == 0) {
			assert_int_equal(k->n_keys, 2);
			assert_string_equal(k->keys[0], "h");
		}
	}
	assert_true(saw_quit && saw_move_left);
	assert_round_trip(&c);
	config_fini(&c);
	unlink(a);
	unlink(b);
	rmdir(dir);
}

/* A load that fails changes nothing, even when the error comes after
 * valid keys. */
static void
failed_load_changes_nothing(void **state)
{
	(void)state;
	struct config c;
	tc_init(&c);
	tc_load_text(&c, "view: {metric: diff}\n");
	char *before = tc_dump(&c);
	struct err e = { 0 };
	assert_int_equal(config_load_file(&c, "tests/config/late-error.yaml", &e), ERR_FORMAT);
	assert_string_equal(e.msg, "tests/config/late-error.yaml:8:3: duplicate key 'metric' in view "
				   "(first at line 7, column 3)");
	char *after = tc_dump(&c);
	assert_string_equal(before, after);
	struct analysis_opts o;
	config_analysis_opts(&c, &o);
	assert_int_equal(o.n_phases, 0);
	free(before);
	free(after);
	config_fini(&c);
}

/* $XDG_CONFIG_HOME/skein/config.yaml, else ~/.config/skein/config.yaml;
 * then the files given, in order. */
static void
user_file_lookup(void **state)
{
	(void)state;
	char dir[] = "/tmp/skein-xdg-XXXXXX", path[400], sub[300], extra[300];
	assert_non_null(mkdtemp(dir));
	char *old_xdg = getenv("XDG_CONFIG_HOME") ? strdup(getenv("XDG_CONFIG_HOME")) : NULL;
	char *old_home = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
	struct err e = { 0 };

	setenv("XDG_CONFIG_HOME", dir, 1);
	assert_int_equal(config_user_path(path, sizeof path, &e), 0);
	snprintf(sub, sizeof sub, "%s/skein/config.yaml", dir);
	assert_string_equal(path, sub);

	/* no user file: nothing happens */
	struct config c;
	tc_init(&c);
	assert_int_equal(config_load_layers(&c, NULL, 0, &e), 0);
	assert_int_equal(c.view.metric, CONFIG_METRIC_AUTO);
	config_fini(&c);

	snprintf(sub, sizeof sub, "%s/skein", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	write_file(path, "view: {metric: diff, clusters: 4}\n");
	snprintf(extra, sizeof extra, "%s/extra.yaml", dir);
	write_file(extra, "view: {clusters: 6}\n");
	tc_init(&c);
	const char *files[] = { extra };
	assert_int_equal(config_load_layers(&c, files, 1, &e), 0);
	assert_int_equal(c.view.metric, CONFIG_METRIC_DIFF);   /* from the user file */
	assert_int_equal(c.view.clusters, 6);                  /* the given file wins */
	config_fini(&c);

	/* a broken user file is reported, with its path */
	write_file(path, "view: {metric: nope}\n");
	tc_init(&c);
	assert_int_equal(config_load_layers(&c, NULL, 0, &e), ERR_FORMAT);
	assert_non_null(strstr(e.msg, "/skein/config.yaml:1:16: view.metric: 'nope' is not one of"));
	err_clear(&e);
	/* a missing given file is ERR_IO */
	snprintf(extra, sizeof extra, "%s/absent.yaml", dir);
	config_fini(&c);
	unlink(path);
	tc_init(&c);
	assert_int_equal(config_load_layers(&c, files, 1, &e), ERR_IO);
	assert_non_null(strstr(e.msg, "absent.yaml: No such file or directory"));
	err_clear(&e);
	config_fini(&c);

	/* relative XDG_CONFIG_HOME is ignored (XDG spec): HOME is used */
	setenv("XDG_CONFIG_HOME", "relative/dir", 1);
	setenv("HOME", dir, 1);
	assert_int_equal(config_user_path(path, sizeof path, &e), 0);
	snprintf(sub, sizeof sub, "%s/.config/skein/config.yaml", dir);
	assert_string_equal(path, sub);
	unsetenv("XDG_CONFIG_HOME");
	assert_int_equal(config_user_path(path, sizeof path, &e), 0);
	assert_string_equal(path, sub);

	if (old_xdg)
		setenv("XDG_CONFIG_HOME", old_xdg, 1);
	if (old_home)
		setenv("HOME", old_home, 1);
	else
		unsetenv("HOME");
	free(old_xdg);
	free(old_home);
	snprintf(sub, sizeof sub, "%s/skein", dir);
	rmdir(sub);
	snprintf(extra, sizeof extra, "%s/extra.yaml", dir);
	unlink(extra);
	rmdir(dir);
}

/* Flags can be applied as YAML snippets: the same checks, the same
 * layering (what skein's CLI is expected to do). */
static void
flags_as_snippets(void **state)
{
	(void)state;
	struct config c;
	tc_init(&c);
	tc_load_file(&c, "config/batch-report.yaml");
	tc_load_text(&c, "phases: {split_at: [exchange]}");
	struct analysis_opts o;
	config_analysis_opts(&c, &o);
	assert_int_equal(o.n_phases, 2);   /* split_at first, then named phases that split */
	assert_string_equal(o.phases[0].region_glob, "exchange");
	assert_string_equal(o.phases[1].region_glob, "iteration");
	c.structure.leap_merge = 1;        /* scalars may be assigned directly */
	config_analysis_opts(&c, &o);
	assert_true(o.leap_merge);
	config_fini(&c);
}

/* The documentation names every key of the schema. */
static void
doc_names_every_key(void **state)
{
	(void)state;
	FILE *f = fopen("doc/config.md", "r");
	assert_non_null(f);
	static char doc[1 << 17];
	size_t n = fread(doc, 1, sizeof doc - 1, f);
	doc[n] = '\0';
	fclose(f);
	struct config c;
	tc_init(&c);
	char *d = tc_dump(&c), *save = NULL, section[32] = "";
	for (char *line = strtok_r(d, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char key[64], want[128];
		if (line[0] != ' ' && line[0] != '#') {
			sscanf(line, "%31[^:]", section);
			continue;
		}
		if (strcmp(section, "keys") == 0 || strncmp(line, "  ", 2) != 0 || line[2] == ' ' ||
		    sscanf(line + 2, "%63[a-z_]:", key) != 1)
			continue;
		snprintf(want, sizeof want, "`%s.%s`", section, key);
		if (!strstr(doc, want)) {
			print_error("doc/config.md does not describe %s\n", want);
			fail();
		}
	}
	free(d);
	config_fini(&c);
}

static void
keys_text(void **state)
{
	(void)state;
	struct config c;
	tc_init(&c);
	tc_load_text(&c, "keys: {quit: [q, Q], help: []}");
	char *t = NULL;
	assert_int_equal(config_keys_text(&c, &t), 0);
	assert_true(strncmp(t, "Left move-left\nh move-left\n", 27) == 0);
	assert_non_null(strstr(t, "\nq quit\nQ quit\n"));
	assert_null(strstr(t, " help\n"));
	free(t);
	config_fini(&c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults),
		cmocka_unit_test(defaults_file_is_builtin),
		cmocka_unit_test(round_trip_defaults),
		cmocka_unit_test(round_trip_examples),
		cmocka_unit_test(round_trip_awkward_values),
		cmocka_unit_test(examples_change_what_they_say),
		cmocka_unit_test(layering),
		cmocka_unit_test(failed_load_changes_nothing),
		cmocka_unit_test(user_file_lookup),
		cmocka_unit_test(flags_as_snippets),
		cmocka_unit_test(doc_names_every_key),
		cmocka_unit_test(keys_text),
	};
	return cmocka_run_group_tests(tests, tc_setup_root, NULL);
}
