/* skeintrace-comm.c — the communicators the tracer knows, and the wrappers
 * of the calls that create and free them.
 *
 * A communicator gets a local id when it is created (0 is MPI_COMM_WORLD,
 * 1 MPI_COMM_SELF). Its members agree on a key for it at creation — the
 * world rank of its rank 0 (the leader) and the leader's registration
 * counter, broadcast on the new communicator — so that MPI_Finalize can
 * give every communicator one global OTF2 comm id. Lookup goes through
 * PMPI_Comm_c2f, an int under both MPICH and Open MPI; an attribute with a
 * delete callback drops the entry however the communicator is freed. */
#include "skeintrace-int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Open addressing, linear probing, backward-shift deletion. */
struct comm_slot {
    uint32_t key;
    int32_t id; /* -1: empty */
};
static struct comm_slot *slots;
static uint32_t nslots, nused;

static uint32_t
comm_hash(uint32_t key)
{
    return (key * 2654435761u) & (nslots - 1);
}

static int
comm_insert(uint32_t key, int32_t id)
{
    if (2 * (nused + 1) > nslots) {
        uint32_t old_n = nslots;
        struct comm_slot *old = slots;
        struct comm_slot *grown = malloc((size_t)(old_n ? 2 * old_n : 64) * sizeof *grown);
        if (!grown)
            return -1;
        slots = grown;
        nslots = old_n ? 2 * old_n : 64;
        nused = 0;
        for (uint32_t i = 0; i < nslots; i++)
            slots[i].id = -1;
        for (uint32_t i = 0; i < old_n; i++)
            if (old[i].id >= 0)
                comm_insert(old[i].key, old[i].id);
        free(old);
    }
    uint32_t h = comm_hash(key);
    while (slots[h].id >= 0 && slots[h].key != key)
        h = (h + 1) & (nslots - 1);
    if (slots[h].id < 0)
        nused++;
    slots[h].key = key;
    slots[h].id = id;
    return 0;
}

static int32_t
comm_find(uint32_t key)
{
    if (!slots)
        return -1;
    for (uint32_t h = comm_hash(key);; h = (h + 1) & (nslots - 1)) {
        if (slots[h].id < 0)
            return -1;
        if (slots[h].key == key)
            return slots[h].id;
    }
}

static void
comm_remove(uint32_t key, int32_t id)
{
    uint32_t h, j;

    if (!slots)
        return;
    for (h = comm_hash(key); slots[h].id >= 0; h = (h + 1) & (nslots - 1))
        if (slots[h].key == key)
            break;
    if (slots[h].id != id)
        return;
    /* Shift back the entries after the hole that hash at or before it. */
    for (j = (h + 1) & (nslots - 1); slots[j].id >= 0; j = (j + 1) & (nslots - 1)) {
        uint32_t home = comm_hash(slots[j].key);
        if (((j - home) & (nslots - 1)) >= ((j - h) & (nslots - 1))) {
            slots[h] = slots[j];
            h = j;
        }
    }
    slots[h].id = -1;
    nused--;
}

static int
comm_deleted(MPI_Comm comm, int keyval, void *attribute, void *extra)
{
    int32_t id = (int32_t)(intptr_t)attribute;

    (void)comm;
    (void)keyval;
    (void)extra;
    if (st.comms && id >= 0 && (uint32_t)id < st.ncomms)
        comm_remove(st.comms[id].fkey, id);
    return MPI_SUCCESS;
}

static int32_t
comm_append(const struct st_comm *c)
{
    if (st.ncomms == st.capcomms) {
        uint32_t cap = st.capcomms ? 2 * st.capcomms : 16;
        struct st_comm *grown = realloc(st.comms, cap * sizeof *grown);
        if (!grown)
            return -1;
        st.comms = grown;
        st.capcomms = cap;
    }
    st.comms[st.ncomms] = *c;
    return (int32_t)st.ncomms++;
}

int
st_comm_setup(void)
{
    struct st_comm world = { -1, 0, -1, 0, st.size, st.rank, 0, NULL };
    struct st_comm self = { -2, 0, -1, 0, 1, 0, 0, NULL };

    if (PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, comm_deleted, &st.keyval, NULL) != MPI_SUCCESS)
        return -1;
    world.fkey = (uint32_t)PMPI_Comm_c2f(MPI_COMM_WORLD);
    self.fkey = (uint32_t)PMPI_Comm_c2f(MPI_COMM_SELF);
    if (comm_append(&world) != 0 || comm_append(&self) != 1)
        return -1;
    return 0;
}

void
st_comm_teardown(void)
{
    for (uint32_t i = 0; i < st.ncomms; i++)
        free(st.comms[i].members);
    free(st.comms);
    st.comms = NULL;
    st.ncomms = st.capcomms = 0;
    free(slots);
    slots = NULL;
    nslots = nused = 0;
}

static int
comm_lookup_quiet(MPI_Comm comm)
{
    if (comm == MPI_COMM_WORLD)
        return 0;
    if (comm == MPI_COMM_SELF)
        return 1;
    if (comm == MPI_COMM_NULL)
        return -1;
    return comm_find((uint32_t)PMPI_Comm_c2f(comm));
}

int
st_comm_lookup(MPI_Comm comm)
{
    int id = comm_lookup_quiet(comm);

    if (id < 0)
        st.untracked++;
    return id;
}

