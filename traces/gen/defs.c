/* defs.c — global definitions in Score-P's conventions.
 *
 * What a Score-P MPI trace defines and skein-gen mirrors: clock properties
 * first; strings before anything naming them; the MPI paradigm with its
 * name templates; a system tree machine -> nodes; one PROCESS location
 * group "MPI Rank r" per rank under its node and one CPU_THREAD location
 * "Master thread" per group (location id = rank); MPI regions with their
 * region roles and file "MPI"; groups COMM_LOCATIONS (all rank locations),
 * COMM_GROUP (world ranks) and COMM_SELF; communicators MPI_COMM_WORLD and
 * MPI_COMM_SELF. Only regions the generator enters are defined.
 */
#include "gen.h"

#include <stdio.h>
#include <stdlib.h>

#include <otf2/otf2.h>

#define TICKS_PER_SECOND 1000000000u

struct region_def {
    const char *name;
    OTF2_RegionRole role;
    OTF2_Paradigm paradigm;
    uint32_t begin, end; /* user regions: plausible source lines */
};

static const struct region_def regions[REG_COUNT] = {
    [REG_MAIN] = {"main", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER, 12,
                  80},
    [REG_ITERATION] = {"iteration", OTF2_REGION_ROLE_LOOP, OTF2_PARADIGM_USER,
                       40, 60},
    [REG_COMPUTE] = {"compute", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER,
                     44, 50},
    [REG_MPI_INIT] = {"MPI_Init", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_MPI,
                      0, 0},
    [REG_MPI_FINALIZE] = {"MPI_Finalize", OTF2_REGION_ROLE_FUNCTION,
                          OTF2_PARADIGM_MPI, 0, 0},
    [REG_MPI_COMM_RANK] = {"MPI_Comm_rank", OTF2_REGION_ROLE_FUNCTION,
                           OTF2_PARADIGM_MPI, 0, 0},
    [REG_MPI_COMM_SIZE] = {"MPI_Comm_size", OTF2_REGION_ROLE_FUNCTION,
                           OTF2_PARADIGM_MPI, 0, 0},
    [REG_MPI_SEND] = {"MPI_Send", OTF2_REGION_ROLE_POINT2POINT,
                      OTF2_PARADIGM_MPI, 0, 0},
    [REG_MPI_RECV] = {"MPI_Recv", OTF2_REGION_ROLE_POINT2POINT,
                      OTF2_PARADIGM_MPI, 0, 0},
    [REG_MPI_ISEND] = {"MPI_Isend", OTF2_REGION_ROLE_POINT2POINT,
                       OTF2_PARADIGM_MPI, 0, 0},
    [REG_MPI_IRECV] = {"MPI_Irecv", OTF2_REGION_ROLE_POINT2POINT,
                       OTF2_PARADIGM_MPI, 0, 0},
    [REG_MPI_SENDRECV] = {"MPI_Sendrecv", OTF2_REGION_ROLE_POINT2POINT,
                          OTF2_PARADIGM_MPI, 0, 0},
    [REG_MPI_WAIT] = {"MPI_Wait", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_MPI,
                      0, 0},
    [REG_MPI_WAITALL] = {"MPI_Waitall", OTF2_REGION_ROLE_FUNCTION,
                         OTF2_PARADIGM_MPI, 0, 0},
    [REG_MPI_BARRIER] = {"MPI_Barrier", OTF2_REGION_ROLE_BARRIER,
                         OTF2_PARADIGM_MPI, 0, 0},
    [REG_MPI_BCAST] = {"MPI_Bcast", OTF2_REGION_ROLE_COLL_ONE2ALL,
                       OTF2_PARADIGM_MPI, 0, 0},
    [REG_MPI_REDUCE] = {"MPI_Reduce", OTF2_REGION_ROLE_COLL_ALL2ONE,
                        OTF2_PARADIGM_MPI, 0, 0},
    [REG_MPI_ALLREDUCE] = {"MPI_Allreduce", OTF2_REGION_ROLE_COLL_ALL2ALL,
                           OTF2_PARADIGM_MPI, 0, 0},
};

