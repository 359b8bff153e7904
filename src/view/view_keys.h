/* view_keys.h — every key, command and mouse gesture of the explorer, from
 * the action table, the bindings in force and the panes' own tables.
 *
 * One source for the help overlay, the man page's KEYS section, the
 * README's key list and `skein keys`: what one says, the others say.
 */
#ifndef SKEIN_VIEW_KEYS_H
#define SKEIN_VIEW_KEYS_H

#include <stdio.h>

#include "view/surface/keymap.h"

enum view_keys_row {
	KEYS_SECTION,       /* a heading: text */
	KEYS_ENTRY,         /* keys (names, ", "-separated) and what they do */
	KEYS_NOTE,          /* a line of prose under a heading */
};

/* Calls fn for every row, in the order the help shows them: the actions
 * by group (those with a key), what keys mean in each pane, the prompt
 * keys, the mouse, the commands, the glyphs and what the metrics mean:
 * lateness, or with charm set a Charm++ run's words (chares, phases)
 * and seed 004's metrics. */
void view_keys_rows(const struct keymap *km, int charm,
		    void (*fn)(void *ud, enum view_keys_row kind, const char *keys, const char *text),
		    void *ud);

enum view_keys_format { KEYS_FMT_TEXT, KEYS_FMT_MAN, KEYS_FMT_MARKDOWN };

/* Writes the rows to out as plain text, man(7) or Markdown. Returns 0
 * or ERR_IO. */
int view_keys_write(const struct keymap *km, enum view_keys_format fmt, FILE *out);

#endif
