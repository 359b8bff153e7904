/* skeintrace-unify.c — turn every rank's local view into one set of global
 * OTF2 definitions at MPI_Finalize, laid out as Score-P lays them out:
 *
 *   ClockProperties; strings (each written just before its first use);
 *   Paradigm MPI with its COMM_NAME_TEMPLATE property;
 *   SystemTreeNode "machine" (the OS name) > one "node" per host name;
 *   LocationGroup "MPI Rank r" (PROCESS) + Location "Master thread"
 *   (CPU_THREAD), both with id r, and "Thread i" (CPU_THREAD, id
 *   (i << 32) | r, as Score-P numbers thread locations) for each further
 *   thread of rank r that called MPI;
 *   Regions: the MPI functions some rank recorded, in mpi.def's order, then
 *   user regions (paradigm USER) in order of first use over ranks 0..N-1;
 *   Groups: 0 COMM_LOCATIONS (location of each world rank), 1 COMM_GROUP of
 *   MPI_COMM_WORLD (ranks 0..N-1), 2 COMM_SELF (no members, like Score-P:
 *   rank 0 is the location itself), then one COMM_GROUP per distinct
 *   member list, members given as world ranks;
 *   Comms: 0 MPI_COMM_WORLD, 1 MPI_COMM_SELF, then the created ones ordered
 *   by (depth, leader, leader's counter) so parents precede children.
 *   One-member communicators use the COMM_SELF group, as Score-P does;
 *   then the groups RmaGroupSync records name (COMM_GROUPs of world ranks);
 *   RmaWins, ordered by (leader, counter), each over its communicator.
 *
 * Each rank packs its record; rank 0 gathers, decides global ids, writes,
 * and scatters each rank's local-to-global maps back. */
#include "skeintrace-unify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- every rank: pack ---------------------------------------------------- */

static void
pack_comm_key(struct st_buf *b, int32_t id)
{
    if (id < 0) {
        st_put_u32(b, (uint32_t)NO_PARENT);
        st_put_u32(b, 0);
    } else {
        st_put_u32(b, (uint32_t)st.comms[id].leader);
        st_put_u32(b, st.comms[id].seq);
    }
}

static void
pack_local(struct st_buf *b)
{
    char host[256] = "unknown";

    if (gethostname(host, sizeof host - 1) != 0)
        strcpy(host, "unknown");
    host[sizeof host - 1] = '\0';
    st_put_u32(b, st.nlocs);
    for (uint32_t l = 0; l < st.nlocs; l++)
        st_put_u64(b, st.locs[l].nevents);
    st_put_u64(b, st.t_start);
    st_put_u64(b, st.t_stop);
    st_put_u64(b, st.rt_start);
    st_put_str(b, host);
    st_put_u32(b, st.ncomms);
    for (uint32_t i = 0; i < st.ncomms; i++) {
        const struct st_comm *c = &st.comms[i];
        uint32_t nmem = c->members ? (uint32_t)c->size : 0;
        pack_comm_key(b, (int32_t)i);
        pack_comm_key(b, c->parent);
        st_put_u32(b, c->depth);
        st_put_u32(b, (uint32_t)c->size);
        st_put_u32(b, nmem);
        if (nmem)
            st_put(b, c->members, nmem * sizeof *c->members);
        nmem = c->rmembers ? (uint32_t)c->rsize : 0;
        st_put_u32(b, (uint32_t)c->inter);
        st_put_u32(b, (uint32_t)c->rsize);
        st_put_u32(b, nmem);
        if (nmem)
            st_put(b, c->rmembers, nmem * sizeof *c->rmembers);
    }
    st_put_u32(b, st.nuser);
    for (uint32_t i = 0; i < st.nuser; i++)
        st_put_str(b, st.user_names[i]);
    st_put_u32(b, st.nwins);
    for (uint32_t i = 0; i < st.nwins; i++) {
        st_put_u32(b, (uint32_t)st.wins[i].leader);
        st_put_u32(b, st.wins[i].seq);
        pack_comm_key(b, st.wins[i].comm);
    }
    st_put_u32(b, st.ngroups);
    for (uint32_t i = 0; i < st.ngroups; i++) {
        st_put_u32(b, st.groups[i].n);
        st_put(b, st.groups[i].members, st.groups[i].n * sizeof *st.groups[i].members);
    }
}