void
st_comm_register(MPI_Comm newcomm, MPI_Comm parent)
{
    struct st_comm c;
    int32_t key[2];
    int inter = 0, size = 0, rank = 0, id;

    if (newcomm == MPI_COMM_NULL)
        return;
    if (PMPI_Comm_test_inter(newcomm, &inter) != MPI_SUCCESS || inter)
        return;
    PMPI_Comm_size(newcomm, &size);
    PMPI_Comm_rank(newcomm, &rank);
    key[0] = st.rank;
    key[1] = (int32_t)st.seq++;
    PMPI_Bcast(key, 2, MPI_INT32_T, 0, newcomm);

    memset(&c, 0, sizeof c);
    c.leader = key[0];
    c.seq = (uint32_t)key[1];
    c.parent = comm_lookup_quiet(parent);
    c.depth = c.parent >= 0 ? st.comms[c.parent].depth + 1 : 1;
    c.size = size;
    c.myrank = rank;
    c.fkey = (uint32_t)PMPI_Comm_c2f(newcomm);
    if (rank == 0 && size > 1) {
        MPI_Group group;
        int *local = malloc((size_t)size * sizeof *local);
        c.members = malloc((size_t)size * sizeof *c.members);
        if (!local || !c.members) {
            free(local);
            free(c.members);
            st_fail("communicator definition", OTF2_ERROR_MEM_ALLOC_FAILED);
            return;
        }
        for (int i = 0; i < size; i++)
            local[i] = i;
        PMPI_Comm_group(newcomm, &group);
        PMPI_Group_translate_ranks(group, size, local, st.world_group, c.members);
        PMPI_Group_free(&group);
        free(local);
    }
    id = comm_append(&c);
    if (id < 0 || comm_insert(c.fkey, id) != 0) {
        free(c.members);
        st_fail("communicator table", OTF2_ERROR_MEM_ALLOC_FAILED);
        return;
    }
    PMPI_Comm_set_attr(newcomm, st.keyval, (void *)(intptr_t)id);
}

/* ---- wrappers ----------------------------------------------------------- */

/* Enter, create, register, Leave: the registration's broadcast is timed
 * inside the creating call, where MPI does similar work anyway. */
#define ST_COMM_CREATE(REGION, PARENT, NEWCOMM, CALL) \
    do { \
        int rc_; \
        if (st_tl != ST_IDLE) \
            return CALL; \
        st_enter(REGION); \
        rc_ = CALL; \
        if (rc_ == MPI_SUCCESS) \
            st_comm_register(*(NEWCOMM), PARENT); \
        st_leave(st_now(), REGION); \
        return rc_; \
    } while (0)

int
MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    ST_COMM_CREATE(ST_R_COMM_SPLIT, comm, newcomm, PMPI_Comm_split(comm, color, key, newcomm));
}

int
MPI_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info, MPI_Comm *newcomm)
{
    ST_COMM_CREATE(ST_R_COMM_SPLIT_TYPE, comm, newcomm,
                   PMPI_Comm_split_type(comm, type, key, info, newcomm));
}

int
MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    ST_COMM_CREATE(ST_R_COMM_DUP, comm, newcomm, PMPI_Comm_dup(comm, newcomm));
}

int
MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    ST_COMM_CREATE(ST_R_COMM_DUP_WITH_INFO, comm, newcomm, PMPI_Comm_dup_with_info(comm, info, newcomm));
}

int
MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    ST_COMM_CREATE(ST_R_COMM_CREATE, comm, newcomm, PMPI_Comm_create(comm, group, newcomm));
}

int
MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    ST_COMM_CREATE(ST_R_COMM_CREATE_GROUP, comm, newcomm, PMPI_Comm_create_group(comm, group, tag, newcomm));
}

int
MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder,
                MPI_Comm *newcomm)
{
    ST_COMM_CREATE(ST_R_CART_CREATE, comm, newcomm,
                   PMPI_Cart_create(comm, ndims, dims, periods, reorder, newcomm));
}

int
MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    ST_COMM_CREATE(ST_R_CART_SUB, comm, newcomm, PMPI_Cart_sub(comm, remain_dims, newcomm));
}

int
MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[], int reorder,
                 MPI_Comm *newcomm)
{
    ST_COMM_CREATE(ST_R_GRAPH_CREATE, comm, newcomm,
                   PMPI_Graph_create(comm, nnodes, index, edges, reorder, newcomm));
}

int
MPI_Dist_graph_create(MPI_Comm comm, int n, const int sources[], const int degrees[],
                      const int destinations[], const int weights[], MPI_Info info, int reorder,
                      MPI_Comm *newcomm)
{
    ST_COMM_CREATE(ST_R_DIST_GRAPH_CREATE, comm, newcomm,
                   PMPI_Dist_graph_create(comm, n, sources, degrees, destinations, weights, info,
                                          reorder, newcomm));
}

int
MPI_Dist_graph_create_adjacent(MPI_Comm comm, int indegree, const int sources[],
                               const int sourceweights[], int outdegree, const int destinations[],
                               const int destweights[], MPI_Info info, int reorder, MPI_Comm *newcomm)
{
    ST_COMM_CREATE(ST_R_DIST_GRAPH_CREATE_ADJACENT, comm, newcomm,
                   PMPI_Dist_graph_create_adjacent(comm, indegree, sources, sourceweights, outdegree,
                                                   destinations, destweights, info, reorder, newcomm));
}

int
MPI_Comm_free(MPI_Comm *comm)
{
    int rc;

    if (st_tl != ST_IDLE)
        return PMPI_Comm_free(comm);
    st_enter(ST_R_COMM_FREE);
    rc = PMPI_Comm_free(comm); /* the attribute callback forgets it */
    st_leave(st_now(), ST_R_COMM_FREE);
    return rc;
}
