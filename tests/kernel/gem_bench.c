// SPDX-License-Identifier: MIT
/*
 * Benchmark of garnet's object layer, run inside the VM: create+close rate, pwrite and pread
 * throughput for 4 KiB and 8 MiB transfers next to a plain memcpy in the same guest, and
 * create+mmap+close on garnet next to vgem. Prints figures and ratios.
 */
#include "garnet_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define RUN_SECONDS	0.5

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Runs op until RUN_SECONDS passed; returns operations per second. */
static double rate(void (*op)(void *), void *arg)
{
	double start = now(), elapsed;
	long n = 0;

	do {
		for (int i = 0; i < 16; i++)
			op(arg);
		n += 16;
		elapsed = now() - start;
	} while (elapsed < RUN_SECONDS);
	return n / elapsed;
}

struct ctx {
	int fd;
	uint32_t handle;
	size_t size;
	uint8_t *buf;
	uint8_t *dst;
};

static void create_close(void *arg)
{
	struct ctx *c = arg;

	gt_close(c->fd, gt_create(c->fd, 4096));
}

static void do_pwrite(void *arg)
{
	struct ctx *c = arg;

	gt_pwrite(c->fd, c->handle, 0, c->buf, c->size);
}

static void do_pread(void *arg)
{
	struct ctx *c = arg;

	gt_pread(c->fd, c->handle, 0, c->buf, c->size);
}

static void do_memcpy(void *arg)
{
	struct ctx *c = arg;

	memcpy(c->dst, c->buf, c->size);
	__asm__ volatile("" : : "r"(c->dst) : "memory");
}

/* An ioctl that moves no data: what any pread/pwrite pays before its first byte. */
static void null_ioctl(void *arg)
{
	struct ctx *c = arg;
	int value;
	struct drm_i915_getparam gp = { .param = I915_PARAM_CHIPSET_ID, .value = &value };

	gt_assert_ok(gt_ioctl(c->fd, DRM_IOCTL_I915_GETPARAM, &gp));
}

static void garnet_create_mmap_close(void *arg)
{
	struct ctx *c = arg;
	uint32_t h = gt_create(c->fd, c->size);
	volatile uint8_t *map = gt_mmap_offset(c->fd, h, c->size);

	map[0] = 1;
	munmap((void *)map, c->size);
	gt_close(c->fd, h);
}

static void vgem_create_mmap_close(void *arg)
{
	struct ctx *c = arg;
	struct drm_mode_create_dumb dumb = { .width = c->size / 4, .height = 1, .bpp = 32 };
	struct drm_mode_map_dumb map_args = { 0 };
	volatile uint8_t *map;

	gt_assert_ok(gt_ioctl(c->fd, DRM_IOCTL_MODE_CREATE_DUMB, &dumb));
	map_args.handle = dumb.handle;
	gt_assert_ok(gt_ioctl(c->fd, DRM_IOCTL_MODE_MAP_DUMB, &map_args));
	map = mmap(NULL, dumb.size, PROT_READ | PROT_WRITE, MAP_SHARED, c->fd,
		   (off_t)map_args.offset);
	gt_assert(map != MAP_FAILED);
	map[0] = 1;
	munmap((void *)map, dumb.size);
	gt_close(c->fd, dumb.handle);
}

/* Creates an object, writes every page of it (as a client filling a buffer would), frees it. */
static void create_fill_close(void *arg)
{
	struct ctx *c = arg;
	uint32_t h = gt_create(c->fd, c->size);

	gt_pwrite(c->fd, h, 0, c->buf, c->size);
	gt_close(c->fd, h);
}

static void read_param(const char *name, char *value, size_t size)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/garnet/parameters/%s", name);
	f = fopen(path, "r");
	gt_assert(f != NULL);
	gt_assert(fgets(value, (int)size, f) != NULL);
	value[strcspn(value, "\n")] = 0;
	fclose(f);
}

/*
 * The cost of the zeroing choice in force. The pool's parameters are read-only after load:
 * the other choices are measured by booting with them (garnet-vm --module-param pool_mb=0,
 * or zero_policy=idle).
 */
