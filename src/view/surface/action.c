/* action.c — the action table (see action.h). */
#include "action.h"

#include <string.h>

static const struct action_info actions[ACT_COUNT] = {
	[ACT_NONE]           = { "none", "", "do nothing" },
	[ACT_MOVE_LEFT]      = { "move-left", "Moving", "previous step (column)" },
	[ACT_MOVE_RIGHT]     = { "move-right", "Moving", "next step (column)" },
	[ACT_MOVE_UP]        = { "move-up", "Moving", "previous rank (row)", "previous chare (row)" },
	[ACT_MOVE_DOWN]      = { "move-down", "Moving", "next rank (row)", "next chare (row)" },
	[ACT_PAGE_LEFT]      = { "page-left", "Moving", "one screen of steps left" },
	[ACT_PAGE_RIGHT]     = { "page-right", "Moving", "one screen of steps right" },
	[ACT_PAGE_UP]        = { "page-up", "Moving", "one screen of ranks up", "one screen of chares up" },
	[ACT_PAGE_DOWN]      = { "page-down", "Moving", "one screen of ranks down", "one screen of chares down" },
	[ACT_FIRST_STEP]     = { "first-step", "Moving", "first step of the trace" },
	[ACT_LAST_STEP]      = { "last-step", "Moving", "last step of the trace" },
	[ACT_FIRST_RANK]     = { "first-rank", "Moving", "first rank", "first chare" },
	[ACT_LAST_RANK]      = { "last-rank", "Moving", "last rank", "last chare" },
	[ACT_NEXT_PARTITION] = { "next-partition", "Jumping", "next partition on this rank", "next phase on this chare" },
	[ACT_PREV_PARTITION] = { "prev-partition", "Jumping", "previous partition on this rank", "previous phase on this chare" },
	[ACT_NEXT_HOTSPOT]   = { "next-hotspot", "Jumping", "next problem (largest first): delay, lateness lost, outlier", "next hotspot (largest differential duration first)" },
	[ACT_PREV_HOTSPOT]   = { "prev-hotspot", "Jumping", "previous problem (or hotspot)" },
	[ACT_GOTO_CAUSE]     = { "goto-cause", "Jumping", "operation the selection's lateness came from", "execution that invoked the selected one (its creation)" },
	[ACT_SEARCH]         = { "search", "Jumping", "search operations by region name" },
	[ACT_SEARCH_NEXT]    = { "search-next", "Jumping", "next search match" },
	[ACT_SEARCH_PREV]    = { "search-prev", "Jumping", "previous search match" },
	[ACT_COMMAND]        = { "command", "Jumping", "command line: step N, rank N, iter N, metric M, zoom N [R], clusters K", "command line: step N, rank N (a chare's row), iter N, metric M, zoom N [R], clusters K" },
	[ACT_NEXT_PANE]      = { "next-pane", "Viewing", "focus the next pane" },
	[ACT_PREV_PANE]      = { "prev-pane", "Viewing", "focus the previous pane" },
	[ACT_ZOOM_IN]        = { "zoom-in", "Viewing", "fewer steps per column" },
	[ACT_ZOOM_OUT]       = { "zoom-out", "Viewing", "more steps per column (maximum shown)" },
	[ACT_ZOOM_RANKS_IN]  = { "zoom-ranks-in", "Viewing", "fewer ranks per row", "fewer chares per row" },
	[ACT_ZOOM_RANKS_OUT] = { "zoom-ranks-out", "Viewing", "more ranks per row (maximum shown)", "more chares per row (maximum shown)" },
	[ACT_ZOOM_FIT]       = { "zoom-fit", "Viewing", "zoom out until the whole trace fits" },
	[ACT_ZOOM_RESET]     = { "zoom-reset", "Viewing", "one step per column, one rank per row", "one step per column, one chare per row" },
	[ACT_METRIC_NEXT]    = { "metric-next", "Viewing", "colour by the next metric" },
	[ACT_METRIC_PREV]    = { "metric-prev", "Viewing", "colour by the previous metric" },
	[ACT_STARTUP]        = { "startup", "Viewing", "count each rank's start-up (before its first communication) in scales, time axes and hotspots, or leave it out", "count the runtime's entries and the chares' set-up (constructors, work before their first message) among the hotspots, or leave them out" },
	[ACT_HELP]           = { "help", "Viewing", "this help" },
	[ACT_CLOSE]          = { "close", "Viewing", "close the overlay or command line" },
	[ACT_REDRAW]         = { "redraw", "Viewing", "redraw the whole screen" },
	[ACT_QUIT]           = { "quit", "Viewing", "quit (closes the help first)" },
	[ACT_CLUSTERS]       = { "clusters", "Clusters", "rows: ranks, or ranks clustered by lateness", "rows: chares, or chares clustered by lateness" },
	[ACT_CLUSTER_TOGGLE] = { "cluster-toggle", "Clusters", "expand the selected cluster into its ranks, or collapse it", "expand the selected cluster into its chares, or collapse it" },
	[ACT_CLUSTER_SPLIT]  = { "cluster-split", "Clusters", "one cluster more: split the last ones joined" },
	[ACT_CLUSTER_JOIN]   = { "cluster-join", "Clusters", "one cluster fewer: join the two most alike" },
	[ACT_CLUSTER_EXPAND_ALL] = { "cluster-expand-all", "Clusters", "expand every cluster (ranks ordered by cluster)", "expand every cluster (chares ordered by cluster)" },
	[ACT_CLUSTER_COLLAPSE_ALL] = { "cluster-collapse-all", "Clusters", "collapse every cluster" },
	[ACT_TOPOLOGY]       = { "topology", "Panes", "topology pane: where ranks run, shaded by a metric (again: details)", "topology pane: where chares run (their PEs), shaded by a metric (again: details)" },
	[ACT_HISTOGRAM]      = { "histogram", "Panes", "histogram pane: distributions, activity, density (again: details)" },
	[ACT_PANE_MODE]      = { "pane-mode", "Panes", "topology: tree, icicle, radial; histogram: the next kind" },
	[ACT_PANE_METRIC]    = { "pane-metric", "Panes", "topology: the metric; histogram: log/linear counts or opacity map" },
	[ACT_PANE_SCOPE]     = { "pane-scope", "Panes", "whole trace, the selected partition, or the steps in view (profile, communication, lists: also the iteration and the timeline's window)", "whole trace, the selected phase, or the steps in view (profile, communication, lists: also the iteration and the timeline's window)" },
	[ACT_PANE_ENDS]      = { "pane-ends", "Panes", "density plot: calls at their start or their end time" },
	[ACT_PROFILE]        = { "profile", "Panes", "profile: time per region, its spread over the ranks (again: back)", "profile: time per entry method, its spread over the chares (again: back)" },
	[ACT_COMM]           = { "communication", "Panes", "communication: who sends how much to whom, sizes, collectives (again: back)" },
	[ACT_LISTS]          = { "lists", "Panes", "lists: problems, hotspots, wait states, lateness per rank, warnings (again: back)", "lists: hotspots, lateness per chare, warnings (again: back)" },
	[ACT_TIMELINE]       = { "timeline", "Panes", "the physical timeline in the whole screen, zoomable in time (again: back)" },
	[ACT_SELECT_OR]      = { "select-or", ACTION_GROUP_SAMPLES, "add what the cursor is on to the selection (OR)" },
	[ACT_SELECT_AND]     = { "select-and", ACTION_GROUP_SAMPLES, "keep only the selected samples the cursor is on (AND)" },
	[ACT_SELECT_CLEAR]   = { "select-clear", ACTION_GROUP_SAMPLES, "clear the selection" },
	[ACT_SELECT_MARK]    = { "select-mark", ACTION_GROUP_SAMPLES, "histograms: start a range at the cursor (again: drop it); a trace's timeline: mark a window of time" },
};

const struct action_info *
action_info(enum action a)
{
	if ((unsigned)a >= ACT_COUNT)
		a = ACT_NONE;
	return &actions[a];
}

const char *
action_help(enum action a, int charm)
{
	const struct action_info *ai = action_info(a);
	return charm && ai->charm ? ai->charm : ai->help;
}

enum action
action_find(const char *name)
{
	for (int i = 1; i < ACT_COUNT; i++)
		if (strcmp(actions[i].name, name) == 0)
			return (enum action)i;
	return ACT_NONE;
}
