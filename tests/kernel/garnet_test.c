// SPDX-License-Identifier: MIT
/* The subtest runner and the helpers every kernel test shares. */
#include "garnet_test.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static const char *current_test = "?";

int gt_main(int argc, char **argv, const struct gt_subtest *tests, size_t count)
{
	if ((argc == 2 || argc == 3) && strcmp(argv[1], "--list") == 0) {
		const char *boot = argc == 3 ? argv[2] : NULL;

		for (size_t i = 0; i < count; i++)
			if (boot ? tests[i].boot && strcmp(tests[i].boot, boot) == 0 : !tests[i].boot)
				printf("%s\n", tests[i].name);
		return 0;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: %s --list [PARAMS] | SUBTEST\n", argv[0]);
		return 2;
	}
	for (size_t i = 0; i < count; i++) {
		if (strcmp(argv[1], tests[i].name) == 0) {
			current_test = tests[i].name;
			tests[i].run();
			printf("%s: pass\n", current_test);
			return 0;
		}
	}
	fprintf(stderr, "%s: no subtest named '%s'\n", argv[0], argv[1]);
	return 2;
}

void gt_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: FAIL at %s:%d: ", current_test, file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

void gt_skip(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: skip: ", current_test);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(77);
}

void gt_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
}

int gt_ioctl(int fd, unsigned long request, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, request, arg);
	} while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	return ret;
}

int gt_open_driver(const char *driver, bool render)
{
	char path[64];

	for (int i = 0; i < 16; i++) {
		drmVersionPtr version;
		int fd;

		snprintf(path, sizeof(path), render ? "/dev/dri/renderD%d" : "/dev/dri/card%d",
			 render ? 128 + i : i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		version = drmGetVersion(fd);
		if (version && strcmp(version->name, driver) == 0) {
			drmFreeVersion(version);
			return fd;
		}
		drmFreeVersion(version);
		close(fd);
	}
	gt_skip("no %s node of driver %s", render ? "render" : "primary", driver);
}

int gt_open_card(void)
{
	return gt_open_driver("garnet", false);
}

int gt_open_render(void)
{
	return gt_open_driver("garnet", true);
}

uint32_t gt_create(int fd, uint64_t size)
{
	struct drm_i915_gem_create create = { .size = size };

	gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &create));
	gt_assert(create.handle != 0);
	return create.handle;
}

void gt_close(int fd, uint32_t handle)
{
	struct drm_gem_close close_args = { .handle = handle };

	gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &close_args));
}

void gt_pwrite(int fd, uint32_t handle, uint64_t offset, const void *data, uint64_t size)
{
	struct drm_i915_gem_pwrite pw = {
		.handle = handle, .offset = offset, .size = size,
		.data_ptr = (uintptr_t)data,
	};

	gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_I915_GEM_PWRITE, &pw));
}

void gt_pread(int fd, uint32_t handle, uint64_t offset, void *data, uint64_t size)
{
	struct drm_i915_gem_pread pr = {
		.handle = handle, .offset = offset, .size = size,
		.data_ptr = (uintptr_t)data,
	};

	gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_I915_GEM_PREAD, &pr));
}

void *gt_mmap_cpu(int fd, uint32_t handle, uint64_t offset, uint64_t size)
{
	struct drm_i915_gem_mmap mm = { .handle = handle, .offset = offset, .size = size };

	gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_I915_GEM_MMAP, &mm));
	gt_assert(mm.addr_ptr != 0);
	return (void *)(uintptr_t)mm.addr_ptr;
}

void *gt_mmap_offset(int fd, uint32_t handle, uint64_t size)
{
	struct drm_i915_gem_mmap_offset mo = { .handle = handle, .flags = I915_MMAP_OFFSET_WB };
	void *ptr;

	gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo));
	ptr = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)mo.offset);
	if (ptr == MAP_FAILED)
		gt_fail(__FILE__, __LINE__, "mmap of offset 0x%llx: %s",
			(unsigned long long)mo.offset, strerror(errno));
	return ptr;
}

uint32_t gt_flink(int fd, uint32_t handle)
{
	struct drm_gem_flink flink = { .handle = handle };

	gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_GEM_FLINK, &flink));
	gt_assert(flink.name != 0);
	return flink.name;
}

uint64_t gt_client_id(int fd)
{
	struct drm_garnet_get_client_id id = { 0 };

	gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_GARNET_GET_CLIENT_ID, &id));
	gt_assert(id.client_id != 0);
	return id.client_id;
}

uint64_t gt_share(int fd, uint32_t handle, uint64_t recipient, uint32_t flags)
{
	struct drm_garnet_share share = {
		.handle = handle, .flags = flags, .recipient = recipient,
	};

	gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_GARNET_SHARE, &share));
	gt_assert(share.name != 0);
	return share.name;
}

