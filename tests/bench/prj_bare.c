/* prj_bare.c — the floor under reading a Projections run: read the .sts
 * and every PE's log through zlib and split each line into integers,
 * nothing else (no records kept, no matching). Prints one line:
 * records seconds. skein's reader does this much and more; `make bench`
 * divides by it.
 *
 *   prj_bare RUN.sts
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

static double
now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Tokenises one line into integers; returns the field count. */
static int
tokenise(const char *s, const char *end, int64_t *f, int max)
{
	int n = 0;
	while (s < end && n < max) {
		while (s < end && *s == ' ')
			s++;
		if (s >= end)
			break;
		int neg = *s == '-';
		s += neg;
		int64_t v = 0;
		while (s < end && *s >= '0' && *s <= '9')
			v = v * 10 + (*s++ - '0');
		f[n++] = neg ? -v : v;
		while (s < end && *s != ' ')
			s++;
	}
	return n;
}

int
main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: prj_bare RUN.sts\n");
		return 2;
	}
	const char *sts = argv[1];
	size_t len = strlen(sts);
	if (len < 4 || strcmp(sts + len - 4, ".sts") != 0) {
		fprintf(stderr, "prj_bare: %s is not a .sts file\n", sts);
		return 2;
	}
	double t0 = now();
	FILE *f = fopen(sts, "rb");
	if (!f) {
		perror(sts);
		return 1;
	}
	char line[4096];
	unsigned pes = 0;
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, "PROCESSORS ", 11))
			pes = (unsigned)strtoul(line + 11, NULL, 10);
	fclose(f);
	static char buf[1 << 20];
	int64_t fields[64], sum = 0;
	uint64_t records = 0;
	for (unsigned pe = 0; pe < pes; pe++) {
		char path[4096];
		snprintf(path, sizeof path, "%.*s.%u.log.gz", (int)(len - 4), sts, pe);
		gzFile g = gzopen(path, "rb");
		if (!g) {
			snprintf(path, sizeof path, "%.*s.%u.log", (int)(len - 4), sts, pe);
			g = gzopen(path, "rb");
		}
		if (!g) {
			fprintf(stderr, "prj_bare: %s: cannot open\n", path);
			return 1;
		}
		gzbuffer(g, 1 << 17);
		size_t have = 0;
		for (;;) {
			int got = gzread(g, buf + have, (unsigned)(sizeof buf - have));
			if (got < 0) {
				fprintf(stderr, "prj_bare: %s: read error\n", path);
				return 1;
			}
			have += (size_t)got;
			char *p = buf, *end = buf + have;
			for (;;) {
				char *nl = memchr(p, '\n', (size_t)(end - p));
				if (!nl && got)
					break;
				char *stop = nl ? nl : end;
				if (stop > p) {
					int n = tokenise(p, stop, fields, 64);
					sum += n ? fields[0] : 0;
					records++;
				}
				p = stop + 1;
				if (!nl || p >= end)
					break;
			}
			if (!got)
				break;
			have = p < end ? (size_t)(end - p) : 0;
			memmove(buf, p, have);
		}
		gzclose(g);
	}
	double t1 = now();
	/* the header line of each log is a record too here: take them off */
	printf("%llu %.3f\n", (unsigned long long)(records - pes), t1 - t0);
	return sum == -1;     /* keeps the tokenising from being optimised away */
}
