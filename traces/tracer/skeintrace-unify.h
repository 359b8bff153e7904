/* skeintrace-unify.h — rank 0's model of every rank's definitions at
 * MPI_Finalize, shared by the exchange (skeintrace-unify.c: packing,
 * reading, deciding global ids) and the writing of the global definitions
 * (skeintrace-defs.c). Private to those two files. */
#ifndef SKEINTRACE_UNIFY_H
#define SKEINTRACE_UNIFY_H

#include "skeintrace-int.h"

enum { GROUP_LOCATIONS = 0, GROUP_WORLD = 1, GROUP_SELF = 2 };
#define NO_PARENT INT32_MIN

struct gcomm {
    int32_t leader, pleader;
    uint32_t seq, pseq, depth, size;
    int32_t *members; /* world ranks, from the leader's record */
    uint32_t gid, group;
    uint32_t inter, rsize, rgroup; /* an intercommunicator: its remote group */
    int32_t *rmembers;
};

/* A COMM_GROUP's members (world ranks), owned by a gcomm. */
struct glist {
    const int32_t *members;
    uint32_t n;
};

struct rankinfo {
    uint64_t t_start, t_stop, rt_start;
    uint32_t node, nlocs;
    size_t locs_at, comms_at, users_at, wins_at, groups_at; /* offsets of the records */
};

struct gwin {
    int32_t leader, cleader;
    uint32_t seq, cseq, gid;
};

struct model {
    OTF2_GlobalDefWriter *gw; /* NULL: decide ids, write nothing */
    int failed;
    struct st_map strmap; /* written strings */
    char **strs;
    uint32_t nstr, capstr;
    struct st_map nodemap; /* host names, pointing into the blobs */
    const char **nodes;
    uint32_t nnodes, capnodes;
    struct st_map commmap;
    struct gcomm *comms;
    uint32_t ncomms, capcomms;
    uint32_t *order; /* comm indices by global id */
    struct st_map groupmap;
    struct glist *glists; /* the COMM_GROUPs beyond the three fixed groups, by id */
    uint32_t ngroups, capglists;
    struct st_map regmap; /* user region names, pointing into the blobs */
    const char **regions;
    uint32_t nregions, capregions;
    uint32_t nused;        /* MPI functions some rank recorded */
    struct st_map winmap;
    struct gwin *wins;
    uint32_t nwins, capwins;
    struct st_map rgroupmap; /* RMA groups: member lists, pointing into the blobs */
    const void **rgroups;
    uint32_t *rgroup_n;
    uint32_t nrgroups, caprgroups;
};

#define WRITE(m, call) \
    do { \
        if ((m)->gw) \
            st_defs_check((m), (call)); \
    } while (0)
void st_defs_check(struct model *m, OTF2_ErrorCode e);


/* skeintrace-unify.c */
void *st_grow(struct model *m, void *array, uint32_t *cap, size_t elem);
uint64_t st_comm_key(int32_t leader, uint32_t seq);
/* Index in m->comms of the communicator named (leader, seq), or UINT32_MAX. */
uint32_t st_find_comm(const struct model *m, int32_t leader, uint32_t seq);

/* skeintrace-defs.c: write every global definition, in Score-P's order. */
void st_defs_write(struct model *m, const struct st_buf *blobs, const struct rankinfo *ri, int n);

#endif
