// SPDX-License-Identifier: MIT
/*
 * Attacks, written as the attacker, side by side with the stock vgem driver in the same boot.
 * A victim process puts a secret into a buffer; an attacker process (another file, another
 * process, root like the victim) tries every way the 2012 review described to read it.
 * On vgem the secret leaks (the baseline proves the attack works); on garnet it must not.
 */
#include "garnet_test.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define SECRET		"victim-secret-7f3a91c0"
#define GUESSES		4096

struct victim {
	pid_t pid;
	int done;	/* write end: closing it lets the victim go */
};

/*
 * Runs setup() in a child process that keeps its files open until stop_victim(). setup()
 * returns an identifier (a name) that is written to the pipe for the test's own checks.
 */
static struct victim start_victim(uint64_t (*setup)(void *), void *arg, uint64_t *out)
{
	int report[2], hold[2];
	struct victim v;

	gt_assert_ok(pipe(report));
	gt_assert_ok(pipe(hold));
	v.pid = fork();
	gt_assert(v.pid >= 0);
	if (v.pid == 0) {
		uint64_t value = setup(arg);
		char c;

		close(report[0]);
		close(hold[1]);
		if (write(report[1], &value, sizeof(value)) != sizeof(value))
			_exit(1);
		/* Wait until the test is done attacking; our files stay open meanwhile. */
		while (read(hold[0], &c, 1) > 0)
			;
		_exit(0);
	}
	close(report[1]);
	close(hold[0]);
	gt_assert_eq(read(report[0], out, sizeof(*out)), sizeof(*out));
	close(report[0]);
	v.done = hold[1];
	return v;
}

static void stop_victim(struct victim *v)
{
	int status;

	close(v->done);
	gt_assert_eq(waitpid(v->pid, &status, 0), v->pid);
	gt_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static bool contains_secret(const char *buf, size_t size)
{
	return memmem(buf, size, SECRET, sizeof(SECRET) - 1) != NULL;
}

/* --- vgem baseline ------------------------------------------------------------------ */

static uint64_t vgem_victim(void *unused)
{
	int fd = gt_open_driver("vgem", false);
	struct drm_mode_create_dumb dumb = { .width = 1024, .height = 1, .bpp = 32 };
	struct drm_mode_map_dumb map = { 0 };
	struct drm_gem_flink flink = { 0 };
	char *ptr;

	gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &dumb));
	map.handle = dumb.handle;
	gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &map));
	ptr = mmap(NULL, dumb.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)map.offset);
	gt_assert(ptr != MAP_FAILED);
	strcpy(ptr + 1000, SECRET);
	flink.handle = dumb.handle;
	gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_GEM_FLINK, &flink));
	return flink.name;
}

static void vgem_flink_brute_force_leaks_the_secret(void)
{
	uint64_t name;
	struct victim v = start_victim(vgem_victim, NULL, &name);
	int fd = gt_open_driver("vgem", false);
	int opened = 0;
	bool leaked = false;

	for (uint32_t guess = 1; guess <= GUESSES && !leaked; guess++) {
		struct drm_gem_open op = { .name = guess };
		struct drm_mode_map_dumb map = { 0 };
		char *ptr;

		if (gt_ioctl(fd, DRM_IOCTL_GEM_OPEN, &op))
			continue;
		opened++;
		map.handle = op.handle;
		if (gt_ioctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &map))
			continue;
		ptr = mmap(NULL, op.size, PROT_READ, MAP_SHARED, fd, (off_t)map.offset);
		if (ptr == MAP_FAILED)
			continue;
		leaked = contains_secret(ptr, op.size);
		munmap(ptr, op.size);
	}
	gt_info("vgem: opened %d guessed names, secret %s\n", opened, leaked ? "leaked" : "safe");
	gt_assert(leaked);
	close(fd);
	stop_victim(&v);
}

/* --- garnet -------------------------------------------------------------------------- */

static uint32_t secret_object(int fd)
{
	uint32_t h = gt_create(fd, 4096);

	gt_pwrite(fd, h, 1000, SECRET, sizeof(SECRET));
	return h;
}

static uint64_t garnet_flink_victim(void *unused)
{
	/* The victim is the master here: the attacker must not get the master's powers. */
	int fd = gt_open_card();

	return gt_flink(fd, secret_object(fd));
}

