#include "intern.h"

#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "hash.h"
#include "vec.h"

struct intern {
	char *bytes;        /* all strings, NUL-terminated, back to back */
	size_t nbytes, capbytes;
	uint32_t *offset;   /* offset[id] into bytes */
	size_t n, cap;
	uint32_t *slot;     /* open-addressing table of id+1, 0 = empty */
	size_t nslot;       /* power of two */
};

static int
rehash(struct intern *in, size_t nslot)
{
	uint32_t *slot = calloc(nslot, sizeof *slot);
	if (!slot)
		return ERR_NOMEM;
	for (size_t id = 0; id < in->n; id++) {
		const char *s = in->bytes + in->offset[id];
		size_t i = hash_bytes(s, strlen(s)) & (nslot - 1);
		while (slot[i])
			i = (i + 1) & (nslot - 1);
		slot[i] = (uint32_t)id + 1;
	}
	free(in->slot);
	in->slot = slot;
	in->nslot = nslot;
	return 0;
}

struct intern *
intern_create(void)
{
	struct intern *in = calloc(1, sizeof *in);
	uint32_t id;
	if (!in || rehash(in, 64) || intern_add(in, "", 0, &id)) {
		intern_destroy(in);
		return NULL;
	}
	return in;
}

void
intern_destroy(struct intern *in)
{
	if (!in)
		return;
	free(in->bytes);
	free(in->offset);
	free(in->slot);
	free(in);
}

int
intern_add(struct intern *in, const char *s, size_t len, uint32_t *id)
{
	uint64_t h = hash_bytes(s, len);
	size_t i = h & (in->nslot - 1);
	for (; in->slot[i]; i = (i + 1) & (in->nslot - 1)) {
		uint32_t cand = in->slot[i] - 1;
		const char *c = in->bytes + in->offset[cand];
		if (strncmp(c, s, len) == 0 && c[len] == '\0') {
			*id = cand;
			return 0;
		}
	}
	if (in->n >= UINT32_MAX - 1 || in->nbytes + len + 1 > UINT32_MAX)
		return ERR_LIMIT;
	if (vec_reserve((void **)&in->bytes, &in->capbytes, in->nbytes + len + 1, 1) ||
	    VEC_GROW(in->offset, in->n, in->cap))
		return ERR_NOMEM;
	memcpy(in->bytes + in->nbytes, s, len);
	in->bytes[in->nbytes + len] = '\0';
	in->offset[in->n] = (uint32_t)in->nbytes;
	in->nbytes += len + 1;
	*id = (uint32_t)in->n;
	in->slot[i] = (uint32_t)in->n + 1;
	in->n++;
	if (in->n * 2 > in->nslot)
		return rehash(in, in->nslot * 2);
	return 0;
}

const char *
intern_str(const struct intern *in, uint32_t id)
{
	return id < in->n ? in->bytes + in->offset[id] : "";
}

uint32_t
intern_count(const struct intern *in)
{
	return (uint32_t)in->n;
}
