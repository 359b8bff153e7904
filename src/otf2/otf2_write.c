/* otf2_write.c — the annotated copy of an archive (otf2_write.h).
 *
 * Sequence: the source archive's global definitions are read for what
 * the copy needs (strings, regions, locations, the largest ids in use),
 * and skein's strings, attributes and parameter are given the ids after
 * those. Each location's local definitions are
 * read (mapping tables and clock offsets, so events arrive with global
 * ids and corrected times) and its events copied to a writer of its own;
 * the Enter of each communication call gets the attributes, and a
 * change of iteration a Parameter record. Then the global definitions
 * are read again and copied one by one (strings keep their ids, so every
 * reference stays valid), each location's count of events with its
 * Parameter records added, and skein's definitions appended. Every
 * location gets a (possibly empty) local definition file, as otf2-print
 * expects (OTF2-NOTES.md); no post-flush callback, so no BufferFlush
 * records break the order of time stamps.
 */
#include "otf2_write.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/vec.h"
#include "otf2_copy.h"

enum attr {
	A_PART, A_STEP, A_LOCAL_STEP, A_ITER, A_LATE, A_DIFF, A_GLOBAL, A_CAUSE,
	A_C_STEP, A_C_LATE, A_C_DIFF, A_C_CAUSE, A_COUNT
};

static const struct {
	const char *name, *desc;
	OTF2_Type type;
} attrs[A_COUNT] = {
	[A_PART] = { "skein:partition", "logical partition (communication phase) of this call", OTF2_TYPE_UINT32 },
	[A_STEP] = { "skein:step", "global logical step of this call", OTF2_TYPE_UINT32 },
	[A_LOCAL_STEP] = { "skein:local_step", "logical step within its partition", OTF2_TYPE_UINT32 },
	[A_ITER] = { "skein:iteration", "iteration (0-based) this call belongs to", OTF2_TYPE_UINT32 },
	[A_LATE] = { "skein:lateness", "seconds this call ended after the earliest of its partition and step", OTF2_TYPE_DOUBLE },
	[A_DIFF] = { "skein:diff_lateness", "seconds of lateness created at this call (differential lateness)", OTF2_TYPE_DOUBLE },
	[A_GLOBAL] = { "skein:global_lateness", "lateness against every call of the same global step", OTF2_TYPE_DOUBLE },
	[A_CAUSE] = { "skein:cause", "why this call is late (seed 000, Fig. 7)", OTF2_TYPE_STRING },
	[A_C_STEP] = { "skein:compute_step", "global logical step of the computation before this call", OTF2_TYPE_UINT32 },
	[A_C_LATE] = { "skein:compute_lateness", "lateness of the computation before this call, seconds", OTF2_TYPE_DOUBLE },
	[A_C_DIFF] = { "skein:compute_diff_lateness", "lateness created by the computation before this call, seconds", OTF2_TYPE_DOUBLE },
	[A_C_CAUSE] = { "skein:compute_cause", "why the computation before this call is late", OTF2_TYPE_STRING },
};

#define PARAM_NAME "skein iteration"

struct wloc {
	uint64_t id;
	uint64_t added;            /* Parameter records written on it */
	uint32_t timeline;         /* TRACE_NONE: not an MPI rank */
};

