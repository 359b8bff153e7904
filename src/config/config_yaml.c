/* config_yaml.c — libyaml's event stream turned into a small node tree
 * with line and column marks, so the schema walk can report where every
 * value was written. The only file that sees libyaml.
 *
 * What the schema never needs is refused here with its position rather
 * than half supported: anchors and aliases (which also rule out
 * exponential expansion), explicit tags, several documents, NUL bytes
 * inside strings and absurd nesting.
 */
#include "config_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "base/vec.h"

#define MAX_DEPTH 64

void
ctree_free(struct ctree *t)
{
	for (size_t i = 0; i < t->n_all; i++) {
		free(t->all[i]->s);
		free(t->all[i]->kid);
		free(t->all[i]);
	}
	free(t->all);
	memset(t, 0, sizeof *t);
}

int
cnode_is_null(const struct cnode *n)
{
	return n->type == CN_SCALAR && n->plain &&
	       (n->len == 0 || strcmp(n->s, "~") == 0 || strcmp(n->s, "null") == 0 ||
		strcmp(n->s, "Null") == 0 || strcmp(n->s, "NULL") == 0);
}

static struct cnode *
node_new(struct ctree *t, int type, yaml_mark_t m)
{
	if (VEC_GROW(t->all, t->n_all, t->cap_all))
		return NULL;
	struct cnode *n = calloc(1, sizeof *n);
	if (!n)
		return NULL;
	n->type = (uint8_t)type;
	n->line = (uint32_t)m.line + 1;
	n->col = (uint32_t)m.column + 1;
	t->all[t->n_all++] = n;
	return n;
}

static int
node_add(struct cnode *parent, struct cnode *kid)
{
	if (parent->n >= UINT32_MAX - 1 ||
	    vec_reserve((void **)&parent->kid, &parent->cap, (size_t)parent->n + 1, sizeof *parent->kid))
		return ERR_NOMEM;
	parent->kid[parent->n++] = kid;
	return 0;
}

static int
mark_error(struct err *e, const char *name, yaml_mark_t m, const char *msg)
{
	return err_set(e, ERR_FORMAT, "%s:%lu:%lu: %s", name, (unsigned long)m.line + 1,
		       (unsigned long)m.column + 1, msg);
}

/* libyaml's reader reports a byte offset, not a mark. */
static int
reader_error(const yaml_parser_t *p, const char *name, const char *text, size_t len,
	     struct err *e)
{
	size_t off = p->problem_offset < len ? p->problem_offset : len;
	unsigned long line = 1, col = 1;
	for (size_t i = 0; i < off; i++) {
		unsigned char c = (unsigned char)text[i];
		if (c == '\n') {
			line++;
			col = 1;
		} else if ((c & 0xc0) != 0x80) {
			col++;
		}
	}
	if (p->problem_value >= 0)
		return err_set(e, ERR_FORMAT, "%s:%lu:%lu: %s (0x%x)", name, line, col,
			       p->problem, (unsigned)p->problem_value);
	return err_set(e, ERR_FORMAT, "%s:%lu:%lu: %s", name, line, col, p->problem);
}

static int
parser_error(const yaml_parser_t *p, const char *name, const char *text, size_t len,
	     struct err *e)
{
	if (p->error == YAML_MEMORY_ERROR)
		return err_set(e, ERR_NOMEM, "%s: out of memory while reading YAML", name);
	if (p->error == YAML_READER_ERROR)
		return reader_error(p, name, text, len, e);
	const char *problem = p->problem ? p->problem : "malformed YAML";
	if (p->context)
		return err_set(e, ERR_FORMAT, "%s:%lu:%lu: %s (%s at line %lu, column %lu)", name,
			       (unsigned long)p->problem_mark.line + 1,
			       (unsigned long)p->problem_mark.column + 1, problem, p->context,
			       (unsigned long)p->context_mark.line + 1,
			       (unsigned long)p->context_mark.column + 1);
	return mark_error(e, name, p->problem_mark, problem);
}

