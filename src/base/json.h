/* json.h — a minimal streaming JSON writer for reports.
 *
 * The writer tracks nesting and commas; callers name keys and values.
 * Output goes to a caller-owned FILE through a buffer of the writer's
 * own, written out when full and by json_finish (until then the FILE
 * has not all of it). No allocation but a piece's memory.
 */
#ifndef SKEIN_JSON_H
#define SKEIN_JSON_H

#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32
#define JSON_BUF 16384

struct json_mem;

struct json {
	FILE *out;
	struct json_mem *mem;          /* a piece's: its bytes go there, not to out */
	int depth;
	int count[JSON_MAX_DEPTH];   /* items written at each depth */
	int pretty;
	int key_pending;               /* a key was written, its value is next */
	size_t n;                      /* bytes in buf not yet written to out */
	char buf[JSON_BUF];
};

void json_init(struct json *j, FILE *out, int pretty);
void json_key(struct json *j, const char *key);        /* before a value in an object */
void json_begin_object(struct json *j);
void json_end_object(struct json *j);
void json_begin_array(struct json *j);
void json_end_array(struct json *j);
void json_string(struct json *j, const char *s);
void json_uint(struct json *j, uint64_t v);
void json_int(struct json *j, int64_t v);
void json_double(struct json *j, double v);
void json_bool(struct json *j, int v);
void json_null(struct json *j);
/* v as printf's "%.9g" writes it, into b (32 bytes): its length, or 0
 * where the fast way is not sure (printf then). */
int json_g9(double v, char *b);
/* A piece of the items of the array or object j is in, written apart
 * (on another thread) by a writer of its own into memory, m (kept from
 * piece to piece: its bytes are reused), and added to j in order:
 * json_piece_open starts *piece where j stands (its depth, as if no item
 * were before it); json_piece_close ends it: 0, or -1 when memory ran
 * out (m->bad, its text cut short); json_piece_append adds the piece's
 * items to j as if j had written them itself. j must be inside an array
 * or object (pieces of the top level are not counted). */
struct json_mem {
	char *p;
	size_t len, cap;
	int bad;
};
void json_piece_open(const struct json *j, struct json *piece, struct json_mem *m);
int json_piece_close(struct json *piece);
void json_piece_append(struct json *j, const struct json *piece);
/* Writes out what is buffered (a writer giving up halfway: what it
 * wrote reaches the FILE, as before the buffer). */
void json_flush(struct json *j);
/* Ends the document with a newline and writes out what is buffered. */
void json_finish(struct json *j);

#endif
