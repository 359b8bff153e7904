/* skeintrace-unify.c — turn every rank's local view into one set of global
 * OTF2 definitions at MPI_Finalize, laid out as Score-P lays them out:
 *
 *   ClockProperties; strings (each written just before its first use);
 *   Paradigm MPI with its COMM_NAME_TEMPLATE property;
 *   SystemTreeNode "machine" (the OS name) > one "node" per host name;
 *   LocationGroup "MPI Rank r" (PROCESS) + Location "Master thread"
 *   (CPU_THREAD), both with id r;
 *   Regions: the wrapped MPI functions (ids fixed by ST_REGIONS), then user
 *   regions (paradigm USER) in order of first use over ranks 0..N-1;
 *   Groups: 0 COMM_LOCATIONS (location of each world rank), 1 COMM_GROUP of
 *   MPI_COMM_WORLD (ranks 0..N-1), 2 COMM_SELF (no members, like Score-P:
 *   rank 0 is the location itself), then one COMM_GROUP per distinct
 *   member list, members given as world ranks;
 *   Comms: 0 MPI_COMM_WORLD, 1 MPI_COMM_SELF, then the created ones ordered
 *   by (depth, leader, leader's counter) so parents precede children.
 *   One-member communicators use the COMM_SELF group, as Score-P does.
 *
 * Each rank packs its record; rank 0 gathers, decides global ids, writes,
 * and scatters each rank's local-to-global maps back. */
#include "skeintrace-int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

enum { GROUP_LOCATIONS = 0, GROUP_WORLD = 1, GROUP_SELF = 2 };
#define NO_PARENT INT32_MIN

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
pack_local(struct st_buf *b, uint64_t nevents)
{
    char host[256] = "unknown";

    if (gethostname(host, sizeof host - 1) != 0)
        strcpy(host, "unknown");
    host[sizeof host - 1] = '\0';
    st_put_u64(b, nevents);
    st_put_u64(b, st.t_start);
    st_put_u64(b, st.t_stop);
    st_put_u64(b, st.rt_start);
    st_put_u64(b, st.untracked);
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
    }
    st_put_u32(b, st.nuser);
    for (uint32_t i = 0; i < st.nuser; i++)
        st_put_str(b, st.user_names[i]);
}

/* ---- rank 0: the global model ------------------------------------------- */

struct gcomm {
    int32_t leader, pleader;
    uint32_t seq, pseq, depth, size;
    int32_t *members; /* world ranks, from the leader's record */
    uint32_t gid, group;
};

struct rankinfo {
    uint64_t nevents, t_start, t_stop, rt_start;
    uint32_t node;
    size_t comms_at, users_at; /* offsets of the comm and user-region records */
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
    uint32_t ngroups; /* beyond the three fixed groups */
    struct st_map regmap; /* user region names, pointing into the blobs */
    const char **regions;
    uint32_t nregions, capregions;
};

#define WRITE(m, call) \
    do { \
        if ((m)->gw) \
            check((m), (call)); \
    } while (0)

static void
check(struct model *m, OTF2_ErrorCode e)
{
    if (e != OTF2_SUCCESS && !m->failed) {
        m->failed = 1;
        fprintf(stderr, "skeintrace: cannot write the global definitions: %s\n", OTF2_Error_GetDescription(e));
    }
}

static void *
grow(struct model *m, void *array, uint32_t *cap, size_t elem)
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

/* Global string id of s; the String definition is written on first use,
 * before the definition that names it. */
