/* charm.c — the Charm++ structure (seed 004 §3), stage after stage; each
 * stage is its own file (charm_impl.h). */
#include "charm_impl.h"

int
charm_structure(struct analysis *a)
{
	struct charm c;
	int rc = charm_init(&c, a);
	if (!rc)
		rc = charm_initial(&c);
	if (!rc)
		rc = charm_dependency_merge(&c);
	if (!rc)
		rc = charm_repair_merge(&c);
	if (!rc)
		rc = charm_infer(&c);
	if (!rc)
		rc = charm_leap_merge(&c);
	if (!rc)
		rc = charm_enforce(&c);
	if (!rc)
		rc = charm_parts_finalize(&c);
	if (!rc)
		rc = charm_steps(&c);
	charm_fini(&c);
	return rc;
}
