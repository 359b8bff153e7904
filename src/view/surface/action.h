/* action.h — everything a user can ask the explorer to do.
 *
 * Views handle actions, never key codes. The table below is the one place
 * an action is named and described: key bindings (keymap.h) refer to
 * actions by name, and the help overlay is generated from this table and
 * the bindings, so the two cannot drift apart.
 */
#ifndef SKEIN_ACTION_H
#define SKEIN_ACTION_H

enum action {
	ACT_NONE,
	/* moving */
	ACT_MOVE_LEFT, ACT_MOVE_RIGHT, ACT_MOVE_UP, ACT_MOVE_DOWN,
	ACT_PAGE_LEFT, ACT_PAGE_RIGHT, ACT_PAGE_UP, ACT_PAGE_DOWN,
	ACT_FIRST_STEP, ACT_LAST_STEP, ACT_FIRST_RANK, ACT_LAST_RANK,
	/* jumping */
	ACT_NEXT_PARTITION, ACT_PREV_PARTITION,
	ACT_NEXT_HOTSPOT, ACT_PREV_HOTSPOT,
	ACT_GOTO_CAUSE,
	ACT_SEARCH, ACT_SEARCH_NEXT, ACT_SEARCH_PREV,
	ACT_COMMAND,
	/* viewing */
	ACT_NEXT_PANE, ACT_PREV_PANE,
	ACT_ZOOM_IN, ACT_ZOOM_OUT, ACT_ZOOM_RANKS_IN, ACT_ZOOM_RANKS_OUT,
	ACT_ZOOM_FIT, ACT_ZOOM_RESET,
	ACT_METRIC_NEXT, ACT_METRIC_PREV, ACT_STARTUP,
	ACT_HELP, ACT_CLOSE, ACT_REDRAW, ACT_QUIT,
	/* clustered rows */
	ACT_CLUSTERS, ACT_CLUSTER_TOGGLE, ACT_CLUSTER_SPLIT, ACT_CLUSTER_JOIN,
	ACT_CLUSTER_EXPAND_ALL, ACT_CLUSTER_COLLAPSE_ALL,
	/* topology and histogram panes */
	ACT_TOPOLOGY, ACT_HISTOGRAM, ACT_PANE_MODE, ACT_PANE_METRIC, ACT_PANE_SCOPE,
	ACT_PANE_ENDS,
	/* the panes after the hotspot, in the whole body */
	ACT_PROFILE, ACT_COMM, ACT_LISTS, ACT_TIMELINE,
	/* selecting samples (skein samples; cluster-toggle makes a new selection) */
	ACT_SELECT_OR, ACT_SELECT_AND, ACT_SELECT_CLEAR, ACT_SELECT_MARK,
	ACT_COUNT
};

struct action_info {
	const char *name;     /* as written in key bindings: "move-left" */
	const char *group;    /* heading in the help overlay */
	const char *help;     /* one line */
	const char *charm;    /* the line for a Charm++ run, or NULL: help */
};

/* The group of the actions only a sample set uses (skein samples): a
 * trace's help leaves it out, the sample set's help says what they do. */
#define ACTION_GROUP_SAMPLES "Samples (skein samples)"

/* The entry for a; a valid entry (ACT_NONE's) for values out of range. */
const struct action_info *action_info(enum action a);
/* What a does, in the words of a Charm++ run (chares, phases) when charm
 * is set. */
const char *action_help(enum action a, int charm);
/* The action called name, or ACT_NONE. */
enum action action_find(const char *name);

#endif
