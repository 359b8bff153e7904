/* fuzz_topo.c — libFuzzer target for the topology loader.
 *
 * The first byte chooses the source: even, the rest is an hwloc XML file;
 * odd, a synthetic description. Beyond the sanitizers and the time limit
 * it checks the loader's promises: an error is one line with a known
 * code; a topology has PUs, and its objects, children and PU ranges are
 * consistent.
 *
 *   make fuzz-topo [FUZZ_SECONDS=600]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "topo/topo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[256];

static void
check(const struct topo *t)
{
	uint32_t n, n_pu;
	const struct topo_obj *o = topo_objs(t, &n);
	const uint32_t *pu = topo_pu_objs(t, &n_pu);
	if (n == 0 || n_pu == 0 || o[0].parent != TRACE_NONE || o[0].pu_count != n_pu)
		abort();
	for (uint32_t i = 1; i < n; i++)
		if (o[i].parent >= i || o[i].pu_first + o[i].pu_count > n_pu)
			abort();
	for (uint32_t k = 0; k < n_pu; k++)
		if (pu[k] >= n || o[pu[k]].type != TOPO_PU)
			abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!path[0]) {
		const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
		snprintf(path, sizeof path, "%s/skein-fuzz-topo-%d.xml", base, (int)getpid());
	}
	if (size == 0)
		return 0;
	struct topo *t = NULL;
	struct err e = { 0 };
	int rc;
	if (data[0] % 2 == 0) {
		FILE *f = fopen(path, "wb");
		if (!f || fwrite(data + 1, 1, size - 1, f) != size - 1 || fclose(f))
			abort();
		rc = topo_load_xml(path, &t, &e);
	} else {
		char *s = malloc(size);
		if (!s)
			return 0;
		memcpy(s, data + 1, size - 1);
		s[size - 1] = '\0';
		rc = topo_load_synthetic(s, &t, &e);
		free(s);
	}
	if (rc) {
		if (t || rc < ERR_CANCELLED || rc > ERR_NOMEM || !e.msg[0] || strchr(e.msg, '\n')) {
			fprintf(stderr, "bad error: %d '%s'\n", rc, e.msg);
			abort();
		}
		return 0;
	}
	check(t);
	topo_destroy(t);
	return 0;
}
