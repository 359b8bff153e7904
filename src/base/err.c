#include "err.h"

#include <stdarg.h>
#include <stdio.h>

int
err_set(struct err *e, int code, const char *fmt, ...)
{
	if (e && e->code == 0) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(e->msg, sizeof e->msg, fmt, ap);
		va_end(ap);
		e->code = code;
	}
	return code;
}

void
err_clear(struct err *e)
{
	if (e) {
		e->code = 0;
		e->msg[0] = '\0';
	}
}

const char *
err_name(int code)
{
	switch (code) {
	case ERR_OK: return "success";
	case ERR_NOMEM: return "out of memory";
	case ERR_IO: return "cannot read input";
	case ERR_FORMAT: return "malformed input";
	case ERR_LIMIT: return "input too large";
	case ERR_USAGE: return "invalid argument";
	case ERR_CANCELLED: return "cancelled";
	}
	return "unknown error";
}
