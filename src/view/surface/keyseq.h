/* keyseq.h — terminal input sequences into key codes, whatever terminfo
 * says.
 *
 * A terminal sends a named key or a mouse event as an escape sequence,
 * and which one depends on the terminal, not on $TERM: inside tmux with
 * TERM=xterm-256color (common on login nodes) Home arrives as ESC [ 1 ~,
 * which xterm's terminfo does not list. curses translates the sequences
 * terminfo knows; tui/screen.c hands everything else here, byte by byte,
 * so that the common sequences of xterm, VT220, rxvt, the Linux console
 * and tmux/screen mean their key, mouse reports (SGR 1006 and X10) become
 * mouse codes, and a sequence nobody knows is dropped as a whole instead
 * of being read as keys ('[' would run "previous partition").
 *
 * Mouse events travel as key codes too (keymap_mouse), so `skein render
 * --keys '<Click:12,5>'` and the golden tests can click.
 */
#ifndef SKEIN_KEYSEQ_H
#define SKEIN_KEYSEQ_H

#include <stddef.h>
#include <stdint.h>

enum keyseq_result {
	KEYSEQ_PARTIAL,     /* a prefix of a sequence: more bytes may follow */
	KEYSEQ_KEY,         /* a key (or mouse) code in *key */
	KEYSEQ_DROP,        /* a whole sequence skein does not use: ignore it */
};

/* Decodes the sequence at s[0..n), which starts with ESC (0x1b). Sets
 * *used to the bytes it takes (bytes after them are the next input).
 * ESC followed by a byte that starts no sequence (Alt+key, or Esc typed
 * before a key) is the Esc key alone, used 1. A caller whose input
 * stops while the result is KEYSEQ_PARTIAL gives up: n == 1 is the Esc
 * key, a longer prefix is dropped. */
enum keyseq_result keyseq_decode(const unsigned char *s, size_t n, uint32_t *key, size_t *used);

#endif
