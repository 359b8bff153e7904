/* history.h — the prompts' history between sessions.
 *
 * Kept in $XDG_STATE_HOME/skein/history, or ~/.local/state/skein/history
 * when XDG_STATE_HOME is unset (the XDG base directory specification's
 * place for state that should persist but is not worth a backup): one
 * line per entry, ":command" or "/pattern", oldest first.
 */
#ifndef SKEIN_TUI_HISTORY_H
#define SKEIN_TUI_HISTORY_H

#include <stddef.h>

#include "view/view.h"

/* The history file's path into buf; -1 when neither XDG_STATE_HOME nor
 * HOME is set (no history is kept then). */
int history_path(char *buf, size_t n);
/* Loads the entries of path into the view's prompts; a missing file is
 * an empty history. */
void history_load(struct view *v, const char *path);
/* Writes the view's history to path (creating its directory), through a
 * temporary file renamed over it. Returns 0, or -1 with the reason in
 * msg. */
int history_save(const struct view *v, const char *path, char *msg, size_t n);

#endif