/* Refuses what the schema has no use for; returns 0 when the node is plain. */
static int
check_props(const char *name, yaml_mark_t m, const yaml_char_t *anchor, const yaml_char_t *tag,
	    struct err *e)
{
	if (anchor)
		return mark_error(e, name, m, "anchors and aliases are not supported");
	if (tag)
		return mark_error(e, name, m, "tags are not supported (quote a value to make it a string)");
	return 0;
}

struct builder {
	struct ctree *t;
	struct cnode *stack[MAX_DEPTH];
	int depth;
	const char *name;
	struct err *e;
};

/* Hangs a new node under the open container (or makes it the root). */
static int
attach(struct builder *b, struct cnode *n, yaml_mark_t m)
{
	if (!n)
		return err_set(b->e, ERR_NOMEM, "%s: out of memory while reading YAML", b->name);
	if (b->depth == 0) {
		b->t->root = n;
		return 0;
	}
	if (node_add(b->stack[b->depth - 1], n))
		return err_set(b->e, ERR_NOMEM, "%s: out of memory while reading YAML", b->name);
	if (n->type != CN_SCALAR && b->depth >= MAX_DEPTH)
		return mark_error(b->e, b->name, m, "nesting deeper than 64 levels");
	return 0;
}

static int
on_event(struct builder *b, const yaml_event_t *ev, int *docs)
{
	yaml_mark_t m = ev->start_mark;
	struct cnode *n;
	int rc;
	switch (ev->type) {
	case YAML_DOCUMENT_START_EVENT:
		if ((*docs)++)
			return mark_error(b->e, b->name, m,
					  "only one YAML document is allowed in a configuration file");
		return 0;
	case YAML_ALIAS_EVENT:
		return mark_error(b->e, b->name, m, "anchors and aliases are not supported");
	case YAML_SCALAR_EVENT: {
		const char *s = (const char *)ev->data.scalar.value;
		size_t len = ev->data.scalar.length;
		if ((rc = check_props(b->name, m, ev->data.scalar.anchor, ev->data.scalar.tag, b->e)))
			return rc;
		if (memchr(s, '\0', len))
			return mark_error(b->e, b->name, m, "strings must not contain NUL characters");
		n = node_new(b->t, CN_SCALAR, m);
		if (n) {
			n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
			n->s = malloc(len + 1);
			if (!n->s)
				n = NULL;
			else {
				memcpy(n->s, s, len);
				n->s[len] = '\0';
				n->len = len;
			}
		}
		return attach(b, n, m);
	}
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		if (ev->type == YAML_SEQUENCE_START_EVENT)
			rc = check_props(b->name, m, ev->data.sequence_start.anchor,
					 ev->data.sequence_start.tag, b->e);
		else
			rc = check_props(b->name, m, ev->data.mapping_start.anchor,
					 ev->data.mapping_start.tag, b->e);
		if (rc)
			return rc;
		n = node_new(b->t, ev->type == YAML_SEQUENCE_START_EVENT ? CN_SEQ : CN_MAP, m);
		if ((rc = attach(b, n, m)))
			return rc;
		b->stack[b->depth++] = n;
		return 0;
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		if (b->depth > 0)
			b->depth--;
		return 0;
	default:
		return 0;
	}
}

int
ctree_parse(struct ctree *t, const char *name, const char *text, size_t len, struct err *e)
{
	yaml_parser_t p;
	if (!yaml_parser_initialize(&p))
		return err_set(e, ERR_NOMEM, "%s: out of memory while reading YAML", name);
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
	yaml_parser_set_encoding(&p, YAML_UTF8_ENCODING);
	struct builder b = { .t = t, .name = name, .e = e };
	int docs = 0, rc = 0, done = 0;
	while (!rc && !done) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&p, &ev)) {
			rc = parser_error(&p, name, text, len, e);
			break;
		}
		done = ev.type == YAML_STREAM_END_EVENT;
		rc = on_event(&b, &ev, &docs);
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	return rc;
}
