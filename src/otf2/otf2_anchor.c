/* otf2_anchor.c — the anchor and definition files, checked before libotf2
 * opens them.
 *
 * libotf2 trusts the anchor: a string without its terminating NUL sends it
 * searching the following chunk-sized reads for one (12-30 s, and a
 * reservation of gigabytes, for one corrupted byte), and the chunk sizes
 * and the location count it reads there size its buffers and tables. So
 * skein reads the anchor first, with the same layout libotf2 writes (an
 * OTF2 buffer, not chunked):
 *
 *   u8 3 (chunk header), u8 endianness (0x42 little, 0x23 big),
 *   "OTF2\0", u8 anchor format (1, 2, 3; later ones only append),
 *   u8 trace format, u8 version major, minor, bugfix,
 *   u64 event chunk size, u64 definition chunk size,
 *   u8 file substrate, u8 compression, u64 locations, u64 global definitions,
 *   machine, creator, description (NUL-terminated strings),
 *   format >= 2: u32 properties, that many name/value string pairs, u64 trace id,
 *   format >= 3: u32 snapshots, u32 thumbnails, u8 2 (end of file).
 *
 * and refuses it unless every field is within what libotf2 itself writes
 * (doc/robustness.md).
 */
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>

#include "base/file.h"
#include "otf2_impl.h"

/* Anchors are a few hundred bytes; properties could make them longer. */
#define ANCHOR_MAX_BYTES (1u << 20)
/* Snapshots and thumbnails are separate files; no writer makes many. */
#define ANCHOR_MAX_EXTRAS (1u << 16)

struct cursor {
	const unsigned char *p, *end;
	int big;                 /* written big endian (marker 0x23) */
	const char *bad;         /* what was wrong, for the message */
};

static int
need(struct cursor *c, size_t n, const char *what)
{
	if ((size_t)(c->end - c->p) >= n)
		return 0;
	c->bad = what;
	return -1;
}

static uint64_t
uint_n(struct cursor *c, int n)
{
	uint64_t v = 0;
	for (int i = 0; i < n; i++) {
		int k = c->big ? i : n - 1 - i;
		v = v << 8 | c->p[k];
	}
	c->p += n;
	return v;
}

static int
string(struct cursor *c, const char *what)
{
	const unsigned char *z = memchr(c->p, 0, (size_t)(c->end - c->p));
	if (!z) {
		c->bad = what;
		return -1;
	}
	c->p = z + 1;
	return 0;
}

static int
parse(struct cursor *c, struct otf2r_anchor *a)
{
	if (need(c, 2, "no buffer header") || c->p[0] != 3 || (c->p[1] != 0x42 && c->p[1] != 0x23))
		return c->bad = "no OTF2 buffer header", -1;
	c->big = c->p[1] == 0x23;
	c->p += 2;
	if (need(c, 5, "no magic") || memcmp(c->p, "OTF2", 5) != 0)
		return c->bad = "no OTF2 magic", -1;
	c->p += 5;
	if (need(c, 1 + 38, "truncated header"))
		return -1;
	unsigned format = *c->p++;
	if (format == 0)
		return c->bad = "anchor format 0", -1;
	c->p++;                         /* trace format: libotf2 checks it */
	for (int i = 0; i < 3; i++)
		a->version[i] = *c->p++;
	a->evt_chunk = uint_n(c, 8);
	a->def_chunk = uint_n(c, 8);
	unsigned substrate = *c->p++, compression = *c->p++;
	a->n_locations = uint_n(c, 8);
	a->n_global_defs = uint_n(c, 8);
	if (a->version[0] < 1 || a->version[0] > 9)
		return c->bad = "implausible OTF2 version", -1;
	if (a->evt_chunk < OTF2_CHUNK_SIZE_MIN || a->evt_chunk > OTF2_CHUNK_SIZE_MAX ||
	    a->def_chunk < OTF2_CHUNK_SIZE_MIN || a->def_chunk > OTF2_CHUNK_SIZE_MAX)
		return c->bad = "chunk size outside OTF2's 256 KiB to 16 MiB", -1;
	if (substrate != OTF2_SUBSTRATE_POSIX)
		return c->bad = substrate == OTF2_SUBSTRATE_SION ? "SIONlib archives are not supported"
			: "unknown file substrate", -1;
	if (compression != OTF2_COMPRESSION_NONE)
		return c->bad = "compressed archives are not supported", -1;
	if (string(c, "machine name not terminated") || string(c, "creator not terminated") ||
	    string(c, "description not terminated"))
		return -1;
	if (format >= 2) {
		if (need(c, 4, "truncated properties"))
			return -1;
		uint64_t n = uint_n(c, 4);
		if (n > (uint64_t)(c->end - c->p) / 2)
			return c->bad = "more properties than bytes", -1;
		for (uint64_t i = 0; i < 2 * n; i++)
			if (string(c, "property not terminated"))
				return -1;
		if (need(c, 8, "truncated trace identifier"))
			return -1;
		c->p += 8;
	}
	if (format >= 3) {
		if (need(c, 8, "truncated snapshot counts"))
			return -1;
		if (uint_n(c, 4) > ANCHOR_MAX_EXTRAS || uint_n(c, 4) > ANCHOR_MAX_EXTRAS)
			return c->bad = "implausible snapshot or thumbnail count", -1;
	}
	if (format == 3 && (need(c, 1, "no end-of-file mark") || *c->p != 2))
		return c->bad = "no end-of-file mark", -1;
	return 0;
}