static void garnet_flink_brute_force_finds_nothing(void)
{
	uint64_t name;
	struct victim v = start_victim(garnet_flink_victim, NULL, &name);
	int fd = gt_open_card();
	int render = gt_open_render();
	long long denied = gt_counter(fd, "open_denied");
	int logged = gt_kmsg_count("possible brute-force attempt");
	struct drm_gem_open op = { .name = (uint32_t)name };
	int opened = 0;

	gt_assert(!drmIsMaster(fd));
	for (uint32_t guess = 1; guess <= GUESSES; guess++) {
		op = (struct drm_gem_open){ .name = guess };
		if (gt_ioctl(fd, DRM_IOCTL_GEM_OPEN, &op) == 0)
			opened++;
		else
			gt_assert_eq(errno, ENOENT);
	}
	gt_info("garnet: opened %d of %d guessed names\n", opened, GUESSES);
	gt_assert_eq(opened, 0);
	gt_assert(name <= GUESSES);	/* the real name was among the guesses */
	gt_assert_eq(gt_counter(fd, "open_denied"), denied + GUESSES);
	gt_assert(gt_kmsg_count("possible brute-force attempt") > logged);
	/* The render node does not even offer GEM_OPEN. */
	gt_assert_errno(gt_ioctl(render, DRM_IOCTL_GEM_OPEN, &op), EACCES);
	close(render);
	close(fd);
	stop_victim(&v);
}

struct share_setup {
	uint64_t recipient;
	uint32_t flags;
};

static uint64_t garnet_share_victim(void *arg)
{
	struct share_setup *s = arg;
	int fd = gt_open_render();

	return gt_share(fd, secret_object(fd), s->recipient, s->flags);
}

static void garnet_share_name_guessing_finds_nothing(void)
{
	int compositor = gt_open_render();
	struct share_setup s = { .recipient = gt_client_id(compositor) };
	uint64_t name;
	struct victim v = start_victim(garnet_share_victim, &s, &name);
	int fd = gt_open_render();
	struct drm_garnet_accept acc;
	uint64_t x = 0x243f6a8885a308d3ull;

	for (int i = 0; i < 20000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		acc = (struct drm_garnet_accept){ .name = x };
		gt_assert_errno(gt_ioctl(fd, DRM_IOCTL_GARNET_ACCEPT, &acc), ENOENT);
	}
	for (uint64_t small = 0; small < 4096; small++) {
		acc = (struct drm_garnet_accept){ .name = small };
		gt_assert_errno(gt_ioctl(fd, DRM_IOCTL_GARNET_ACCEPT, &acc), ENOENT);
	}
	close(fd);
	stop_victim(&v);
	close(compositor);
}

/* The name leaks (say, over a socket) to an attacker: it is still not theirs to accept. */
static void garnet_share_to_wrong_recipient_does_not_leak(void)
{
	int compositor = gt_open_render();
	struct share_setup s = { .recipient = gt_client_id(compositor) };
	uint64_t name;
	struct victim v = start_victim(garnet_share_victim, &s, &name);
	int fd = gt_open_render();
	int card = gt_open_card();
	struct drm_garnet_accept acc = { .name = name };
	char out[sizeof(SECRET)];

	gt_assert_errno(gt_ioctl(fd, DRM_IOCTL_GARNET_ACCEPT, &acc), ENOENT);
	/* Not even as the DRM master: shares are for their recipient only. */
	gt_assert(drmIsMaster(card));
	gt_assert_errno(gt_ioctl(card, DRM_IOCTL_GARNET_ACCEPT, &acc), ENOENT);
	gt_assert_ok(gt_ioctl(compositor, DRM_IOCTL_GARNET_ACCEPT, &acc));
	gt_pread(compositor, acc.handle, 1000, out, sizeof(out));
	gt_assert(strcmp(out, SECRET) == 0);
	close(card);
	close(fd);
	stop_victim(&v);
	close(compositor);
}

static void garnet_single_use_name_cannot_be_replayed(void)
{
	int compositor = gt_open_render();
	struct share_setup s = {
		.recipient = gt_client_id(compositor), .flags = GARNET_SHARE_SINGLE_USE,
	};
	uint64_t name;
	struct victim v = start_victim(garnet_share_victim, &s, &name);
	struct drm_garnet_accept acc = { .name = name };

	gt_assert_ok(gt_ioctl(compositor, DRM_IOCTL_GARNET_ACCEPT, &acc));
	acc = (struct drm_garnet_accept){ .name = name };
	gt_assert_errno(gt_ioctl(compositor, DRM_IOCTL_GARNET_ACCEPT, &acc), ENOENT);
	stop_victim(&v);
	close(compositor);
}

