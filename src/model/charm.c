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
