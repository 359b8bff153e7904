/* allcalls.c — calls every MPI function skeintrace wraps, deterministically,
 * on exactly 4 ranks, so check.sh can compare the trace with record counts
 * written down in allcalls.expected.
 *
 * The only counts that depend on timing are the numbers of polling calls
 * (Test, Testall, Testany, Testsome, Waitsome); the program prints them as
 * "POLL rank R MPI_Test N ..." and the checker adds them.
 *
 * Usage: allcalls [thread]   ("thread": start with MPI_Init_thread) */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../skeintrace.h"

static int rank, left, right;
static int polls[5]; /* Test, Testall, Testany, Testsome, Waitsome */

/* Sections A*: point-to-point on MPI_COMM_WORLD. */
static void
point_to_point(void)
{
    int a[8] = { 0 }, b[8] = { 0 }, c[8] = { 0 }, one = 1, got = 0, flag = 0;
    double d[4][4] = { { 0 } };
    MPI_Request req[4];
    MPI_Status st;

    /* A1 ring, blocking, tag 1 */
    if (rank % 2 == 0) {
        MPI_Send(a, 8, MPI_INT, right, 1, MPI_COMM_WORLD);
        MPI_Recv(b, 8, MPI_INT, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(b, 8, MPI_INT, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(a, 8, MPI_INT, right, 1, MPI_COMM_WORLD);
    }
    /* A2 synchronous 0->1, 2->3, tag 2 */
    if (rank % 2 == 0)
        MPI_Ssend(&one, 1, MPI_INT, rank + 1, 2, MPI_COMM_WORLD);
    else
        MPI_Recv(&got, 1, MPI_INT, rank - 1, 2, MPI_COMM_WORLD, &st);
    /* A3 halo with Waitall, tag 3 */
    MPI_Irecv(d[0], 4, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(d[1], 4, MPI_DOUBLE, right, 3, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(d[2], 4, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(d[3], 4, MPI_DOUBLE, right, 3, MPI_COMM_WORLD, &req[3]);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    /* A4 wildcard receives on rank 0, tags 11..13 */
    if (rank == 0)
        for (int i = 0; i < 3; i++)
            MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    else
        MPI_Send(&one, 1, MPI_INT, 0, 10 + rank, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD); /* nothing else may match the wildcards */
    /* A5 Sendrecv ring, tag 4 */
    MPI_Sendrecv(a, 2, MPI_INT, right, 4, b, 2, MPI_INT, left, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    /* A6 open chain with MPI_PROC_NULL ends, tag 5 */
    MPI_Sendrecv(a, 2, MPI_INT, rank < 3 ? rank + 1 : MPI_PROC_NULL, 5, b, 2, MPI_INT,
                 rank > 0 ? rank - 1 : MPI_PROC_NULL, 5, MPI_COMM_WORLD, &st);
    /* A7 Sendrecv_replace, tag 6 */
    MPI_Sendrecv_replace(c, 3, MPI_INT, right, 6, left, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    /* A8 Waitany, tag 7 */
    MPI_Irecv(d[0], 4, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(d[1], 4, MPI_DOUBLE, right, 7, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(d[2], 4, MPI_DOUBLE, left, 7, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(d[3], 4, MPI_DOUBLE, right, 7, MPI_COMM_WORLD, &req[3]);
    for (int i = 0, idx; i < 4; i++)
        MPI_Waitany(4, req, &idx, MPI_STATUS_IGNORE);
    /* A9 Test, tag 8 */
    MPI_Irecv(b, 1, MPI_INT, left, 8, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(a, 1, MPI_INT, right, 8, MPI_COMM_WORLD, &req[1]);
    MPI_Barrier(MPI_COMM_WORLD); /* the message is on its way: few polls */
    for (flag = 0; !flag; polls[0]++)
        MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE);
    MPI_Wait(&req[1], MPI_STATUS_IGNORE);
    /* A10 Testall, tag 9 */
    MPI_Irecv(b, 1, MPI_INT, left, 9, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(a, 1, MPI_INT, right, 9, MPI_COMM_WORLD, &req[1]);
    MPI_Barrier(MPI_COMM_WORLD); /* the message is on its way: few polls */
    for (flag = 0; !flag; polls[1]++)
        MPI_Testall(2, req, &flag, MPI_STATUSES_IGNORE);
    /* A11 Testany, tag 30 */
    MPI_Irecv(b, 1, MPI_INT, left, 30, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(a, 1, MPI_INT, right, 30, MPI_COMM_WORLD, &req[1]);
    MPI_Barrier(MPI_COMM_WORLD); /* the message is on its way: few polls */
    for (int done = 0, idx; done < 2; polls[2]++) {
        MPI_Testany(2, req, &idx, &flag, MPI_STATUS_IGNORE);
        done += flag && idx != MPI_UNDEFINED;
    }
    /* A12 Testsome, tag 31, and Waitsome, tag 32 */
    MPI_Irecv(b, 1, MPI_INT, left, 31, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(a, 1, MPI_INT, right, 31, MPI_COMM_WORLD, &req[1]);
    MPI_Barrier(MPI_COMM_WORLD); /* the message is on its way: few polls */
    for (int done = 0, n, idx[2]; done < 2; polls[3]++) {
        MPI_Testsome(2, req, &n, idx, MPI_STATUSES_IGNORE);
        done += n == MPI_UNDEFINED ? 0 : n;
    }
    MPI_Irecv(b, 1, MPI_INT, left, 32, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(a, 1, MPI_INT, right, 32, MPI_COMM_WORLD, &req[1]);
    for (int done = 0, n, idx[2]; done < 2; polls[4]++) {
        MPI_Waitsome(2, req, &n, idx, MPI_STATUSES_IGNORE);
        done += n == MPI_UNDEFINED ? 0 : n;
    }
    /* A13 ready sends need the receive posted first: tag 14 (Rsend), 15 (Irsend) */
    MPI_Irecv(b, 1, MPI_INT, left, 14, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(c, 1, MPI_INT, left, 15, MPI_COMM_WORLD, &req[1]);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Rsend(a, 1, MPI_INT, right, 14, MPI_COMM_WORLD);
    MPI_Irsend(a + 1, 1, MPI_INT, right, 15, MPI_COMM_WORLD, &req[2]);
    MPI_Waitall(3, req, MPI_STATUSES_IGNORE);
    /* Issend, tag 16 */
    MPI_Irecv(b, 1, MPI_INT, left, 16, MPI_COMM_WORLD, &req[0]);
    MPI_Issend(a, 1, MPI_INT, right, 16, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    /* buffered: Bsend tag 17, Ibsend tag 18 */
    {
        int size = 2 * (MPI_BSEND_OVERHEAD + 64);
        char *buffer = malloc((size_t)size);
        MPI_Buffer_attach(buffer, size);
        MPI_Bsend(a, 4, MPI_INT, right, 17, MPI_COMM_WORLD);
        MPI_Recv(b, 4, MPI_INT, left, 17, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Ibsend(a, 4, MPI_INT, right, 18, MPI_COMM_WORLD, &req[0]);
        MPI_Recv(b, 4, MPI_INT, left, 18, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&req[0], MPI_STATUS_IGNORE);
        MPI_Buffer_detach(&buffer, &size);
        free(buffer);
    }
    /* A14 a send request freed before completion, tag 19 */
    MPI_Isend(a, 1, MPI_INT, right, 19, MPI_COMM_WORLD, &req[0]);
    MPI_Request_free(&req[0]);
    MPI_Recv(b, 1, MPI_INT, left, 19, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    /* A15 to oneself on MPI_COMM_SELF, tag 20 */
    MPI_Isend(a, 2, MPI_INT, 0, 20, MPI_COMM_SELF, &req[0]);
    MPI_Recv(b, 2, MPI_INT, 0, 20, MPI_COMM_SELF, MPI_STATUS_IGNORE);
    MPI_Wait(&req[0], MPI_STATUS_IGNORE);
    /* A16 MPI_PROC_NULL peers: regions only */
    MPI_Send(a, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
    MPI_Recv(b, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Isend(a, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(b, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
}

/* Section B: every wrapped collective on MPI_COMM_WORLD (18 calls). */
static void
collectives(void)
{
    int in[16], out[16], counts[4], displs[4], mine[4], at[4];
    double x[5] = { 1, 2, 3, 4, 5 }, y[5];

    for (int i = 0; i < 16; i++)
        in[i] = rank * 16 + i;
    for (int i = 0; i < 4; i++) {
        counts[i] = i + 1;
        displs[i] = i == 0 ? 0 : displs[i - 1] + counts[i - 1];
        mine[i] = rank + 1; /* what this rank sends each peer in Alltoallv */
        at[i] = i * (rank + 1);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Bcast(in, 10, MPI_INT, 1, MPI_COMM_WORLD);
    MPI_Reduce(x, y, 5, MPI_DOUBLE, MPI_SUM, 2, MPI_COMM_WORLD);
    if (rank == 3)
        MPI_Reduce(MPI_IN_PLACE, x, 5, MPI_DOUBLE, MPI_SUM, 3, MPI_COMM_WORLD);
    else
        MPI_Reduce(x, NULL, 5, MPI_DOUBLE, MPI_SUM, 3, MPI_COMM_WORLD);
    MPI_Allreduce(x, y, 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, x, 3, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Gather(in, 2, MPI_INT, out, 2, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Gatherv(in, rank + 1, MPI_INT, out, counts, displs, MPI_INT, 1, MPI_COMM_WORLD);
    MPI_Scatter(in, 2, MPI_INT, out, 2, MPI_INT, 3, MPI_COMM_WORLD);
    MPI_Scatterv(in, counts, displs, MPI_INT, out, rank + 1, MPI_INT, 2, MPI_COMM_WORLD);
    MPI_Allgather(in, 1, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Allgatherv(in, rank + 1, MPI_INT, out, counts, displs, MPI_INT, MPI_COMM_WORLD);
    MPI_Alltoall(in, 1, MPI_INT, out, 1, MPI_INT, MPI_COMM_WORLD);
    MPI_Alltoallv(in, mine, at, MPI_INT, out, counts, displs, MPI_INT, MPI_COMM_WORLD);
    MPI_Reduce_scatter(in, out, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Reduce_scatter_block(in, out, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Scan(in, out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Exscan(in, out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
}

/* Section C: communicators made by every wrapped constructor, used, freed. */
static void
communicators(void)
{
    MPI_Comm half, dup, three, single, cart, column, pair, shared, info_dup, odd, graph, dist, adjacent;
    MPI_Group world_group, group;
    MPI_Request req;
    int hr, v[4] = { 0 }, w[4] = { 0 }, src, dst;
    double s = 1.0, t;

    /* C1 halves {1,0} and {3,2}: key -rank reverses the order, so comm
     * rank 0 is world rank 1 (or 3) */
    MPI_Comm_split(MPI_COMM_WORLD, rank / 2, -rank, &half);
    MPI_Comm_rank(half, &hr);
    if (hr == 0) {
        MPI_Send(v, 3, MPI_INT, 1, 21, half);
        MPI_Recv(w, 1, MPI_INT, 1, 22, half, MPI_STATUS_IGNORE);
        MPI_Recv(w, 2, MPI_INT, MPI_ANY_SOURCE, 23, half, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(w, 3, MPI_INT, 0, 21, half, MPI_STATUS_IGNORE);
        MPI_Isend(v, 1, MPI_INT, 0, 22, half, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Send(v, 2, MPI_INT, 0, 23, half);
    }
    MPI_Bcast(v, 4, MPI_INT, 0, half);
    MPI_Allreduce(&s, &t, 1, MPI_DOUBLE, MPI_SUM, half);
    MPI_Barrier(half);
    MPI_Gather(v, 1, MPI_INT, w, 1, MPI_INT, 1, half);
    /* C2 duplicate of world: same ring and tag as A1, another communicator */
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Sendrecv(v, 1, MPI_INT, right, 1, w, 1, MPI_INT, left, 1, dup, MPI_STATUS_IGNORE);
    MPI_Allreduce(&s, &t, 1, MPI_DOUBLE, MPI_SUM, dup);
    /* C3 ranks 0..2 only */
    MPI_Comm_split(MPI_COMM_WORLD, rank == 3 ? MPI_UNDEFINED : 0, rank, &three);
    if (three != MPI_COMM_NULL) {
        MPI_Sendrecv(v, 1, MPI_INT, (rank + 1) % 3, 24, w, 1, MPI_INT, (rank + 2) % 3, 24, three,
                     MPI_STATUS_IGNORE);
        MPI_Allreduce(&s, &t, 1, MPI_DOUBLE, MPI_SUM, three);
    }
    /* C4 one-member communicators */
    MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &single);
    MPI_Isend(v, 1, MPI_INT, 0, 25, single, &req);
    MPI_Recv(w, 1, MPI_INT, 0, 25, single, MPI_STATUS_IGNORE);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Barrier(single);
    MPI_Allreduce(&s, &t, 1, MPI_DOUBLE, MPI_SUM, single);
    /* C5 2x2 torus, its columns */
    {
        int dims[2] = { 2, 2 }, periods[2] = { 1, 1 }, remain[2] = { 1, 0 };
        MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
        MPI_Cart_shift(cart, 0, 1, &src, &dst);
        MPI_Sendrecv(v, 1, MPI_INT, dst, 26, w, 1, MPI_INT, src, 26, cart, MPI_STATUS_IGNORE);
        MPI_Cart_sub(cart, remain, &column);
        MPI_Allreduce(&s, &t, 1, MPI_DOUBLE, MPI_SUM, column);
    }
    /* C6 Comm_create {0,2}; Comm_create_group {1,3} */
    MPI_Comm_group(MPI_COMM_WORLD, &world_group);
    {
        int even[2] = { 0, 2 }, odds[2] = { 1, 3 };
        MPI_Group_incl(world_group, 2, even, &group);
        MPI_Comm_create(MPI_COMM_WORLD, group, &pair);
        MPI_Group_free(&group);
        if (pair != MPI_COMM_NULL)
            MPI_Barrier(pair);
        odd = MPI_COMM_NULL;
        if (rank % 2 == 1) {
            MPI_Group_incl(world_group, 2, odds, &group);
            MPI_Comm_create_group(MPI_COMM_WORLD, group, 5, &odd);
            MPI_Group_free(&group);
            MPI_Barrier(odd);
        }
    }
    MPI_Group_free(&world_group);
    /* C7 the node (all 4 ranks here), and a duplicate with info */
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &shared);
    MPI_Barrier(shared);
    MPI_Comm_dup_with_info(half, MPI_INFO_NULL, &info_dup);
    MPI_Barrier(info_dup);
    /* C8 graph topologies: rings */
    {
        int index[4] = { 1, 2, 3, 4 }, edges[4] = { 1, 2, 3, 0 }, one = 1;
        MPI_Graph_create(MPI_COMM_WORLD, 4, index, edges, 0, &graph);
        MPI_Barrier(graph);
        MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &rank, &one, &right, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &dist);
        MPI_Barrier(dist);
        MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &left, MPI_UNWEIGHTED, 1, &right, MPI_UNWEIGHTED,
                                       MPI_INFO_NULL, 0, &adjacent);
        MPI_Barrier(adjacent);
    }
    /* C9 */
    MPI_Comm_free(&adjacent);
    MPI_Comm_free(&dist);
    MPI_Comm_free(&graph);
    MPI_Comm_free(&info_dup);
    MPI_Comm_free(&shared);
    if (odd != MPI_COMM_NULL)
        MPI_Comm_free(&odd);
    if (pair != MPI_COMM_NULL)
        MPI_Comm_free(&pair);
    MPI_Comm_free(&column);
    MPI_Comm_free(&cart);
    MPI_Comm_free(&single);
    if (three != MPI_COMM_NULL)
        MPI_Comm_free(&three);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&half);
}

int
main(int argc, char **argv)
{
    int size, provided;

    if (argc > 1 && strcmp(argv[1], "thread") == 0)
        MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    else
        MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 4) {
        if (rank == 0)
            fprintf(stderr, "allcalls: run on exactly 4 ranks (got %d)\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    left = (rank + 3) % 4;
    right = (rank + 1) % 4;

    skeintrace_region_begin("main");
    skeintrace_region_begin("p2p");
    point_to_point();
    skeintrace_region_end("p2p");
    skeintrace_region_begin("collectives");
    collectives();
    skeintrace_region_end("collectives");
    skeintrace_region_begin("comms");
    communicators();
    skeintrace_region_end("comms");
    skeintrace_region_end("main");
    /* left open on purpose: the tracer closes it at MPI_Finalize */
    skeintrace_region_begin("unclosed");

    printf("POLL rank %d MPI_Test %d MPI_Testall %d MPI_Testany %d MPI_Testsome %d MPI_Waitsome %d\n", rank,
           polls[0], polls[1], polls[2], polls[3], polls[4]);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