int
otf2r_check_anchor(const char *anchor, struct otf2r_anchor *a, struct err *e)
{
	memset(a, 0, sizeof *a);
	FILE *f = file_open_read(anchor, e);
	if (!f)
		return ERR_IO;
	/* the file's bytes and one more, which a file longer than its size
	 * said (or than the limit) fills */
	struct stat st;
	size_t cap = (fstat(fileno(f), &st) == 0 && st.st_size >= 0 && st.st_size < ANCHOR_MAX_BYTES ?
		      (size_t)st.st_size : ANCHOR_MAX_BYTES) + 1;
	unsigned char *buf = malloc(cap);
	if (!buf) {
		fclose(f);
		return err_set(e, ERR_NOMEM, "%s: out of memory", anchor);
	}
	size_t n = fread(buf, 1, cap, f);
	int rc = ferror(f) ? err_set(e, ERR_IO, "%s: read error", anchor) : 0;
	fclose(f);
	struct cursor c = { .p = buf, .end = buf + n };
	if (rc)
		;
	else if (n == cap && cap <= ANCHOR_MAX_BYTES)
		rc = err_set(e, ERR_IO, "%s: the file grew while it was read", anchor);
	else if (n < 6 || memcmp(buf + 2, "OTF2", 4) != 0)
		rc = err_set(e, ERR_IO, "%s: not an OTF2 archive (no OTF2 anchor header)", anchor);
	else if (n > ANCHOR_MAX_BYTES)
		rc = err_set(e, ERR_FORMAT, "%s: corrupt anchor file (larger than %u KiB)", anchor,
			     ANCHOR_MAX_BYTES >> 10);
	else if (parse(&c, a))
		rc = err_set(e, ERR_FORMAT, "%s: corrupt anchor file (%s)", anchor, c.bad);
	free(buf);
	return rc;
}

/* ---- definition files ----
 *
 * A definitions file (NAME.def, NAME/ID.def) is an OTF2 buffer too: the
 * 18-byte chunk header (3, endianness, two u64 event numbers), then
 * records of [u8 type][u8 length, or 255 and a u64][payload], then 2 (end
 * of file). libotf2 reads a record's fields without checking them
 * against the record's length: a group claiming n members makes it read
 * up to 9n bytes past the record, and past the end of its buffer when
 * the record is the last (a crash, found by fuzz_otf2). So the framing
 * is checked here, and a group's member count against its record. */

/* A compressed unsigned integer of at most `width` bytes: 0 and all-ones
 * are one byte (0x00, 0xff), anything else a byte count then the bytes.
 * Returns the bytes used, or 0 when malformed or past end. */
static size_t
cuint(const unsigned char *p, const unsigned char *end, int width, int big, uint64_t *v)
{
	if (p >= end)
		return 0;
	if (*p == 0 || *p == 0xff) {
		*v = *p ? UINT64_MAX : 0;
		return 1;
	}
	size_t n = *p;
	if (n > (size_t)width || (size_t)(end - p) < n + 1)
		return 0;
	uint64_t x = 0;
	for (size_t i = 0; i < n; i++) {
		size_t k = big ? i : n - 1 - i;
		x = x << 8 | p[1 + k];
	}
	*v = x;
	return n + 1;
}

enum { DEF_GROUP = 18 };
/* a local definitions file's record types: OTF2_LOCAL_DEF_MAPPING_TABLE
 * and OTF2_LOCAL_DEF_CLOCK_OFFSET (libotf2's otf2_local_definitions.h,
 * not installed) */
