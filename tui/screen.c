/* screen.c — the ncurses back end (see screen.h).
 *
 * Drawing goes cell by cell through the same style table as the text back
 * end (grid_attr), and only changed cells are handed to curses, which in
 * turn sends only what changed on the terminal: nothing here ever clears
 * the screen except on resize or an explicit redraw, so a cursor move over
 * a slow SSH link costs a few dozen bytes.
 */
#define _XOPEN_SOURCE_EXTENDED 1
#include "screen.h"

#include <curses.h>
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <term.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

#include "view/surface/keymap.h"
#include "view/surface/keyseq.h"

#define MAX_PAIRS 250

static struct {
	int open;
	SCREEN *scr;
	enum grid_depth depth;
	int ascii;
	struct grid *prev;
	short pair_fg[MAX_PAIRS + 1], pair_bg[MAX_PAIRS + 1];
	int npairs;
	int default_colors;
	struct termios saved;
	int have_saved;
	char rmcup[64], cnorm[64], sgr0[64], rmkx[64];
	int mouse;                 /* mouse reports are on */
	/* input read past a key (the rest of an escape sequence) */
	wint_t unread[64];
	int unread_code[64];
	int n_unread;
} S;

/* Mouse reporting: button presses and the wheel (1000), in SGR encoding
 * (1006: no 223-column limit; terminals without it send X10, which
 * keyseq.c decodes too). */
static const char mouse_on[] = "\033[?1000h\033[?1006h";
static const char mouse_off[] = "\033[?1006l\033[?1000l";

static volatile sig_atomic_t interrupted;
static volatile sig_atomic_t continued;    /* a stop ended: set the modes again */

int
screen_interrupted(void)
{
	return interrupted;
}

static void
on_stop_signal(int sig)
{
	interrupted = sig;
}

/* Fatal signals: give the terminal back with async-signal-safe calls only
 * (the saved termios and the terminfo strings fetched at open), all that
 * endwin gives back — mouse reports, attributes, the cursor, the keypad's
 * application mode, the alternate screen, the line settings — then die
 * of the same signal. */
static void
on_fatal_signal(int sig)
{
	if (S.open) {
		ssize_t r = S.mouse ? write(STDOUT_FILENO, mouse_off, sizeof mouse_off - 1) : 0;
		r = write(STDOUT_FILENO, S.sgr0, strlen(S.sgr0));
		r = write(STDOUT_FILENO, S.cnorm, strlen(S.cnorm));
		r = write(STDOUT_FILENO, S.rmkx, strlen(S.rmkx));
		r = write(STDOUT_FILENO, S.rmcup, strlen(S.rmcup));
		(void)r;
		if (S.have_saved)
			tcsetattr(STDIN_FILENO, TCSANOW, &S.saved);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Ctrl-Z (SIGTSTP): the terminal back to the shell as at close — the
 * mouse reports off, then endwin (the line settings, the cursor, the
 * keypad, the alternate screen left), as ncurses's own handler does —
 * then stop; once continued, screen_key sets the modes again and has the
 * screen drawn whole. */
static void
on_tstp(int sig)
{
	int saved_errno = errno;
	if (S.open) {
		if (S.mouse) {
			ssize_t r = write(STDOUT_FILENO, mouse_off, sizeof mouse_off - 1);
			(void)r;
		}
		endwin();
	}
	struct sigaction dfl, ours;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, &ours);
	sigset_t set, old;
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, &old);
	raise(sig);                  /* stopped here until SIGCONT */
	sigprocmask(SIG_SETMASK, &old, NULL);
	sigaction(sig, &ours, NULL);
	continued = 1;
	errno = saved_errno;
}

/* SIGCONT after a stop that could not be caught (SIGSTOP): the shell may
 * have changed the modes meanwhile. */
static void
on_cont(int sig)
{
	(void)sig;
	continued = 1;
}

/* After a stop: the modes endwin gave back, the mouse reports and the
 * whole screen again (the next screen_present draws it all). */
static void
resume(void)
{
	continued = 0;
	if (!S.open)
		return;
	reset_prog_mode();
	keypad(stdscr, TRUE);
	curs_set(0);
	if (S.mouse) {
		fputs(mouse_on, stdout);
		fflush(stdout);
	}
	grid_destroy(S.prev);
	S.prev = NULL;
}

