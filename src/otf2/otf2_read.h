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

struct build;

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

/* Does directory path hold an anchor file (*.otf2)? 0 for anything else
 * (a directory that cannot be read, a file). */
int otf2_dir_has_anchor(const char *path);

/* A distributed read (skein-mpi, doc/distributed.md). Each of n_parts
 * processes calls otf2_share_read() with its part: it reads the archive's
 * definitions and the events of its share of the locations (consecutive
 * locations cut by declared events; par_workers() threads), unmatched.
 * The other parts' shares travel as bytes to part 0, which joins them in
 * location order and matches, giving the model otf2_read() gives.
 * Returns 0 or ERR_* as otf2_read (ERR_USAGE for part outside n_parts).
 *
 * A share travels in pieces: otf2_share_pieces() of them, piece i of
 * otf2_share_piece_size() bytes, packed by otf2_share_pack_piece() (which
 * frees a block as it packs it). Piece 0 is the share's head (its
 * locations' events and the size of each of its blocks), the others are
 * its blocks. Part 0 adds with otf2_share_add_piece() first the heads of
 * parts 1, 2, ... in order, then all their blocks in the same order:
 * knowing every block's size, it sizes the model's arrays once and puts
 * each block in its place as it comes, so it never holds a block beside
 * its place nor a second copy of the model. Returns 0, ERR_FORMAT (a
 * piece of another archive, not the one due, or cut short or with bytes
 * past its end) or ERR_NOMEM. */
struct otf2_share;
int otf2_share_read(const char *path, const struct otf2_read_opts *opts, uint32_t part,
		    uint32_t n_parts, struct otf2_share **out, struct err *e);
/* The share's trace as read (its definitions, and the frames of the
 * lanes of its locations: model/dmodel.h's trace_lanes_gather puts
 * every lane's into part 0's before it joins). */
struct trace *otf2_share_trace(struct otf2_share *s);
uint32_t otf2_share_pieces(const struct otf2_share *s);
size_t otf2_share_piece_size(const struct otf2_share *s, uint32_t i);
void otf2_share_pack_piece(struct otf2_share *s, uint32_t i, void *buf);
int otf2_share_add_piece(struct otf2_share *s, const void *buf, size_t len, struct err *e);
/* Part 0, once every piece is added: the model, as otf2_read() gives it
 * (*out is the caller's; s keeps nothing). ERR_USAGE when heads are
 * missing, ERR_FORMAT when blocks are. */
int otf2_share_finish(struct otf2_share *s, const struct otf2_read_opts *opts, struct trace **out,
		      struct err *e);
void otf2_share_destroy(struct otf2_share *s);

/* A distributed read where no process holds more than its share
 * (model/dmodel.h: dmodel_finish matches across the processes): the
 * share's own blocks joined into the share's trace (build_join, no
 * matching). *t is the trace, *b its builder holding the unmatched
 * halves (build_impl.h): both the caller's, to hand to dmodel_finish.
 * The share's timelines are [*tl_lo, *tl_hi) (part 0 from timeline 0,
 * the last part to the last timeline; the timelines of no location go
 * with the part before them). t's information is the share's part: its
 * records, warnings from its events and calls without records; t_begin
 * UINT64_MAX when it read no record; its locations' events (the others'
 * 0); the definitions' warnings as every part has them. Returns 0,
 * ERR_USAGE when the ranks' locations are not in rank order (the
 * timelines of a part would not be a run of ids: such a trace is
 * analysed on one process), or as build_join; s keeps the definitions'
 * reader state only (destroy it). */
int otf2_share_local(struct otf2_share *s, struct trace **t, struct build **b, uint32_t *tl_lo,
		     uint32_t *tl_hi, struct err *e);

#endif
