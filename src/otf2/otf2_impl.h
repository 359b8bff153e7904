/* otf2_impl.h — state shared by the OTF2 reader's two halves:
 * otf2_defs.c (global definitions) and otf2_read.c (events). */
#ifndef SKEIN_OTF2_IMPL_H
#define SKEIN_OTF2_IMPL_H

#include <otf2/otf2.h>
#include <pthread.h>

#include "model/build.h"
#include "base/hmap.h"
#include "model/trace_impl.h"

/* Definition ids above this are refused rather than indexed densely. */
#define OTF2R_MAX_REF (1u << 26)

struct otf2r_group {
	uint8_t type, paradigm;
	uint32_t n;
	uint64_t *members;
};

struct otf2r_comm {
	uint32_t name, group, parent;
	int defined;
};

struct otf2r_lgroup {
	uint32_t name, node;
	int defined;
};

struct otf2r {
	struct trace *t;
	struct build *b;
	struct err *e;
	const char *anchor;
	char otf2_msg[256];      /* last message from OTF2's error callback */

	/* OTF2 ref -> skein id (TRACE_NONE where undefined) */
	uint32_t *string_of; size_t n_string_of;
	uint32_t *region_of; size_t n_region_of;
	uint32_t *comm_of; size_t n_comm_of;
	uint32_t *node_of; size_t n_node_of;
	struct otf2r_group *groups; size_t n_groups;
	struct otf2r_comm *comms; size_t n_comms;
	struct otf2r_lgroup *lgroups; size_t n_lgroups;
	uint32_t *lgroup_of_loc; size_t n_lgroup_of_loc;   /* location index -> group ref */
	struct hmap location_of;         /* OTF2 location id -> location index */

	int have_clock;
	pthread_mutex_t msg_mu;          /* guards otf2_msg: OTF2 reports from any reader thread */
};

/* Reads every location's events (local definitions already read) and
 * builds the model, on par_workers() threads. Returns 0 or ERR_*, with
 * the message in r->e. */
struct otf2_read_opts;
int otf2r_read_events(struct otf2r *r, OTF2_Reader *rd, const struct otf2_read_opts *o);

/* Reads global definitions and turns them into regions, communicators,
 * locations and timelines on r->t. Returns 0 or ERR_*. */
int otf2r_read_definitions(struct otf2r *r, OTF2_Reader *rd);
void otf2r_free_definitions(struct otf2r *r);

/* Copies OTF2's last error message (empty when none) into buf. */
void otf2r_last_msg(struct otf2r *r, char *buf, size_t n);

/* Grows a ref->id table to hold ref, filling new slots with TRACE_NONE. */
int otf2r_table_put(uint32_t **tab, size_t *n, uint32_t ref, uint32_t id);
static inline uint32_t
otf2r_table_get(const uint32_t *tab, size_t n, uint32_t ref)
{
	return ref < n ? tab[ref] : TRACE_NONE;
}

#endif