static void
stop_signals(int on)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;            /* no SA_RESTART: a blocked read returns */
	sa.sa_handler = on ? on_tstp : SIG_DFL;
	sigaction(SIGTSTP, &sa, NULL);
	sa.sa_handler = on ? on_cont : SIG_DFL;
	sigaction(SIGCONT, &sa, NULL);
}

void
screen_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;            /* no SA_RESTART: a blocked read returns */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* every other signal whose default ends the process: Ctrl-\
	 * (SIGQUIT), kill -USR1, a closed pipe ... leave a usable terminal */
	static const int fatal[] = {
		SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGTRAP, SIGSYS, SIGQUIT,
		SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF,
	};
	sa.sa_handler = on_fatal_signal;
	sa.sa_flags = SA_RESETHAND;
	for (size_t i = 0; i < sizeof fatal / sizeof *fatal; i++)
		sigaction(fatal[i], &sa, NULL);
}

void
screen_signals_default(void)
{
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
}

int
screen_exit_status(int rc)
{
	int sig = interrupted;
	if (!sig)
		return rc;
	/* die of the signal, so the shell sees it (status 128 + signal) */
	fflush(NULL);
	signal(sig, SIG_DFL);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	return 128 + sig;
}

static void
keep_cap(char *dst, size_t n, const char *name)
{
	char *s = tigetstr(name);
	dst[0] = 0;
	if (s && s != (char *)-1 && strlen(s) < n)
		memcpy(dst, s, strlen(s) + 1);
}

static int
want_ascii(int ascii)
{
	if (ascii)
		return 1;
	const char *cs = nl_langinfo(CODESET);
	return !(cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0));
}

/* Ctrl-C reaches the explorer as a key (it cancels a prompt there, as Esc
 * does, and quits elsewhere) instead of as SIGINT; Ctrl-Z and Ctrl-\
 * keep their signals. curses' program mode is saved with the change, so
 * endwin gives back the terminal's own settings. */
static void
intr_as_key(void)
{
	struct termios t;
	if (tcgetattr(STDIN_FILENO, &t) != 0)
		return;
	t.c_cc[VINTR] = _POSIX_VDISABLE;
	if (tcsetattr(STDIN_FILENO, TCSANOW, &t) == 0)
		def_prog_mode();
}

int
screen_open(enum screen_color color, int ascii, int mouse, char *msg, size_t n)
{
	const char *term = getenv("TERM");
	if (!term || !*term) {
		snprintf(msg, n, "TERM is not set: cannot run the explorer (try 'skein render')");
		return -1;
	}
	setlocale(LC_CTYPE, "");
	if (tcgetattr(STDIN_FILENO, &S.saved) == 0)
		S.have_saved = 1;
	S.scr = newterm(NULL, stdout, stdin);
	if (!S.scr) {
		snprintf(msg, n, "cannot use terminal type '%s' (try TERM=xterm, or 'skein render')", term);
		return -1;
	}
	set_term(S.scr);
	if (tigetstr("cup") == NULL || tigetstr("cup") == (char *)-1) {
		endwin();
		delscreen(S.scr);
		S.scr = NULL;
		snprintf(msg, n, "terminal type '%s' cannot move the cursor (try 'skein render')", term);
		return -1;
	}
	S.open = 1;
	keep_cap(S.rmcup, sizeof S.rmcup, "rmcup");
	keep_cap(S.cnorm, sizeof S.cnorm, "cnorm");
	keep_cap(S.sgr0, sizeof S.sgr0, "sgr0");
	keep_cap(S.rmkx, sizeof S.rmkx, "rmkx");
	atexit(screen_close);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	/* mouse reports are decoded by keyseq.c: curses must pass them on */
	keyok(KEY_MOUSE, FALSE);
	set_escdelay(40);
	curs_set(0);
	leaveok(stdscr, TRUE);
	intr_as_key();
	stop_signals(1);            /* in place of ncurses's, which leaves the mouse on */
	continued = 0;
	S.n_unread = 0;
	S.mouse = mouse;
	if (S.mouse) {
		fputs(mouse_on, stdout);
		fflush(stdout);
	}
	S.ascii = want_ascii(ascii);
	const char *nc = getenv("NO_COLOR");
	if (color == SCOLOR_MONO || (color == SCOLOR_AUTO && ((nc && *nc) || strcmp(term, "dumb") == 0)) ||
	    !has_colors()) {
		S.depth = DEPTH_MONO;
	} else {
		start_color();
		S.default_colors = use_default_colors() == OK;
		S.depth = (color == SCOLOR_256 || color == SCOLOR_AUTO) && COLORS >= 256 ? DEPTH_256 : DEPTH_8;
	}
	S.npairs = 0;
	S.prev = NULL;
	return 0;
}