void *
st_grow(struct model *m, void *array, uint32_t *cap, size_t elem)
{
    uint32_t n = *cap ? 2 * *cap : 64;
    void *p = realloc(array, n * elem);

    if (!p) {
        m->failed = 1;
        return NULL;
    }
    *cap = n;
    return p;
}

/* Index of name in list (through map), adding it when absent. */
static uint32_t
name_index(struct model *m, struct st_map *map, const char ***list, uint32_t *n, uint32_t *cap, const char *name)
{
    uint64_t h = st_hash(name, strlen(name));
    uint32_t pos = UINT32_MAX, v;

    while (st_map_next(map, h, &pos, &v))
        if (strcmp((*list)[v], name) == 0)
            return v;
    if (*n == *cap) {
        const char **grown = st_grow(m, (void *)*list, cap, sizeof **list);
        if (!grown)
            return 0;
        *list = grown;
    }
    (*list)[*n] = name;
    if (st_map_add(map, h, *n) != 0)
        m->failed = 1;
    return (*n)++;
}

static uint32_t
find_name(const struct st_map *map, const char **list, const char *name)
{
    uint32_t pos = UINT32_MAX, v;

    while (st_map_next(map, st_hash(name, strlen(name)), &pos, &v))
        if (strcmp(list[v], name) == 0)
            return v;
    return 0;
}

uint64_t
st_comm_key(int32_t leader, uint32_t seq)
{
    return ((uint64_t)(uint32_t)leader << 32) | seq;
}

uint32_t
st_find_comm(const struct model *m, int32_t leader, uint32_t seq)
{
    uint32_t pos = UINT32_MAX, v;

    while (st_map_next(&m->commmap, st_comm_key(leader, seq), &pos, &v))
        if (m->comms[v].leader == leader && m->comms[v].seq == seq)
            return v;
    return UINT32_MAX;
}

/* n member world ranks from b into *to (when to is not NULL, the list is
 * complete and *to has none yet), or skipped. */
static void
read_members(struct model *m, struct st_buf *b, int32_t **to, uint32_t n, uint32_t size)
{
    if (b->bad || n > (b->cap - b->n) / sizeof(int32_t)) {
        b->bad = 1;
        return;
    }
    if (to && n == size && !*to) {
        *to = malloc((n ? n : 1) * sizeof(int32_t));
        if (!*to) {
            m->failed = 1;
            return;
        }
        st_get(b, *to, n * sizeof(int32_t));
    } else {
        b->n += n * sizeof(int32_t);
    }
}

/* Read one communicator record; returns its index in m->comms. The
 * leader's record brings the member lists. */
static uint32_t
read_comm(struct model *m, struct st_buf *b, int collect)
{
    struct gcomm c;
    uint32_t nmem, idx;

    memset(&c, 0, sizeof c);
    c.leader = (int32_t)st_get_u32(b);
    c.seq = st_get_u32(b);
    c.pleader = (int32_t)st_get_u32(b);
    c.pseq = st_get_u32(b);
    c.depth = st_get_u32(b);
    c.size = st_get_u32(b);
    nmem = st_get_u32(b);
    if (b->bad || nmem > (b->cap - b->n) / sizeof(int32_t)) {
        b->bad = 1;
        return UINT32_MAX;
    }
    idx = st_find_comm(m, c.leader, c.seq);
    if (idx == UINT32_MAX && collect) {
        if (m->ncomms == m->capcomms) {
            struct gcomm *comms = st_grow(m, m->comms, &m->capcomms, sizeof *comms);
            if (!comms)
                return UINT32_MAX;
            m->comms = comms;
        }
        idx = m->ncomms++;
        m->comms[idx] = c;
        if (st_map_add(&m->commmap, st_comm_key(c.leader, c.seq), idx) != 0)
            m->failed = 1;
    }
    read_members(m, b, collect && idx != UINT32_MAX ? &m->comms[idx].members : NULL, nmem, c.size);
    c.inter = st_get_u32(b);
    c.rsize = st_get_u32(b);
    nmem = st_get_u32(b);
    if (collect && idx != UINT32_MAX) {
        m->comms[idx].inter = c.inter;
        m->comms[idx].rsize = c.rsize;
    }
    read_members(m, b, collect && idx != UINT32_MAX ? &m->comms[idx].rmembers : NULL, nmem, c.rsize);
    return idx;
}

