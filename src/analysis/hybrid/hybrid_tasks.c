/* hybrid_tasks.c — a rank's OpenMP tasks (hybrid.h): each run after its
 * creation, and a taskwait until the tasks its thread created before it
 * are done. */
#include "hybrid_impl.h"

#include "base/vec.h"

#include <stdint.h>
#include <stdlib.h>

/* The i-th of a process's places that run threads (i <= n_lanes): its
 * thread lanes, then its rank (i == n_lanes); TRACE_NONE for a stream. */
uint32_t
hy_thread_place(const struct hy *y, uint32_t tl, const uint32_t *lanes, uint32_t n_lanes, uint32_t i)
{
	if (i == n_lanes)
		return tl;
	return trace_lanes(y->t, NULL)[lanes[i]].kind == LANE_THREAD ? y->h->n_timelines + lanes[i] : TRACE_NONE;
}

/* A task's creation or run on a place: the task's id + 1 where the
 * trace names it (a tag: trace_tags), else its source line's key. */
struct task_ev {
	uint64_t enter, leave, key;
	uint32_t place, frame;
	uint8_t run;
};

static int
by_task(const void *p, const void *q)
{
	const struct task_ev *a = p, *b = q;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	if (a->run != b->run)
		return a->run < b->run ? -1 : 1;
	if (a->enter != b->enter)
		return a->enter < b->enter ? -1 : 1;
	return a->place < b->place ? -1 : a->place > b->place;
}

/* A task created by a thread (in its frame `parent`, at `enter`) and run
 * (on run_place, to run_leave); or, with run_place TRACE_NONE, one of
 * the creating thread's taskwaits (frame `frame`, [enter, leave)). */
struct child {
	uint64_t enter, leave, run_leave;
	uint32_t place, parent, frame, run_place, run_frame;
};

static int
by_creator(const void *p, const void *q)
{
	const struct child *a = p, *b = q;
	if (a->place != b->place)
		return a->place < b->place ? -1 : 1;
	if (a->parent != b->parent)
		return a->parent < b->parent ? -1 : 1;
	if (a->enter != b->enter)
		return a->enter < b->enter ? -1 : 1;
	/* a taskwait after the creations it waits for at the same tick */
	return (a->run_place == TRACE_NONE) - (b->run_place == TRACE_NONE);
}

/* Taskwait x (on its place) waits for `last`, the task of its thread's
 * created since its previous taskwait that ended last: from its start
 * (or the end of the last task the thread ran inside it) to that task's
 * end, when that task ran on another thread. */
static int
taskwait(struct hy *y, const struct child *x, const struct child *last)
{
	if (!last || last->run_place == x->place || last->run_leave <= x->enter)
		return 0;
	uint32_t first, n;
	const struct trace_frame *fr = hybrid_place_frames(y->t, y->h, x->place, &first, &n);
	uint64_t to = last->run_leave < x->leave ? last->run_leave : x->leave, from = x->enter;
	for (uint32_t k = x->frame + 1; k < first + n && fr[k].t_enter <= x->leave; k++) {
		if (fr[k].parent != x->frame || cls_of(y, &fr[k]) != HY_TASK)
			continue;
		if (fr[k].t_enter < to && fr[k].t_leave > to)
			return 0;            /* running a task itself when released */
		if (fr[k].t_leave <= to && fr[k].t_leave > from)
			from = fr[k].t_leave;
	}
	if (to <= from)
		return 0;
	uint32_t w;
	if (hy_add_wait(y, from, to, x->place, x->frame, last->run_place, last->run_frame, HYW_TASKWAIT, &w) ||
	    hy_add_edge(y, to, x->place, x->frame, to, last->run_place, last->run_frame, w))
		return ERR_NOMEM;
	return 0;
}

/* The task a frame runs in: its innermost enclosing task, implicit task
 * or parallel region (TRACE_NONE: none), whose children a taskwait in it
 * waits for, wherever they were created in it. */
static uint32_t
task_of(const struct hy *y, const struct trace_frame *fr, uint32_t f)
{
	uint32_t p = fr[f].parent;
	while (p != TRACE_NONE) {
		uint8_t c = cls_of(y, &fr[p]);
		if (c == HY_TASK || c == HY_IMPLICIT || c == HY_PARALLEL)
			break;
		p = fr[p].parent;
	}
	return p;
}

/* The taskwaits among c (the tasks created and the taskwaits, sorted by
 * creator): each waits for the tasks its thread created in the same task
 * since the taskwait before. */
