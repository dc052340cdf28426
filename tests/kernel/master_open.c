// SPDX-License-Identifier: MIT
/*
 * GEM_OPEN of a global name is for the master that is actually displaying. Written as the two
 * files the DRM core also calls "current master": a lessee (a lease of one CRTC and connector)
 * and an unprivileged process that opens the primary node while no master exists (the display
 * server dropped mastership, as at a VT switch) and so becomes master. Neither may open a
 * name; the real master may, also after it took mastership back.
 */
#include "garnet_test.h"

#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xf86drmMode.h>

static int open_by_name(int fd, uint32_t name)
{
	struct drm_gem_open op = { .name = name };
	int ret = gt_ioctl(fd, DRM_IOCTL_GEM_OPEN, &op);

	if (ret == 0) {
		struct drm_gem_close cl = { .handle = op.handle };

		gt_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &cl);
	}
	return ret;
}

static void lessee_cannot_open_a_global_name(void)
{
	int master = gt_open_card();
	uint32_t name = gt_flink(master, gt_create(master, 4096));
	drmModeResPtr res = drmModeGetResources(master);
	uint32_t objects[2];
	uint32_t lessee_id;
	int lessee;

	gt_assert(drmIsMaster(master));
	if (!res || !res->count_crtcs || !res->count_connectors)
		gt_skip("no CRTC or connector to lease");
	objects[0] = res->crtcs[0];
	objects[1] = res->connectors[0];
	drmModeFreeResources(res);
	lessee = drmModeCreateLease(master, objects, 2, O_CLOEXEC, &lessee_id);
	gt_assert(lessee >= 0);

	/* The core counts the lessee as a current master; garnet does not. */
	gt_assert_errno(open_by_name(lessee, name), ENOENT);
	gt_assert_ok(open_by_name(master, name));
	close(lessee);
	close(master);
}

/* The node this file was opened from. */
static void node_path(int fd, char *path, size_t size)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, size - 1);
	gt_assert(n > 0);
	path[n] = '\0';
}

static void first_opener_without_privilege_cannot_open(void)
{
	int master = gt_open_card();
	uint32_t name = gt_flink(master, gt_create(master, 4096));
	char path[64];
	struct stat st;
	pid_t pid;
	int status;

	gt_assert(drmIsMaster(master));
	node_path(master, path, sizeof(path));
	gt_assert_ok(stat(path, &st));
	/* Any user may open the node (as a seat's user may), and nobody is master. */
	gt_assert_ok(chmod(path, 0666));
	gt_assert_ok(drmDropMaster(master));

	pid = fork();
	gt_assert(pid >= 0);
	if (pid == 0) {
		int fd;

		if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
			_exit(2);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0 || !drmIsMaster(fd))
			_exit(3);
		_exit(open_by_name(fd, name) == -1 && errno == ENOENT ? 0 : 1);
	}
	gt_assert_eq(waitpid(pid, &status, 0), pid);
	gt_assert_ok(chmod(path, st.st_mode & 07777));
	gt_assert(WIFEXITED(status));
	if (WEXITSTATUS(status) == 1)
		gt_fail(__FILE__, __LINE__, "an unprivileged first opener opened a global name");
	gt_assert_eq(WEXITSTATUS(status), 0);

	/* The display server takes mastership back and may open names again. */
	gt_assert_ok(drmSetMaster(master));
	gt_assert_ok(open_by_name(master, name));
	close(master);
}

GT_MAIN(
	GT_SUBTEST(lessee_cannot_open_a_global_name, "lessee-cannot-open-a-global-name"),
	GT_SUBTEST(first_opener_without_privilege_cannot_open,
		   "first-opener-without-privilege-cannot-open"),
)