static uint32_t
find_win(const struct model *m, int32_t leader, uint32_t seq)
{
    uint32_t pos = UINT32_MAX, v;

    while (st_map_next(&m->winmap, st_comm_key(leader, seq), &pos, &v))
        if (m->wins[v].leader == leader && m->wins[v].seq == seq)
            return v;
    return UINT32_MAX;
}

/* One window record: its key and its communicator's. */
static uint32_t
read_win(struct model *m, struct st_buf *b, int collect)
{
    struct gwin w = { 0, 0, 0, 0, 0 };
    uint32_t idx;

    w.leader = (int32_t)st_get_u32(b);
    w.seq = st_get_u32(b);
    w.cleader = (int32_t)st_get_u32(b);
    w.cseq = st_get_u32(b);
    if (b->bad)
        return UINT32_MAX;
    idx = find_win(m, w.leader, w.seq);
    if (idx == UINT32_MAX && collect) {
        if (m->nwins == m->capwins) {
            struct gwin *wins = st_grow(m, m->wins, &m->capwins, sizeof *wins);
            if (!wins)
                return UINT32_MAX;
            m->wins = wins;
        }
        idx = m->nwins++;
        m->wins[idx] = w;
        if (st_map_add(&m->winmap, st_comm_key(w.leader, w.seq), idx) != 0)
            m->failed = 1;
    }
    return idx;
}

/* One RMA group record (a list of world ranks); returns its index. */
static uint32_t
read_rgroup(struct model *m, struct st_buf *b, int collect)
{
    uint32_t n = st_get_u32(b), pos = UINT32_MAX, v;
    const void *members;
    uint64_t h;

    if (b->bad || n > (b->cap - b->n) / sizeof(int32_t)) {
        b->bad = 1;
        return UINT32_MAX;
    }
    members = b->p + b->n;
    b->n += n * sizeof(int32_t);
    h = st_hash(members, n * sizeof(int32_t));
    while (st_map_next(&m->rgroupmap, h, &pos, &v))
        if (m->rgroup_n[v] == n && memcmp(m->rgroups[v], members, n * sizeof(int32_t)) == 0)
            return v;
    if (!collect)
        return UINT32_MAX;
    if (m->nrgroups == m->caprgroups) {
        uint32_t cap = m->caprgroups;
        const void **g = st_grow(m, (void *)m->rgroups, &cap, sizeof *g);
        uint32_t *gn = g ? realloc(m->rgroup_n, cap * sizeof *gn) : NULL;
        if (g)
            m->rgroups = g;
        if (!g || !gn) {
            m->failed = 1;
            return UINT32_MAX;
        }
        m->rgroup_n = gn;
        m->caprgroups = cap;
    }
    m->rgroups[m->nrgroups] = members;
    m->rgroup_n[m->nrgroups] = n;
    if (st_map_add(&m->rgroupmap, h, m->nrgroups) != 0)
        m->failed = 1;
    return m->nrgroups++;
}

static void
read_rank(struct model *m, struct st_buf *b, struct rankinfo *ri)
{
    uint32_t ncomms, nuser, nwins, ngroups;

    b->n = 0;
    ri->nlocs = st_get_u32(b);
    ri->locs_at = b->n;
    if (ri->nlocs == 0 || ri->nlocs > (b->cap - b->n) / sizeof(uint64_t)) {
        m->failed = 1;
        return;
    }
    b->n += ri->nlocs * sizeof(uint64_t);
    ri->t_start = st_get_u64(b);
    ri->t_stop = st_get_u64(b);
    ri->rt_start = st_get_u64(b);
    ri->node = name_index(m, &m->nodemap, &m->nodes, &m->nnodes, &m->capnodes, st_get_str(b));
    ncomms = st_get_u32(b);
    ri->comms_at = b->n;
    for (uint32_t i = 0; i < ncomms && !b->bad; i++)
        read_comm(m, b, 1);
    nuser = st_get_u32(b);
    ri->users_at = b->n;
    for (uint32_t i = 0; i < nuser && !b->bad; i++)
        name_index(m, &m->regmap, &m->regions, &m->nregions, &m->capregions, st_get_str(b));
    nwins = st_get_u32(b);
    ri->wins_at = b->n;
    for (uint32_t i = 0; i < nwins && !b->bad; i++)
        read_win(m, b, 1);
    ngroups = st_get_u32(b);
    ri->groups_at = b->n;
    for (uint32_t i = 0; i < ngroups && !b->bad; i++)
        read_rgroup(m, b, 1);
    if (b->bad)
        m->failed = 1;
}

