/* history.c — the prompts' history between sessions (see history.h). */
#include "history.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/file.h"

int
history_path(char *buf, size_t n)
{
	const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	int k;
	if (state && state[0] == '/')          /* the spec ignores relative paths */
		k = snprintf(buf, n, "%s/skein/history", state);
	else if (home && home[0])
		k = snprintf(buf, n, "%s/.local/state/skein/history", home);
	else
		return -1;
	return k > 0 && (size_t)k < n ? 0 : -1;
}

void
history_load(struct view *v, const char *path)
{
	/* a missing file is no history yet; a FIFO or a device is none */
	struct err e = { 0 };
	FILE *f = file_open_read(path, &e);
	if (!f)
		return;
	char line[512];
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\r\n")] = 0;
		view_history_add(v, line);
	}
	fclose(f);
}

/* mkdir -p for the directories of path. */
static int
make_dirs(const char *path)
{
	char d[4096];
	snprintf(d, sizeof d, "%s", path);
	for (char *p = d + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(d, 0700) != 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return 0;
}

int
history_save(const struct view *v, const char *path, char *msg, size_t n)
{
	char tmp[4200], line[512];
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	if (make_dirs(path)) {
		snprintf(msg, n, "cannot create the directory of %s: %s", path, strerror(errno));
		return -1;
	}
	FILE *f = fopen(tmp, "w");
	if (!f) {
		snprintf(msg, n, "cannot write %s: %s", tmp, strerror(errno));
		return -1;
	}
	for (size_t i = 0; view_history_line(v, i, line, sizeof line); i++)
		fprintf(f, "%s\n", line);
	int bad = ferror(f);
	if (fclose(f) || bad || rename(tmp, path)) {
		snprintf(msg, n, "cannot write %s: %s", path, strerror(errno));
		remove(tmp);
		return -1;
	}
	return 0;
}