struct w {
	struct otf2_copy c;        /* first: the copying callbacks' user data */
	const struct otf2_write_opts *o;
	const struct trace *t;
	struct err *e;
	const char *src;
	struct otf2_write_stats st;
	char otf2_msg[256];
	/* from the global definitions */
	uint32_t next_string, next_attr, next_param;
	uint64_t offset;
	char **strings;            /* by string ref, for region names */
	size_t n_strings, cap_strings;
	uint32_t *region_model;    /* OTF2 region ref -> model region, or TRACE_NONE */
	size_t n_regions, cap_regions;
	struct wloc *locs;
	size_t n_locs, cap_locs;
	int writing;               /* the definitions' second reading: copy them */
	size_t loc_at;             /* the next location met while writing */
	/* skein's definitions */
	uint32_t attr_ref[A_COUNT], attr_name[A_COUNT], attr_desc[A_COUNT];
	uint32_t *cause_ref;
	uint32_t param_ref, param_name;
	/* the location being copied */
	uint32_t tl;               /* its timeline, or TRACE_NONE */
	uint32_t cursor, op_end;   /* next model op of the timeline */
	uint32_t cur_iter;
	OTF2_AttributeList *scratch;
	int failed;
	size_t loc_i;              /* the location being copied, for progress */
	int cancelled;             /* the progress callback asked to stop */
};

/* Every 2^16 event records copied, of whatever kind: does the caller
 * want the copy stopped (a signal, on the command line)? A location of
 * millions of events is not waited for to its end. */
#define CANCEL_EVERY 65536

static int
cancel_asked(struct w *w)
{
	if (!w->cancelled && w->o->progress && w->o->progress(w->o->ud, "writing", w->loc_i, w->n_locs))
		w->cancelled = 1;
	return w->cancelled;
}

static OTF2_ErrorCode
on_error(void *ud, const char *file, uint64_t line, const char *func, OTF2_ErrorCode code,
	 const char *fmt, va_list va)
{
	struct w *w = ud;
	(void)file; (void)line; (void)func;
	if (w && !w->otf2_msg[0]) {
		char detail[160] = "";
		if (fmt)
			vsnprintf(detail, sizeof detail, fmt, va);
		snprintf(w->otf2_msg, sizeof w->otf2_msg, "%s%s%s", OTF2_Error_GetDescription(code),
			 detail[0] ? ": " : "", detail);
	}
	return code;
}

static OTF2_FlushType
pre_flush(void *ud, OTF2_FileType type, OTF2_LocationRef loc, void *caller, bool final)
{
	(void)ud; (void)type; (void)loc; (void)caller; (void)final;
	return OTF2_FLUSH;
}

static const OTF2_FlushCallbacks flush_callbacks = { .otf2_pre_flush = pre_flush };

#define OK(x) ((x) == OTF2_SUCCESS ? OTF2_CALLBACK_SUCCESS : OTF2_CALLBACK_ERROR)

/* ---- definitions skein looks at ---- */