static OTF2_StringRef
gstr(struct model *m, const char *s)
{
    uint64_t h = st_hash(s, strlen(s));
    uint32_t pos = UINT32_MAX, v;

    while (st_map_next(&m->strmap, h, &pos, &v))
        if (strcmp(m->strs[v], s) == 0)
            return v;
    if (m->nstr == m->capstr) {
        char **strs = grow(m, m->strs, &m->capstr, sizeof *strs);
        if (!strs)
            return 0;
        m->strs = strs;
    }
    m->strs[m->nstr] = strdup(s);
    if (!m->strs[m->nstr] || st_map_add(&m->strmap, h, m->nstr) != 0) {
        m->failed = 1;
        return 0;
    }
    WRITE(m, OTF2_GlobalDefWriter_WriteString(m->gw, m->nstr, s));
    return m->nstr++;
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
        const char **grown = grow(m, (void *)*list, cap, sizeof **list);
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

static uint64_t
comm_key(int32_t leader, uint32_t seq)
{
    return ((uint64_t)(uint32_t)leader << 32) | seq;
}

static uint32_t
find_comm(const struct model *m, int32_t leader, uint32_t seq)
{
    uint32_t pos = UINT32_MAX, v;

    while (st_map_next(&m->commmap, comm_key(leader, seq), &pos, &v))
        if (m->comms[v].leader == leader && m->comms[v].seq == seq)
            return v;
    return UINT32_MAX;
}

/* Read one communicator record; returns its index in m->comms. The
 * leader's record brings the member list. */
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
    idx = find_comm(m, c.leader, c.seq);
    if (idx == UINT32_MAX && collect) {
        if (m->ncomms == m->capcomms) {
            struct gcomm *comms = grow(m, m->comms, &m->capcomms, sizeof *comms);
            if (!comms)
                return UINT32_MAX;
            m->comms = comms;
        }
        idx = m->ncomms++;
        m->comms[idx] = c;
        if (st_map_add(&m->commmap, comm_key(c.leader, c.seq), idx) != 0)
            m->failed = 1;
    }
    if (collect && idx != UINT32_MAX && nmem == c.size && !m->comms[idx].members) {
        m->comms[idx].members = malloc(nmem * sizeof(int32_t));
        if (!m->comms[idx].members) {
            m->failed = 1;
            return idx;
        }
        st_get(b, m->comms[idx].members, nmem * sizeof(int32_t));
    } else {
        b->n += nmem * sizeof(int32_t);
    }
    return idx;
}

