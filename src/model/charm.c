/* charm.c — getters and names for the Charm++ side of the model. */
#include "trace_impl.h"

#include <stdio.h>
#include <string.h>

#define CGETTER(type, name) \
	const type *trace_##name(const struct trace *t, uint32_t *n) \
	{ \
		if (n) \
			*n = (uint32_t)t->n_##name; \
		return t->n_##name ? t->name : NULL; \
	}

CGETTER(struct trace_pe, pes)
CGETTER(struct trace_idle, idles)
CGETTER(struct trace_chare, chares)
CGETTER(struct trace_entry, entries)

const uint32_t *
trace_op_pes(const struct trace *t)
{
	return t->n_op_pe ? t->op_pe : NULL;
}

uint32_t
trace_op_pe(const struct trace *t, uint32_t op)
{
	if (op >= trace_op_count(t))
		return TRACE_NONE;
	return op < t->n_op_pe ? t->op_pe[op] : t->oprec[trace_oprec_index(t, op)].timeline;
}

uint32_t
trace_pe_count(const struct trace *t)
{
	return t->info.paradigm == PARADIGM_CHARM ? (uint32_t)t->n_pes : (uint32_t)t->n_timelines;
}

const char *
trace_crec_name(enum trace_crec r)
{
	static const char *const names[CREC_COUNT] = {
		"CREATION", "BEGIN_PROCESSING", "END_PROCESSING", "ENQUEUE", "DEQUEUE",
		"BEGIN_COMPUTATION", "END_COMPUTATION", "BEGIN_INTERRUPT", "END_INTERRUPT",
		"MESSAGE_RECV", "BEGIN_TRACE", "END_TRACE", "USER_EVENT", "BEGIN_IDLE",
		"END_IDLE", "BEGIN_PACK", "END_PACK", "BEGIN_UNPACK", "END_UNPACK",
		"CREATION_BCAST", "CREATION_MULTICAST", "MEMORY_MALLOC", "MEMORY_FREE",
		"USER_SUPPLIED", "MEMORY_USAGE_CURRENT", "USER_SUPPLIED_NOTE",
		"USER_SUPPLIED_BRACKETED_NOTE", "END_PHASE", "SURROGATE_BLOCK", "USER_STAT",
		"BEGIN_USER_EVENT_PAIR", "END_USER_EVENT_PAIR", "USER_EVENT_PAIR", "OTHER",
	};
	return (unsigned)r < CREC_COUNT ? names[r] : "?";
}

const char *
trace_chare_kind_name(enum trace_chare_kind k)
{
	static const char *const names[CHARE_KIND_COUNT] = { "array", "group", "single", "runtime" };
	return (unsigned)k < CHARE_KIND_COUNT ? names[k] : "?";
}

const char *
trace_chare_label(const struct trace *t, uint32_t timeline, char *buf, size_t n)
{
	if (!n)
		return buf;
	buf[0] = 0;
	if (timeline >= t->n_timelines)
		return buf;
	if (timeline >= t->n_chares) {
		snprintf(buf, n, "rank %u", timeline);
		return buf;
	}
	const struct trace_chare *c = &t->chares[timeline];
	const char *type = trace_str(t, c->type);
	switch (c->kind) {
	case CHARE_ARRAY: {
		size_t len = (size_t)snprintf(buf, n, "%s(", type);
		for (uint32_t d = 0; d < c->ndims && len < n; d++)
			len += (size_t)snprintf(buf + len, n - len, "%s%d", d ? "," : "", c->index[d]);
		if (len < n)
			snprintf(buf + len, n - len, ")");
		break;
	}
	case CHARE_GROUP:
		snprintf(buf, n, "%s[PE %u]", type, c->pe);
		break;
	case CHARE_RUNTIME:
		snprintf(buf, n, "runtime[PE %u]", c->pe);
		break;
	default:
		snprintf(buf, n, "%s", type);
		break;
	}
	return buf;
}

uint32_t
trace_chare_find(const struct trace *t, const char *label)
{
	char b[160];
	for (uint32_t i = 0; i < t->n_chares; i++)
		if (strcmp(trace_chare_label(t, i, b, sizeof b), label) == 0)
			return i;
	return TRACE_NONE;
}

const char *
trace_warning_text(const struct trace *t, enum trace_warning w)
{
	if (t->info.paradigm == PARADIGM_CHARM)
		switch (w) {
		case WARN_UNMATCHED_SEND: return "creations that started no recorded execution";
		case WARN_UNMATCHED_RECV: return "executions that no recorded creation started";
		case WARN_UNCLOSED_REGION: return "executions still open at the end of their log";
		case WARN_STRAY_LEAVE: return "ends of executions that had not begun";
		default: break;
		}
	return trace_warning_name(w);
}

const char *
trace_warning_count_text(const struct trace *t, enum trace_warning w, uint64_t n)
{
	static const char *const one[WARN_COUNT] = {
		[WARN_UNMATCHED_SEND] = "send without a matching receive",
		[WARN_UNMATCHED_RECV] = "receive without a matching send",
		[WARN_INCOMPLETE_COLL] = "collective missing members",
		[WARN_MISNESTED_LEAVE] = "region closed out of order",
		[WARN_STRAY_LEAVE] = "leave of a region that was not entered",
		[WARN_UNCLOSED_REGION] = "region still open at the end",
		[WARN_MEASUREMENT_OFF] = "interval with measurement switched off",
		[WARN_TIME_BACKWARDS] = "event earlier than its predecessor",
		[WARN_BAD_PEER] = "message record naming a rank outside its communicator or an undefined one, or collective record on an undefined communicator or an intercommunicator (not analysed), dropped",
		[WARN_UNKNOWN_REQUEST] = "completion of an unknown request",
		[WARN_EVENT_COUNT_MISMATCH] = "location whose event count differs from the definitions",
		[WARN_NO_MPI_RANKS] = "trace without MPI ranks",
		[WARN_NONRANK_MPI] = "MPI record on a location that is not a rank (a call made on another thread), left out of the analysis",
		[WARN_SIZE_MISMATCH] = "message whose receive recorded another size",
		[WARN_BAD_REF] = "record naming an undefined region",
		[WARN_NO_LOCAL_DEFS] = "location without local definitions, read with global ids",
		[WARN_UNKNOWN_RECORD] = "record of an unknown type (skipped)",
		[WARN_NESTED_BEGIN] = "execution begun before the previous one ended",
		[WARN_BAD_PE] = "execution naming a sending PE that does not exist",
		[WARN_LONG_CALL] = "MPI call without records longer than 2^40 ticks (profiled as that long)",
		[WARN_BEFORE_OFFSET] = "event before the clock's global offset (taken as at it)",
		[WARN_DUP_DEF] = "definition of an id defined before (the first kept)",
	};
	static const char *const charm_one[WARN_COUNT] = {
		[WARN_UNMATCHED_SEND] = "creation that started no recorded execution",
		[WARN_UNMATCHED_RECV] = "execution that no recorded creation started",
		[WARN_UNCLOSED_REGION] = "execution still open at the end of its log",
		[WARN_STRAY_LEAVE] = "end of an execution that had not begun",
	};
	if (n != 1 || (unsigned)w >= WARN_COUNT)
		return trace_warning_text(t, w);
	if (t->info.paradigm == PARADIGM_CHARM && charm_one[w])
		return charm_one[w];
	return one[w] ? one[w] : trace_warning_text(t, w);
}