static OTF2_CallbackCode
def_string(void *ud, OTF2_StringRef self, const char *s)
{
	struct w *w = ud;
	if (w->writing)
		return OK(OTF2_GlobalDefWriter_WriteString(w->c.defs, self, s));
	if (self >= w->next_string)
		w->next_string = self + 1;
	if (self < (1u << 24)) {
		while (w->n_strings <= self) {
			if (VEC_GROW(w->strings, w->n_strings, w->cap_strings))
				return OTF2_CALLBACK_ERROR;
			w->strings[w->n_strings++] = NULL;
		}
		free(w->strings[self]);
		w->strings[self] = strdup(s ? s : "");
	}
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
def_attribute(void *ud, OTF2_AttributeRef self, OTF2_StringRef name, OTF2_StringRef desc,
	      OTF2_Type type)
{
	struct w *w = ud;
	if (w->writing)
		return OK(OTF2_GlobalDefWriter_WriteAttribute(w->c.defs, self, name, desc, type));
	if (self >= w->next_attr)
		w->next_attr = self + 1;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
def_parameter(void *ud, OTF2_ParameterRef self, OTF2_StringRef name, OTF2_ParameterType type)
{
	struct w *w = ud;
	if (w->writing)
		return OK(OTF2_GlobalDefWriter_WriteParameter(w->c.defs, self, name, type));
	if (self >= w->next_param)
		w->next_param = self + 1;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
def_clock(void *ud, uint64_t res, uint64_t offset, uint64_t length, uint64_t realtime)
{
	struct w *w = ud;
	if (w->writing)
		return OK(OTF2_GlobalDefWriter_WriteClockProperties(w->c.defs, res, offset, length, realtime));
	w->offset = offset;
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
def_location(void *ud, OTF2_LocationRef self, OTF2_StringRef name, OTF2_LocationType type,
	     uint64_t events, OTF2_LocationGroupRef group)
{
	struct w *w = ud;
	if (w->writing) {
		/* the same locations in the same order as at the first reading */
		const struct wloc *L = w->loc_at < w->n_locs ? &w->locs[w->loc_at++] : NULL;
		uint64_t n = L && L->id == self ? events + L->added : events;
		return OK(OTF2_GlobalDefWriter_WriteLocation(w->c.defs, self, name, type, n, group));
	}
	if (VEC_GROW(w->locs, w->n_locs, w->cap_locs))
		return OTF2_CALLBACK_ERROR;
	uint32_t n, tl = TRACE_NONE;
	const struct trace_location *ls = trace_locations(w->t, &n);
	for (uint32_t i = 0; i < n; i++)
		if (ls[i].id == self)
			tl = ls[i].timeline;
	w->locs[w->n_locs++] = (struct wloc){ .id = self, .timeline = tl };
	return OTF2_CALLBACK_SUCCESS;
}

/* The model region of the same name (the reader names them so). */
static OTF2_CallbackCode
def_region(void *ud, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef canonical,
	   OTF2_StringRef desc, OTF2_RegionRole role, OTF2_Paradigm paradigm, OTF2_RegionFlag flags,
	   OTF2_StringRef file, uint32_t begin, uint32_t end)
{
	struct w *w = ud;
	if (w->writing)
		return OK(OTF2_GlobalDefWriter_WriteRegion(w->c.defs, self, name, canonical, desc, role,
							   paradigm, flags, file, begin, end));
	if (self < (1u << 24)) {
		while (w->n_regions <= self) {
			if (VEC_GROW(w->region_model, w->n_regions, w->cap_regions))
				return OTF2_CALLBACK_ERROR;
			w->region_model[w->n_regions++] = TRACE_NONE;
		}
		const char *s = name < w->n_strings ? w->strings[name] : NULL;
		uint32_t n;
		const struct trace_region *r = trace_regions(w->t, &n);
		for (uint32_t i = 0; s && i < n; i++)
			if (strcmp(trace_str(w->t, r[i].name), s) == 0) {
				w->region_model[self] = i;
				break;
			}
	}
	return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode
def_unknown(void *ud)
{
	struct w *w = ud;
	w->st.skipped += w->writing;
	return OTF2_CALLBACK_SUCCESS;
}

static int
fail(struct w *w, int code, const char *what)
{
	if (!w->failed)
		err_set(w->e, code, "%s: %s (%s)", w->src, what,
			w->otf2_msg[0] ? w->otf2_msg : "unknown reason");
	w->failed = 1;
	return code;
}

/* skein's definitions: their ids, after the largest in use (first
 * reading); then written (second). Strings first: a definition must
 * come after the strings it names. */
static int
add_string(struct w *w, const char *s, uint32_t *ref)
{
	if (!w->writing) {
		*ref = w->next_string++;
		return 0;
	}
	return OTF2_GlobalDefWriter_WriteString(w->c.defs, *ref, s) == OTF2_SUCCESS ? 0 :
		fail(w, ERR_IO, "cannot write a definition");
}

static int
add_definitions(struct w *w)
{
	int rc = 0;
	for (int a = 0; a < A_COUNT && !rc; a++) {
		rc = add_string(w, attrs[a].name, &w->attr_name[a]);
		if (!rc)
			rc = add_string(w, attrs[a].desc, &w->attr_desc[a]);
	}
	if (!w->writing && !(w->cause_ref = calloc(w->o->n_causes + 1, sizeof *w->cause_ref)))
		rc = err_set(w->e, ERR_NOMEM, "out of memory");
	for (uint32_t i = 0; i < w->o->n_causes && !rc; i++)
		rc = add_string(w, w->o->cause_names[i], &w->cause_ref[i]);
	if (!rc)
		rc = add_string(w, PARAM_NAME, &w->param_name);
	for (int a = 0; a < A_COUNT && !rc; a++) {
		if (!w->writing)
			w->attr_ref[a] = w->next_attr++;
		else if (OTF2_GlobalDefWriter_WriteAttribute(w->c.defs, w->attr_ref[a], w->attr_name[a],
							     w->attr_desc[a], attrs[a].type) != OTF2_SUCCESS)
			rc = fail(w, ERR_IO, "cannot write a definition");
	}
	if (!rc && !w->writing)
		w->param_ref = w->next_param++;
	else if (!rc && OTF2_GlobalDefWriter_WriteParameter(w->c.defs, w->param_ref, w->param_name,
							    OTF2_PARAMETER_TYPE_UINT64) != OTF2_SUCCESS)
		rc = fail(w, ERR_IO, "cannot write a definition");
	return rc;
}

/* ---- events ---- */

static int
add_values(struct w *w, OTF2_AttributeList *al, const struct otf2_write_op *v, int compute)
{
	OTF2_ErrorCode r = OTF2_SUCCESS;
	uint32_t cause = v->cause < w->o->n_causes ? w->cause_ref[v->cause] : OTF2_UNDEFINED_STRING;
	if (!compute) {
		r = OTF2_AttributeList_AddUint32(al, w->attr_ref[A_PART], v->part);
		if (r == OTF2_SUCCESS)
			r = OTF2_AttributeList_AddUint32(al, w->attr_ref[A_STEP], v->step);
		if (r == OTF2_SUCCESS)
			r = OTF2_AttributeList_AddUint32(al, w->attr_ref[A_LOCAL_STEP], v->local_step);
		if (r == OTF2_SUCCESS && v->iteration != TRACE_NONE)
			r = OTF2_AttributeList_AddUint32(al, w->attr_ref[A_ITER], v->iteration);
		if (r == OTF2_SUCCESS)
			r = OTF2_AttributeList_AddDouble(al, w->attr_ref[A_LATE], v->lateness);
		if (r == OTF2_SUCCESS)
			r = OTF2_AttributeList_AddDouble(al, w->attr_ref[A_DIFF], v->diff);
		if (r == OTF2_SUCCESS)
			r = OTF2_AttributeList_AddDouble(al, w->attr_ref[A_GLOBAL], v->global);
		if (r == OTF2_SUCCESS)
			r = OTF2_AttributeList_AddStringRef(al, w->attr_ref[A_CAUSE], cause);
	} else {
		r = OTF2_AttributeList_AddUint32(al, w->attr_ref[A_C_STEP], v->step);
		if (r == OTF2_SUCCESS)
			r = OTF2_AttributeList_AddDouble(al, w->attr_ref[A_C_LATE], v->lateness);
		if (r == OTF2_SUCCESS)
			r = OTF2_AttributeList_AddDouble(al, w->attr_ref[A_C_DIFF], v->diff);
		if (r == OTF2_SUCCESS)
			r = OTF2_AttributeList_AddStringRef(al, w->attr_ref[A_C_CAUSE], cause);
	}
	return r == OTF2_SUCCESS ? 0 : -1;
}

/* The Enter of the next communication op of the timeline, when this is
 * it: its values, and those of the computation that ended here. */
static OTF2_CallbackCode
evt_enter(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *ud,
	  OTF2_AttributeList *al, OTF2_RegionRef region)
{
	struct w *w = ud;
	(void)loc; (void)pos;
	w->st.events++;
	time = otf2_copy_time(&w->c, time);
	if (w->tl != TRACE_NONE && w->o->ops) {
		struct trace_opv ops = trace_ops(w->t, NULL);
		uint64_t rel = time >= w->offset ? time - w->offset : 0;
		uint32_t model = region < w->n_regions ? w->region_model[region] : TRACE_NONE;
		while (w->cursor < w->op_end && (trace_op_get(&ops, w->cursor).kind == OP_COMPUTE ||
						 trace_op_get(&ops, w->cursor).t_enter < rel))
			w->cursor++;
		if (w->cursor < w->op_end && trace_op_get(&ops, w->cursor).t_enter == rel &&
		    trace_op_get(&ops, w->cursor).region == model && model != TRACE_NONE) {
			uint32_t o = w->cursor++;
			const struct otf2_write_op *v = &w->o->ops[o];
			struct trace_op before = o > 0 ? trace_op_get(&ops, o - 1) : (struct trace_op){ 0 };
			const struct otf2_write_op *c = o > 0 && before.kind == OP_COMPUTE &&
				before.timeline == w->tl && w->o->ops[o - 1].part != TRACE_NONE ?
				&w->o->ops[o - 1] : NULL;
			uint32_t it = c && c->iteration != TRACE_NONE ? c->iteration : v->iteration;
			if (it != TRACE_NONE && it != w->cur_iter) {
				w->cur_iter = it;
				if (OTF2_EvtWriter_ParameterUnsignedInt(w->c.events, NULL, time,
									w->param_ref, it) != OTF2_SUCCESS)
					return OTF2_CALLBACK_ERROR;
				w->st.parameters++;
			}
			OTF2_AttributeList *list = al ? al : w->scratch;
			if (add_values(w, list, v, 0) || (c && add_values(w, list, c, 1)))
				return OTF2_CALLBACK_ERROR;
			w->st.annotated++;
			OTF2_ErrorCode r = OTF2_EvtWriter_Enter(w->c.events, list, time, region);
			OTF2_AttributeList_RemoveAllAttributes(w->scratch);
			return OK(r);
		}
	}
	return OK(OTF2_EvtWriter_Enter(w->c.events, al, time, region));
}

static OTF2_CallbackCode
evt_leave(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *ud,
	  OTF2_AttributeList *al, OTF2_RegionRef region)
{
	struct w *w = ud;
	(void)loc; (void)pos;
	w->st.events++;
	return OK(OTF2_EvtWriter_Leave(w->c.events, al, otf2_copy_time(&w->c, time), region));
}

static OTF2_CallbackCode
evt_unknown(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *ud,
	    OTF2_AttributeList *al)
{
	struct w *w = ud;
	(void)loc; (void)time; (void)pos; (void)al;
	w->st.skipped++;
	return OTF2_CALLBACK_SUCCESS;
}

/* ---- the sequence ---- */

static int
copy_global_defs(struct w *w, OTF2_Reader *rd)
{
	OTF2_GlobalDefReader *gr = OTF2_Reader_GetGlobalDefReader(rd);
	OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
	if (!gr || !cb) {
		OTF2_GlobalDefReaderCallbacks_Delete(cb);
		return fail(w, ERR_FORMAT, "cannot read the definitions");
	}
	if (w->writing)
		otf2_copy_defs(cb);
	OTF2_GlobalDefReaderCallbacks_SetUnknownCallback(cb, def_unknown);
	OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, def_string);
	OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(cb, def_attribute);
	OTF2_GlobalDefReaderCallbacks_SetParameterCallback(cb, def_parameter);
	OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, def_clock);
	OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, def_location);
	OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, def_region);
	OTF2_Reader_RegisterGlobalDefCallbacks(rd, gr, cb, w);
	OTF2_GlobalDefReaderCallbacks_Delete(cb);
	uint64_t n = 0;
	if (OTF2_Reader_ReadAllGlobalDefinitions(rd, gr, &n) != OTF2_SUCCESS)
		return fail(w, ERR_FORMAT, w->writing ? "cannot copy the definitions" : "cannot read the definitions");
	OTF2_Reader_CloseGlobalDefReader(rd, gr);
	return add_definitions(w);
}

static void
read_local_defs(struct w *w, OTF2_Reader *rd)
{
	if (OTF2_Reader_OpenDefFiles(rd) != OTF2_SUCCESS)
		return;
	for (size_t i = 0; i < w->n_locs; i++) {
		OTF2_DefReader *dr = OTF2_Reader_GetDefReader(rd, w->locs[i].id);
		if (!dr)
			continue;
		uint64_t n = 0;
		OTF2_Reader_ReadAllLocalDefinitions(rd, dr, &n);
		OTF2_Reader_CloseDefReader(rd, dr);
	}
	OTF2_Reader_CloseDefFiles(rd);
	w->otf2_msg[0] = '\0';
}

static int
copy_events(struct w *w, OTF2_Reader *rd, OTF2_Archive *ar)
{
	OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
	if (!cb)
		return err_set(w->e, ERR_NOMEM, "out of memory");
	otf2_copy_events(cb);
	OTF2_EvtReaderCallbacks_SetUnknownCallback(cb, evt_unknown);
	OTF2_EvtReaderCallbacks_SetEnterCallback(cb, evt_enter);
	OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, evt_leave);
	const struct trace_timeline *tls = trace_timelines(w->t, NULL);
	int rc = 0;
	if (OTF2_Reader_OpenEvtFiles(rd) != OTF2_SUCCESS ||
	    OTF2_Archive_OpenEvtFiles(ar) != OTF2_SUCCESS)
		rc = fail(w, ERR_IO, "cannot open the event files");
	for (size_t i = 0; i < w->n_locs && !rc; i++) {
		struct wloc *L = &w->locs[i];
		OTF2_EvtReader *er = OTF2_Reader_GetEvtReader(rd, L->id);
		w->c.events = OTF2_Archive_GetEvtWriter(ar, L->id);
		if (!er || !w->c.events) {
			rc = fail(w, ERR_IO, "cannot copy the events");
			break;
		}
		w->tl = L->timeline;
		if (w->tl != TRACE_NONE) {
			w->cursor = tls[w->tl].op_first;
			w->op_end = tls[w->tl].op_first + tls[w->tl].op_count;
		}
		w->cur_iter = TRACE_NONE;
		w->c.last = 0;
		w->loc_i = i;
		OTF2_Reader_RegisterEvtCallbacks(rd, er, cb, w);
		uint64_t n = CANCEL_EVERY, params = w->st.parameters;
		/* CANCEL_EVERY records at a time: the reader counts every
		 * record, not only the Enters and Leaves skein looks at */
		while (!rc && n == CANCEL_EVERY) {
			if (OTF2_Reader_ReadLocalEvents(rd, er, CANCEL_EVERY, &n) != OTF2_SUCCESS)
				rc = fail(w, ERR_FORMAT, "cannot copy the events");
			else if (n == CANCEL_EVERY && cancel_asked(w))
				rc = err_set(w->e, ERR_CANCELLED, "cancelled");
		}
		L->added = w->st.parameters - params;
		OTF2_Reader_CloseEvtReader(rd, er);
		if (OTF2_Archive_CloseEvtWriter(ar, w->c.events) != OTF2_SUCCESS && !rc)
			rc = fail(w, ERR_IO, "cannot write the events");
		w->c.events = NULL;
		w->loc_i = i + 1;
		if (!rc && cancel_asked(w))
			rc = err_set(w->e, ERR_CANCELLED, "cancelled");
	}
	OTF2_EvtReaderCallbacks_Delete(cb);
	if (!rc && (OTF2_Reader_CloseEvtFiles(rd) != OTF2_SUCCESS ||
		    OTF2_Archive_CloseEvtFiles(ar) != OTF2_SUCCESS))
		rc = fail(w, ERR_IO, "cannot close the event files");
	return rc;
}

