/* topo.c — hardware topologies from hwloc, and placing ranks on them. */
#include "topo.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <hwloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "base/file.h"
#include "base/intern.h"
#include "base/text.h"
#include "base/vec.h"

struct topo {
	struct topo_obj *objs;
	size_t n, cap;
	uint32_t *children;       /* CSR: objs[i].first_child indexes it */
	uint32_t *pu_obj;         /* PU index -> object */
	uint32_t n_pu;
	uint32_t count[TOPO_TYPE_COUNT];
	struct intern *strings;
};

static struct topo *
topo_new(void)
{
	struct topo *t = calloc(1, sizeof *t);
	if (t && !(t->strings = intern_create())) {
		free(t);
		return NULL;
	}
	return t;
}

void
topo_destroy(struct topo *t)
{
	if (!t)
		return;
	free(t->objs);
	free(t->children);
	free(t->pu_obj);
	intern_destroy(t->strings);
	free(t);
}

static int
add(struct topo *t, uint8_t type, uint32_t parent, uint8_t depth, uint32_t os_index,
    uint32_t name, uint32_t *id)
{
	if (t->n >= UINT32_MAX - 1)
		return ERR_LIMIT;
	if (VEC_GROW(t->objs, t->n, t->cap))
		return ERR_NOMEM;
	*id = (uint32_t)t->n;
	t->objs[t->n++] = (struct topo_obj){
		.type = type, .depth = depth, .parent = parent, .pu_first = t->n_pu,
		.index = t->count[type]++, .os_index = os_index, .name = name,
	};
	if (type == TOPO_PU)
		t->n_pu++;
	return 0;
}

/* Children lists and PU ranges from the parent links (objects are in
 * depth-first order, so a parent comes before its children and an
 * object's PUs are contiguous). */
static int
finish(struct topo *t)
{
	uint32_t n = (uint32_t)t->n;
	uint32_t *count = calloc(n + 1, sizeof *count);
	free(t->children);
	free(t->pu_obj);
	t->children = malloc((n + 1) * sizeof *t->children);
	t->pu_obj = malloc((t->n_pu + 1) * sizeof *t->pu_obj);
	if (!count || !t->children || !t->pu_obj) {
		free(count);
		return ERR_NOMEM;
	}
	for (uint32_t i = 0; i < n; i++) {
		t->objs[i].n_children = 0;
		t->objs[i].pu_count = 0;
	}
	for (uint32_t i = 1; i < n; i++)
		t->objs[t->objs[i].parent].n_children++;
	uint32_t at = 0;
	for (uint32_t i = 0; i < n; i++) {
		t->objs[i].first_child = at;
		at += t->objs[i].n_children;
	}
	for (uint32_t i = 1; i < n; i++) {
		uint32_t p = t->objs[i].parent;
		t->children[t->objs[p].first_child + count[p]++] = i;
	}
	free(count);
	/* PU counts, leaves upwards (children have larger ids) */
	for (uint32_t i = n; i-- > 0;) {
		struct topo_obj *o = &t->objs[i];
		if (o->type == TOPO_PU) {
			o->pu_count = 1;
			t->pu_obj[o->pu_first] = i;
		}
		if (i > 0)
			t->objs[o->parent].pu_count += o->pu_count;
	}
	return 0;
}

static int
kept_type(hwloc_obj_type_t type, uint8_t *out)
{
	switch (type) {
	case HWLOC_OBJ_MACHINE: *out = TOPO_MACHINE; return 1;
	case HWLOC_OBJ_PACKAGE: *out = TOPO_PACKAGE; return 1;
	case HWLOC_OBJ_L3CACHE: *out = TOPO_L3; return 1;
	case HWLOC_OBJ_CORE: *out = TOPO_CORE; return 1;
	case HWLOC_OBJ_PU: *out = TOPO_PU; return 1;
	default: return 0;
	}
}