static int
taskwaits(struct hy *y, struct child *c, size_t nc)
{
	if (nc)
		qsort(c, nc, sizeof *c, by_creator);
	const struct child *last = NULL;
	int rc = 0;
	for (size_t i = 0; i < nc && !rc; i++) {
		if (i && (c[i].place != c[i - 1].place || c[i].parent != c[i - 1].parent))
			last = NULL;
		if (c[i].run_place != TRACE_NONE) {
			if (!last || c[i].run_leave > last->run_leave)
				last = &c[i];
			continue;
		}
		rc = taskwait(y, &c[i], last);
		last = NULL;
	}
	return rc;
}

static int
add_child(struct child **c, size_t *nc, size_t *cap, struct child x)
{
	if (VEC_GROW(*c, *nc, *cap))
		return ERR_NOMEM;
	(*c)[(*nc)++] = x;
	return 0;
}

/* Each task's creation and run keyed by the task's id where the trace
 * names every task of the process (Score-P's ThreadTaskCreate and
 * ThreadTaskSwitch records: the tags), else by source line. */
static void
key_tasks(const struct hy *y, struct task_ev *v, size_t nv)
{
	size_t tagged = 0;
	for (size_t i = 0; i < nv; i++) {
		uint32_t first, n;
		const struct trace_frame *fr = hybrid_place_frames(y->t, y->h, v[i].place, &first, &n);
		v[i].key = hy_tag(y, v[i].place, &fr[v[i].frame]);
		tagged += v[i].key != 0;
	}
	for (size_t i = 0; i < nv && tagged < nv; i++) {
		uint32_t first, n;
		const struct trace_frame *fr = hybrid_place_frames(y->t, y->h, v[i].place, &first, &n);
		v[i].key = y->task_key[fr[v[i].frame].region];
	}
}

int
omp_tasks(struct hy *y, uint32_t tl, const uint32_t *lanes, uint32_t n_lanes)
{
	uint32_t first, n;
	struct task_ev *v = NULL;
	struct child *ch = NULL;
	size_t nv = 0, cap = 0, nc = 0, cap_c = 0;
	int rc = 0;
	for (uint32_t i = 0; i <= n_lanes && !rc; i++) {
		uint32_t place = hy_thread_place(y, tl, lanes, n_lanes, i);
		if (place == TRACE_NONE)
			continue;
		const struct trace_frame *fr = hybrid_place_frames(y->t, y->h, place, &first, &n);
		for (uint32_t k = first; k < first + n && !rc; k++) {
			uint8_t c = cls_of(y, &fr[k]);
			if (c == HY_TASKWAIT)
				rc = add_child(&ch, &nc, &cap_c, (struct child){ fr[k].t_enter, fr[k].t_leave, 0, place,
										  task_of(y, fr, k), k, TRACE_NONE,
										  TRACE_NONE });
			if (c != HY_TASK && c != HY_TASK_CREATE)
				continue;
			if (VEC_GROW(v, nv, cap)) {
				rc = ERR_NOMEM;
				break;
			}
			v[nv++] = (struct task_ev){ fr[k].t_enter, fr[k].t_leave, 0, place, k, c == HY_TASK };
		}
	}
	key_tasks(y, v, nv);
	if (nv)
		qsort(v, nv, sizeof *v, by_task);
	/* per task (or line): creations, then runs, each in time order; the
	 * k-th run after the k-th creation */
	for (size_t a = 0; a < nv && !rc;) {
		size_t c0 = a, c1 = a;
		while (c1 < nv && v[c1].key == v[a].key && !v[c1].run)
			c1++;
		size_t r1 = c1;
		while (r1 < nv && v[r1].key == v[a].key)
			r1++;
		for (size_t k = 0; k < c1 - c0 && c1 + k < r1 && !rc; k++) {
			const struct task_ev *cr = &v[c0 + k], *ru = &v[c1 + k];
			if (ru->enter < cr->enter)
				continue;
			const struct trace_frame *fr = hybrid_place_frames(y->t, y->h, cr->place, &first, &n);
			if (nc)      /* taskwaits wait for it */
				rc = add_child(&ch, &nc, &cap_c, (struct child){ cr->enter, cr->leave, ru->leave,
										  cr->place, task_of(y, fr, cr->frame),
										  cr->frame, ru->place, ru->frame });
			if (rc || cr->place == ru->place)
				continue;
			uint64_t by_at = cr->leave < ru->enter ? cr->leave : ru->enter;
			rc = hy_add_edge(y, ru->enter, ru->place, ru->frame, by_at, cr->place, cr->frame, TRACE_NONE);
			y->h->tasks += !rc;
		}
		a = r1;
	}
	if (!rc)
		rc = taskwaits(y, ch, nc);
	free(v);
	free(ch);
	return rc;
}
