/* nodlopen.c — preloaded (LD_PRELOAD) by tests/samples.sh: every dlopen
 * fails, as on a machine without libxml2, and dlerror says why. */
#include <stddef.h>

void *dlopen(const char *f, int m);
char *dlerror(void);

void *
dlopen(const char *f, int m)
{
	(void)f;
	(void)m;
	return NULL;
}

char *
dlerror(void)
{
	return (char *)"refused by samples.sh";
}
