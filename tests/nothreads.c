/* nothreads.c — preloaded (LD_PRELOAD) into the plain build's runs of the
 * unit tests that TSan does not run (the Makefile's TSAN_SKIP): those are
 * left out because they never start a thread, and TSan finds races only
 * between threads. If one starts a thread after all, it fails here and
 * says so, instead of going unchecked. */
#define _GNU_SOURCE
#include <pthread.h>
#include <unistd.h>

int
pthread_create(pthread_t *th, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
	(void)th;
	(void)attr;
	(void)fn;
	(void)arg;
	static const char msg[] = "nothreads: this test starts a thread, so TSan must run it: "
				  "take it off TSAN_SKIP in the Makefile\n";
	if (write(2, msg, sizeof msg - 1) < 0)
		_exit(98);
	_exit(97);
}
