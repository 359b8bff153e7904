/* prj_share.c — a Projections run read by the ranks of a job
 * (projections_read.h, "Shares"): every rank reads the .sts and the logs
 * of its share of the PEs; each parsed log travels as one piece of bytes
 * to the joining rank, which builds the trace from every PE's log as
 * projections_read does. The bytes are the parsed log's arrays as they
 * lie in memory: the ranks of one job run the same program. */
#include "prj_impl.h"

#include <stdlib.h>
#include <string.h>

struct projections_share {
	struct prj_reader r;
	uint32_t from, to;         /* this rank's PEs */
	uint8_t *got;              /* per PE: its log is here (parsed or added) */
};

#define PIECE_MAGIC 0x31524a5250534bULL      /* "SKPRJR1" */

int
projections_share_find(const char *path, const struct projections_read_opts *opts, char **found,
		       size_t *len, struct err *e)
{
	struct prj_reader r;
	*found = NULL;
	*len = 0;
	int rc = prj_open(&r, path, opts, NULL, 0, e);
	if (!rc && prj_found(&r, found, len))
		rc = err_set(e, ERR_NOMEM, "out of memory");
	prj_close(&r);
	return rc;
}

int
projections_share_read(const char *path, const struct projections_read_opts *opts,
		       uint32_t rank, uint32_t nranks, const char *found, size_t len,
		       struct projections_share **out, struct err *e)
{
	*out = NULL;
	struct projections_share *s = calloc(1, sizeof *s);
	if (!s)
		return err_set(e, ERR_NOMEM, "out of memory");
	int rc = prj_open(&s->r, path, opts, found, len, e);
	uint32_t *cut = rc ? NULL : calloc((size_t)nranks + 1, sizeof *cut);
	if (!rc && !(s->got = calloc((size_t)s->r.sts.pes + 1, 1)))
		rc = err_set(e, ERR_NOMEM, "out of memory");
	if (!rc && !cut)
		rc = err_set(e, ERR_NOMEM, "out of memory");
	if (!rc) {
		prj_split(&s->r, nranks, cut);
		s->from = cut[rank];
		s->to = cut[rank + 1];
		rc = prj_parse(&s->r, s->from, s->to, e);
	}
	free(cut);
	if (rc) {
		projections_share_destroy(s);
		return rc;
	}
	memset(s->got + s->from, 1, s->to - s->from);
	*out = s;
	return 0;
}

uint32_t
projections_share_pieces(const struct projections_share *s)
{
	return s->to - s->from;
}

size_t
projections_share_piece_size(const struct projections_share *s, uint32_t i)
{
	const struct prj_pe_log *l = &s->r.logs[s->from + i];
	return sizeof(struct prj_piece_head) + l->n_execs * sizeof *l->execs +
	       l->n_cres * sizeof *l->cres + l->n_idles * sizeof *l->idles;
}

static char *
put(char *at, const void *p, size_t n)
{
	if (n)
		memcpy(at, p, n);
	return at + n;
}

/* Frees what l holds but its path, which messages name. */
static void
log_empty(struct prj_pe_log *l)
{
	char *keep = l->path;
	l->path = NULL;
	prj_log_fini(l);
	l->path = keep;
}

void
projections_share_pack_piece(struct projections_share *s, uint32_t i, char *buf)
{
	struct prj_pe_log *l = &s->r.logs[s->from + i];
	struct prj_piece_head h = {
		.magic = PIECE_MAGIC, .pe = s->from + i,
		.n_execs = l->n_execs, .n_cres = l->n_cres, .n_idles = l->n_idles,
		.t_first = l->t_first, .t_last = l->t_last, .t_begin_comp = l->t_begin_comp,
		.t_end_comp = l->t_end_comp, .lines = l->lines,
		.has_begin_comp = (uint64_t)l->has_begin_comp,
		.has_end_comp = (uint64_t)l->has_end_comp, .any = (uint64_t)l->any,
	};
	memcpy(h.records, l->records, sizeof h.records);
	memcpy(h.warnings, l->warnings, sizeof h.warnings);
	char *at = put(buf, &h, sizeof h);
	at = put(at, l->execs, l->n_execs * sizeof *l->execs);
	at = put(at, l->cres, l->n_cres * sizeof *l->cres);
	put(at, l->idles, l->n_idles * sizeof *l->idles);
	/* sent once: its memory goes back now */
	log_empty(l);
	s->got[s->from + i] = 0;
}

