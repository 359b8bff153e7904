/* prj_impl.h — the Projections reader's inside, shared by its files:
 *
 *   projections_read.c  finding the files, the stages in order
 *   prj_share.c         a share of the PEs' logs read by each rank of a job, joined on one
 *   prj_sts.c           the .sts definitions
 *   prj_log.c           one PE's log: lines, fields, records
 *   prj_chares.c        executions -> chares (timelines)
 *   prj_build.c         executions -> ops, creations -> messages
 */
#ifndef SKEIN_PRJ_IMPL_H
#define SKEIN_PRJ_IMPL_H

#include <stdatomic.h>
#include <stdint.h>

#include "base/err.h"
#include "base/hmap.h"
#include "model/trace_impl.h"
#include "projections_read.h"

/* ---- .sts ---- */

struct prj_chare_def {
	char *name;
	uint32_t id;           /* the .sts's */
	int32_t dims;          /* array dimensions (v9+), -1 otherwise */
	uint8_t runtime;
};

struct prj_entry_def {
	char *name;            /* as the .sts gives it */
	uint32_t id;           /* the .sts's, as the logs name it */
	uint32_t chare;        /* its chare: an index in prj_sts.chares */
	uint32_t msg;
	uint32_t region;       /* region id in the trace */
	uint8_t runtime;       /* its chare is the runtime's, or the runtime invokes it */
};

/* A .sts id (a chare's, an entry method's) -> its definition's index.
 * Charm++ numbers them densely from 0, and those are looked up in an
 * array; ids spread wider than 2 × (ids defined) + PRJ_IDS_SLACK are
 * hashed instead, so memory follows the lines read, never the largest
 * id (up to TRACE_STS_ID_MAX, 10^7). */
#define PRJ_IDS_SLACK 4096
struct prj_ids {
	uint32_t *dense;       /* [n_dense], UINT32_MAX where no id; or NULL */
	uint32_t n_dense;
	struct hmap sparse;    /* the ids when there is no dense array */
};

static inline uint32_t
prj_ids_get(const struct prj_ids *m, int64_t id)
{
	if (id < 0 || id > (int64_t)UINT32_MAX)
		return UINT32_MAX;
	if (m->dense)
		return (uint64_t)id < m->n_dense ? m->dense[id] : UINT32_MAX;
	const uint32_t *v = hmap_get(&m->sparse, (uint64_t)id, 0);
	return v ? *v : UINT32_MAX;
}

struct prj_sts {
	const char *path;
	uint32_t vmajor, vminor;   /* VERSION 11.0 -> 11, 0 */
	uint32_t pes;
	/* the chares and entry methods defined, each table in id order */
	struct prj_chare_def *chares;
	struct prj_entry_def *entries;
	uint32_t n_chares, n_entries;
	size_t cap_chares, cap_entries;
	struct prj_ids chare_at, entry_at;
	uint32_t npapi;            /* performance counters per BEGIN/END_PROCESSING */
	char *charmversion, *machine;
};

/* Reads path into s (zeroed by the caller). Returns 0 or ERR_IO /
 * ERR_FORMAT (file:line:col in e) / ERR_NOMEM. */
int prj_sts_read(const char *path, struct prj_sts *s, struct err *e);
void prj_sts_fini(struct prj_sts *s);
/* 1 if version >= major.minor */
int prj_sts_at_least(const struct prj_sts *s, uint32_t major, uint32_t minor);

/* ---- one PE's log ---- */

/* An entry-method execution (a BEGIN_PROCESSING .. END_PROCESSING pair). */
struct prj_exec {
	uint64_t t0, t1;
	uint64_t key_a, key_b;     /* the object: array index packed (prj_key) */
	uint32_t ep;
	int32_t event;             /* the creating event on srcpe, -1 for none */
	uint32_t srcpe;
	uint32_t cre_first;        /* its creations: [cre_first, cre_first + n_cre) */
	uint32_t n_cre;
	uint32_t mtype;
	uint8_t nids;              /* object ids in the record */
	uint8_t flags;             /* PRJ_X_* */
};

enum {
	PRJ_X_OPEN = 1,        /* no END_PROCESSING: closed at the end of the log */
	PRJ_X_INDEX = 2,       /* the ids are an array index (v9+, ndims values) */
	PRJ_X_RESUMED = 4,     /* a later fragment of an execution a nested one interrupted */
};

/* A creation (CREATION, CREATION_BCAST or CREATION_MULTICAST). */
struct prj_cre {
	uint64_t t;
	uint64_t bytes;
	uint32_t ep;
	int32_t event;
	uint32_t exec;             /* the execution on this PE it happened in, or UINT32_MAX */
	uint32_t npes;             /* broadcast / multicast destinations (0: a single send) */
};

