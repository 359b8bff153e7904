/* otf2_read.h — reading an OTF2 archive into a trace.
 *
 * The archive is read per location (OTF2-NOTES.md: 3-7x faster than the
 * merged global reader and needs no global time order): global
 * definitions, then each location's local definitions (mapping tables,
 * clock offsets), then its events. MPI ranks become timelines; other
 * locations are counted in trace_locations().
 */
#ifndef SKEIN_OTF2_READ_H
#define SKEIN_OTF2_READ_H

#include "base/err.h"
#include "model/trace.h"

struct otf2_read_opts {
	trace_progress_fn progress;   /* may be NULL */
	void *ud;
};

/* Reads the archive at path: an anchor file (any name ending in .otf2) or
 * a directory holding exactly one. On success *out owns a new trace (free
 * it with trace_destroy). Returns 0 or ERR_IO (missing, unreadable, not an
 * OTF2 archive), ERR_FORMAT (truncated or corrupt), ERR_NOMEM, ERR_LIMIT,
 * ERR_CANCELLED; e then says which file and what is wrong. */
int otf2_read(const char *path, const struct otf2_read_opts *opts,
	      struct trace **out, struct err *e);

/* A distributed read (skein-mpi, doc/distributed.md). Each of n_parts
 * processes calls otf2_share_read() with its part: it reads the archive's
 * definitions and the events of its share of the locations (consecutive
 * locations cut by declared events; par_workers() threads), unmatched.
 * The other parts' shares travel as bytes (otf2_share_pack) to part 0,
 * which adds them in part order (otf2_share_add) and finishes: the
 * blocks are joined in location order and matched, giving the model
 * otf2_read() gives. Returns 0 or ERR_* as otf2_read (ERR_USAGE for part
 * outside n_parts). */
struct otf2_share;
int otf2_share_read(const char *path, const struct otf2_read_opts *opts, uint32_t part,
		    uint32_t n_parts, struct otf2_share **out, struct err *e);
/* The bytes otf2_share_pack() writes; the events read (in the share). */
size_t otf2_share_pack_size(const struct otf2_share *s);
uint64_t otf2_share_events(const struct otf2_share *s);
/* Writes the share's events into buf and frees them from s. */
void otf2_share_pack(struct otf2_share *s, void *buf);
/* Part 0: adds the next part's packed share. Returns 0, ERR_FORMAT
 * (bytes of another archive, out of order, cut short or with more past
 * the end) or ERR_NOMEM. */
int otf2_share_add(struct otf2_share *s, const void *buf, size_t len, struct err *e);

/* The same bytes in pieces (the share's head, then each block), so that
 * neither end holds a second copy of the share: otf2_share_pieces()
 * pieces, piece i of otf2_share_piece_size() bytes, packed in order by
 * otf2_share_pack_piece() (which frees a block as it packs it); part 0
 * adds them one by one in the same order with otf2_share_add_piece()
 * (errors as otf2_share_add), and otf2_share_next_part() says which part
 * it expects next (it moves on when a part's last piece is added). */
uint32_t otf2_share_pieces(const struct otf2_share *s);
size_t otf2_share_piece_size(const struct otf2_share *s, uint32_t i);
void otf2_share_pack_piece(struct otf2_share *s, uint32_t i, void *buf);
int otf2_share_add_piece(struct otf2_share *s, const void *buf, size_t len, struct err *e);
uint32_t otf2_share_next_part(const struct otf2_share *s);
/* Part 0, once every part is added: the model, as otf2_read() gives it
 * (*out is the caller's; s keeps nothing). */
int otf2_share_finish(struct otf2_share *s, const struct otf2_read_opts *opts, struct trace **out,
		      struct err *e);
void otf2_share_destroy(struct otf2_share *s);

#endif
