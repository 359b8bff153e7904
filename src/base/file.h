/* file.h — input files that cannot hang a read.
 *
 * A FIFO, a terminal or a device named where a file is expected would
 * block a read forever (a FIFO already blocks in open()); a shared login
 * node has plenty of them. Every file skein reads goes through one of
 * these two checks first: the ones it opens itself through
 * file_open_read, the ones a library opens (OTF2, hwloc) through
 * file_check_regular just before the library call.
 */
#ifndef SKEIN_FILE_H
#define SKEIN_FILE_H

#include <stdint.h>
#include <stdio.h>

#include "err.h"

/* Checks that path names a regular file (following symbolic links),
 * without opening it. Returns 0 with its size in *size (when not NULL),
 * or ERR_IO with "PATH: REASON" in e (missing, unreadable, "is a FIFO,
 * not a regular file", ...). */
int file_check_regular(const char *path, uint64_t *size, struct err *e);

/* Opens path for reading in binary mode, refusing anything but a regular
 * file before a read could block (the open itself does not wait for a
 * FIFO's writer). Returns the stream, or NULL with ERR_IO (ERR_NOMEM
 * when no stream could be allocated) and "PATH: REASON" in e. */
FILE *file_open_read(const char *path, struct err *e);

/* The same as a file descriptor (for a library that opens a stream
 * over one, as zlib's gzdopen does): >= 0, or -1 with e set. */
int file_open_fd(const char *path, struct err *e);

/* What kind of file mode is, for messages: "a directory", "a FIFO", ... */
const char *file_kind(unsigned mode);

#endif
