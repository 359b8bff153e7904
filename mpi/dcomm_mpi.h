/* dcomm_mpi.h — dcomm (base/dcomm.h) over MPI, for skein-mpi's
 * distributed stages. */
#ifndef SKEIN_DCOMM_MPI_H
#define SKEIN_DCOMM_MPI_H

#include <mpi.h>

#include "base/dcomm.h"

/* A dcomm over comm (MPI_COMM_WORLD in skein-mpi); 0, or ERR_NOMEM.
 * Waiting ranks sleep between polls, as skein-mpi's own waits do, so an
 * oversubscribed node keeps its cores for the ranks that work. */
int dcomm_mpi_init(struct dcomm *c, MPI_Comm comm);
void dcomm_mpi_fini(struct dcomm *c);

#endif
