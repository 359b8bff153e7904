/* keymap.h — key codes, key names, and the bindings from keys to actions.
 *
 * Key codes are back-end neutral: a printable key is its Unicode code
 * point, Ctrl-a … Ctrl-z are 1 … 26, and named keys are KM_* above the
 * Unicode range. tui/screen.c translates ncurses keys into these; `skein
 * render --keys` parses them from a string.
 *
 * Bindings are data: lines of "KEY ACTION" (keymap_parse). The defaults
 * are such a text compiled into skein and parsed by the same parser, so
 * a user's bindings file and the built-in one cannot differ in syntax.
 *
 *   keymap_create → keymap_parse… → keymap_action / keymap_keys → keymap_destroy
 */
#ifndef SKEIN_KEYMAP_H
#define SKEIN_KEYMAP_H

#include <stddef.h>
#include <stdint.h>

#include "action.h"
#include "base/err.h"

enum {
	KM_BASE = 0x110000,
	KM_LEFT = KM_BASE, KM_RIGHT, KM_UP, KM_DOWN,
	KM_PGUP, KM_PGDN, KM_HOME, KM_END,
	KM_SLEFT, KM_SRIGHT,
	KM_TAB, KM_BTAB, KM_ENTER, KM_ESC, KM_BACKSPACE, KM_DELETE,
	KM_F1, KM_F2, KM_F3, KM_F4, KM_F5, KM_F6, KM_F7, KM_F8, KM_F9, KM_F10, KM_F11, KM_F12,
	KM_INSERT,
	KM_END_OF_KEYS
};

#define KM_CTRL(c) ((uint32_t)((c) & 0x1f))

/* Mouse events travel as key codes: KM_MOUSE | kind << 28 | x << 14 | y,
 * x and y the 0-based screen cell (clamped to 16383). Key scripts write
 * them "<Click:X,Y>", "<RightClick:X,Y>", "<WheelUp:X,Y>"... */
#define KM_MOUSE 0x80000000u
enum km_mouse_kind {
	MOUSE_LEFT, MOUSE_MIDDLE, MOUSE_RIGHT, MOUSE_WHEEL_UP, MOUSE_WHEEL_DOWN, MOUSE_RELEASE,
	MOUSE_KINDS
};
uint32_t keymap_mouse(enum km_mouse_kind kind, int x, int y);
/* 1 if key is a mouse event; then its kind and cell. */
int keymap_mouse_decode(uint32_t key, enum km_mouse_kind *kind, int *x, int *y);

/* A terminal's new size, in key scripts only ("<Resize:80x24>", for
 * skein render: the screen is redrawn at that size, as the explorer
 * does on SIGWINCH): KM_MOUSE | 7 << 28 | w << 14 | h, w and h from 1
 * to 10000. */
uint32_t keymap_resize(int w, int h);
/* 1 if key is a resize; then the size. */
int keymap_resize_decode(uint32_t key, int *w, int *h);

struct keymap;

/* A keymap holding the built-in bindings, or NULL (out of memory). */
struct keymap *keymap_create(void);
/* A keymap with no bindings, to fill from a configuration (whose
 * defaults.yaml holds the same bindings as the built-in ones), so that a
 * key the configuration moves elsewhere is no longer bound to its old
 * action. NULL when out of memory. */
struct keymap *keymap_create_empty(void);
void keymap_destroy(struct keymap *km);

/* A key map holds at most this many bindings. */
#define KEYMAP_MAX 256

/* Binds key to act, replacing the key's earlier action. Returns 0, or
 * ERR_LIMIT when the map already holds KEYMAP_MAX bindings. */
int keymap_bind(struct keymap *km, uint32_t key, enum action act);
/* Adds the bindings in text ("KEY ACTION" per line, '#' comments);
 * a later binding of a key replaces an earlier one. origin names the text
 * in errors ("keys.conf"). Returns 0, or ERR_FORMAT with
 * "origin:line:column: ..." in e (bindings before the error are kept),
 * or ERR_NOMEM. */
int keymap_parse(struct keymap *km, const char *text, const char *origin, struct err *e);
/* keymap_parse over the len bytes of a file read whole (text[len] must be
 * readable: a NUL, as config_read_file leaves it). A NUL before text[len]
 * or a byte that is not UTF-8 (base/text.h's strict decoder), in a
 * binding or a comment, is ERR_FORMAT with its "origin:line:column". */
int keymap_parse_bytes(struct keymap *km, const char *text, size_t len, const char *origin,
		       struct err *e);

/* The action bound to key, or ACT_NONE. */
enum action keymap_action(const struct keymap *km, uint32_t key);

/* Writes the names of the keys bound to a, separated by ", ", into buf
 * (truncated to n). Returns the number of keys. */
int keymap_keys(const struct keymap *km, enum action a, char *buf, size_t n);

/* The first key bound to a (its name, into buf), or "" when none is;
 * returns buf. */
const char *keymap_first_key(const struct keymap *km, enum action a, char *buf, size_t n);

/* The built-in bindings text. */
const char *keymap_default_text(void);

/* Parses one key name ("j", "Down", "C-l", "PgUp", "Space", "F5", and
 * mouse events "Click:12,5"); returns the code or 0 when the name is
 * unknown. */
uint32_t keymap_key_parse(const char *name, size_t len);
/* Writes a key's name into buf (≥ 16 bytes) and returns buf. */
const char *keymap_key_name(uint32_t key, char *buf);

/* Parses a key script: literal characters, and <Name> for named keys
 * ("jjl<Tab>:step 12<Enter>"; "<lt>" is '<'). Writes at most max codes
 * into keys and sets *n. Returns 0 or ERR_USAGE with the offending
 * position in e. */
int keymap_script(const char *s, uint32_t *keys, size_t max, size_t *n, struct err *e);

#endif
