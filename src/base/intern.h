/* intern.h — strings stored once, named by 32-bit ids.
 *
 * Region, timeline and communicator names are interned when a trace is read
 * so records hold a uint32_t instead of a pointer. Id 0 is always the empty
 * string. Returned strings live as long as the table.
 */
#ifndef SKEIN_INTERN_H
#define SKEIN_INTERN_H

#include <stddef.h>
#include <stdint.h>

struct intern;

/* Returns a new table holding only "" (id 0), or NULL when out of memory. */
struct intern *intern_create(void);
void intern_destroy(struct intern *in);

/* Interns the len bytes at s (no NUL needed) and stores the id in *id.
 * Returns 0 or ERR_NOMEM / ERR_LIMIT. */
int intern_add(struct intern *in, const char *s, size_t len, uint32_t *id);

/* The NUL-terminated string for id, or "" for an unknown id. */
const char *intern_str(const struct intern *in, uint32_t id);

/* Number of distinct strings, including "". */
uint32_t intern_count(const struct intern *in);

#endif
