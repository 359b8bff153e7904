/* skeintrace-defs.c — rank 0 writes the global definitions at
 * MPI_Finalize from the model skeintrace-unify.c built, in the order and
 * with the conventions skeintrace-unify.c's opening comment lists. */
#include "skeintrace-unify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

void
st_defs_check(struct model *m, OTF2_ErrorCode e)
{
    if (e != OTF2_SUCCESS && !m->failed) {
        m->failed = 1;
        fprintf(stderr, "skeintrace: cannot write the global definitions: %s\n", OTF2_Error_GetDescription(e));
    }
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
        char **strs = st_grow(m, m->strs, &m->capstr, sizeof *strs);
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
write_system(struct model *m, const struct st_buf *blobs, const struct rankinfo *ri, int n)
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
    for (uint32_t l = 0;; l++) {
        int more = 0;
        if (l > 0)
            snprintf(name, sizeof name, "Thread %u", l);
        for (int r = 0; r < n; r++) {
            uint64_t nevents;
            if (l >= ri[r].nlocs)
                continue;
            more = 1;
            memcpy(&nevents, blobs[r].p + ri[r].locs_at + l * sizeof nevents, sizeof nevents);
            WRITE(m, OTF2_GlobalDefWriter_WriteLocation(m->gw, st_location_id(r, l),
                                                        gstr(m, l == 0 ? "Master thread" : name),
                                                        OTF2_LOCATION_TYPE_CPU_THREAD, nevents,
                                                        (OTF2_LocationGroupRef)r));
        }
        if (!more)
            break;
    }
}

/* Global region ids: the recorded MPI functions in mpi.def's order, then
 * the user regions. */
static void
write_regions(struct model *m)
{
    OTF2_StringRef empty = gstr(m, ""), file = gstr(m, "MPI");
    uint32_t gid = 0;

    for (uint32_t i = 0; i < ST_F_COUNT; i++) {
        OTF2_StringRef s;
        if (!(st.used[i >> 3] & (1u << (i & 7))))
            continue;
        s = gstr(m, st_fn_defs[i].name);
        WRITE(m, OTF2_GlobalDefWriter_WriteRegion(m->gw, gid++, s, s, empty, st_fn_defs[i].role, OTF2_PARADIGM_MPI,
                                                  OTF2_REGION_FLAG_NONE, file, 0, 0));
    }
    for (uint32_t i = 0; i < m->nregions; i++) {
        OTF2_StringRef s = gstr(m, m->regions[i]);
        WRITE(m, OTF2_GlobalDefWriter_WriteRegion(m->gw, m->nused + i, s, s, empty, OTF2_REGION_ROLE_FUNCTION,
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

/* The groups RmaGroupSync names, after the communicators' groups, and
 * the windows. */
static void
write_rma(struct model *m)
{
    for (uint32_t g = 0; g < m->nrgroups; g++) {
        uint64_t *members = malloc((m->rgroup_n[g] ? m->rgroup_n[g] : 1) * sizeof *members);
        if (!members) {
            m->failed = 1;
            return;
        }
        for (uint32_t i = 0; i < m->rgroup_n[g]; i++) {
            int32_t r;
            memcpy(&r, (const char *)m->rgroups[g] + i * sizeof r, sizeof r);
            members[i] = (uint64_t)r;
        }
        write_group(m, GROUP_SELF + 1 + m->ngroups + g, OTF2_GROUP_TYPE_COMM_GROUP, m->rgroup_n[g], members);
        free(members);
    }
    for (uint32_t i = 0; i < m->nwins; i++)
        for (uint32_t j = 0; j < m->nwins; j++) {
            uint32_t c;
            if (m->wins[j].gid != i)
                continue;
            c = st_find_comm(m, m->wins[j].cleader, m->wins[j].cseq);
            WRITE(m, OTF2_GlobalDefWriter_WriteRmaWin(m->gw, i, gstr(m, ""),
                                                      c == UINT32_MAX ? OTF2_UNDEFINED_COMM : m->comms[c].gid,
                                                      OTF2_RMA_WIN_FLAG_CREATE_DESTROY_EVENTS));
        }
}

static void
write_comms(struct model *m, int n)
{
    uint64_t *members = malloc((size_t)n * sizeof *members);

    if (!members) {
        m->failed = 1;
        return;
    }
    for (int r = 0; r < n; r++)
        members[r] = (uint64_t)r;
    write_group(m, GROUP_LOCATIONS, OTF2_GROUP_TYPE_COMM_LOCATIONS, (uint32_t)n, members);
    write_group(m, GROUP_WORLD, OTF2_GROUP_TYPE_COMM_GROUP, (uint32_t)n, members);
    write_group(m, GROUP_SELF, OTF2_GROUP_TYPE_COMM_SELF, 0, NULL);
    for (uint32_t g = 0; g < m->ngroups; g++) {
        for (uint32_t k = 0; k < m->glists[g].n; k++)
            members[k] = (uint64_t)m->glists[g].members[k];
        write_group(m, GROUP_SELF + 1 + g, OTF2_GROUP_TYPE_COMM_GROUP, m->glists[g].n, members);
    }
    free(members);
    for (uint32_t i = 0; i < m->ncomms; i++) {
        const struct gcomm *c = &m->comms[m->order[i]];
        const char *name = c->leader == -1 ? "MPI_COMM_WORLD" : c->leader == -2 ? "MPI_COMM_SELF" : "";
        uint32_t parent = c->pleader == NO_PARENT ? UINT32_MAX : st_find_comm(m, c->pleader, c->pseq);
        if (c->inter) /* group A: the group of the process that named it */
            WRITE(m, OTF2_GlobalDefWriter_WriteInterComm(m->gw, c->gid, gstr(m, name), c->group, c->rgroup,
                                                         OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE));
        else
            WRITE(m, OTF2_GlobalDefWriter_WriteComm(m->gw, c->gid, gstr(m, name), c->group,
                                                    parent == UINT32_MAX ? OTF2_UNDEFINED_COMM
                                                                         : m->comms[parent].gid,
                                                    OTF2_COMM_FLAG_NONE));
    }
    write_rma(m);
}

void
st_defs_write(struct model *m, const struct st_buf *blobs, const struct rankinfo *ri, int n)
{
    write_header(m, ri, n);
    write_system(m, blobs, ri, n);
    write_regions(m);
    write_comms(m, n);
}