enum { LOCAL_DEF_MAPPING_TABLE = 5, LOCAL_DEF_CLOCK_OFFSET = 6 };
/* the mapping kinds of OTF2 3.0 (OTF2_MAPPING_MAX) */
enum { MAPPING_KINDS = 15 };

/* A group's payload: self, name (u32), a type byte, the member count
 * (u32), then that many members of at least one byte each. */
static const char *
check_group(const unsigned char *p, const unsigned char *end, int big)
{
	uint64_t v, n;
	size_t k;
	if (!(k = cuint(p, end, 4, big, &v)) || !(k += cuint(p + k, end, 4, big, &v)) || p + k >= end)
		return "a group record cut short";
	k++;                                  /* the pre-1.2 group type */
	size_t m = cuint(p + k, end, 4, big, &n);
	if (!m)
		return "a group record cut short";
	if (n > (uint64_t)(end - (p + k + m)))
		return "a group claims more members than its record holds";
	return NULL;
}

/* A local definitions file's mapping table or clock offset handed to
 * the sink as libotf2's definition reader reads it (OTF2's buffer and
 * id map code): a mapping table is its mapping type (u8), the number of
 * mappings (compressed u64), the map's mode (u8: 0 dense, 1 sparse),
 * then for each mapping its global id, or its local and global ids
 * (compressed u64s); a clock offset is its time (u64, whole), its
 * offset (compressed i64) and a standard deviation (a double, not read).
 * The map is made with libotf2's own calls, so that skein's decoder
 * looks ids up in it as before. Returns NULL, or what is wrong; *rc is
 * ERR_NOMEM or what the sink returned. */
static const char *
local_record(const struct otf2r_local_sink *sink, unsigned type, const unsigned char *p,
	     const unsigned char *end, int big, uint32_t *kinds, int *rc)
{
	uint64_t v, n;
	size_t k;
	if (type == LOCAL_DEF_CLOCK_OFFSET) {
		if (end - p < 8)
			return "a clock offset cut short";
		struct cursor c = { .p = p, .end = end, .big = big };
		uint64_t time = uint_n(&c, 8);
		if (!(k = cuint(p + 8, end, 8, big, &v)) || end - (p + 8 + k) < 8)
			return "a clock offset cut short";
		*rc = sink->clock(sink->ctx, time, (int64_t)v);
		return NULL;
	}
	if (type != LOCAL_DEF_MAPPING_TABLE)
		return NULL;
	if (p >= end)
		return "a mapping table cut short";
	uint8_t what = *p++;
	/* libotf2 refuses a second table of a kind it knows (below
	 * OTF2_MAPPING_MAX) in one location's file, and ignores the others */
	if (what < MAPPING_KINDS && (*kinds >> what & 1))
		return "a second mapping table of one kind";
	if (what < MAPPING_KINDS)
		*kinds |= UINT32_C(1) << what;
	if (!(k = cuint(p, end, 8, big, &n)) || (p += k) >= end)
		return "a mapping table cut short";
	unsigned mode = *p++;
	if (mode != OTF2_ID_MAP_DENSE && mode != OTF2_ID_MAP_SPARSE)
		return "a mapping table of an unknown mode";
	if (n == 0)
		return "an empty mapping table";     /* libotf2 cannot make one */
	/* each id is a byte at least */
	if (n > (uint64_t)(end - p) || (mode == OTF2_ID_MAP_SPARSE && n > (uint64_t)(end - p) / 2))
		return "a mapping table claims more ids than its record holds";
	OTF2_IdMap *m = OTF2_IdMap_Create((OTF2_IdMapMode)mode, n);
	if (!m) {
		*rc = ERR_NOMEM;
		return NULL;
	}
	uint64_t last = 0;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t local = i, global;
		if (mode == OTF2_ID_MAP_SPARSE) {
			if (!(k = cuint(p, end, 8, big, &local)))
				break;
			p += k;
			/* libotf2 writes a sparse table's pairs by rising local
			 * id; out of order, each would be inserted in place
			 * (a table of n pairs n^2 / 2 moves) */
			if (i && local <= last) {
				OTF2_IdMap_Free(m);
				return "a sparse mapping table's local ids out of order";
			}
			last = local;
		}
		if (!(k = cuint(p, end, 8, big, &global)))
			break;
		p += k;
		if (OTF2_IdMap_AddIdPair(m, local, global) != OTF2_SUCCESS) {
			OTF2_IdMap_Free(m);
			*rc = ERR_NOMEM;
			return NULL;
		}
		if (i + 1 == n) {
			*rc = sink->mapping(sink->ctx, what, m);
			return NULL;
		}
	}
	OTF2_IdMap_Free(m);
	return "a mapping table cut short";
}