/* hwloc trees are a dozen levels deep at most: recursion is safe here. */
static int
walk(struct topo *t, hwloc_obj_t o, uint32_t parent, uint8_t depth)
{
	uint32_t here = parent;
	uint8_t type;
	int rc;
	if (t->n >= TOPO_MAX_OBJECTS || depth >= TOPO_MAX_DEPTH)
		return ERR_LIMIT;
	if (kept_type(o->type, &type)) {
		if ((rc = add(t, type, parent, depth, o->os_index, 0, &here)))
			return rc;
		depth++;
	}
	/* a NUMA node covering exactly this object becomes a level below it */
	for (hwloc_obj_t m = o->memory_first_child; m; m = m->next_sibling)
		if (m->type == HWLOC_OBJ_NUMANODE && m->cpuset && o->cpuset &&
		    hwloc_bitmap_isequal(m->cpuset, o->cpuset) && o->type != HWLOC_OBJ_MACHINE) {
			if ((rc = add(t, TOPO_NUMA, here, depth, m->os_index, 0, &here)))
				return rc;
			depth++;
			break;
		}
	for (hwloc_obj_t c = o->first_child; c; c = c->next_sibling)
		if ((rc = walk(t, c, here, depth)))
			return rc;
	return 0;
}

enum source { SRC_XML, SRC_SYNTHETIC, SRC_MACHINE };

/* An XML file: a regular file (a FIFO would block hwloc's read) of at
 * most TOPO_MAX_XML_BYTES. */
static int
check_xml(const char *path, struct err *e)
{
	uint64_t size;
	if (file_check_regular(path, &size, e))
		return ERR_IO;
	if (size > TOPO_MAX_XML_BYTES)
		return err_set(e, ERR_LIMIT, "%s: %llu bytes, more than the %u MiB of hardware topology "
			       "skein reads", path, (unsigned long long)size, TOPO_MAX_XML_BYTES >> 20);
	return 0;
}

/* A synthetic description ("pack:2 [numa] core:4 pu:2": levels of
 * TYPE:ARITY or ARITY, attributes in parentheses, memory in brackets) is
 * counted before hwloc builds it: the objects are the sum over the levels
 * of the product of the arities above. */
static int
check_synthetic(const char *d, const char *shown, struct err *e)
{
	uint64_t width = 1, total = 1;
	const char *p = d;
	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		const char *end = p;
		int depth = 0;
		while (*end && (depth || !isspace((unsigned char)*end))) {
			depth += *end == '(' || *end == '[';
			depth -= depth && (*end == ')' || *end == ']');
			end++;
		}
		if (*p == '[' || *p == '(') {     /* memory attached here, or root attributes */
			total += *p == '[' ? width : 0;
		} else {
			const char *a = p;
			for (const char *q = p; q < end && *q != '('; q++)
				if (*q == ':')
					a = q + 1;
			if (!isdigit((unsigned char)*a))
				return err_set(e, ERR_USAGE, "'%s': not a synthetic topology (e.g. \"pack:2 core:4 pu:2\")", shown);
			errno = 0;
			unsigned long long arity = strtoull(a, NULL, 10);
			if (errno || arity == 0 || arity > TOPO_MAX_OBJECTS || width * arity > TOPO_MAX_OBJECTS)
				width = TOPO_MAX_OBJECTS + 1ull;
			else
				width *= arity;
			total += width;
		}
		if (total > TOPO_MAX_OBJECTS)
			return err_set(e, ERR_LIMIT, "'%s': more than %u objects, more than skein loads", shown,
				       TOPO_MAX_OBJECTS);
		p = end;
	}
	return 0;
}

/* ---- hwloc in a child process ----
 *
 * libhwloc trusts its input: an XML file with an unparsable cpuset
 * crashes hwloc 2.9.0 (hwloc_bitmap_set from hwloc_insert_object_by_parent),
 * a synthetic description of 10^9 PUs runs for minutes and takes
 * gigabytes, and hwloc writes its own diagnostics on stderr, over the
 * explorer's screen. So hwloc runs in a child process with its stderr on
 * /dev/null, a memory limit and a time limit: the child walks the tree
 * into skein's records and sends them on a pipe; the parent rebuilds the
 * topology from them. A crash, a timeout or a short answer is one clear
 * error (doc/robustness.md). */

#define CHILD_SECONDS 20
#define CHILD_BYTES ((rlim_t)2 << 30)

struct rec {
	uint32_t type_depth;      /* type | depth << 8 */
	uint32_t parent, os_index;
};

/* What the child answers: a header, then n records, or an error message. */
struct answer {
	int32_t rc;               /* 0 or ERR_* */
	uint32_t n;
	char msg[256];
};

