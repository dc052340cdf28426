/* SPDX-License-Identifier: MIT */
/*
 * A small IGT-like harness for garnet's kernel tests: each program holds several subtests,
 * `prog --list` names them (`prog --list PARAMS` those of a boot with other module parameters),
 * `prog NAME` runs one (exit 0 pass, 1 fail, 77 skip). Every test
 * program runs inside the VM as root against the real garnet.ko.
 */
#ifndef GARNET_TEST_H
#define GARNET_TEST_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <xf86drm.h>
#include <i915_drm.h>

#include "garnet_drm.h"
/* vgem's fence ioctls: a real, unsignalled dma_fence on a buffer garnet can import. */
#include "../../clients/vgem-fence.h"

struct gt_subtest {
	const char *name;
	void (*run)(void);
	/* Module parameters the subtest needs garnet loaded with, or NULL for the defaults. */
	const char *boot;
};

/* Defines main() for a program made of the given subtests. */
#define GT_MAIN(...) \
	static const struct gt_subtest gt_subtests[] = { __VA_ARGS__ }; \
	int main(int argc, char **argv) \
	{ \
		return gt_main(argc, argv, gt_subtests, \
			       sizeof(gt_subtests) / sizeof(gt_subtests[0])); \
	}
#define GT_SUBTEST(fn, name) { name, fn, NULL }
/*
 * A subtest that needs garnet loaded with other module parameters (they are read-only after
 * load): `prog --list BOOT` names it, and meson runs it in a boot of its own loaded with BOOT
 * (`garnet-vm --module-param` for each space-separated NAME=VALUE).
 */
#define GT_SUBTEST_BOOT(fn, name, params) { name, fn, params }

int gt_main(int argc, char **argv, const struct gt_subtest *tests, size_t count);

__attribute__((noreturn, format(printf, 3, 4)))
void gt_fail(const char *file, int line, const char *fmt, ...);
__attribute__((noreturn, format(printf, 1, 2)))
void gt_skip(const char *fmt, ...);
__attribute__((format(printf, 1, 2)))
void gt_info(const char *fmt, ...);

#define gt_assert(cond) \
	do { if (!(cond)) gt_fail(__FILE__, __LINE__, "assertion failed: %s", #cond); } while (0)
#define gt_assert_eq(a, b) \
	do { long long a_ = (long long)(a), b_ = (long long)(b); \
		if (a_ != b_) gt_fail(__FILE__, __LINE__, "%s == %s: %lld != %lld", #a, #b, a_, b_); \
	} while (0)
/* An ioctl (or any call returning 0 / -1 with errno) must fail with this errno. */
#define gt_assert_errno(call, err) \
	do { int r_ = (call); int e_ = errno; \
		if (r_ != -1 || e_ != (err)) gt_fail(__FILE__, __LINE__, \
			"%s: expected -1/%s, got %d/%s", #call, strerror(err), r_, \
			r_ == -1 ? strerror(e_) : "no error"); \
	} while (0)
#define gt_assert_ok(call) \
	do { int r_ = (call); if (r_ != 0) gt_fail(__FILE__, __LINE__, "%s: %d (%s)", #call, \
		r_, strerror(errno)); } while (0)

/* Device access. Nodes are found by driver name, so vgem may sit next to garnet. */
int gt_open_driver(const char *driver, bool render);	/* skips when absent */
int gt_open_card(void);		/* garnet primary node; the first open file becomes master */
int gt_open_render(void);	/* garnet render node */
int gt_ioctl(int fd, unsigned long request, void *arg);	/* ioctl, restarted on EINTR */

/* GEM helpers; each fails the test on error. */
uint32_t gt_create(int fd, uint64_t size);
void gt_close(int fd, uint32_t handle);
void gt_pwrite(int fd, uint32_t handle, uint64_t offset, const void *data, uint64_t size);
void gt_pread(int fd, uint32_t handle, uint64_t offset, void *data, uint64_t size);
void *gt_mmap_cpu(int fd, uint32_t handle, uint64_t offset, uint64_t size);
void *gt_mmap_offset(int fd, uint32_t handle, uint64_t size);
uint32_t gt_flink(int fd, uint32_t handle);
uint64_t gt_client_id(int fd);
uint64_t gt_share(int fd, uint32_t handle, uint64_t recipient, uint32_t flags);
int gt_set_domain(int fd, uint32_t handle, uint32_t read, uint32_t write);
/* PIN and UNPIN (card node, root): the ioctl's result, for tests of their errors. */
int gt_pin(int fd, uint32_t handle, uint64_t alignment, uint64_t *offset);
int gt_unpin(int fd, uint32_t handle);
/* PRIME export (read-write) and import. */
int gt_prime_export(int fd, uint32_t handle);
uint32_t gt_prime_import(int fd, int dmabuf);

/* A value of a "name value" debugfs file of the device behind fd (fails the test without it). */
long long gt_debugfs_value(int fd, const char *file, const char *name);
/* One of garnet_counters. */
long long gt_counter(int fd, const char *name);
/* Reads a whole debugfs file of the device behind fd into a malloc'ed string. */
char *gt_debugfs_read(int fd, const char *file);

/* How many times slower than Debian's the guest's kernel runs (garnet-vm passes
 * GARNET_VM_TIMEOUT_SCALE: 1, or the debug kernel's factor), for bounds on time that stand
 * for "not stuck behind another client" rather than for speed. */
double gt_vm_slowdown(void);

/* Number of kernel log lines (since boot) that contain needle. */
int gt_kmsg_count(const char *needle);


/*
 * A vgem buffer with an unsignalled write fence, imported into a garnet file as imported:
 * work that reads it waits, as long as the test likes, for gt_blocker_signal().
 */
struct gt_blocker {
	int vgem, dmabuf;
	uint32_t imported, fence;
};

void gt_blocker_init(struct gt_blocker *bl, int fd);
void gt_blocker_signal(struct gt_blocker *bl);
void gt_blocker_finish(struct gt_blocker *bl);

#endif /* GARNET_TEST_H */
