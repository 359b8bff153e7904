/* fuzz_saved.c — libFuzzer target for opening a saved analysis.
 *
 * Each input is opened as a saved file (saved_open_mem over an aligned
 * copy) after its sums (each section's, the table's, the header's) and
 * its size in the header are computed again: a file altered on purpose
 * has them right, so the mutants reach the opener's checks of every
 * index (saved_check.c) and, when they pass, the readers. Whatever opens
 * is read as every command reads it (tests/savedread.h: info, analyze in
 * every format and table with the clusters, export, diff against
 * itself, render over every pane, the model analysed again) into
 * /dev/null; every refusal must say why. Seeds are files `skein analyze
 * --save` wrote from corpus traces and Charm++ runs (make fuzz).
 *
 *   make fuzz [FUZZ_SECONDS=600]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/saved/saved_impl.h"
#include "../savedread.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The sums of the sections within the file, of the table and of the
 * header, and the file's size, set as a writer would. */
static void
resum(unsigned char *b, size_t n)
{
	if (n < sizeof(struct header) + sizeof(struct section) * S_END)
		return;
	struct header h;
	memcpy(&h, b, sizeof h);
	struct section *s = (struct section *)(b + sizeof h);
	for (uint32_t i = 0; i < S_END; i++)
		if (s[i].offset <= n && s[i].bytes <= n - s[i].offset)
			s[i].sum = saved_checksum(b + s[i].offset, (size_t)s[i].bytes);
	h.file_size = n;
	h.table_sum = saved_checksum(s, sizeof *s * S_END);
	h.header_sum = 0;
	h.header_sum = saved_checksum(&h, sizeof h);
	memcpy(b, &h, sizeof h);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	void *buf = NULL;
	if (posix_memalign(&buf, 64, size ? size : 1))
		return 0;
	memcpy(buf, data, size);
	resum(buf, size);
	struct trace *t = NULL;
	struct analysis *a = NULL;
	struct saved_info info;
	struct err e = { 0 };
	if (saved_open_mem(buf, size, "fuzz.skein", &t, &a, &info, &e) == 0) {
		FILE *null = fopen("/dev/null", "w");
		if (null) {
			savedread_all(a, a, SAVEDREAD_REANALYSE | SAVEDREAD_ALL, null);
			fclose(null);
		}
		analysis_destroy(a);
		trace_destroy(t);
	} else if (!e.msg[0]) {
		abort();          /* every refusal says why */
	}
	free(buf);
	return 0;
}