static int
write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n) {
		ssize_t w = write(fd, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Reads n bytes before the deadline (CLOCK_MONOTONIC): 0, or -1 at end
 * of file or on an error, with errno EINTR (a signal: cancelled) or
 * ETIMEDOUT (the child took too long). */
static int
read_all(int fd, void *p, size_t n, const struct timespec *deadline)
{
	char *c = p;
	while (n) {
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		long long ms = (long long)(deadline->tv_sec - now.tv_sec) * 1000 +
			(deadline->tv_nsec - now.tv_nsec) / 1000000;
		if (ms <= 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		struct pollfd pf = { .fd = fd, .events = POLLIN };
		int r = poll(&pf, 1, ms > 1000 ? 1000 : (int)ms);
		if (r < 0)
			return -1;
		if (r == 0)
			continue;
		ssize_t got = read(fd, c, n);
		if (got <= 0) {
			if (got == 0)
				errno = 0;
			return -1;
		}
		c += got;
		n -= (size_t)got;
	}
	return 0;
}

/* The child: load with hwloc, walk, answer, exit. */
static void
child(int fd, enum source src, const char *arg, const char *what)
{
	struct answer ans = { 0 };
	struct err e = { 0 };
	char m[sizeof ans.msg];
	struct topo *t = topo_new();
	hwloc_topology_t h;
	if (!t || hwloc_topology_init(&h) != 0) {
		ans.rc = err_set(&e, ERR_NOMEM, "out of memory");
	} else {
		if (src == SRC_XML && hwloc_topology_set_xml(h, arg) != 0)
			ans.rc = err_set(&e, ERR_FORMAT, "%s: not an hwloc XML topology", what);
		else if (src == SRC_SYNTHETIC && hwloc_topology_set_synthetic(h, arg) != 0)
			ans.rc = err_set(&e, ERR_USAGE, "'%s': not a synthetic topology (e.g. \"pack:2 core:4 pu:2\")", what);
		if (!ans.rc && hwloc_topology_load(h) != 0)
			ans.rc = err_set(&e, ERR_FORMAT, "%s: hwloc could not load the topology", what);
		if (!ans.rc && (ans.rc = walk(t, hwloc_get_root_obj(h), TRACE_NONE, 0)) == ERR_LIMIT)
			err_set(&e, ERR_LIMIT, "%s: more than %u objects or %u levels, more than skein loads",
				what, TOPO_MAX_OBJECTS, TOPO_MAX_DEPTH);
	}
	ans.n = ans.rc ? 0 : (uint32_t)t->n;
	snprintf(m, sizeof m, "%.*s", (int)sizeof m - 1, e.msg[0] ? e.msg : err_name(ans.rc));
	memcpy(ans.msg, m, sizeof m);
	int bad = write_all(fd, &ans, sizeof ans);
	for (uint32_t i = 0; !bad && i < ans.n; i++) {
		const struct topo_obj *o = &t->objs[i];
		struct rec r = { (uint32_t)o->type | (uint32_t)o->depth << 8, o->parent, o->os_index };
		bad = write_all(fd, &r, sizeof r);
	}
	_exit(bad ? 1 : 0);
}

static void
child_start(int fd, enum source src, const char *arg, const char *what)
{
	/* the parent's handlers are not the child's: a crash in hwloc ends
	 * the child at once (a fatal-signal handler of the explorer would
	 * reset the terminal under it; a sanitizer's could deadlock) */
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			signal(sig, SIG_DFL);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null >= 0) {
		dup2(null, STDERR_FILENO);
		dup2(null, STDOUT_FILENO);
	}
	/* CHILD_BYTES more than the process has mapped (a sanitizer's
	 * shadow memory is terabytes of address space), within the limit the
	 * user set */
	unsigned long long pages = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (f) {
		if (fscanf(f, "%llu", &pages) != 1)
			pages = 0;
		fclose(f);
	}
	struct rlimit lim;
	if (getrlimit(RLIMIT_AS, &lim) == 0) {
		rlim_t want = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + CHILD_BYTES;
		if (lim.rlim_max == RLIM_INFINITY || want < lim.rlim_max)
			lim.rlim_cur = want;
		else
			lim.rlim_cur = lim.rlim_max;
		setrlimit(RLIMIT_AS, &lim);
	}
	alarm(CHILD_SECONDS);
#ifdef __linux__
	prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
	child(fd, src, arg, what);
}

/* The parent: the records from the child, rebuilt into *out. Returns
 * ERR_IO when the child died or answered nonsense (waitpid says how). */
static int
receive(int fd, const char *what, struct topo **out, struct err *e)
{
	struct answer ans;
	struct timespec deadline;
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += CHILD_SECONDS + 2;
	if (read_all(fd, &ans, sizeof ans, &deadline))
		return errno == EINTR ? err_set(e, ERR_CANCELLED, "%s: loading the topology was interrupted", what)
			: errno == ETIMEDOUT ? err_set(e, ERR_LIMIT, "%s: hwloc took more than %d s to load the topology",
						       what, CHILD_SECONDS)
			: ERR_IO;
	ans.msg[sizeof ans.msg - 1] = '\0';
	if (ans.rc)
		return err_set(e, ans.rc < 0 ? ans.rc : ERR_FORMAT, "%s", ans.msg);
	if (ans.n > TOPO_MAX_OBJECTS)
		return ERR_IO;
	struct topo *t = topo_new();
	if (!t)
		return err_set(e, ERR_NOMEM, "out of memory");
	int rc = 0;
	for (uint32_t i = 0; i < ans.n && rc == 0; i++) {
		struct rec r;
		uint32_t id;
		if (read_all(fd, &r, sizeof r, &deadline)) {
			rc = ERR_IO;
			break;
		}
		uint8_t type = (uint8_t)r.type_depth;
		if (type >= TOPO_TYPE_COUNT || (i == 0) != (r.parent == TRACE_NONE) ||
		    (i && r.parent >= i)) {
			rc = ERR_IO;
			break;
		}
		rc = add(t, type, r.parent, (uint8_t)(r.type_depth >> 8), r.os_index, 0, &id);
	}
	if (rc == 0)
		rc = finish(t);
	if (rc == 0 && (t->n == 0 || t->n_pu == 0))
		rc = err_set(e, ERR_FORMAT, "%s: topology has no processing units", what);
	if (rc) {
		topo_destroy(t);
		return rc == ERR_NOMEM ? err_set(e, rc, "out of memory") : rc;
	}
	*out = t;
	return 0;
}

static int
load(enum source src, const char *arg, struct topo **out, struct err *e)
{
	*out = NULL;
	/* messages name the input on one line, whatever it holds */
	char shown[256];
	const char *what = src == SRC_MACHINE ? "this machine" : text_safe(arg, shown, sizeof shown);
	int rc = src == SRC_XML ? check_xml(arg, e) : src == SRC_SYNTHETIC ? check_synthetic(arg, what, e) : 0;
	if (rc)
		return rc;
	fflush(NULL);             /* nothing buffered is written twice */
	int fd[2];
	if (pipe(fd) != 0)
		return err_set(e, ERR_IO, "%s: cannot start the topology loader: %s", what, strerror(errno));
	pid_t pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return err_set(e, ERR_NOMEM, "%s: cannot start the topology loader: %s", what, strerror(errno));
	}
	if (pid == 0) {
		close(fd[0]);
		child_start(fd[1], src, arg, what);
	}
	close(fd[1]);
	rc = receive(fd[0], what, out, e);
	close(fd[0]);
	if (rc)
		kill(pid, SIGKILL);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (rc == ERR_IO) {
		if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
			rc = err_set(e, ERR_LIMIT, "%s: hwloc took more than %d s to load the topology", what,
				     CHILD_SECONDS);
		else if (WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL)
			rc = err_set(e, ERR_FORMAT, "%s: hwloc %s crashed reading the topology (%s)", what,
				     HWLOC_VERSION, strsignal(WTERMSIG(status)));
		else
			rc = err_set(e, ERR_FORMAT, "%s: hwloc %s could not load the topology (out of memory?)",
				     what, HWLOC_VERSION);
	}
	return rc;
}

int topo_load_xml(const char *path, struct topo **out, struct err *e) { return load(SRC_XML, path, out, e); }
int topo_load_synthetic(const char *d, struct topo **out, struct err *e) { return load(SRC_SYNTHETIC, d, out, e); }
int topo_load_machine(struct topo **out, struct err *e) { return load(SRC_MACHINE, NULL, out, e); }

int
topo_cluster(const struct topo *node, uint32_t n, const char *const *names,
	     struct topo **out, struct err *e)
{
	*out = NULL;
	if ((uint64_t)n * (node->n + 1) > TOPO_MAX_CLUSTER)
		return err_set(e, ERR_LIMIT, "a cluster of %u nodes of %zu objects each: more than the %u "
			       "objects skein shows", n, node->n, TOPO_MAX_CLUSTER);
	struct topo *t = topo_new();
	uint32_t root, nid, id;
	if (!t || add(t, TOPO_CLUSTER, TRACE_NONE, 0, 0, 0, &root))
		goto nomem;
	for (uint32_t i = 0; i < n; i++) {
		char buf[32];
		const char *name = names && names[i] ? names[i] : (snprintf(buf, sizeof buf, "node%u", i), buf);
		uint32_t sid;
		if (intern_add(t->strings, name, strlen(name), &sid) ||
		    add(t, TOPO_NODE, root, 1, i, sid, &nid))
			goto nomem;
		uint32_t base = (uint32_t)t->n;
		for (size_t k = 0; k < node->n; k++) {
			const struct topo_obj *o = &node->objs[k];
			uint32_t parent = o->parent == TRACE_NONE ? nid : base + o->parent;
			if (add(t, o->type, parent, (uint8_t)(o->depth + 2), o->os_index, 0, &id))
				goto nomem;
		}
	}
	if (finish(t))
		goto nomem;
	*out = t;
	return 0;
nomem:
	topo_destroy(t);
	return err_set(e, ERR_NOMEM, "out of memory building a cluster of %u nodes", n);
}

const struct topo_obj *
topo_objs(const struct topo *t, uint32_t *n)
{
	if (n)
		*n = (uint32_t)t->n;
	return t->objs;
}

const uint32_t *topo_children(const struct topo *t) { return t->children; }

const uint32_t *
topo_pu_objs(const struct topo *t, uint32_t *n)
{
	if (n)
		*n = t->n_pu;
	return t->pu_obj;
}

const char *topo_str(const struct topo *t, uint32_t id) { return intern_str(t->strings, id); }
uint32_t topo_count(const struct topo *t, enum topo_type type) { return type < TOPO_TYPE_COUNT ? t->count[type] : 0; }

const char *
topo_type_name(enum topo_type type)
{
	static const char *const names[TOPO_TYPE_COUNT] = {
		"Cluster", "Node", "Machine", "Package", "NUMANode", "L3", "Core", "PU",
	};
	return type < TOPO_TYPE_COUNT ? names[type] : "?";
}

/* ---- placement ---- */

/* The node objects of t (the root itself for a single node). */
static uint32_t
nodes_of(const struct topo *t, const uint32_t **ids)
{
	static const uint32_t root = 0;
	if (t->objs[0].type == TOPO_CLUSTER) {
		*ids = t->children + t->objs[0].first_child;
		return t->objs[0].n_children;
	}
	*ids = &root;
	return 1;
}

/* The PU for the local-th rank on node object `node`: cores in order,
 * then their second hardware threads, and so on. */
static uint32_t
pu_on_node(const struct topo *t, uint32_t node, uint32_t local)
{
	const struct topo_obj *N = &t->objs[node];
	uint32_t cores = 0, first_core = TRACE_NONE;
	/* cores of the node are a contiguous run of objects in DFS order, but
	 * other objects sit between them; count by scanning the subtree */
	for (uint32_t i = node; i < t->n && (i == node || t->objs[i].depth > N->depth); i++)
		if (t->objs[i].type == TOPO_CORE) {
			if (first_core == TRACE_NONE)
				first_core = i;
			cores++;
		}
	if (!cores)
		return N->pu_first + local % N->pu_count;
	uint32_t k = local % cores, seen = 0;
	for (uint32_t i = first_core; i < t->n; i++) {
		if (t->objs[i].type != TOPO_CORE)
			continue;
		if (seen++ == k) {
			const struct topo_obj *c = &t->objs[i];
			return c->pu_first + (local / cores) % c->pu_count;
		}
	}
	return N->pu_first;
}

static uint32_t
node_cores(const struct topo *t, uint32_t node)
{
	uint32_t cores = 0;
	for (uint32_t i = node; i < t->n && (i == node || t->objs[i].depth > t->objs[node].depth); i++)
		cores += t->objs[i].type == TOPO_CORE;
	return cores ? cores : t->objs[node].pu_count;
}

int
topo_place(const struct topo *t, const struct trace *trace, const struct topo_place_opts *o,
	   uint32_t **pu_of, struct err *e)
{
	uint32_t n_tl, n_nodes;
	const struct trace_timeline *tls = trace_timelines(trace, &n_tl);
	const uint32_t *nodes;
	uint32_t nn = nodes_of(t, &nodes);
	trace_nodes(trace, &n_nodes);
	*pu_of = malloc((n_tl + 1) * sizeof **pu_of);
	uint32_t *node_of = malloc((n_tl + 1) * sizeof *node_of);
	uint32_t *local = malloc((n_tl + 1) * sizeof *local);
	uint32_t *fill = calloc(nn + 1, sizeof *fill);
	uint32_t *tnode = malloc((n_nodes + 1) * sizeof *tnode);
	int rc = ERR_NOMEM;
	if (!*pu_of || !node_of || !local || !fill || !tnode)
		goto out;
	rc = 0;
	switch (o->how) {
	case PLACE_EXPLICIT:
		if (!o->pu || o->n_pu < n_tl) {
			rc = err_set(e, ERR_USAGE, "explicit placement names %u ranks, the trace has %u",
				     o->pu ? o->n_pu : 0, n_tl);
			goto out;
		}
		for (uint32_t r = 0; r < n_tl; r++) {
			if (o->pu[r] >= t->n_pu) {
				rc = err_set(e, ERR_USAGE, "rank %u placed on PU %u; the topology has %u",
					     r, o->pu[r], t->n_pu);
				goto out;
			}
			(*pu_of)[r] = o->pu[r];
		}
		goto out;
	case PLACE_BLOCK: {
		uint32_t per = o->ranks_per_node ? o->ranks_per_node : node_cores(t, nodes[0]);
		for (uint32_t r = 0; r < n_tl; r++) {
			node_of[r] = (r / per) % nn;
			local[r] = r % per + (r / per / nn) * per;
		}
		break;
	}
	case PLACE_ROUND_ROBIN:
		for (uint32_t r = 0; r < n_tl; r++) {
			node_of[r] = r % nn;
			local[r] = r / nn;
		}
		break;
	case PLACE_SYSTEM_TREE: {
		/* trace node -> topology node: by name, else in order of first use */
		uint32_t next = 0;
		for (uint32_t k = 0; k < n_nodes; k++)
			tnode[k] = TRACE_NONE;
		for (uint32_t r = 0; r < n_tl; r++) {
			uint32_t k = tls[r].node;
			uint32_t target = 0;
			if (nn > 1 && k != TRACE_NONE) {
				if (tnode[k] == TRACE_NONE) {
					const char *name = trace_str(trace, trace_nodes(trace, NULL)[k].name);
					for (uint32_t i = 0; i < nn && tnode[k] == TRACE_NONE; i++)
						if (strcmp(name, topo_str(t, t->objs[nodes[i]].name)) == 0)
							tnode[k] = i;
					if (tnode[k] == TRACE_NONE)
						tnode[k] = next++ % nn;
				}
				target = tnode[k];
			}
			node_of[r] = target;
			local[r] = fill[target]++;
		}
		break;
	}
	}
	for (uint32_t r = 0; r < n_tl; r++)
		(*pu_of)[r] = pu_on_node(t, nodes[node_of[r]], local[r]);
out:
	free(node_of);
	free(local);
	free(fill);
	free(tnode);
	if (rc) {
		free(*pu_of);
		*pu_of = NULL;
	}
	return rc;
}

int
topo_aggregate(const struct topo *t, const uint32_t *pu_of, uint32_t n_ranks,
	       const double *per_rank, enum topo_agg how, double *per_obj)
{
	uint32_t *count = calloc(t->n + 1, sizeof *count);
	if (!count)
		return ERR_NOMEM;
	for (size_t i = 0; i < t->n; i++)
		per_obj[i] = 0;
	for (uint32_t r = 0; r < n_ranks; r++) {
		if (pu_of[r] >= t->n_pu)
			continue;
		double v = per_rank ? per_rank[r] : 1;
		for (uint32_t o = t->pu_obj[pu_of[r]]; o != TRACE_NONE; o = t->objs[o].parent) {
			if (how == AGG_MAX)
				per_obj[o] = count[o] == 0 || v > per_obj[o] ? v : per_obj[o];
			else if (how == AGG_COUNT)
				per_obj[o] += 1;
			else
				per_obj[o] += v;
			count[o]++;
		}
	}
	if (how == AGG_MEAN)
		for (size_t i = 0; i < t->n; i++)
			per_obj[i] = count[i] ? per_obj[i] / count[i] : 0;
	free(count);
	return 0;
}
