/* skein.c — the skein program: its command line is main.c's, which
 * skein-mpi (mpi/skein_mpi.c) shares with it. */
#include "cli.h"

int
main(int argc, char **argv)
{
	return cli_main(argc, argv);
}
