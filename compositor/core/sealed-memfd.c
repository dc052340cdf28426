// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sealed-memfd.h"

int garnet_sealed_memfd(const char *name, const void *data, size_t size)
{
	int fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING), saved;
	const char *bytes = data;
	ssize_t wrote;

	if (fd < 0)
		return -1;
	for (size_t done = 0; done < size; done += (size_t)wrote) {
		wrote = write(fd, bytes + done, size - done);
		if (wrote < 0 && errno == EINTR) {
			wrote = 0;
			continue;
		}
		if (wrote <= 0) {
			if (wrote == 0)
				errno = EIO;
			goto fail;
		}
	}
	if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) < 0)
		goto fail;
	return fd;
fail:
	saved = errno;
	close(fd);
	errno = saved;
	return -1;
}