/* Every location gets a local definition file, empty: the copied events
 * already carry global ids and corrected times. */
static int
write_local_defs(struct w *w, OTF2_Archive *ar)
{
	if (OTF2_Archive_OpenDefFiles(ar) != OTF2_SUCCESS)
		return fail(w, ERR_IO, "cannot open the definition files");
	for (size_t i = 0; i < w->n_locs; i++) {
		OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(ar, w->locs[i].id);
		if (!dw || OTF2_Archive_CloseDefWriter(ar, dw) != OTF2_SUCCESS)
			return fail(w, ERR_IO, "cannot write a local definition file");
	}
	return OTF2_Archive_CloseDefFiles(ar) == OTF2_SUCCESS ? 0 :
		fail(w, ERR_IO, "cannot close the definition files");
}

/* The archive's three entries, in dir and in the stage. */
static const char *const archive_parts[] = { "traces.otf2", "traces.def", "traces" };

/* Makes dir (if need be: *made says it did) and the stage inside it,
 * dir/.skein-export-PID, where the archive is written; dir must hold no
 * part of an archive. */
static int
prepare_dir(const char *dir, char *stage, size_t n, int *made, struct err *e)
{
	char path[4096];
	struct stat st;
	for (size_t i = 0; i < sizeof archive_parts / sizeof *archive_parts; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, archive_parts[i]);
		if (lstat(path, &st) == 0)
			return err_set(e, ERR_IO, "%s: already holds an OTF2 archive (or a part of one: %s); "
				       "choose another directory", dir, archive_parts[i]);
	}
	*made = mkdir(dir, 0777) == 0;
	if (!*made && errno != EEXIST)
		return err_set(e, ERR_IO, "%s: %s", dir, strerror(errno));
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return err_set(e, ERR_IO, "%s: not a directory", dir);
	snprintf(stage, n, "%s/.skein-export-%ld", dir, (long)getpid());
	if (mkdir(stage, 0777) != 0) {
		int rc = err_set(e, ERR_IO, "%s: %s", stage, strerror(errno));
		if (*made)
			rmdir(dir);
		return rc;
	}
	return 0;
}

