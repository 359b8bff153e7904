/* testview.h — a view driven headlessly in the unit tests: a key
 * script pressed as skein render presses it, and a grid's text. Needs
 * testutil.h's cmocka before. */
#ifndef SKEIN_TESTVIEW_H
#define SKEIN_TESTVIEW_H

#include <stdio.h>

#include "view/surface/grid.h"
#include "view/surface/keymap.h"
#include "view/view.h"

/* Presses the keys of script (keymap_script's syntax, <Resize:WxH>
 * included) on v, drawing g after each. */
static inline void
tv_press(struct view *v, struct grid *g, const char *script)
{
	uint32_t k[256];
	size_t nk = 0;
	struct err e = { 0 };
	assert_int_equal(keymap_script(script, k, 256, &nk, &e), 0);
	for (size_t i = 0; i < nk; i++)
		assert_int_equal(view_press(v, g, k[i]), 0);
}

/* g as grid_write writes it, in a string the caller frees. */
static inline char *
tv_text(const struct grid *g, enum grid_depth d, int ascii)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	assert_non_null(f);
	assert_int_equal(grid_write(g, f, d, ascii), 0);
	fclose(f);
	return buf;
}

#endif
