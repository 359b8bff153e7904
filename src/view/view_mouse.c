/* view_mouse.c — clicks and the wheel (issue 12).
 *
 * A mouse event arrives as a key code (keymap_mouse) with a screen cell.
 * The pane under it takes the focus; the pane's mouse handler (struct
 * view_ops) gets the cell inside its box: the grid selects the clicked
 * cell, the overview jumps to the clicked step, the timeline selects the
 * operation running at the clicked time, the topology tree selects and
 * opens the clicked object. The wheel is three moves up or down in the
 * pane under the pointer (scrolling the details, help and tree), unless
 * the pane says otherwise. With the help open, the wheel scrolls it and
 * a click outside closes it.
 */
#include "view_impl.h"

#define WHEEL_LINES 3

static int
inside(struct rect r, int x, int y)
{
	return x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h;
}

static void
wheel(struct view *v, enum km_mouse_kind kind, enum action up, enum action down)
{
	for (int i = 0; i < WHEEL_LINES; i++)
		view_action(v, kind == MOUSE_WHEEL_UP ? up : down);
}

void
view_mouse(struct view *v, uint32_t key)
{
	enum km_mouse_kind kind;
	int x, y;
	if (!keymap_mouse_decode(key, &kind, &x, &y) || v->tiny)
		return;
	if (v->help_open) {
		if (kind == MOUSE_WHEEL_UP || kind == MOUSE_WHEEL_DOWN)
			wheel(v, kind, ACT_MOVE_UP, ACT_MOVE_DOWN);
		else if (kind == MOUSE_LEFT && !inside(v->pane[PANE_HELP], x, y) && v->solo != PANE_HELP)
			view_action(v, ACT_CLOSE);
		return;
	}
	if (kind == MOUSE_RELEASE) {
		/* only a drag in the timeline wants it, wherever it ends */
		struct rect r = v->pane[PANE_TIMELINE];
		if (v->tz_drag && v->shown[PANE_TIMELINE])
			view_pane_ops(PANE_TIMELINE)->mouse(v, kind, x - r.x - 1, y - r.y - 1);
		return;
	}
	int id = -1;
	for (int i = 0; i < PANE_HELP && id < 0; i++)
		if (v->shown[i] && inside(v->pane[i], x, y))
			id = i;
	if (id < 0)
		return;                       /* the status line and the footer */
	const struct view_ops *ops = view_pane_ops(id);
	if (ops->focusable)
		v->focus = id;
	struct rect r = v->pane[id];
	int ix = x - r.x - 1, iy = y - r.y - 1;
	if (ix < 0 || iy < 0 || ix >= r.w - 2 || iy >= r.h - 2)
		return;                       /* the border: focus only */
	if (ops->mouse && ops->mouse(v, kind, ix, iy))
		return;
	if (kind == MOUSE_WHEEL_UP || kind == MOUSE_WHEEL_DOWN)
		wheel(v, kind, ACT_MOVE_UP, ACT_MOVE_DOWN);
}