uint32_t
gen_node_of(const struct gen_options *o, uint32_t r)
{
    uint32_t per = (o->ranks + o->nodes - 1) / o->nodes;
    return r / per;
}

/* Strings get consecutive ids in the order they are written. */
struct strings {
    OTF2_GlobalDefWriter *w;
    OTF2_StringRef next;
    int err;
};

static OTF2_StringRef
str(struct strings *s, const char *text)
{
    if (OTF2_GlobalDefWriter_WriteString(s->w, s->next, text) != OTF2_SUCCESS)
        s->err = 1;
    return s->next++;
}

#define TRY(call)                                                           \
    do {                                                                    \
        if ((call) != OTF2_SUCCESS) {                                       \
            fprintf(stderr, "skein-gen: %s failed\n", #call);               \
            goto fail;                                                      \
        }                                                                   \
    } while (0)

int
defs_write(OTF2_GlobalDefWriter *w, const struct gen_options *o,
           const uint64_t *loc_events, uint64_t first, uint64_t last)
{
    const uint32_t P = o->ranks;
    uint64_t *members = NULL;
    OTF2_StringRef *rank_names = NULL;
    OTF2_StringRef *node_names = NULL;
    struct strings s = {.w = w, .next = 0, .err = 0};
    char buf[256];

    if (first > last)
        first = last = 0;
    TRY(OTF2_GlobalDefWriter_WriteClockProperties(
        w, TICKS_PER_SECOND, first, last - first + 1,
        OTF2_UNDEFINED_TIMESTAMP));

    /* Strings. "" and the program name come first (GEN_STR_PROGRAM). */
    str(&s, "");
    snprintf(buf, sizeof buf, "skein_%s", gen_pattern_name(o->pattern));
    str(&s, buf);
    OTF2_StringRef s_machine = str(&s, "machine");
    OTF2_StringRef s_linux = str(&s, "Linux");
    OTF2_StringRef s_platform = str(&s, "platform");
    OTF2_StringRef s_node = str(&s, "node");
    OTF2_StringRef s_mpi = str(&s, "MPI");
    OTF2_StringRef s_comm_tmpl = str(&s, "Comm ${id}");
    OTF2_StringRef s_win_tmpl = str(&s, "Win ${id}");
    OTF2_StringRef s_master = str(&s, "Master thread");
    OTF2_StringRef s_world = str(&s, "MPI_COMM_WORLD");
    OTF2_StringRef s_self = str(&s, "MPI_COMM_SELF");
    snprintf(buf, sizeof buf, "skein_%s.c", gen_pattern_name(o->pattern));
    OTF2_StringRef s_src = str(&s, buf);
    OTF2_StringRef s_region[REG_COUNT];
    for (int g = 0; g < REG_COUNT; g++)
        s_region[g] = str(&s, regions[g].name);

    node_names = malloc(o->nodes * sizeof *node_names);
    rank_names = malloc(P * sizeof *rank_names);
    members = malloc(P * sizeof *members);
    if (!node_names || !rank_names || !members) {
        fprintf(stderr, "skein-gen: out of memory\n");
        goto fail;
    }
    int width = snprintf(NULL, 0, "%u", o->nodes - 1);
    for (uint32_t n = 0; n < o->nodes; n++) {
        snprintf(buf, sizeof buf, "node%0*u", width, n);
        node_names[n] = str(&s, buf);
    }
    for (uint32_t r = 0; r < P; r++) {
        snprintf(buf, sizeof buf, "MPI Rank %u", r);
        rank_names[r] = str(&s, buf);
    }
    if (s.err) {
        fprintf(stderr, "skein-gen: writing strings failed\n");
        goto fail;
    }

    /* Paradigm. */
    TRY(OTF2_GlobalDefWriter_WriteParadigm(w, OTF2_PARADIGM_MPI, s_mpi,
                                           OTF2_PARADIGM_CLASS_PROCESS));
    OTF2_AttributeValue v;
    v.stringRef = s_comm_tmpl;
    TRY(OTF2_GlobalDefWriter_WriteParadigmProperty(
        w, OTF2_PARADIGM_MPI, OTF2_PARADIGM_PROPERTY_COMM_NAME_TEMPLATE,
        OTF2_TYPE_STRING, v));
    v.stringRef = s_win_tmpl;
    TRY(OTF2_GlobalDefWriter_WriteParadigmProperty(
        w, OTF2_PARADIGM_MPI, OTF2_PARADIGM_PROPERTY_RMA_WIN_NAME_TEMPLATE,
        OTF2_TYPE_STRING, v));

    /* System tree: node 0 is the machine, node 1 + n is compute node n. */
    TRY(OTF2_GlobalDefWriter_WriteSystemTreeNode(
        w, 0, s_linux, s_machine, OTF2_UNDEFINED_SYSTEM_TREE_NODE));
    TRY(OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(
        w, 0, OTF2_SYSTEM_TREE_DOMAIN_MACHINE));
    v.stringRef = s_linux;
    TRY(OTF2_GlobalDefWriter_WriteSystemTreeNodeProperty(
        w, 0, s_platform, OTF2_TYPE_STRING, v));
    for (uint32_t n = 0; n < o->nodes; n++) {
        TRY(OTF2_GlobalDefWriter_WriteSystemTreeNode(w, 1 + n, node_names[n],
                                                     s_node, 0));
        TRY(OTF2_GlobalDefWriter_WriteSystemTreeNodeDomain(
            w, 1 + n, OTF2_SYSTEM_TREE_DOMAIN_SHARED_MEMORY));
    }

    /* One process per rank, one thread per process. */
    for (uint32_t r = 0; r < P; r++)
        TRY(OTF2_GlobalDefWriter_WriteLocationGroup(
            w, r, rank_names[r], OTF2_LOCATION_GROUP_TYPE_PROCESS,
            1 + gen_node_of(o, r), OTF2_UNDEFINED_LOCATION_GROUP));
    for (uint32_t r = 0; r < P; r++)
        TRY(OTF2_GlobalDefWriter_WriteLocation(
            w, r, s_master, OTF2_LOCATION_TYPE_CPU_THREAD, loc_events[r], r));

    /* Regions. */
    for (int g = 0; g < REG_COUNT; g++) {
        const struct region_def *d = &regions[g];
        bool mpi = d->paradigm == OTF2_PARADIGM_MPI;
        TRY(OTF2_GlobalDefWriter_WriteRegion(
            w, (OTF2_RegionRef)g, s_region[g], s_region[g], 0, d->role,
            d->paradigm, OTF2_REGION_FLAG_NONE, mpi ? s_mpi : s_src, d->begin,
            d->end));
    }

    /* Groups and communicators. */
    for (uint32_t r = 0; r < P; r++)
        members[r] = r;
    TRY(OTF2_GlobalDefWriter_WriteGroup(w, 0, 0, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                        OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                        P, members));
    TRY(OTF2_GlobalDefWriter_WriteGroup(w, 1, 0, OTF2_GROUP_TYPE_COMM_GROUP,
                                        OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                        P, members));
    TRY(OTF2_GlobalDefWriter_WriteGroup(w, 2, 0, OTF2_GROUP_TYPE_COMM_SELF,
                                        OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                        0, NULL));
    TRY(OTF2_GlobalDefWriter_WriteComm(w, GEN_COMM_WORLD, s_world, 1,
                                       OTF2_UNDEFINED_COMM,
                                       OTF2_COMM_FLAG_NONE));
    TRY(OTF2_GlobalDefWriter_WriteComm(w, GEN_COMM_SELF, s_self, 2,
                                       OTF2_UNDEFINED_COMM,
                                       OTF2_COMM_FLAG_NONE));

    free(members);
    free(rank_names);
    free(node_names);
    return 0;

fail:
    free(members);
    free(rank_names);
    free(node_names);
    return -1;
}