void
screen_close(void)
{
	if (!S.open)
		return;
	S.open = 0;
	stop_signals(0);
	if (S.mouse) {
		fputs(mouse_off, stdout);
		fflush(stdout);
		S.mouse = 0;
	}
	curs_set(1);
	endwin();
	delscreen(S.scr);
	S.scr = NULL;
	grid_destroy(S.prev);
	S.prev = NULL;
	fflush(stdout);
}

void
screen_size(int *w, int *h)
{
	getmaxyx(stdscr, *h, *w);
}

enum grid_depth screen_depth(void) { return S.depth; }
int screen_ascii(void) { return S.ascii; }

static short
pair_for(int fg, int bg)
{
	if (S.depth == DEPTH_MONO || (fg < 0 && bg < 0))
		return 0;
	if (!S.default_colors) {
		fg = fg < 0 ? COLOR_WHITE : fg;
		bg = bg < 0 ? COLOR_BLACK : bg;
	}
	for (int i = 1; i <= S.npairs; i++)
		if (S.pair_fg[i] == fg && S.pair_bg[i] == bg)
			return (short)i;
	if (S.npairs >= MAX_PAIRS || S.npairs + 1 >= COLOR_PAIRS)
		return 0;
	int i = ++S.npairs;
	S.pair_fg[i] = (short)fg;
	S.pair_bg[i] = (short)bg;
	init_pair((short)i, (short)fg, (short)bg);
	return (short)i;
}

static void
put_cell(int x, int y, const struct cell *c)
{
	/* a wide character's second cell: the character drawn before covers
	 * it (in ASCII it was one '?': a space here) */
	if (c->ch == GRID_WIDE_TAIL && !S.ascii)
		return;
	struct grid_attr ga = grid_attr(c->style, c->mark, S.depth);
	attr_t at = A_NORMAL;
	if (ga.attr & ATTR_BOLD)
		at |= A_BOLD;
	if (ga.attr & ATTR_DIM)
		at |= A_DIM;
	if (ga.attr & ATTR_UNDERLINE)
		at |= A_UNDERLINE;
	if (ga.attr & ATTR_REVERSE)
		at |= A_REVERSE;
	/* the character and its combining marks, one cchar_t (curses
	 * keeps up to CCHARW_MAX - 1 of them); in ASCII the character alone */
	wchar_t wc[2 + GRID_COMB] = { (wchar_t)(c->ch == GRID_WIDE_TAIL ? ' ' : S.ascii ? grid_ascii(c->ch) : c->ch), 0 };
	for (int k = 0; !S.ascii && c->ch != GRID_WIDE_TAIL && k < GRID_COMB && c->comb[k]; k++)
		wc[k + 1] = (wchar_t)c->comb[k];
	cchar_t cc;
	short pair = pair_for(ga.fg, ga.bg);
	if (setcchar(&cc, wc, at, pair, NULL) == ERR) {
		wc[1] = 0;            /* marks the C library cannot put on it: the character alone */
		setcchar(&cc, wc, at, pair, NULL);
	}
	mvadd_wch(y, x, &cc);
}

static int
cell_eq(const struct cell *a, const struct cell *b)
{
	return a->ch == b->ch && a->style == b->style && a->mark == b->mark &&
	       !memcmp(a->comb, b->comb, sizeof a->comb);
}

void
screen_present(const struct grid *g, int full)
{
	if (!S.open)
		return;
	if (!S.prev || S.prev->w != g->w || S.prev->h != g->h) {
		grid_destroy(S.prev);
		S.prev = grid_create(g->w, g->h);
		full = 1;
	}
	if (full)
		clearok(curscr, TRUE);
	for (int y = 0; y < g->h; y++)
		for (int x = 0; x < g->w; x++) {
			size_t i = (size_t)y * (size_t)g->w + (size_t)x;
			if (!full && S.prev && cell_eq(&g->cells[i], &S.prev->cells[i]))
				continue;
			put_cell(x, y, &g->cells[i]);
			if (S.prev)
				S.prev->cells[i] = g->cells[i];
		}
	wnoutrefresh(stdscr);
	doupdate();
}