/* A copy of n records of size z from *at (within end) into *dst; 0 or
 * ERR_FORMAT / ERR_NOMEM. */
static int
take(const char **at, const char *end, uint64_t n, size_t z, void **dst, size_t *cap)
{
	if (n > (uint64_t)(end - *at) / z)
		return ERR_FORMAT;
	*dst = malloc(n ? n * z : 1);
	if (!*dst)
		return ERR_NOMEM;
	memcpy(*dst, *at, n * z);
	*at += n * z;
	*cap = n;
	return 0;
}

/* Whether what l's arrays name lies within the run: entries the .sts
 * defines, PEs, l's own creations and executions (a piece is another
 * rank's parse of the same files, but the builder indexes by these). */
static int
piece_ok(const struct prj_sts *st, const struct prj_pe_log *l)
{
	for (size_t i = 0; i < l->n_execs; i++) {
		const struct prj_exec *x = &l->execs[i];
		if (x->ep >= st->n_entries || x->srcpe >= st->pes ||
		    (uint64_t)x->cre_first + x->n_cre > l->n_cres || x->nids > 6)
			return 0;
	}
	for (size_t c = 0; c < l->n_cres; c++) {
		const struct prj_cre *cr = &l->cres[c];
		if (cr->ep >= st->n_entries ||
		    (cr->exec != UINT32_MAX && cr->exec >= l->n_execs))
			return 0;
	}
	return 1;
}

int
projections_share_add_piece(struct projections_share *s, const char *buf, size_t n,
			    struct err *e)
{
	struct prj_piece_head h;
	if (n < sizeof h)
		return err_set(e, ERR_FORMAT, "a share's piece of %zu bytes: too short", n);
	memcpy(&h, buf, sizeof h);
	if (h.magic != PIECE_MAGIC || h.pe >= s->r.sts.pes || s->got[h.pe])
		return err_set(e, ERR_FORMAT, "a share's piece not of this run's logs");
	struct prj_pe_log *l = &s->r.logs[h.pe];
	const char *at = buf + sizeof h, *end = buf + n;
	void *execs = NULL, *cres = NULL, *idles = NULL;
	int rc = take(&at, end, h.n_execs, sizeof *l->execs, &execs, &l->cap_execs);
	if (!rc)
		rc = take(&at, end, h.n_cres, sizeof *l->cres, &cres, &l->cap_cres);
	if (!rc)
		rc = take(&at, end, h.n_idles, sizeof *l->idles, &idles, &l->cap_idles);
	l->execs = execs;
	l->cres = cres;
	l->idles = idles;
	if (!rc && at != end)
		rc = ERR_FORMAT;
	if (!rc) {
		l->n_execs = h.n_execs;
		l->n_cres = h.n_cres;
		l->n_idles = h.n_idles;
		memcpy(l->records, h.records, sizeof h.records);
		memcpy(l->warnings, h.warnings, sizeof h.warnings);
		l->t_first = h.t_first;
		l->t_last = h.t_last;
		l->t_begin_comp = h.t_begin_comp;
		l->t_end_comp = h.t_end_comp;
		l->lines = h.lines;
		l->has_begin_comp = (int)h.has_begin_comp;
		l->has_end_comp = (int)h.has_end_comp;
		l->any = (int)h.any;
		rc = piece_ok(&s->r.sts, l) ? prj_log_index(l) : ERR_FORMAT;
	}
	if (rc) {
		log_empty(l);
		return rc == ERR_NOMEM ? err_set(e, rc, "out of memory")
		       : err_set(e, ERR_FORMAT, "the piece of PE %llu's log does not hold what "
				 "its head says", (unsigned long long)h.pe);
	}
	s->got[h.pe] = 1;
	return 0;
}

int
projections_share_finish(struct projections_share *s, struct trace **out, struct err *e)
{
	*out = NULL;
	for (uint32_t pe = 0; pe < s->r.sts.pes; pe++)
		if (!s->got[pe])
			return err_set(e, ERR_FORMAT, "%s: the parsed log of PE %u never arrived",
				       s->r.logs[pe].path, pe);
	return prj_finish(&s->r, out, e);
}

void
projections_share_destroy(struct projections_share *s)
{
	if (!s)
		return;
	prj_close(&s->r);
	free(s->got);
	free(s);
}
