/* err.h — skein's one error convention.
 *
 * Every fallible function in src/ returns 0 on success or a negative ERR_*
 * code, and writes a one-line, human-readable message into a caller-owned
 * struct err when one is given (NULL is allowed: the code alone is then the
 * answer). Nothing in src/ prints, exits or aborts.
 */
#ifndef SKEIN_ERR_H
#define SKEIN_ERR_H

#include <stddef.h>

enum {
	ERR_OK = 0,
	ERR_NOMEM = -1,      /* out of memory */
	ERR_IO = -2,         /* a file is missing, unreadable or not a trace */
	ERR_FORMAT = -3,     /* the input is malformed, truncated or inconsistent */
	ERR_LIMIT = -4,      /* the input is larger than skein can index */
	ERR_USAGE = -5,      /* a caller passed an invalid argument */
	ERR_CANCELLED = -6,  /* the caller's cancel flag was raised */
};

struct err {
	int code;
	char msg[512];
};

/* Records code and a printf-style message in e (if e is non-NULL) and
 * returns code, so callers can write `return err_set(e, ERR_IO, ...)`.
 * An existing message is kept: the first error is usually the cause. */
int err_set(struct err *e, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Clears e (no-op on NULL). */
void err_clear(struct err *e);

/* A short name for a code ("out of memory", "format error", ...). */
const char *err_name(int code);

#endif
