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
    for (uint32_t i = 0; i < st.ncomms; i++) {
        free(st.comms[i].members);
        free(st.comms[i].rmembers);
    }
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

/* World ranks of a group's members, in group rank order; NULL on failure. */
static int32_t *
world_ranks(MPI_Group group, int n)
{
    int *local = malloc((size_t)(n ? n : 1) * sizeof *local);
    int32_t *world = malloc((size_t)(n ? n : 1) * sizeof *world);

    if (!local || !world) {
        free(local);
        free(world);
        return NULL;
    }
    for (int i = 0; i < n; i++)
        local[i] = i;
    PMPI_Group_translate_ranks(group, n, local, st.world_group, world);
    free(local);
    return world;
}

/* Add newcomm, named (leader, seq), child of local comm parent (or -1).
 * The leader (the process that named it) also keeps its members; an
 * intercommunicator's both groups. */
static void
comm_add(MPI_Comm newcomm, int32_t parent, int32_t leader, uint32_t seq, int inter, int is_leader)
{
    struct st_comm c;
    int id;

    memset(&c, 0, sizeof c);
    c.leader = leader;
    c.seq = seq;
    c.parent = parent;
    c.inter = inter;
    st_lock();
    c.depth = c.parent >= 0 ? st.comms[c.parent].depth + 1 : 1;
    st_unlock();
    PMPI_Comm_size(newcomm, &c.size);
    PMPI_Comm_rank(newcomm, &c.myrank);
    if (inter)
        PMPI_Comm_remote_size(newcomm, &c.rsize);
    c.fkey = (uint32_t)PMPI_Comm_c2f(newcomm);
    if (is_leader && (c.size > 1 || inter)) {
        MPI_Group group;
        PMPI_Comm_group(newcomm, &group);
        c.members = world_ranks(group, c.size);
        PMPI_Group_free(&group);
        if (inter) {
            PMPI_Comm_remote_group(newcomm, &group);
            c.rmembers = world_ranks(group, c.rsize);
            PMPI_Group_free(&group);
        }
        if (!c.members || (inter && !c.rmembers)) {
            free(c.members);
            free(c.rmembers);
            st_fail("communicator definition", OTF2_ERROR_MEM_ALLOC_FAILED);
            return;
        }
    }
    st_lock();
    id = comm_append(&c);
    if (id >= 0 && comm_insert(c.fkey, id) != 0)
        id = -1;
    st_unlock();
    if (id < 0) {
        free(c.members);
        free(c.rmembers);
        st_fail("communicator table", OTF2_ERROR_MEM_ALLOC_FAILED);
        return;
    }
    PMPI_Comm_set_attr(newcomm, st.keyval, (void *)(intptr_t)id);
}

/* An intercommunicator's remote group is in MPI_COMM_WORLD — not one to
 * processes of another MPI_COMM_WORLD (MPI_Comm_spawn, connect, join),
 * which this archive has no locations for. Every member of the local
 * group sees the same remote group, so they agree; a remote group in
 * another world sees this one as foreign too. */
static int
in_world(MPI_Comm inter)
{
    MPI_Group remote;
    int n = 0, ok;
    int32_t *world;

    if (PMPI_Comm_remote_group(inter, &remote) != MPI_SUCCESS)
        return 0;
    PMPI_Group_size(remote, &n);
    world = world_ranks(remote, n);
    PMPI_Group_free(&remote);
    ok = world != NULL;
    for (int i = 0; ok && i < n; i++)
        ok = world[i] != MPI_UNDEFINED;
    free(world);
    return ok;
}

/* The members of a new communicator agree on its name: the world rank of
 * one of them and that rank's counter, broadcast. An intercommunicator's
 * two groups are merged into an intracommunicator for the broadcast
 * (every member of both is in the constructor), and its name comes from
 * the merged rank 0. */
void
st_comm_register(MPI_Comm newcomm, MPI_Comm parent)
{
    MPI_Comm merged = MPI_COMM_NULL;
    int32_t key[2];
    int inter = 0, mrank = 0;

    if (newcomm == MPI_COMM_NULL)
        return;
    if (PMPI_Comm_test_inter(newcomm, &inter) != MPI_SUCCESS)
        return;
    if (inter && (!in_world(newcomm) || PMPI_Intercomm_merge(newcomm, 0, &merged) != MPI_SUCCESS))
        return;
    key[0] = st.rank;
    st_lock();
    key[1] = (int32_t)st.seq++;
    st_unlock();
    if (inter) {
        PMPI_Comm_rank(merged, &mrank);
        PMPI_Bcast(key, 2, MPI_INT32_T, 0, merged);
        PMPI_Comm_free(&merged);
        comm_add(newcomm, -1, key[0], (uint32_t)key[1], 1, mrank == 0);
        return;
    }
    PMPI_Bcast(key, 2, MPI_INT32_T, 0, newcomm);
    comm_add(newcomm, st_comm_find(parent), key[0], (uint32_t)key[1], 0, key[0] == st.rank);
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

    int inter;

    if (rc != MPI_SUCCESS || (e.comm = st_comm_lookup(k, comm)) < 0)
        return;
    st_lock();
    inter = st.comms[e.comm].inter;
    e.peer = (int32_t)st.comms[e.comm].nidup++;
    st_unlock();
    if (inter) { /* its name cannot be made without communication */
        st_unrecorded(k->fn, ST_WHY_INTERCOLL);
        return;
    }
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
        comm_add(c, e->comm, leader, 0x80000000u | (uint32_t)(st_hash(h, sizeof h) & 0x7fffffffu), 0,
                 leader == st.rank);
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
