// SPDX-License-Identifier: MIT
// Preloaded into garnet-portal by portal-test.sh: its own buffers (memfds named
// "garnet-portal") but the first cannot be made, as when the process runs out of memory or of
// descriptors half way, while PipeWire's and everything else's still can.
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

__attribute__((visibility("default"))) int memfd_create(const char *name, unsigned int flags)
{
	static int made;

	if (strcmp(name, "garnet-portal") == 0 && made++ > 0) {
		errno = EMFILE;
		return -1;
	}
	return (int)syscall(SYS_memfd_create, name, flags);
}
