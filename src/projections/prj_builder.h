/* prj_builder.h — the state prj_build shares with its matching and
 * message numbering (prj_match.c): per PE tables of executions and
 * creations. Private to src/projections. */
#ifndef SKEIN_PRJ_BUILDER_H
#define SKEIN_PRJ_BUILDER_H

#include "prj_impl.h"

#define NONE UINT32_MAX

struct builder {
	struct prj_reader *r;
	struct trace *t;
	uint32_t pes;
	/* per PE, per execution */
	uint32_t **m_pe, **m_cre;     /* matched creation */
	uint32_t **x_msg;             /* the message that started it, or NONE */
	uint32_t **x_op;              /* the op holding that message's receive */
	/* per PE, per creation */
	uint32_t **deliv;             /* deliveries (their count) */
	uint32_t **msg_first;
	uint32_t **c_op;              /* the op holding the creation */
	uint64_t n_msgs;
	/* fallback index: creations sorted by (entry, event, time) */
	struct fb { uint32_t ep; int32_t event; uint64_t t; uint32_t pe, idx; } *fb;
	size_t n_fb;
	int fb_built;
};

/* Each execution's creation (m_pe, m_cre) and each creation's deliveries
 * (deliv). 0 or ERR_NOMEM. */
int prj_match(struct builder *b);
/* Message ids: msg_first, x_msg, b->n_msgs and the trace's empty message
 * records. 0, ERR_NOMEM or ERR_LIMIT. */
int prj_number_msgs(struct builder *b);

#endif
