/* view_topo_impl.h — the topology pane's state, shared by view_topo.c
 * (loading, the tree, actions) and view_topo_shapes.c (the icicle and
 * radial drawings). Private to the pane. */
#ifndef SKEIN_VIEW_TOPO_IMPL_H
#define SKEIN_VIEW_TOPO_IMPL_H

#include "view_impl.h"

#include "topo/topo.h"

#define TAU 6.283185307179586

enum { TM_TREE, TM_ICICLE, TM_RADIAL, TM_COUNT };
enum { TMET_DIFF, TMET_LATENESS, TMET_HOTSPOTS, TMET_COUNT };

struct view_topo {
	char *xml, *synth;
	char *this_host, *this_machine;   /* view_opts' */
	struct topo_place_opts place;  /* place.pu owned (a copy) */
	int state;                 /* 0 not loaded yet, 1 loaded, -1 failed */
	char error[sizeof ((struct err *)0)->msg];
	struct topo *t;
	const struct topo_obj *obj;
	uint32_t n_obj, n_ranks, n_pu, max_depth;
	uint32_t *pu_of;           /* rank -> PU */
	double *per_rank, *per_obj, *depth_max;
	uint8_t *collapsed;
	uint32_t *line, n_line;    /* tree: the objects shown, in order */
	int name_w;                /* tree: the columns their names need */
	uint32_t sel;              /* the selected object */
	int scroll, rows, fitted;
	int disc_w;                /* radial: columns of the disc */
	struct rlabel { int x, y, style; char text[32]; } rl[24];   /* radial: names on the disc */
	int n_rl;
	char leg[16][128];         /* radial: the legend beside the disc */
	int n_leg;
	int system_tree;           /* the trace's nodes and ranks, no hardware */
	char note[200];            /* said above the drawing, or "" */
	char note_short[100];      /* the note in a low pane, or "" */
	char note_line[4][200];    /* the note wrapped to the pane */
	int n_note;
	int mode, metric, scope;
	uint64_t key[6];
	int valid;
	int samples;               /* the samples provider (t borrowed from them) */
	double *link, *link_max;   /* samples: transactions to the parent; per depth */
	double *below;             /* samples: cycles issued below, for the header's chain */
};

/* view_topo.c: an object's name, in full ("NUMANode P#3"), brief (1:
 * "N3") or medium (2: "NUMA 3") */
void vt_obj_label(const struct view_topo *vt, uint32_t i, int brief, char *buf, size_t n);
const char *vt_value_text(const struct view_topo *vt, double x, char *buf, size_t n);
/* 0 for nothing, 1..7 relative to the hottest object of the same depth */
int vt_heat(const struct view_topo *vt, uint32_t i);
/* a link's traffic relative to the busiest link of its depth, 0..3 */
int vt_link_level(const struct view_topo *vt, uint32_t i);
int vt_holds_pu(const struct view_topo *vt, uint32_t obj, uint32_t pu);

/* view_topo_shapes.c */
uint32_t vt_same_depth(const struct view_topo *vt, uint32_t i, int dir);
/* the object of depth d at the fraction f of the PUs */
uint32_t vt_obj_at(const struct view_topo *vt, double f, uint32_t d);
/* s in at most cols columns and n bytes, cut as text_cut cuts ("…"),
 * never inside a character; at most 256 bytes of out are used */
void vt_fit_text(const char *s, int cols, char *out, size_t n);
void vt_radial_layout(struct view *v, int w);
void vt_icicle_row(struct view *v, int y, struct grid *row);
void vt_radial_row(struct view *v, int y, struct grid *row);

#endif