/* Removes the stage and what the writer made in it: the anchor, the
 * definitions and the folder of per-location files (nothing deeper). */
static void
remove_stage(const char *stage)
{
	char path[4096 + 64];
	snprintf(path, sizeof path, "%s/traces", stage);
	DIR *d = opendir(path);
	for (struct dirent *x; d && (x = readdir(d));) {
		if (strcmp(x->d_name, ".") && strcmp(x->d_name, "..")) {
			char f[4096 + 64 + 256];
			snprintf(f, sizeof f, "%s/%s", path, x->d_name);
			unlink(f);
		}
	}
	if (d)
		closedir(d);
	rmdir(path);
	for (size_t i = 0; i < 2; i++) {
		snprintf(path, sizeof path, "%s/%s", stage, archive_parts[i]);
		unlink(path);
	}
	rmdir(stage);
}

/* Moves the whole archive from the stage into dir: the definitions and
 * the events first, the anchor last (an archive is its anchor). */
static int
publish_stage(const char *stage, const char *dir, struct err *e)
{
	static const int order[] = { 1, 2, 0 };
	for (size_t k = 0; k < 3; k++) {
		char from[4096 + 64], to[4096 + 64];
		snprintf(from, sizeof from, "%s/%s", stage, archive_parts[order[k]]);
		snprintf(to, sizeof to, "%s/%s", dir, archive_parts[order[k]]);
		if (rename(from, to) != 0)
			return err_set(e, ERR_IO, "%s: %s", to, strerror(errno));
	}
	rmdir(stage);
	return 0;
}