struct prj_pe_log {
	char *path;                /* the log file */
	uint64_t file_size;        /* its size when found (how the PEs are split) */
	struct prj_exec *execs;
	size_t n_execs, cap_execs;
	struct prj_cre *cres;
	size_t n_cres, cap_cres;
	struct trace_idle *idles;
	size_t n_idles, cap_idles;
	/* event id -> creation (prj_log_creation): a table indexed by the
	 * event when the ids are dense, else the creations sorted by event */
	uint32_t *cre_of_event;
	uint32_t n_events;         /* the table's size, 0 when sorted */
	uint64_t *cre_by_event;    /* event << 32 | creation, sorted */
	size_t n_by_event;
	uint64_t records[CREC_COUNT];
	uint64_t warnings[WARN_COUNT];
	uint64_t t_first, t_last, t_begin_comp, t_end_comp;
	uint64_t lines;
	int has_begin_comp, has_end_comp, any;
};

/* Parses the log of PE pe into l (zeroed by the caller, path set).
 * Returns 0 or ERR_IO / ERR_FORMAT / ERR_NOMEM with "file:line: ..." in
 * e. cancel, when not NULL, is polled: ERR_CANCELLED once it is set. */
int prj_log_read(const struct prj_sts *s, uint32_t pe, struct prj_pe_log *l,
		 const atomic_int *cancel, struct err *e);
void prj_log_fini(struct prj_pe_log *l);
/* Indexes l's creations by event (done by prj_log_read; again for a log
 * whose records arrived packed). 0 or ERR_NOMEM. */
int prj_log_index(struct prj_pe_log *l);
/* The first creation of l with event id ev, or UINT32_MAX. */
uint32_t prj_log_creation(const struct prj_pe_log *l, int32_t ev);

/* Packs an object's ids (an array index) into a 128-bit key; returns 0,
 * or -1 when they do not fit (more than 6 ids, or values too large). */
int prj_key(const int64_t *ids, uint32_t n, uint64_t *a, uint64_t *b);
/* Unpacks n ids from a key. */
void prj_unkey(uint64_t a, uint64_t b, uint32_t n, int32_t *ids);

/* ---- a share's piece (prj_share.c) ----
 * One PE's parsed log as bytes: this head, then its executions, its
 * creations and its idle intervals as they lie in memory; not its path
 * and its index of creations (built again where it arrives). */
struct prj_piece_head {
	uint64_t magic;
	uint64_t pe;
	uint64_t n_execs, n_cres, n_idles;
	uint64_t records[CREC_COUNT];
	uint64_t warnings[WARN_COUNT];
	uint64_t t_first, t_last, t_begin_comp, t_end_comp, lines;
	uint64_t has_begin_comp, has_end_comp, any;
};

/* ---- building the trace ---- */

struct prj_reader {
	char *sts_path;            /* the .sts file */
	struct trace *t;           /* being built: the reader's until prj_finish */
	struct prj_sts sts;
	struct prj_pe_log *logs;   /* sts.pes of them once prj_open succeeded */
	uint32_t n_logs;           /* the slots of logs allocated (prj_close frees them) */
	const struct projections_read_opts *opts;
	/* per PE, per execution: the timeline it goes to */
	uint32_t **exec_tl;
};

/* Zeroes r, reads the .sts of the run at path (the file, or the
 * directory holding it) and finds every PE's log, or takes them from
 * found (len bytes, prj_found's: another process looked them up). Then
 * prj_parse reads logs, prj_finish builds the trace; prj_close frees r
 * whatever happened. 0 or an ERR_* code with e set. */
int prj_open(struct prj_reader *r, const char *path, const struct projections_read_opts *opts,
	     const char *found, size_t len, struct err *e);
/* The logs prj_open found, as bytes for another prj_open (*out, *len;
 * the caller frees): per PE whether its log is gzipped and its size. */
int prj_found(const struct prj_reader *r, char **out, size_t *len);
/* Splits the PEs into n shares balanced by their logs' sizes: share i is
 * [cut[i], cut[i + 1]), alike wherever the files are the same. */
void prj_split(const struct prj_reader *r, uint32_t n, uint32_t *cut);
/* The workers for a stage a share of r's PEs each (at most one a PE),
 * and the weight of PE pe's share: its executions (par_split's weight,
 * ctx r). */
uint32_t prj_workers(const struct prj_reader *r);
uint64_t prj_exec_weight(const void *r, uint32_t pe);
/* Parses the logs of PEs [from, to) on every core. */
int prj_parse(struct prj_reader *r, uint32_t from, uint32_t to, struct err *e);
/* Builds the trace from every PE's parsed log into *out. */
int prj_finish(struct prj_reader *r, struct trace **out, struct err *e);
void prj_close(struct prj_reader *r);

/* Decides which chare types are runtime (opts globs), then gives every
 * execution a timeline and fills t's timelines and chares in display
 * order. Returns 0 or ERR_NOMEM / ERR_LIMIT. */
int prj_chares_assign(struct prj_reader *r, struct err *e);

/* Regions from the entries; ops, ends and messages from the executions
 * and creations; PEs and idle intervals. */
int prj_build(struct prj_reader *r, struct err *e);

#endif