static uint32_t
map_key(int rc, wint_t wc)
{
	if (rc == KEY_CODE_YES) {
		switch (wc) {
		case KEY_RESIZE: return SCREEN_RESIZED;
		case KEY_LEFT: return KM_LEFT;
		case KEY_RIGHT: return KM_RIGHT;
		case KEY_UP: return KM_UP;
		case KEY_DOWN: return KM_DOWN;
		case KEY_PPAGE: return KM_PGUP;
		case KEY_NPAGE: return KM_PGDN;
		case KEY_HOME: return KM_HOME;
		case KEY_END: return KM_END;
		case KEY_SLEFT: return KM_SLEFT;
		case KEY_SRIGHT: return KM_SRIGHT;
		case KEY_BTAB: return KM_BTAB;
		case KEY_ENTER: return KM_ENTER;
		case KEY_BACKSPACE: return KM_BACKSPACE;
		case KEY_DC: return KM_DELETE;
		case KEY_IC: return KM_INSERT;
		default:
			if (wc >= KEY_F(1) && wc <= KEY_F(12))
				return KM_F1 + (uint32_t)(wc - KEY_F(1));
			return 0;
		}
	}
	switch (wc) {
	case '\r': case '\n': return KM_ENTER;
	case '\t': return KM_TAB;
	case 27: return KM_ESC;
	case 127: case 8: return KM_BACKSPACE;
	}
	return wc < KM_BASE ? (uint32_t)wc : 0;
}

/* The next input from curses, or from what was read past a key. */
static int
next_input(int timeout_ms, wint_t *wc)
{
	if (S.n_unread) {
		*wc = S.unread[0];
		int rc = S.unread_code[0];
		S.n_unread--;
		memmove(S.unread, S.unread + 1, (size_t)S.n_unread * sizeof S.unread[0]);
		memmove(S.unread_code, S.unread_code + 1, (size_t)S.n_unread * sizeof S.unread_code[0]);
		return rc;
	}
	timeout(timeout_ms);
	return get_wch(wc);
}

static void
push_front(int rc, wint_t wc)
{
	if (S.n_unread == (int)(sizeof S.unread / sizeof S.unread[0]))
		return;
	memmove(S.unread + 1, S.unread, (size_t)S.n_unread * sizeof S.unread[0]);
	memmove(S.unread_code + 1, S.unread_code, (size_t)S.n_unread * sizeof S.unread_code[0]);
	S.unread[0] = wc;
	S.unread_code[0] = rc;
	S.n_unread++;
}

/* After an ESC that curses did not translate: the rest of the sequence,
 * decoded by keyseq.c whatever terminfo says. Bytes of a sequence arrive
 * together; one that stops short for 100 ms is dropped (an Esc alone is
 * the Esc key). Returns a key, or 0 for a dropped sequence. */
static uint32_t
escape_key(void)
{
	unsigned char buf[40];
	size_t n = 0;
	buf[n++] = 0x1b;
	for (;;) {
		uint32_t key;
		size_t used;
		enum keyseq_result r = keyseq_decode(buf, n, &key, &used);
		if (r != KEYSEQ_PARTIAL) {
			for (size_t i = n; i-- > used;)      /* in front of what is unread */
				push_front(OK, buf[i]);
			return r == KEYSEQ_KEY ? key : 0;
		}
		wint_t wc;
		int rc = next_input(n == 1 ? 0 : 100, &wc);
		if (rc == ERR)
			return n == 1 ? KM_ESC : 0;
		if (rc != OK || wc > 0x7e || n == sizeof buf) {
			/* a curses key or a non-ASCII character ends the sequence */
			push_front(rc, wc);
			return n == 1 ? KM_ESC : 0;
		}
		buf[n++] = (unsigned char)wc;
	}
}

uint32_t
screen_key(int timeout_ms)
{
	wint_t wc;
	if (continued) {
		resume();
		return SCREEN_RESIZED;   /* the size may have changed while stopped */
	}
	int rc = next_input(timeout_ms, &wc);
	if (continued) {
		if (rc != ERR)
			push_front(rc, wc);      /* read after the stop: the next key */
		resume();
		return SCREEN_RESIZED;
	}
	if (rc == ERR)
		return 0;
	if (rc == OK && wc == 0x1b) {
		uint32_t key = escape_key();
		/* with the mouse off, a report that still arrives is no click */
		return (key & KM_MOUSE) && !S.mouse ? 0 : key;
	}
	return map_key(rc, wc);
}
