/* explore.h — the interactive explorer: curses screen and event loop. */
#ifndef SKEIN_TUI_EXPLORE_H
#define SKEIN_TUI_EXPLORE_H

#include "view/view.h"
#include "screen.h"

/* How the terminal is used. */
struct explore_opts {
	enum screen_color color;
	int ascii;
	int mouse;                 /* clicks and the wheel */
};

/* Runs the explorer on an analysis until the user quits or a stop
 * signal arrives (Ctrl-C outside a prompt counts as SIGINT). Returns 0,
 * or -1 with a message in msg when the terminal cannot be used. The
 * terminal is restored before returning. */
int explore_run(const struct analysis *a, const struct view_opts *vo, const struct explore_opts *eo,
		char *msg, size_t n);
/* The same on a session already made (a sample set's); destroys v. */
int explore_view(struct view *v, const struct explore_opts *eo, char *msg, size_t n);

#endif
