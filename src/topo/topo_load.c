/* topo_load.c — hardware topologies from hwloc: XML files, synthetic
 * descriptions and this machine, loaded in a child process (see below)
 * and turned into skein's tree (topo_impl.h). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <hwloc.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "base/file.h"
#include "base/text.h"
#include "topo_impl.h"

static int
kept_type(hwloc_obj_type_t type, unsigned flags, uint8_t *out)
{
	switch (type) {
	case HWLOC_OBJ_MACHINE: *out = TOPO_MACHINE; return 1;
	case HWLOC_OBJ_PACKAGE: *out = TOPO_PACKAGE; return 1;
	case HWLOC_OBJ_L3CACHE: *out = TOPO_L3; return 1;
	case HWLOC_OBJ_L2CACHE: *out = TOPO_L2; return (flags & TOPO_LOAD_CACHES) != 0;
	case HWLOC_OBJ_L1CACHE: *out = TOPO_L1; return (flags & TOPO_LOAD_CACHES) != 0;
	case HWLOC_OBJ_CORE: *out = TOPO_CORE; return 1;
	case HWLOC_OBJ_PU: *out = TOPO_PU; return 1;
	default: return 0;
	}
}

/* hwloc trees are a dozen levels deep at most: recursion is safe here. */
static int
walk(struct topo *t, hwloc_obj_t o, uint32_t parent, uint8_t depth, unsigned flags)
{
	uint32_t here = parent;
	uint8_t type;
	int rc;
	if (t->n >= TOPO_MAX_OBJECTS || depth >= TOPO_MAX_DEPTH)
		return ERR_LIMIT;
	if (kept_type(o->type, flags, &type)) {
		if ((rc = topo_append(t, type, parent, depth, o->os_index, 0, &here)))
			return rc;
		depth++;
	}
	/* a NUMA node covering exactly this object becomes a level below it */
	for (hwloc_obj_t m = o->memory_first_child; m; m = m->next_sibling)
		if (m->type == HWLOC_OBJ_NUMANODE && m->cpuset && o->cpuset &&
		    hwloc_bitmap_isequal(m->cpuset, o->cpuset) && o->type != HWLOC_OBJ_MACHINE) {
			if ((rc = topo_append(t, TOPO_NUMA, here, depth, m->os_index, 0, &here)))
				return rc;
			depth++;
			break;
		}
	for (hwloc_obj_t c = o->first_child; c; c = c->next_sibling)
		if ((rc = walk(t, c, here, depth, flags)))
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
 * error (doc/robustness.md). The limit is processor time (RLIMIT_CPU),
 * not the machine's load; the parent waits WALL_SECONDS at most besides,
 * for a child that hangs without computing (the explorer waits for its
 * background jobs before it forks: view_topo.c). */

#define CHILD_SECONDS 20
#define WALL_SECONDS 60
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
child(int fd, enum source src, const char *arg, unsigned flags, const char *what)
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
		if (!ans.rc && (ans.rc = walk(t, hwloc_get_root_obj(h), TRACE_NONE, 0, flags)) == ERR_LIMIT)
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
child_start(int fd, enum source src, const char *arg, unsigned flags, const char *what)
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
	struct rlimit cpu = { CHILD_SECONDS, CHILD_SECONDS + 1 };
	setrlimit(RLIMIT_CPU, &cpu);
	alarm(WALL_SECONDS);
#ifdef __linux__
	prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
	child(fd, src, arg, flags, what);
}

/* The parent: the records from the child, rebuilt into *out. Returns
 * ERR_IO when the child died or answered nonsense (waitpid says how). */
static int
receive(int fd, const char *what, struct topo **out, struct err *e)
{
	struct answer ans;
	struct timespec deadline;
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += WALL_SECONDS + 2;
	if (read_all(fd, &ans, sizeof ans, &deadline))
		return errno == EINTR ? err_set(e, ERR_CANCELLED, "%s: loading the topology was interrupted", what)
			: errno == ETIMEDOUT ? err_set(e, ERR_LIMIT, "%s: hwloc took more than %d s to load the topology",
						       what, WALL_SECONDS)
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
		rc = topo_append(t, type, r.parent, (uint8_t)(r.type_depth >> 8), r.os_index, 0, &id);
	}
	if (rc == 0)
		rc = topo_link(t);
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
load(enum source src, const char *arg, unsigned flags, struct topo **out, struct err *e)
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
		child_start(fd[1], src, arg, flags, what);
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
		if (WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU)
			rc = err_set(e, ERR_LIMIT, "%s: hwloc took more than %d s of processor time to load the "
				     "topology", what, CHILD_SECONDS);
		else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
			rc = err_set(e, ERR_LIMIT, "%s: hwloc took more than %d s to load the topology", what,
				     WALL_SECONDS);
		else if (WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL)
			rc = err_set(e, ERR_FORMAT, "%s: hwloc %s crashed reading the topology (%s)", what,
				     HWLOC_VERSION, strsignal(WTERMSIG(status)));
		else
			rc = err_set(e, ERR_FORMAT, "%s: hwloc %s could not load the topology (out of memory?)",
				     what, HWLOC_VERSION);
	}
	return rc;
}

int topo_load_xml(const char *path, struct topo **out, struct err *e) { return load(SRC_XML, path, 0, out, e); }
int topo_load_xml_flags(const char *path, unsigned flags, struct topo **out, struct err *e) { return load(SRC_XML, path, flags, out, e); }
int topo_load_synthetic(const char *d, struct topo **out, struct err *e) { return load(SRC_SYNTHETIC, d, 0, out, e); }
int topo_load_machine(struct topo **out, struct err *e) { return load(SRC_MACHINE, NULL, 0, out, e); }