int
otf2_write_annotated(const char *dir, const struct otf2_write_opts *o,
		     struct otf2_write_stats *stats, struct err *e)
{
	char stage[4096];
	int made = 0;
	int rc = prepare_dir(dir, stage, sizeof stage, &made, e);
	if (rc)
		return rc;
	struct w w = { .o = o, .t = o->t, .e = e, .src = trace_info(o->t)->path, .tl = TRACE_NONE };
	OTF2_ErrorCallback prev = OTF2_Error_RegisterCallback(on_error, &w);
	OTF2_Reader *rd = OTF2_Reader_Open(w.src);
	/* definitions in 256 KiB chunks, as Score-P 2.1 to 9.0 write them:
	 * a reader clears a buffer of one chunk on every open */
	OTF2_Archive *ar = OTF2_Archive_Open(stage, "traces", OTF2_FILEMODE_WRITE, 1024 * 1024,
					     256 * 1024, OTF2_SUBSTRATE_POSIX,
					     OTF2_COMPRESSION_NONE);
	w.scratch = OTF2_AttributeList_New();
	if (!rd || OTF2_Reader_SetSerialCollectiveCallbacks(rd) != OTF2_SUCCESS)
		rc = fail(&w, ERR_FORMAT, "cannot read the archive again");
	else if (!ar || !w.scratch ||
		 OTF2_Archive_SetFlushCallbacks(ar, &flush_callbacks, NULL) != OTF2_SUCCESS ||
		 OTF2_Archive_SetSerialCollectiveCallbacks(ar) != OTF2_SUCCESS ||
		 OTF2_Archive_SetCreator(ar, o->creator ? o->creator : "skein") != OTF2_SUCCESS ||
		 !(w.c.defs = OTF2_Archive_GetGlobalDefWriter(ar)))
		rc = err_set(e, ERR_IO, "%s: cannot create the archive (%s)", dir,
			     w.otf2_msg[0] ? w.otf2_msg : "unknown reason");
	if (!rc)
		rc = copy_global_defs(&w, rd);
	if (!rc) {
		for (size_t i = 0; i < w.n_locs; i++)
			OTF2_Reader_SelectLocation(rd, w.locs[i].id);
		read_local_defs(&w, rd);
		rc = copy_events(&w, rd, ar);
	}
	if (!rc)
		rc = write_local_defs(&w, ar);
	if (!rc) {
		w.writing = 1;
		rc = copy_global_defs(&w, rd);
	}
	/* communication ops whose Enter was never met */
	if (!rc && o->ops) {
		uint32_t n;
		struct trace_opv ops = trace_ops(o->t, &n);
		uint64_t comm = 0;
		for (uint32_t i = 0; i < n; i++)
			comm += trace_op_get(&ops, i).kind != OP_COMPUTE;
		w.st.unmatched = comm > w.st.annotated ? comm - w.st.annotated : 0;
	}
	if (ar && OTF2_Archive_Close(ar) != OTF2_SUCCESS && !rc)
		rc = err_set(e, ERR_IO, "%s: cannot finish the archive (%s)", dir,
			     w.otf2_msg[0] ? w.otf2_msg : "unknown reason");
	/* a stop asked while the definitions were written: nothing published */
	if (!rc && cancel_asked(&w))
		rc = err_set(e, ERR_CANCELLED, "cancelled");
	if (!rc)
		rc = publish_stage(stage, dir, e);
	if (rc) {
		remove_stage(stage);      /* what was moved stays: the anchor moves last */
		/* a dir made for the export goes too, when nothing else
		 * came into it meanwhile (rmdir takes only an empty one) */
		if (made)
			rmdir(dir);
	}
	w.st.moved = w.c.moved;
	if (rd)
		OTF2_Reader_Close(rd);
	if (w.scratch)
		OTF2_AttributeList_Delete(w.scratch);
	OTF2_Error_RegisterCallback(prev, NULL);
	for (size_t i = 0; i < w.n_strings; i++)
		free(w.strings[i]);
	free(w.strings);
	free(w.region_model);
	free(w.locs);
	free(w.cause_ref);
	if (stats)
		*stats = w.st;
	return rc;
}