static const struct gcomm *sort_comms;

static int64_t
leader_rank(int32_t leader)
{
    return leader == -1 ? -2 : leader == -2 ? -1 : leader; /* world, then self, then the rest */
}

static int
comm_order(const void *a, const void *b)
{
    const struct gcomm *x = &sort_comms[*(const uint32_t *)a], *y = &sort_comms[*(const uint32_t *)b];

    if (x->depth != y->depth)
        return x->depth < y->depth ? -1 : 1;
    if (x->leader != y->leader)
        return leader_rank(x->leader) < leader_rank(y->leader) ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Group id of a list of world ranks: COMM_WORLD's for the world in
 * order, else one COMM_GROUP per distinct list. */
static uint32_t
group_of(struct model *m, const int32_t *members, uint32_t n, int nranks)
{
    uint32_t pos = UINT32_MAX, v;
    uint64_t h;
    int world = (int)n == nranks;

    for (uint32_t i = 0; world && i < n; i++)
        world = members[i] == (int32_t)i;
    if (world)
        return GROUP_WORLD;
    h = st_hash(members, n * sizeof(int32_t));
    while (st_map_next(&m->groupmap, h, &pos, &v))
        if (m->glists[v].n == n && memcmp(m->glists[v].members, members, n * sizeof(int32_t)) == 0)
            return GROUP_SELF + 1 + v;
    if (m->ngroups == m->capglists) {
        struct glist *g = st_grow(m, m->glists, &m->capglists, sizeof *g);
        if (!g)
            return GROUP_SELF;
        m->glists = g;
    }
    m->glists[m->ngroups] = (struct glist){ members, n };
    if (st_map_add(&m->groupmap, h, m->ngroups) != 0)
        m->failed = 1;
    return GROUP_SELF + 1 + m->ngroups++;
}

/* Group of comm ci: fixed ones for world and one-member communicators,
 * else its member list's. An intercommunicator's groups are always lists
 * (a one-member COMM_SELF group would say "the recording location"). */
static uint32_t
comm_group(struct model *m, uint32_t ci, int nranks)
{
    struct gcomm *c = &m->comms[ci];

    if (c->leader == -1)
        return GROUP_WORLD;
    if (c->inter) {
        if (!c->members || !c->rmembers) {
            m->failed = 1;
            return GROUP_SELF;
        }
        c->rgroup = group_of(m, c->rmembers, c->rsize, nranks);
        return group_of(m, c->members, c->size, nranks);
    }
    if (c->leader == -2 || c->size <= 1 || !c->members)
        return GROUP_SELF;
    return group_of(m, c->members, c->size, nranks);
}

static void
decide(struct model *m, int nranks)
{
    m->order = malloc((m->ncomms ? m->ncomms : 1) * sizeof *m->order);
    if (!m->order) {
        m->failed = 1;
        return;
    }
    for (uint32_t i = 0; i < m->ncomms; i++)
        m->order[i] = i;
    sort_comms = m->comms;
    qsort(m->order, m->ncomms, sizeof *m->order, comm_order);
    for (uint32_t i = 0; i < m->ncomms; i++)
        m->comms[m->order[i]].gid = i;
    for (uint32_t i = 0; i < m->ncomms; i++)
        m->comms[m->order[i]].group = comm_group(m, m->order[i], nranks);
    /* windows: by leader, then the leader's counter */
    for (uint32_t i = 0; i < m->nwins; i++) {
        uint32_t gid = 0;
        for (uint32_t j = 0; j < m->nwins; j++)
            gid += m->wins[j].leader < m->wins[i].leader ||
                   (m->wins[j].leader == m->wins[i].leader && m->wins[j].seq < m->wins[i].seq);
        m->wins[i].gid = gid;
    }
}

/* Each rank's maps: global comm id per local comm, global region id per
 * local user region, concatenated. */
static void
build_replies(struct model *m, struct st_buf *blobs, const struct rankinfo *ri, int n, struct st_buf *out,
              int *counts, int *displs)
{
    for (int r = 0; r < n; r++) {
        struct st_buf *b = &blobs[r];
        uint32_t k;
        displs[r] = (int)out->n;
        b->n = ri[r].comms_at - sizeof(uint32_t);
        k = st_get_u32(b);
        for (uint32_t i = 0; i < k && !b->bad; i++) {
            uint32_t idx = read_comm(m, b, 0);
            st_put_u32(out, idx == UINT32_MAX ? OTF2_UNDEFINED_COMM : m->comms[idx].gid);
        }
        b->n = ri[r].users_at - sizeof(uint32_t);
        k = st_get_u32(b);
        for (uint32_t i = 0; i < k && !b->bad; i++)
            st_put_u32(out, m->nused + find_name(&m->regmap, m->regions, st_get_str(b)));
        b->n = ri[r].wins_at - sizeof(uint32_t);
        k = st_get_u32(b);
        for (uint32_t i = 0; i < k && !b->bad; i++) {
            uint32_t idx = read_win(m, b, 0);
            st_put_u32(out, idx == UINT32_MAX ? OTF2_UNDEFINED_RMA_WIN : m->wins[idx].gid);
        }
        b->n = ri[r].groups_at - sizeof(uint32_t);
        k = st_get_u32(b);
        for (uint32_t i = 0; i < k && !b->bad; i++) {
            uint32_t idx = read_rgroup(m, b, 0);
            st_put_u32(out, idx == UINT32_MAX ? OTF2_UNDEFINED_GROUP : GROUP_SELF + 1 + m->ngroups + idx);
        }
        counts[r] = (int)out->n - displs[r];
    }
    if (out->bad)
        m->failed = 1;
}

static void
model_free(struct model *m)
{
    for (uint32_t i = 0; i < m->nstr; i++)
        free(m->strs[i]);
    free(m->strs);
    for (uint32_t i = 0; i < m->ncomms; i++) {
        free(m->comms[i].members);
        free(m->comms[i].rmembers);
    }
    free(m->glists);
    free(m->comms);
    free(m->order);
    free(m->nodes);
    free(m->regions);
    free(m->wins);
    free((void *)m->rgroups);
    free(m->rgroup_n);
    st_map_free(&m->winmap);
    st_map_free(&m->rgroupmap);
    st_map_free(&m->strmap);
    st_map_free(&m->nodemap);
    st_map_free(&m->commmap);
    st_map_free(&m->groupmap);
    st_map_free(&m->regmap);
}

/* ---- the exchange ---------------------------------------------------------- */

/* The regions part of a rank's maps: every rank knows which functions
 * were recorded anywhere (an allreduce), so it numbers them itself. */
static uint32_t
region_maps(uint32_t *map)
{
    uint32_t gid = 0;

    for (uint32_t i = 0; i < ST_F_COUNT; i++)
        map[i] = st.used[i >> 3] & (1u << (i & 7)) ? gid++ : OTF2_UNDEFINED_REGION;
    return gid;
}

int
st_unify(OTF2_GlobalDefWriter *gw, uint32_t **maps)
{
    struct st_buf mine = { 0 }, all = { 0 }, replies = { 0 };
    struct st_buf *blobs = NULL;
    struct rankinfo *ri = NULL;
    struct model m;
    int *counts = NULL, *displs = NULL, len, ok = 1, n = st.size;
    size_t nreply = (size_t)st.ncomms + st.nuser + st.nwins + st.ngroups;
    size_t nmap = nreply + ST_F_COUNT;
    uint32_t *map = malloc(nmap * sizeof *map), *reply = malloc((nreply ? nreply : 1) * sizeof *reply);

    *maps = NULL;
    memset(&m, 0, sizeof m);
    PMPI_Allreduce(MPI_IN_PLACE, st.used, (int)sizeof st.used, MPI_UNSIGNED_CHAR, MPI_BOR, st.icomm);
    st_sum_unrecorded();
    pack_local(&mine);
    len = !map || !reply || mine.bad || mine.n > INT32_MAX ? -1 : (int)mine.n;
    if (st.rank == 0) {
        counts = calloc((size_t)n, sizeof *counts);
        displs = calloc((size_t)n, sizeof *displs);
        blobs = calloc((size_t)n, sizeof *blobs);
        ri = calloc((size_t)n, sizeof *ri);
        ok = counts && displs && blobs && ri;
    }
    PMPI_Gather(&len, 1, MPI_INT, counts, 1, MPI_INT, 0, st.icomm);
    if (st.rank == 0 && ok) {
        size_t total = 0;
        for (int r = 0; r < n; r++) {
            if (counts[r] < 0 || total + (size_t)counts[r] > INT32_MAX)
                ok = 0;
            displs[r] = (int)total;
            total += counts[r] > 0 ? (size_t)counts[r] : 0;
        }
        all.p = ok ? malloc(total ? total : 1) : NULL;
        ok = ok && all.p;
    }
    PMPI_Bcast(&ok, 1, MPI_INT, 0, st.icomm);
    if (ok)
        PMPI_Gatherv(mine.p, len < 0 ? 0 : len, MPI_BYTE, all.p, counts, displs, MPI_BYTE, 0, st.icomm);
    if (st.rank == 0 && ok) {
        m.gw = gw;
        m.nused = map ? region_maps(map) : 0;
        for (int r = 0; r < n && !m.failed; r++) {
            blobs[r].p = all.p + displs[r];
            blobs[r].cap = (size_t)counts[r];
            read_rank(&m, &blobs[r], &ri[r]);
        }
        if (!m.failed)
            decide(&m, n);
        if (!m.failed) {
            st_defs_write(&m, blobs, ri, n);
            build_replies(&m, blobs, ri, n, &replies, counts, displs);
        }
        ok = !m.failed;
    }
    PMPI_Bcast(&ok, 1, MPI_INT, 0, st.icomm);
    if (ok)
        PMPI_Scatterv(replies.p, counts, displs, MPI_BYTE, reply, (int)(nreply * sizeof *reply), MPI_BYTE, 0,
                      st.icomm);
    if (ok) {
        /* comms, MPI functions, user regions, windows, groups */
        uint32_t nused = region_maps(map + st.ncomms);
        memcpy(map, reply, st.ncomms * sizeof *map);
        for (uint32_t i = 0; i < st.nuser; i++)
            map[st.ncomms + ST_F_COUNT + i] = reply[st.ncomms + i];
        memcpy(map + st.ncomms + ST_F_COUNT + st.nuser, reply + st.ncomms + st.nuser,
               ((size_t)st.nwins + st.ngroups) * sizeof *map);
        (void)nused;
        *maps = map;
    } else {
        free(map);
    }
    free(reply);
    model_free(&m);
    free(mine.p);
    free(all.p);
    free(replies.p);
    free(blobs);
    free(ri);
    free(counts);
    free(displs);
    return ok ? 0 : -1;
}

/* ---- calls not recorded --------------------------------------------------------- */

static uint64_t unrec_all[ST_F_COUNT][ST_WHY_COUNT]; /* rank 0: summed over the ranks */

void
st_sum_unrecorded(void)
{
    PMPI_Reduce(st.unrec, unrec_all, ST_F_COUNT * ST_WHY_COUNT, MPI_UINT64_T, MPI_SUM, 0, st.icomm);
}

/* What makes OTF2::MPI_COMMUNICATION_COMPLETE false: communication not
 * recorded in full (MPI-IO and calls before MPI_Init are not communication). */
uint64_t
st_unrecorded_total(void)
{
    uint64_t total = 0;

    for (uint32_t f = 0; f < ST_F_COUNT; f++)
        for (int w = 0; w < ST_WHY_IO; w++)
            total += unrec_all[f][w];
    return total;
}

/* One line naming each function with calls that were not recorded, with
 * counts and why: this is what OTF2::MPI_COMMUNICATION_COMPLETE = false
 * stands for. */
void
st_report_unrecorded(void)
{
    static const char *const why[ST_WHY_COUNT] = {
        "from a thread that may not call MPI", "on a communicator the tracer does not know",
        "partitioned communication", "a collective on an intercommunicator", "MPI-IO: its region only",
        "before MPI_Init"
    };
    char line[4096];
    size_t at = 0;
    uint64_t any = 0;

    for (uint32_t f = 0; f < ST_F_COUNT; f++)
        for (int w = 0; w < ST_WHY_COUNT; w++)
            any += unrec_all[f][w];
    if (any == 0)
        return;
    for (uint32_t f = 0; f < ST_F_COUNT; f++)
        for (int w = 0; w < ST_WHY_COUNT; w++)
            if (unrec_all[f][w] && at < sizeof line - 200)
                at += (size_t)snprintf(line + at, sizeof line - at, "%s%s %llu (%s)", at ? ", " : "",
                                       st_fn_defs[f].name, (unsigned long long)unrec_all[f][w], why[w]);
    fprintf(stderr, "skeintrace: MPI calls not recorded in full: %s\n", line);
}