/* Is there a chunk header at byte at of the n bytes: the record (3)
 * and a byte order (0x42 little endian, 0x23 big), 18 bytes in all? */
static int
chunk_header_at(const unsigned char *buf, size_t n, size_t at)
{
	return n >= at + 18 && buf[at] == 3 && (buf[at + 1] == 0x42 || buf[at + 1] == 0x23);
}

int
otf2r_check_defs(const char *path, uint64_t chunk, int global, uint64_t *records, uint64_t *maps,
		 struct err *e)
{
	return otf2r_walk_defs(path, chunk, global, NULL, records, maps, e);
}

int
otf2r_walk_defs(const char *path, uint64_t chunk, int global, const struct otf2r_local_sink *sink,
		uint64_t *records, uint64_t *maps, struct err *e)
{
	uint64_t count = 0, n_maps = 0;
	uint32_t kinds = 0;            /* the mapping kinds met */
	FILE *f = file_open_read(path, e);
	if (!f)
		return ERR_IO;
	unsigned char *buf = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;
	for (;;) {
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 65536;
			unsigned char *b = realloc(buf, ncap);
			if (!b) {
				rc = err_set(e, ERR_NOMEM, "%s: out of memory", path);
				break;
			}
			buf = b;
			cap = ncap;
		}
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0) {
			if (ferror(f))
				rc = err_set(e, ERR_IO, "%s: read error", path);
			break;
		}
	}
	fclose(f);
	const char *bad = NULL;
	size_t at = 18;
	if (!rc && !chunk_header_at(buf, n, 0))
		bad = "no OTF2 buffer header";
	int big = !rc && n > 1 && buf[1] == 0x23;
	while (!rc && !bad) {
		if (at >= n) {
			bad = "no end-of-file mark";
			break;
		}
		size_t lim = (at / chunk + 1) * chunk;   /* the end of this record's chunk */
		size_t rec_at = at;
		unsigned type = buf[at++];
		if (type == 2)
			break;                        /* end of file */
		if (type == 0) {
			/* end of chunk: the next one starts at lim, with its
			 * header (each names its byte order) */
			if (lim >= n) {
				bad = "no end-of-file mark";
				break;
			}
			at = lim;
			if (!chunk_header_at(buf, n, lim)) {
				bad = "a chunk without its header";
				break;
			}
			big = buf[lim + 1] == 0x23;
			at = lim + 18;
			continue;
		}
		if (at >= n) {
			bad = "a record without its length";
			break;
		}
		uint64_t len = buf[at++];
		if (len == 0xff) {
			if (n - at < 8) {
				bad = "a record without its length";
				break;
			}
			struct cursor c = { .p = buf + at, .end = buf + n, .big = big };
			len = uint_n(&c, 8);
			at += 8;
		}
		if (len > n - at) {
			bad = "a record runs past the end of the file";
			break;
		}
		/* a record and a byte after it (a record, the end of the chunk
		 * or of the file) lie within its chunk: libotf2 writes no
		 * other, and reads no other */
		if (at + len >= lim) {
			bad = "a record runs past the end of its chunk";
			break;
		}
		if (global && type == DEF_GROUP)
			bad = check_group(buf + at, buf + at + len, big);
		n_maps += !global && (type == LOCAL_DEF_MAPPING_TABLE || type == LOCAL_DEF_CLOCK_OFFSET);
		if (!global && sink && !bad)
			bad = local_record(sink, type, buf + at, buf + at + len, big, &kinds, &rc);
		if (bad) {
			at = rec_at;                  /* a record is named at its start */
			break;
		}
		at += (size_t)len;
		count++;
	}
	if (records)
		*records = count;
	if (maps)
		*maps = n_maps;
	if (rc == ERR_NOMEM && !bad)
		rc = err_set(e, ERR_NOMEM, "%s: out of memory", path);
	else if (bad)
		rc = err_set(e, ERR_FORMAT, "%s: corrupt %s definitions (%s at byte %zu)", path,
			     global ? "global" : "local", bad, at);
	free(buf);
	return rc;
}
