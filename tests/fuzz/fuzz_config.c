/* fuzz_config.c — libFuzzer target for the configuration loader.
 *
 * Each input is layered onto the built-in defaults. Beyond the
 * sanitizers, it checks the loader's two promises: a failed load leaves
 * the configuration unchanged (same dump as the defaults), and a
 * successful one dumps YAML that loads back to the same dump. It also
 * derives the analysis options and the key text from whatever loaded.
 *
 *   make fuzz [FUZZ_SECONDS=600]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *
dump(const struct config *c, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	if (!f)
		abort();
	if (config_dump(c, f, NULL))
		abort();
	fclose(f);
	return buf;
}

static char *defaults_dump;
static size_t defaults_len;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config c;
	struct err e = { 0 };
	if (config_init(&c, &e))
		abort();
	if (!defaults_dump)
		defaults_dump = dump(&c, &defaults_len);
	int rc = config_load_string(&c, "fuzz", (const char *)data, size, &e);
	size_t len;
	char *d1 = dump(&c, &len);
	if (rc) {
		/* one line, with a position, and nothing changed */
		if (!e.msg[0] || strchr(e.msg, '\n') || strncmp(e.msg, "fuzz:", 5) != 0)
			abort();
		if (len != defaults_len || memcmp(d1, defaults_dump, len) != 0)
			abort();
	} else {
		struct analysis_opts o;
		config_analysis_opts(&c, &o);
		char *text = NULL;
		if (config_keys_text(&c, &text))
			abort();
		free(text);
		struct config c2;
		if (config_init(&c2, &e))
			abort();
		if (config_load_string(&c2, "dump", d1, len, &e)) {
			fprintf(stderr, "dump does not load: %s\n%s", e.msg, d1);
			abort();
		}
		size_t len2;
		char *d2 = dump(&c2, &len2);
		if (len2 != len || memcmp(d1, d2, len) != 0) {
			fprintf(stderr, "dump differs after reload:\n%s\n---\n%s", d1, d2);
			abort();
		}
		free(d2);
		config_fini(&c2);
	}
	free(d1);
	config_fini(&c);
	return 0;
}