int gt_set_domain(int fd, uint32_t handle, uint32_t read, uint32_t write)
{
	struct drm_i915_gem_set_domain sd = {
		.handle = handle, .read_domains = read, .write_domain = write,
	};

	return gt_ioctl(fd, DRM_IOCTL_I915_GEM_SET_DOMAIN, &sd);
}

char *gt_debugfs_read(int fd, const char *file)
{
	char path[128], *buf = NULL;
	size_t len = 0, cap = 0;
	struct stat st;
	FILE *f;

	gt_assert_ok(fstat(fd, &st));
	snprintf(path, sizeof(path), "/sys/kernel/debug/dri/%u/%s", minor(st.st_rdev), file);
	f = fopen(path, "r");
	if (!f)
		gt_fail(__FILE__, __LINE__, "open %s: %s", path, strerror(errno));
	for (;;) {
		size_t n;

		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 8192;
			buf = realloc(buf, cap);
			gt_assert(buf);
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		if (n == 0)
			break;
		len += n;
	}
	fclose(f);
	buf[len] = '\0';
	return buf;
}

long long gt_debugfs_value(int fd, const char *file, const char *name)
{
	char *text = gt_debugfs_read(fd, file);
	size_t n = strlen(name);
	long long value = -1;

	for (char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		if (strncmp(line, name, n) == 0 && line[n] == ' ') {
			value = strtoll(line + n + 1, NULL, 10);
			break;
		}
	}
	free(text);
	if (value < 0)
		gt_fail(__FILE__, __LINE__, "no value '%s' in %s", name, file);
	return value;
}

long long gt_counter(int fd, const char *name)
{
	return gt_debugfs_value(fd, "garnet_counters", name);
}

int gt_pin(int fd, uint32_t handle, uint64_t alignment, uint64_t *offset)
{
	struct drm_i915_gem_pin p = { .handle = handle, .alignment = alignment };
	int ret = gt_ioctl(fd, DRM_IOCTL_I915_GEM_PIN, &p);

	if (offset)
		*offset = p.offset;
	return ret;
}

int gt_unpin(int fd, uint32_t handle)
{
	struct drm_i915_gem_unpin u = { .handle = handle };

	return gt_ioctl(fd, DRM_IOCTL_I915_GEM_UNPIN, &u);
}

int gt_prime_export(int fd, uint32_t handle)
{
	int dmabuf = -1;

	gt_assert_ok(drmPrimeHandleToFD(fd, handle, DRM_CLOEXEC | DRM_RDWR, &dmabuf));
	gt_assert(dmabuf >= 0);
	return dmabuf;
}

uint32_t gt_prime_import(int fd, int dmabuf)
{
	uint32_t handle = 0;

	gt_assert_ok(drmPrimeFDToHandle(fd, dmabuf, &handle));
	gt_assert(handle != 0);
	return handle;
}

void gt_blocker_init(struct gt_blocker *bl, int fd)
{
	struct drm_mode_create_dumb dumb = { .width = 1024, .height = 1, .bpp = 32 };
	struct vgem_fence_attach attach = { .flags = VGEM_FENCE_WRITE };

	bl->vgem = gt_open_driver("vgem", false);
	gt_assert_ok(gt_ioctl(bl->vgem, DRM_IOCTL_MODE_CREATE_DUMB, &dumb));
	attach.handle = dumb.handle;
	gt_assert_ok(gt_ioctl(bl->vgem, VGEM_IOCTL_FENCE_ATTACH, &attach));
	bl->fence = attach.out_fence;
	gt_assert_ok(drmPrimeHandleToFD(bl->vgem, dumb.handle, DRM_CLOEXEC, &bl->dmabuf));
	gt_assert_ok(drmPrimeFDToHandle(fd, bl->dmabuf, &bl->imported));
}

void gt_blocker_signal(struct gt_blocker *bl)
{
	struct vgem_fence_signal sig = { .fence = bl->fence };

	gt_assert_ok(gt_ioctl(bl->vgem, VGEM_IOCTL_FENCE_SIGNAL, &sig));
}

void gt_blocker_finish(struct gt_blocker *bl)
{
	close(bl->dmabuf);
	close(bl->vgem);
}

int gt_kmsg_count(const char *needle)
{
	char record[8192];
	int count = 0;
	int fd;

	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		gt_fail(__FILE__, __LINE__, "open /dev/kmsg: %s", strerror(errno));
	for (;;) {
		ssize_t n = read(fd, record, sizeof(record) - 1);

		if (n < 0 && errno == EPIPE)
			continue;	/* records overwritten while reading */
		if (n <= 0)
			break;
		record[n] = '\0';
		if (strstr(record, needle))
			count++;
	}
	close(fd);
	return count;
}

double gt_vm_slowdown(void)
{
	const char *scale = getenv("GARNET_VM_TIMEOUT_SCALE");
	double v = scale ? strtod(scale, NULL) : 1.0;

	return v >= 1.0 ? v : 1.0;
}
