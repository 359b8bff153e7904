/* skeintrace-comm.c — the communicators the tracer knows, and the wrappers
 * of the calls that create and free them.
 *
 * A communicator gets a local id when it is created (0 is MPI_COMM_WORLD,
 * 1 MPI_COMM_SELF). Its members agree on a key for it at creation — the
 * world rank of its rank 0 (the leader) and the leader's registration
 * counter, broadcast on the new communicator — so that MPI_Finalize can
 * give every communicator one global OTF2 comm id. Lookup goes through
 * PMPI_Comm_c2f, an int under both MPICH and Open MPI; an attribute with a
 * delete callback drops the entry however the communicator is freed. The
 * calls that create communicators are generated (mpi.def, kind
 * comm_create) and register theirs here. */
#include "skeintrace-rec.h"

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
    st_lock();
    if (st.comms && id >= 0 && (uint32_t)id < st.ncomms)
        comm_remove(st.comms[id].fkey, id);
    st_unlock();
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
    struct st_comm world = { .leader = -1, .parent = -1, .size = st.size, .myrank = st.rank };
    struct st_comm self = { .leader = -2, .parent = -1, .size = 1 };

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

int
st_comm_find(MPI_Comm comm)
{
    int id;

    if (comm == MPI_COMM_WORLD)
        return 0;
    if (comm == MPI_COMM_SELF)
        return 1;
    if (comm == MPI_COMM_NULL)
        return -1;
    st_lock();
    id = comm_find((uint32_t)PMPI_Comm_c2f(comm));
    st_unlock();
    return id;
}

int
st_comm_lookup(struct st_call *k, MPI_Comm comm)
{
    int id = st_comm_find(comm);

    if (id < 0 && comm != MPI_COMM_NULL)
        st_unrecorded(k->fn, ST_WHY_COMM);
    return id;
}

/* Add newcomm, named (leader, seq), child of local comm parent (or -1). */
static void
comm_add(MPI_Comm newcomm, int32_t parent, int32_t leader, uint32_t seq)
{
    struct st_comm c;
    int size, rank, id;

    memset(&c, 0, sizeof c);
    c.leader = leader;
    c.seq = seq;
    c.parent = parent;
    st_lock();
    c.depth = c.parent >= 0 ? st.comms[c.parent].depth + 1 : 1;
    st_unlock();
    PMPI_Comm_size(newcomm, &c.size);
    PMPI_Comm_rank(newcomm, &c.myrank);
    size = c.size;
    rank = c.myrank;
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
    st_lock();
    id = comm_append(&c);
    if (id >= 0 && comm_insert(c.fkey, id) != 0)
        id = -1;
    st_unlock();
    if (id < 0) {
        free(c.members);
        st_fail("communicator table", OTF2_ERROR_MEM_ALLOC_FAILED);
        return;
    }
    PMPI_Comm_set_attr(newcomm, st.keyval, (void *)(intptr_t)id);
}

void
st_comm_register(MPI_Comm newcomm, MPI_Comm parent)
{
    int32_t key[2];
    int inter = 0;

    if (newcomm == MPI_COMM_NULL)
        return;
    if (PMPI_Comm_test_inter(newcomm, &inter) != MPI_SUCCESS || inter)
        return;
    key[0] = st.rank;
    st_lock();
    key[1] = (int32_t)st.seq++;
    st_unlock();
    PMPI_Bcast(key, 2, MPI_INT32_T, 0, newcomm);
    comm_add(newcomm, st_comm_find(parent), key[0], (uint32_t)key[1]);
}

/* MPI_Comm_idup: a non-blocking collective (NonBlockingCollectiveRequest,
 * and NonBlockingCollectiveComplete with CREATE_HANDLE where the request
 * completes). The new communicator is only usable then, and a broadcast
 * inside a Wait or Test could deadlock, so its name is made without one:
 * its leader is the parent's, and the counter of the leader's names is
 * replaced by the parent's name and the call's ordinal on the parent,
 * which every member knows (collectives are called in the same order),
 * hashed above the leader's own counters. */
void
st_comm_idup(struct st_call *k, int rc, MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    struct st_req e = { .comm = -1, .kind = REQ_IDUP };

    if (rc != MPI_SUCCESS || (e.comm = st_comm_lookup(k, comm)) < 0)
        return;
    st_lock();
    e.peer = (int32_t)st.comms[e.comm].nidup++;
    st_unlock();
    e.key = st_req_key(request, sizeof *request);
    e.id = st_next_id();
    e.out = k->fout ? k->fout : (void *)newcomm;
    e.fortran = k->fout != NULL;
    st_check(OTF2_EvtWriter_NonBlockingCollectiveRequest(st_me.evt, NULL, k->t0, e.id),
             "NonBlockingCollectiveRequest");
    st_req_put(&e);
}

void
st_comm_idup_complete(const struct st_req *e, uint64_t t)
{
    MPI_Comm c = e->fortran ? PMPI_Comm_f2c(*(const MPI_Fint *)e->out) : *(const MPI_Comm *)e->out;
    const struct st_comm *p;
    uint32_t h[3];
    int zero = 0, leader = 0;
    MPI_Group group;

    if (c != MPI_COMM_NULL && PMPI_Comm_group(c, &group) == MPI_SUCCESS) {
        PMPI_Group_translate_ranks(group, 1, &zero, st.world_group, &leader);
        PMPI_Group_free(&group);
        st_lock();
        p = &st.comms[e->comm];
        h[0] = (uint32_t)p->leader;
        h[1] = p->seq;
        h[2] = (uint32_t)e->peer;
        st_unlock();
        comm_add(c, e->comm, leader, 0x80000000u | (uint32_t)(st_hash(h, sizeof h) & 0x7fffffffu));
    }
    st_check(OTF2_EvtWriter_NonBlockingCollectiveComplete(st_me.evt, NULL, t, OTF2_COLLECTIVE_OP_CREATE_HANDLE,
                                                          (OTF2_CommRef)e->comm, OTF2_UNDEFINED_UINT32, 0, 0, e->id),
             "NonBlockingCollectiveComplete");
}

/* ---- groups named by RMA synchronisation ------------------------------------ */

int32_t
st_group_of(MPI_Group group)
{
    int n = 0, *local, *world;
    int32_t id = -1;

    if (group == MPI_GROUP_NULL || PMPI_Group_size(group, &n) != MPI_SUCCESS || n < 0)
        return -1;
    local = malloc((size_t)(n ? n : 1) * sizeof *local);
    world = malloc((size_t)(n ? n : 1) * sizeof *world);
    if (local && world) {
        for (int i = 0; i < n; i++)
            local[i] = i;
        PMPI_Group_translate_ranks(group, n, local, st.world_group, world);
        st_lock();
        for (uint32_t g = 0; g < st.ngroups && id < 0; g++)
            if (st.groups[g].n == (uint32_t)n && memcmp(st.groups[g].members, world, (size_t)n * sizeof *world) == 0)
                id = (int32_t)g;
        if (id < 0 && st.ngroups == st.capgroups) {
            uint32_t cap = st.capgroups ? 2 * st.capgroups : 16;
            struct st_group *grown = realloc(st.groups, cap * sizeof *grown);
            if (grown) {
                st.groups = grown;
                st.capgroups = cap;
            }
        }
        if (id < 0 && st.ngroups < st.capgroups) {
            st.groups[st.ngroups].n = (uint32_t)n;
            st.groups[st.ngroups].members = world;
            world = NULL;
            id = (int32_t)st.ngroups++;
        }
        st_unlock();
    }
    free(local);
    free(world);
    return id;
}
