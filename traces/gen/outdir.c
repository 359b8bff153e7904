/* outdir.c — the output directory around the OTF2 archive: create it,
 * refuse or replace an existing archive (OTF2_Archive_Open itself does
 * not notice one), and make the archive's trace id reproducible.
 */
#define _DEFAULT_SOURCE
#include "gen.h"
#include "outdir.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <otf2/otf2.h>

/* ---- output directory --------------------------------------------------- */

static int
mkdir_p(const char *prog, const char *path)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof buf) {
        fprintf(stderr, "%s: bad output path '%s'\n", prog, path);
        return -1;
    }
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] != '/' && buf[i] != '\0')
            continue;
        char c = buf[i];
        buf[i] = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, "%s: mkdir %s: %s\n", prog, buf, strerror(errno));
            return -1;
        }
        buf[i] = c;
    }
    return 0;
}

static bool
has_suffix(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

/* Removes an archive skein-gen (or anyone) wrote as DIR/traces.*: only the
 * anchor, the global definitions, and *.evt / *.def in DIR/traces. */
static int
remove_archive(const char *prog, const char *dir)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/traces", dir);
    DIR *d = opendir(path);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (!has_suffix(e->d_name, ".evt") && !has_suffix(e->d_name, ".def"))
                continue;
            char f[4500];
            snprintf(f, sizeof f, "%s/%s", path, e->d_name);
            if (unlink(f) != 0) {
                fprintf(stderr, "%s: rm %s: %s\n", prog, f, strerror(errno));
                closedir(d);
                return -1;
            }
        }
        closedir(d);
        if (rmdir(path) != 0) {
            fprintf(stderr, "%s: rmdir %s: %s\n", prog, path, strerror(errno));
            return -1;
        }
    }
    const char *files[] = {"traces.otf2", "traces.def"};
    for (size_t i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        if (unlink(path) != 0 && errno != ENOENT) {
            fprintf(stderr, "%s: rm %s: %s\n", prog, path, strerror(errno));
            return -1;
        }
    }
    return 0;
}

int
outdir_prepare(const char *prog, const char *dir, bool force)
{
    if (mkdir_p(prog, dir) != 0)
        return -1;
    char path[4200];
    struct stat st;
    snprintf(path, sizeof path, "%s/traces.otf2", dir);
    bool anchor = stat(path, &st) == 0;
    snprintf(path, sizeof path, "%s/traces", dir);
    bool sub = stat(path, &st) == 0;
    if (!anchor && !sub)
        return 0;
    if (!force) {
        fprintf(stderr,
                "%s: %s already holds an archive (traces.otf2 or "
                "traces/); use --force to replace it\n",
                prog, dir);
        return -1;
    }
    return remove_archive(prog, dir);
}

/* ---- reproducible trace id --------------------------------------------- */

/* OTF2 stamps every archive with a random 64-bit trace id in the anchor
 * file. To make equal arguments give byte-identical archives, replace it
 * with a hash of the configuration: ask OTF2 for the id it wrote, find
 * those 8 bytes in the anchor file (they occur once) and overwrite them. */
static uint64_t
fnv1a(const char *s)
{
    uint64_t h = 0xCBF29CE484222325ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001B3ull;
    return h;
}

int
outdir_fix_trace_id(const char *dir, const char *description)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/traces.otf2", dir);
    OTF2_Reader *rd = OTF2_Reader_Open(path);
    uint64_t id = 0;
    if (!rd)
        return -1;
    OTF2_ErrorCode e = OTF2_Reader_GetTraceId(rd, &id);
    OTF2_Reader_Close(rd);
    if (e != OTF2_SUCCESS)
        return -1;

    unsigned char buf[16384];
    FILE *f = fopen(path, "r+b");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, sizeof buf, f);
    long at = -1;
    int hits = 0;
    for (size_t i = 0; i + sizeof id <= n; i++)
        if (memcmp(buf + i, &id, sizeof id) == 0) {
            at = (long)i;
            hits++;
        }
    int rc = -1;
    if (hits == 1) {
        uint64_t mine = fnv1a(description);
        if (fseek(f, at, SEEK_SET) == 0 &&
            fwrite(&mine, sizeof mine, 1, f) == 1)
            rc = 0;
    }
    if (fclose(f) != 0)
        rc = -1;
    return rc;
}
