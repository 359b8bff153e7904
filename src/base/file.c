/* file.c — input files that cannot hang a read (see file.h). */
#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *
file_kind(unsigned mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return "a regular file";
	case S_IFDIR: return "a directory";
	case S_IFIFO: return "a FIFO";
	case S_IFCHR: return "a character device";
	case S_IFBLK: return "a block device";
	case S_IFSOCK: return "a socket";
	default: return "not a file";
	}
}

static int
refuse(const char *path, unsigned mode, struct err *e)
{
	return err_set(e, ERR_IO, "%s: is %s, not a regular file", path, file_kind(mode));
}

int
file_check_regular(const char *path, uint64_t *size, struct err *e)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return err_set(e, ERR_IO, "%s: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return refuse(path, st.st_mode, e);
	if (size)
		*size = (uint64_t)st.st_size;
	return 0;
}

int
file_open_fd(const char *path, struct err *e)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		err_set(e, ERR_IO, "%s: %s", path, strerror(errno));
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) != 0) {
		err_set(e, ERR_IO, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		refuse(path, st.st_mode, e);
		close(fd);
		return -1;
	}
	int flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
		err_set(e, ERR_IO, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

FILE *
file_open_read(const char *path, struct err *e)
{
	int fd = file_open_fd(path, e);
	if (fd < 0)
		return NULL;
	FILE *f = fdopen(fd, "rb");
	if (!f) {
		if (errno == ENOMEM)
			err_set(e, ERR_NOMEM, "%s: out of memory", path);
		else
			err_set(e, ERR_IO, "%s: %s", path, strerror(errno));
		close(fd);
	}
	return f;
}