static uint64_t garnet_handles_victim(void *unused)
{
	int fd = gt_open_render();

	for (int i = 0; i < 32; i++)
		secret_object(fd);
	return 0;
}

/* Handle numbers are per file: the victim's numbers name nothing (or the attacker's own). */
static void garnet_victim_handle_numbers_give_nothing(void)
{
	uint64_t unused;
	struct victim v = start_victim(garnet_handles_victim, NULL, &unused);
	int fd = gt_open_render();
	uint32_t own = gt_create(fd, 4096);
	char buf[4096];

	for (uint32_t h = 1; h <= 64; h++) {
		struct drm_i915_gem_pread pr = {
			.handle = h, .size = sizeof(buf), .data_ptr = (uintptr_t)buf,
		};

		if (h == own) {
			gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_I915_GEM_PREAD, &pr));
			gt_assert(!contains_secret(buf, sizeof(buf)));
			continue;
		}
		gt_assert_errno(gt_ioctl(fd, DRM_IOCTL_I915_GEM_PREAD, &pr), ENOENT);
		gt_assert_errno(gt_set_domain(fd, h, I915_GEM_DOMAIN_CPU, 0), ENOENT);
	}
	close(fd);
	stop_victim(&v);
}

#define FREED_BYTES	(64u << 20)

static uint64_t garnet_freeing_victim(void *unused)
{
	int fd = gt_open_render();
	const size_t chunk = 1 << 20;
	char *pattern = malloc(chunk);

	for (size_t i = 0; i + sizeof(SECRET) <= chunk; i += sizeof(SECRET))
		memcpy(pattern + i, SECRET, sizeof(SECRET));
	for (unsigned int i = 0; i < FREED_BYTES / chunk; i++) {
		uint32_t h = gt_create(fd, chunk);
		char *map = gt_mmap_cpu(fd, h, 0, chunk);

		gt_pwrite(fd, h, 0, pattern, chunk / 2);
		memcpy(map + chunk / 2, pattern, chunk / 2);
		munmap(map, chunk);
	}
	free(pattern);
	/* Closing the file frees every secret-filled object. */
	close(fd);
	return 0;
}

static void garnet_fresh_objects_after_victim_freed_secrets_are_zero(void)
{
	uint64_t unused;
	struct victim v = start_victim(garnet_freeing_victim, NULL, &unused);
	int fd = gt_open_render();
	const size_t chunk = 1 << 20;
	char *buf = malloc(chunk);

	stop_victim(&v);
	for (unsigned int i = 0; i < FREED_BYTES / chunk; i++) {
		uint32_t h = gt_create(fd, chunk);
		char *map = i % 2 ? gt_mmap_cpu(fd, h, 0, chunk) : gt_mmap_offset(fd, h, chunk);

		gt_pread(fd, h, 0, buf, chunk);
		for (size_t j = 0; j < chunk; j++) {
			if (buf[j] || map[j])
				gt_fail(__FILE__, __LINE__, "object %u byte %zu is not zero", i, j);
		}
		munmap(map, chunk);
	}
	free(buf);
	close(fd);
}

GT_MAIN(
	GT_SUBTEST(vgem_flink_brute_force_leaks_the_secret,
		   "vgem-flink-brute-force-leaks-the-secret"),
	GT_SUBTEST(garnet_flink_brute_force_finds_nothing, "garnet-flink-brute-force-finds-nothing"),
	GT_SUBTEST(garnet_share_name_guessing_finds_nothing,
		   "garnet-share-name-guessing-finds-nothing"),
	GT_SUBTEST(garnet_share_to_wrong_recipient_does_not_leak,
		   "garnet-share-to-wrong-recipient-does-not-leak"),
	GT_SUBTEST(garnet_single_use_name_cannot_be_replayed,
		   "garnet-single-use-name-cannot-be-replayed"),
	GT_SUBTEST(garnet_victim_handle_numbers_give_nothing,
		   "garnet-victim-handle-numbers-give-nothing"),
	GT_SUBTEST(garnet_fresh_objects_after_victim_freed_secrets_are_zero,
		   "garnet-fresh-objects-after-victim-freed-secrets-are-zero"),
)
