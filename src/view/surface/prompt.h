/* prompt.h — a one-line editor with history, for the explorer's : and /
 * prompts.
 *
 * The keys readline users expect: ← → (C-b C-f), Home End (C-a C-e),
 * Backspace (C-h), Delete (C-d), C-w (word), C-u (to the start), C-k (to
 * the end), ↑ ↓ (C-p C-n) through the history. Tab asks the caller for
 * completions of the word before the cursor (prompt_complete). Text is
 * UTF-8; the cursor is a byte offset at a character boundary.
 *
 *   prompt_init → (prompt_start → prompt_key… → prompt_history_add)… → prompt_fini
 */
#ifndef SKEIN_PROMPT_H
#define SKEIN_PROMPT_H

#include <stddef.h>
#include <stdint.h>

#define PROMPT_MAX 200          /* bytes in a line, with the NUL */
#define PROMPT_HISTORY 500      /* lines kept per history */

struct prompt {
	char buf[PROMPT_MAX];
	size_t len, cur;
	/* history, oldest first; browsing shows hist[at] (at == n: the line
	 * being typed, kept in draft) */
	char (*hist)[PROMPT_MAX];
	size_t n_hist, at;
	char draft[PROMPT_MAX];
	unsigned tab;                /* Tabs in a row (cycling through completions) */
	char tab_word[PROMPT_MAX];   /* the word as typed before the first Tab */
};

enum prompt_result {
	PROMPT_EDITED,      /* the line or the cursor changed (or nothing did) */
	PROMPT_SUBMIT,      /* Enter */
	PROMPT_CANCEL,      /* Esc, C-c, C-g, or Backspace on an empty line */
	PROMPT_COMPLETE,    /* Tab: the caller completes (prompt_complete) */
};

/* 0 or ERR_NOMEM. */
int prompt_init(struct prompt *p);
void prompt_fini(struct prompt *p);
/* An empty line, the history browsing back at its end. */
void prompt_start(struct prompt *p);
/* Sets the line to text, the cursor at its end. */
void prompt_set(struct prompt *p, const char *text);
/* One key (keymap.h codes). */
enum prompt_result prompt_key(struct prompt *p, uint32_t key);
/* Adds a line to the history (not an empty one, nor a repeat of the
 * last); the oldest goes when it is full. */
void prompt_history_add(struct prompt *p, const char *line);

/* Completion of the word before the cursor (from the last space) among
 * the n candidates that start with it (case-insensitive): one is taken
 * whole (then a space when space_after); several extend the word to
 * what they share, and Tab again cycles through them. Returns how many
 * candidates matched the word as typed. */
size_t prompt_complete(struct prompt *p, const char *const *cand, size_t n, int space_after);
/* The start (byte offset) of the word before the cursor. */
size_t prompt_word_start(const struct prompt *p);

#endif
