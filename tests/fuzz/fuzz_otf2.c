/* fuzz_otf2.c — libFuzzer target for the OTF2 definitions path.
 *
 * Each input is a small archive's definition bytes:
 *
 *   u16 anchor length, anchor bytes, u16 global definitions length,
 *   global definitions bytes, the rest: location 0's local definitions
 *
 * (short inputs leave the later parts empty). They replace the files of a
 * template archive (SKEIN_FUZZ_TEMPLATE, made by `make fuzz` with
 * tests/hostile/craft.c) whose event files stay valid, and the archive is
 * read with otf2_read. Beyond the sanitizers and the time limit, it
 * checks the reader's promises: an error is one line naming the archive
 * and a known code; a success gives a model whose counts add up.
 *
 *   make fuzz-otf2 [FUZZ_SECONDS=600]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "otf2/otf2_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[256];

static void
setup(void)
{
	const char *tpl = getenv("SKEIN_FUZZ_TEMPLATE");
	if (!tpl || !*tpl)
		tpl = "build/fuzz/otf2-template";
	const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	snprintf(dir, sizeof dir, "%s/skein-fuzz-otf2-%d", base, (int)getpid());
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "rm -rf '%s' && cp -r '%s' '%s'", dir, tpl, dir);
	if (system(cmd) != 0) {
		fprintf(stderr, "fuzz_otf2: cannot copy the template %s (run make fuzz-otf2)\n", tpl);
		abort();
	}
}

static void
put(const char *name, const uint8_t *p, size_t n)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	if (!f || (n && fwrite(p, 1, n, f) != n) || fclose(f))
		abort();
}

/* The next length-prefixed part of the input. */
static size_t
part(const uint8_t **p, size_t *left, const uint8_t **out)
{
	size_t n = 0;
	if (*left >= 2) {
		n = (size_t)(*p)[0] | (size_t)(*p)[1] << 8;
		*p += 2;
		*left -= 2;
	} else {
		*left = 0;
	}
	if (n > *left)
		n = *left;
	*out = *p;
	*p += n;
	*left -= n;
	return n;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!dir[0])
		setup();
	const uint8_t *p = data, *anchor, *global;
	size_t left = size;
	size_t na = part(&p, &left, &anchor);
	size_t ng = part(&p, &left, &global);
	put("traces.otf2", anchor, na);
	put("traces.def", global, ng);
	put("traces/0.def", p, left);
	struct trace *t = NULL;
	struct err e = { 0 };
	int rc = otf2_read(dir, NULL, &t, &e);
	if (rc) {
		if (t || rc < ERR_CANCELLED || rc > ERR_NOMEM || !e.msg[0] || strchr(e.msg, '\n') ||
		    !strstr(e.msg, dir)) {
			fprintf(stderr, "bad error: %d '%s'\n", rc, e.msg);
			abort();
		}
		return 0;
	}
	const struct trace_info *info = trace_info(t);
	uint64_t sum = 0;
	for (int k = 0; k < REC_COUNT; k++)
		sum += info->records[k];
	uint32_t nl;
	const struct trace_location *locs = trace_locations(t, &nl);
	uint64_t ev = 0;
	for (uint32_t i = 0; i < nl; i++)
		ev += locs[i].events;
	if (sum != info->events || ev != info->events) {
		fprintf(stderr, "counts do not add up: records %llu, locations %llu, events %llu\n",
			(unsigned long long)sum, (unsigned long long)ev, (unsigned long long)info->events);
		abort();
	}
	trace_destroy(t);
	return 0;
}