static void
read_rank(struct model *m, struct st_buf *b, struct rankinfo *ri)
{
    uint32_t ncomms, nuser;

    b->n = 0;
    ri->nevents = st_get_u64(b);
    ri->t_start = st_get_u64(b);
    ri->t_stop = st_get_u64(b);
    ri->rt_start = st_get_u64(b);
    st.untracked_all += st_get_u64(b);
    ri->node = name_index(m, &m->nodemap, &m->nodes, &m->nnodes, &m->capnodes, st_get_str(b));
    ncomms = st_get_u32(b);
    ri->comms_at = b->n;
    for (uint32_t i = 0; i < ncomms && !b->bad; i++)
        read_comm(m, b, 1);
    nuser = st_get_u32(b);
    ri->users_at = b->n;
    for (uint32_t i = 0; i < nuser && !b->bad; i++)
        name_index(m, &m->regmap, &m->regions, &m->nregions, &m->capregions, st_get_str(b));
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

/* Group of comm ci: fixed ones for world and one-member communicators,
 * else one per distinct member list. */
static uint32_t
comm_group(struct model *m, uint32_t ci, int nranks)
{
    struct gcomm *c = &m->comms[ci];
    uint32_t pos = UINT32_MAX, v;
    uint64_t h;
    int world = c->members && (int)c->size == nranks;

    if (c->leader == -1)
        return GROUP_WORLD;
    if (c->leader == -2 || c->size <= 1 || !c->members)
        return GROUP_SELF;
    for (uint32_t i = 0; world && i < c->size; i++)
        world = c->members[i] == (int32_t)i;
    if (world)
        return GROUP_WORLD;
    h = st_hash(c->members, c->size * sizeof(int32_t));
    while (st_map_next(&m->groupmap, h, &pos, &v))
        if (m->comms[v].size == c->size &&
            memcmp(m->comms[v].members, c->members, c->size * sizeof(int32_t)) == 0)
            return m->comms[v].group;
    if (st_map_add(&m->groupmap, h, ci) != 0)
        m->failed = 1;
    return GROUP_SELF + 1 + m->ngroups++;
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
}

/* ---- rank 0: writing ----------------------------------------------------- */

static void
write_header(struct model *m, const struct rankinfo *ri, int n)
{
    uint64_t first = UINT64_MAX, last = 0, realtime = OTF2_UNDEFINED_TIMESTAMP;
    OTF2_AttributeValue v;

    for (int r = 0; r < n; r++) {
        if (ri[r].t_start < first)
            first = ri[r].t_start;
        if (ri[r].t_stop > last)
            last = ri[r].t_stop;
    }
    if (first > last)
        first = last;
    if (ri[0].rt_start > ri[0].t_start - first)
        realtime = ri[0].rt_start - (ri[0].t_start - first);
    WRITE(m, OTF2_GlobalDefWriter_WriteClockProperties(m->gw, 1000000000u, first, last - first, realtime));
    WRITE(m, OTF2_GlobalDefWriter_WriteParadigm(m->gw, OTF2_PARADIGM_MPI, gstr(m, "MPI"),
                                                OTF2_PARADIGM_CLASS_PROCESS));
    v.stringRef = gstr(m, "Comm ${id}");
    WRITE(m, OTF2_GlobalDefWriter_WriteParadigmProperty(m->gw, OTF2_PARADIGM_MPI,
                                                        OTF2_PARADIGM_PROPERTY_COMM_NAME_TEMPLATE,
                                                        OTF2_TYPE_STRING, v));
}

static void
write_system(struct model *m, const struct rankinfo *ri, int n)
{
    struct utsname u;
    const char *os = uname(&u) == 0 ? u.sysname : "Linux";
    OTF2_AttributeValue v;
    char name[64];

    WRITE(m, OTF2_GlobalDefWriter_WriteSystemTreeNode(m->gw, 0, gstr(m, os), gstr(m, "machine"),
                                                      OTF2_UNDEFINED_SYSTEM_TREE_NODE));
    WRITE(m, OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(m->gw, 0, OTF2_SYSTEM_TREE_DOMAIN_MACHINE));
    v.stringRef = gstr(m, os);
    WRITE(m, OTF2_GlobalDefWriter_WriteSystemTreeNodeProperty(m->gw, 0, gstr(m, "platform"), OTF2_TYPE_STRING, v));
    for (uint32_t i = 0; i < m->nnodes; i++) {
        WRITE(m, OTF2_GlobalDefWriter_WriteSystemTreeNode(m->gw, 1 + i, gstr(m, m->nodes[i]), gstr(m, "node"), 0));
        WRITE(m, OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(m->gw, 1 + i, OTF2_SYSTEM_TREE_DOMAIN_SHARED_MEMORY));
    }
    for (int r = 0; r < n; r++) {
        snprintf(name, sizeof name, "MPI Rank %d", r);
        WRITE(m, OTF2_GlobalDefWriter_WriteLocationGroup(m->gw, (OTF2_LocationGroupRef)r, gstr(m, name),
                                                         OTF2_LOCATION_GROUP_TYPE_PROCESS, 1 + ri[r].node,
                                                         OTF2_UNDEFINED_LOCATION_GROUP));
    }
    for (int r = 0; r < n; r++)
        WRITE(m, OTF2_GlobalDefWriter_WriteLocation(m->gw, (OTF2_LocationRef)r, gstr(m, "Master thread"),
                                                    OTF2_LOCATION_TYPE_CPU_THREAD, ri[r].nevents,
                                                    (OTF2_LocationGroupRef)r));
}

static void
write_regions(struct model *m)
{
    OTF2_StringRef empty = gstr(m, ""), file = gstr(m, "MPI");

    for (uint32_t i = 0; i < ST_R_COUNT; i++) {
        OTF2_StringRef s = gstr(m, st_region_defs[i].name);
        WRITE(m, OTF2_GlobalDefWriter_WriteRegion(m->gw, i, s, s, empty, st_region_defs[i].role, OTF2_PARADIGM_MPI,
                                                  OTF2_REGION_FLAG_NONE, file, 0, 0));
    }
    for (uint32_t i = 0; i < m->nregions; i++) {
        OTF2_StringRef s = gstr(m, m->regions[i]);
        WRITE(m, OTF2_GlobalDefWriter_WriteRegion(m->gw, ST_R_COUNT + i, s, s, empty, OTF2_REGION_ROLE_FUNCTION,
                                                  OTF2_PARADIGM_USER, OTF2_REGION_FLAG_NONE,
                                                  OTF2_UNDEFINED_STRING, 0, 0));
    }
}

static void
write_group(struct model *m, uint32_t id, OTF2_GroupType type, uint32_t n, const uint64_t *members)
{
    WRITE(m, OTF2_GlobalDefWriter_WriteGroup(m->gw, id, gstr(m, ""), type, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                             n, members));
}

static void
write_comms(struct model *m, int n)
{
    uint64_t *members = malloc((size_t)n * sizeof *members);
    uint32_t written = 0;

    if (!members) {
        m->failed = 1;
        return;
    }
    for (int r = 0; r < n; r++)
        members[r] = (uint64_t)r;
    write_group(m, GROUP_LOCATIONS, OTF2_GROUP_TYPE_COMM_LOCATIONS, (uint32_t)n, members);
    write_group(m, GROUP_WORLD, OTF2_GROUP_TYPE_COMM_GROUP, (uint32_t)n, members);
    write_group(m, GROUP_SELF, OTF2_GROUP_TYPE_COMM_SELF, 0, NULL);
    for (uint32_t i = 0; i < m->ncomms; i++) {
        const struct gcomm *c = &m->comms[m->order[i]];
        if (c->group != GROUP_SELF + 1 + written)
            continue;
        for (uint32_t k = 0; k < c->size; k++)
            members[k] = (uint64_t)c->members[k];
        write_group(m, c->group, OTF2_GROUP_TYPE_COMM_GROUP, c->size, members);
        written++;
    }
    free(members);
    for (uint32_t i = 0; i < m->ncomms; i++) {
        const struct gcomm *c = &m->comms[m->order[i]];
        const char *name = c->leader == -1 ? "MPI_COMM_WORLD" : c->leader == -2 ? "MPI_COMM_SELF" : "";
        uint32_t parent = c->pleader == NO_PARENT ? UINT32_MAX : find_comm(m, c->pleader, c->pseq);
        WRITE(m, OTF2_GlobalDefWriter_WriteComm(m->gw, c->gid, gstr(m, name), c->group,
                                                parent == UINT32_MAX ? OTF2_UNDEFINED_COMM : m->comms[parent].gid,
                                                OTF2_COMM_FLAG_NONE));
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
            st_put_u32(out, ST_R_COUNT + find_name(&m->regmap, m->regions, st_get_str(b)));
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
    for (uint32_t i = 0; i < m->ncomms; i++)
        free(m->comms[i].members);
    free(m->comms);
    free(m->order);
    free(m->nodes);
    free(m->regions);
    st_map_free(&m->strmap);
    st_map_free(&m->nodemap);
    st_map_free(&m->commmap);
    st_map_free(&m->groupmap);
    st_map_free(&m->regmap);
}

/* ---- the exchange ---------------------------------------------------------- */

int
st_unify(OTF2_GlobalDefWriter *gw, uint64_t nevents, uint32_t **maps)
{
    struct st_buf mine = { 0 }, all = { 0 }, replies = { 0 };
    struct st_buf *blobs = NULL;
    struct rankinfo *ri = NULL;
    struct model m;
    int *counts = NULL, *displs = NULL, len, ok = 1, n = st.size;
    size_t nmap = (size_t)st.ncomms + st.nuser;
    uint32_t *map = malloc((nmap ? nmap : 1) * sizeof *map);

    *maps = NULL;
    memset(&m, 0, sizeof m);
    pack_local(&mine, nevents);
    len = !map || mine.bad || mine.n > INT32_MAX ? -1 : (int)mine.n;
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
        st.untracked_all = 0;
        for (int r = 0; r < n; r++) {
            blobs[r].p = all.p + displs[r];
            blobs[r].cap = (size_t)counts[r];
            read_rank(&m, &blobs[r], &ri[r]);
        }
        if (!m.failed)
            decide(&m, n);
        if (!m.failed) {
            write_header(&m, ri, n);
            write_system(&m, ri, n);
            write_regions(&m);
            write_comms(&m, n);
            build_replies(&m, blobs, ri, n, &replies, counts, displs);
        }
        ok = !m.failed;
    }
    PMPI_Bcast(&ok, 1, MPI_INT, 0, st.icomm);
    if (ok)
        PMPI_Scatterv(replies.p, counts, displs, MPI_BYTE, map, (int)(nmap * sizeof *map), MPI_BYTE, 0,
                      st.icomm);
    if (ok)
        *maps = map;
    else
        free(map);
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