static void zeroing(int fd)
{
	struct ctx c = { .fd = fd, .size = 1 << 20 };
	char pool_mb[32], policy[32];
	double r;

	read_param("pool_mb", pool_mb, sizeof(pool_mb));
	read_param("zero_policy", policy, sizeof(policy));
	c.buf = malloc(c.size);
	memset(c.buf, 0x11, c.size);
	create_fill_close(&c);
	r = rate(create_fill_close, &c);
	printf("create+fill+close (1 MiB) pool_mb=%s zero_policy=%s %8.0f /s\n", pool_mb, policy,
	       r);
	printf("sample: create_fill_close_1MiB/pool_mb=%s/zero_policy=%s %.0f per-s higher\n",
	       pool_mb, policy, r);
	free(c.buf);
}

static void transfer(int fd, size_t size, const char *label)
{
	struct ctx c = { .fd = fd, .size = size };
	double wr, rd, mc;

	c.handle = gt_create(fd, size);
	c.buf = malloc(size);
	c.dst = malloc(size);
	memset(c.buf, 0x5a, size);
	memset(c.dst, 0, size);
	gt_pwrite(fd, c.handle, 0, c.buf, size);	/* fault the pages in once */
	wr = rate(do_pwrite, &c) * size / 1e9;
	rd = rate(do_pread, &c) * size / 1e9;
	mc = rate(do_memcpy, &c) * size / 1e9;
	printf("pwrite %-6s %8.2f GB/s   memcpy %8.2f GB/s   ratio %.2f\n", label, wr, mc, wr / mc);
	printf("pread  %-6s %8.2f GB/s   memcpy %8.2f GB/s   ratio %.2f\n", label, rd, mc, rd / mc);
	/* The best ratio any ioctl could reach: the memcpy plus one ioctl that copies nothing. */
	printf("memcpy %-6s + one null ioctl: ratio %.2f\n", label,
	       (1 / (mc * 1e9 / size)) / (1 / (mc * 1e9 / size) + 1 / rate(null_ioctl, &c)));
	/* The ratios to memcpy are what a change to garnet moves; the speeds follow the host. */
	printf("sample: pwrite_%s/ratio_to_memcpy %.3f ratio higher\n", label, wr / mc);
	printf("sample: pread_%s/ratio_to_memcpy %.3f ratio higher\n", label, rd / mc);
	printf("sample: pwrite_%s %.3f GB/s higher\n", label, wr);
	printf("sample: pread_%s %.3f GB/s higher\n", label, rd);
	gt_close(fd, c.handle);
	free(c.buf);
	free(c.dst);
}

static void benchmark(void)
{
	int fd = gt_open_render();
	int vgem = gt_open_driver("vgem", false);
	struct ctx c = { .fd = fd };
	struct ctx v = { .fd = vgem };
	double garnet_rate, vgem_rate;
	double create_rate = rate(create_close, &c), null_rate = rate(null_ioctl, &c);

	printf("create+close (4 KiB)     %10.0f /s\n", create_rate);
	printf("GETPARAM (null ioctl)    %10.0f /s\n", null_rate);
	printf("sample: create_close_4KiB %.0f per-s higher\n", create_rate);
	printf("sample: getparam %.0f per-s higher\n", null_rate);
	transfer(fd, 4096, "4KiB");
	transfer(fd, 8 << 20, "8MiB");
	c.size = v.size = 64 * 1024;
	garnet_rate = rate(garnet_create_mmap_close, &c);
	vgem_rate = rate(vgem_create_mmap_close, &v);
	zeroing(fd);
	printf("create+mmap+close (64 KiB) garnet %8.0f /s   vgem %8.0f /s   ratio %.2f\n",
	       garnet_rate, vgem_rate, garnet_rate / vgem_rate);
	printf("sample: create_mmap_close_64KiB/ratio_to_vgem %.3f ratio higher\n",
	       garnet_rate / vgem_rate);
	close(vgem);
	close(fd);
}

GT_MAIN(
	GT_SUBTEST(benchmark, "all"),
)
