/* skeintrace-util.c — byte buffers for the definitions exchanged at
 * MPI_Finalize, and a small open-addressing hash multimap. */
#include "skeintrace-int.h"

#include <stdlib.h>
#include <string.h>

void
st_put(struct st_buf *b, const void *data, size_t n)
{
    if (b->bad)
        return;
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n)
            cap *= 2;
        unsigned char *p = realloc(b->p, cap);
        if (!p) {
            b->bad = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, data, n);
    b->n += n;
}

void
st_put_u32(struct st_buf *b, uint32_t v)
{
    st_put(b, &v, sizeof v);
}

void
st_put_u64(struct st_buf *b, uint64_t v)
{
    st_put(b, &v, sizeof v);
}

void
st_put_str(struct st_buf *b, const char *s)
{
    size_t n = strlen(s) + 1;
    st_put_u32(b, (uint32_t)n);
    st_put(b, s, n);
}

void
st_get(struct st_buf *b, void *out, size_t n)
{
    if (b->bad || n > b->cap - b->n) {
        b->bad = 1;
        memset(out, 0, n);
        return;
    }
    memcpy(out, b->p + b->n, n);
    b->n += n;
}

uint32_t
st_get_u32(struct st_buf *b)
{
    uint32_t v;
    st_get(b, &v, sizeof v);
    return v;
}

uint64_t
st_get_u64(struct st_buf *b)
{
    uint64_t v;
    st_get(b, &v, sizeof v);
    return v;
}

const char *
st_get_str(struct st_buf *b)
{
    uint32_t n = st_get_u32(b);
    const char *s;

    if (b->bad || n == 0 || n > b->cap - b->n || b->p[b->n + n - 1] != '\0') {
        b->bad = 1;
        return "";
    }
    s = (const char *)b->p + b->n;
    b->n += n;
    return s;
}

uint64_t
st_hash(const void *data, size_t n)
{
    const unsigned char *p = data;
    uint64_t h = 14695981039346656037u; /* FNV-1a */

    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211u;
    }
    return h;
}

static uint32_t
map_slot(const struct st_map *m, uint64_t key)
{
    key ^= key >> 31;
    key *= 0x9e3779b97f4a7c15u;
    return (uint32_t)(key >> 32) & (m->cap - 1);
}

int
st_map_add(struct st_map *m, uint64_t key, uint32_t val)
{
    uint32_t h;

    if (2 * (m->n + 1) > m->cap) {
        struct st_map grown = { NULL, NULL, m->cap ? 2 * m->cap : 64, 0 };
        grown.keys = malloc(grown.cap * sizeof *grown.keys);
        grown.vals = malloc(grown.cap * sizeof *grown.vals);
        if (!grown.keys || !grown.vals) {
            free(grown.keys);
            free(grown.vals);
            return -1;
        }
        memset(grown.vals, 0xff, grown.cap * sizeof *grown.vals);
        for (uint32_t i = 0; i < m->cap; i++)
            if (m->vals[i] != UINT32_MAX)
                st_map_add(&grown, m->keys[i], m->vals[i]);
        st_map_free(m);
        *m = grown;
    }
    for (h = map_slot(m, key); m->vals[h] != UINT32_MAX; h = (h + 1) & (m->cap - 1))
        ;
    m->keys[h] = key;
    m->vals[h] = val;
    m->n++;
    return 0;
}

int
st_map_next(const struct st_map *m, uint64_t key, uint32_t *pos, uint32_t *val)
{
    uint32_t h;

    if (m->cap == 0)
        return 0;
    h = *pos == UINT32_MAX ? map_slot(m, key) : (*pos + 1) & (m->cap - 1);
    for (; m->vals[h] != UINT32_MAX; h = (h + 1) & (m->cap - 1))
        if (m->keys[h] == key) {
            *pos = h;
            *val = m->vals[h];
            return 1;
        }
    return 0;
}

void
st_map_free(struct st_map *m)
{
    free(m->keys);
    free(m->vals);
    m->keys = NULL;
    m->vals = NULL;
    m->cap = m->n = 0;
}
