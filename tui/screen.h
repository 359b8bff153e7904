/* screen.h — the ncurses back end: draws grids, reads keys, restores the
 * terminal whatever happens.
 *
 *   screen_open → (screen_present | screen_key)… → screen_close
 *
 * One screen per process (ncurses has one). screen_close is idempotent and
 * also runs at exit and on fatal signals, so the terminal is always given
 * back; SIGINT, SIGTERM and SIGHUP only raise a flag (screen_interrupted)
 * that the event loop acts on. While the screen is open, Ctrl-Z (SIGTSTP)
 * gives the terminal back before stopping, and once continued screen_key
 * returns SCREEN_RESIZED so that the loop draws the whole screen again.
 */
#ifndef SKEIN_TUI_SCREEN_H
#define SKEIN_TUI_SCREEN_H

#include <stddef.h>
#include <stdint.h>

#include "view/surface/grid.h"

/* How the user asked for colour and glyphs. */
enum screen_color { SCOLOR_AUTO, SCOLOR_MONO, SCOLOR_8, SCOLOR_256 };

/* Starts curses on the terminal; mouse: report clicks and the wheel.
 * Ctrl-C then arrives as a key (KM_CTRL('c')), not as SIGINT. Returns 0,
 * or -1 with a message in msg (e.g. the terminal type is unknown or
 * cannot address the cursor). */
int screen_open(enum screen_color color, int ascii, int mouse, char *msg, size_t n);
void screen_close(void);

/* The terminal's size now. */
void screen_size(int *w, int *h);
/* The colour depth and glyph set chosen at open. */
enum grid_depth screen_depth(void);
int screen_ascii(void);

/* Shows g: only cells that differ from the last grid shown are sent to
 * curses (all of them when full is set, e.g. after a resize or ^L). */
void screen_present(const struct grid *g, int full);

/* Waits up to timeout_ms (-1: no limit) for a key. Returns a keymap.h
 * code (mouse events included), 0 on timeout, interruption or an input
 * sequence skein does not use, or SCREEN_RESIZED. Escape sequences are
 * decoded by view/keyseq.h when curses does not know them. */
#define SCREEN_RESIZED 0xffffffffu
uint32_t screen_key(int timeout_ms);

/* The signal that asked skein to stop (SIGINT...), or 0. */
int screen_interrupted(void);
/* Installs the signal handlers (before screen_open, and for loading):
 * SIGINT, SIGTERM and SIGHUP raise the flag; every other signal that
 * would end the process restores the terminal first. */
void screen_signals(void);
/* SIGINT, SIGTERM and SIGHUP end the process again (render, once loaded:
 * there is no terminal to give back). */
void screen_signals_default(void);
/* rc, or, when a signal asked skein to stop, dies of that signal (exit
 * status 128 + signal for the shell); call it after the terminal is
 * restored. */
int screen_exit_status(int rc);

#endif
