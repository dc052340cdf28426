// SPDX-License-Identifier: MIT
/* garnet's per-client sharing: GET_CLIENT_ID, SHARE, ACCEPT, REVOKE (garnet_drm.h). */
#include "garnet_test.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int accept_name(int fd, uint64_t name, struct drm_garnet_accept *out)
{
	*out = (struct drm_garnet_accept){ .name = name };
	return gt_ioctl(fd, DRM_IOCTL_GARNET_ACCEPT, out);
}

static int revoke_name(int fd, uint64_t name)
{
	struct drm_garnet_revoke rv = { .name = name };

	return gt_ioctl(fd, DRM_IOCTL_GARNET_REVOKE, &rv);
}

static int share_raw(int fd, uint32_t handle, uint64_t recipient, uint32_t flags)
{
	struct drm_garnet_share share = {
		.handle = handle, .flags = flags, .recipient = recipient,
	};

	return gt_ioctl(fd, DRM_IOCTL_GARNET_SHARE, &share);
}

static void each_file_has_its_own_client_id(void)
{
	int a = gt_open_render(), b = gt_open_render(), c = gt_open_card();
	uint64_t ia = gt_client_id(a), ib = gt_client_id(b), ic = gt_client_id(c);

	gt_assert(ia != ib && ib != ic && ia != ic);
	gt_assert_eq(gt_client_id(a), ia);
	close(a);
	close(b);
	close(c);
}

static void recipient_accepts_and_sees_the_data(void)
{
	int owner = gt_open_render(), recipient = gt_open_render();
	uint32_t h = gt_create(owner, 8192);
	char out[16] = { 0 };
	struct drm_garnet_accept acc;
	uint64_t name;

	gt_pwrite(owner, h, 4096, "shared-pixels", 14);
	name = gt_share(owner, h, gt_client_id(recipient), 0);
	gt_assert_ok(accept_name(recipient, name, &acc));
	gt_assert(acc.handle != 0);
	gt_assert_eq(acc.size, 8192);
	gt_pread(recipient, acc.handle, 4096, out, 14);
	gt_assert(strcmp(out, "shared-pixels") == 0);
	close(owner);
	close(recipient);
}

/* Names are random 64-bit numbers: neither small nor sequential. */
static void names_are_random_64_bit_numbers(void)
{
	int owner = gt_open_render(), recipient = gt_open_render();
	uint32_t h = gt_create(owner, 4096);
	uint64_t id = gt_client_id(recipient);
	uint64_t names[64];
	int high_bits = 0;

	for (int i = 0; i < 64; i++) {
		names[i] = gt_share(owner, h, id, 0);
		if (names[i] >> 32)
			high_bits++;
		for (int j = 0; j < i; j++) {
			gt_assert(names[i] != names[j]);
			gt_assert(names[i] - names[j] > 0xffff && names[j] - names[i] > 0xffff);
		}
	}
	gt_assert(high_bits >= 60);
	close(owner);
	close(recipient);
}

static void wrong_recipient_gets_enoent(void)
{
	int owner = gt_open_render(), recipient = gt_open_render(), thief = gt_open_render();
	uint32_t h = gt_create(owner, 4096);
	uint64_t name = gt_share(owner, h, gt_client_id(recipient), 0);
	struct drm_garnet_accept acc;

	gt_assert_errno(accept_name(thief, name, &acc), ENOENT);
	gt_assert_eq(acc.handle, 0);
	/* The owner itself is not the recipient either. */
	gt_assert_errno(accept_name(owner, name, &acc), ENOENT);
	gt_assert_ok(accept_name(recipient, name, &acc));
	close(owner);
	close(recipient);
	close(thief);
}

/* Unknown and meant-for-someone-else cannot be told apart. */
static void unknown_and_foreign_names_fail_alike(void)
{
	int owner = gt_open_render(), recipient = gt_open_render(), other = gt_open_render();
	uint64_t name = gt_share(owner, gt_create(owner, 4096), gt_client_id(recipient), 0);
	struct drm_garnet_accept acc;

	gt_assert_errno(accept_name(other, name, &acc), ENOENT);
	gt_assert_errno(accept_name(other, name ^ 1, &acc), ENOENT);
	gt_assert_errno(accept_name(other, 0, &acc), ENOENT);
	close(owner);
	close(recipient);
	close(other);
}

static void single_use_name_accepts_once(void)
{
	int owner = gt_open_render(), recipient = gt_open_render();
	uint64_t name = gt_share(owner, gt_create(owner, 4096), gt_client_id(recipient),
				 GARNET_SHARE_SINGLE_USE);
	struct drm_garnet_accept acc;

	gt_assert_ok(accept_name(recipient, name, &acc));
	gt_assert_errno(accept_name(recipient, name, &acc), ENOENT);
	/* Gone, so the owner cannot revoke it either. */
	gt_assert_errno(revoke_name(owner, name), ENOENT);
	close(owner);
	close(recipient);
}

static void reusable_name_accepts_until_revoked(void)
{
	int owner = gt_open_render(), recipient = gt_open_render();
	uint64_t name = gt_share(owner, gt_create(owner, 4096), gt_client_id(recipient), 0);
	struct drm_garnet_accept acc;
	uint32_t first;

	gt_assert_ok(accept_name(recipient, name, &acc));
	first = acc.handle;
	gt_assert_ok(accept_name(recipient, name, &acc));
	gt_assert(acc.handle != 0);
	gt_assert_ok(revoke_name(owner, name));
	gt_assert_errno(accept_name(recipient, name, &acc), ENOENT);
	/* Revoking a name does not take back what was accepted. */
	gt_assert_ok(gt_set_domain(recipient, first, I915_GEM_DOMAIN_CPU, 0));
	close(owner);
	close(recipient);
}

static void only_the_owner_may_revoke(void)
{
	int owner = gt_open_render(), recipient = gt_open_render();
	uint64_t name = gt_share(owner, gt_create(owner, 4096), gt_client_id(recipient), 0);
	struct drm_garnet_accept acc;

	gt_assert_errno(revoke_name(recipient, name), ENOENT);
	gt_assert_errno(revoke_name(owner, name ^ 0x5555), ENOENT);
	gt_assert_ok(accept_name(recipient, name, &acc));
	close(owner);
	close(recipient);
}

static void name_dies_with_the_object(void)
{
	int owner = gt_open_render(), recipient = gt_open_render();
	uint32_t h = gt_create(owner, 4096);
	uint64_t name = gt_share(owner, h, gt_client_id(recipient), 0);
	struct drm_garnet_accept acc;

	gt_close(owner, h);
	gt_assert_errno(accept_name(recipient, name, &acc), ENOENT);
	close(owner);
	close(recipient);
}

static void names_die_with_the_owning_file(void)
{
	int owner = gt_open_render(), recipient = gt_open_render();
	uint64_t name = gt_share(owner, gt_create(owner, 4096), gt_client_id(recipient), 0);
	struct drm_garnet_accept acc;

	close(owner);
	gt_assert_errno(accept_name(recipient, name, &acc), ENOENT);
	close(recipient);
}

static void share_argument_errors(void)
{
	int owner = gt_open_render(), recipient = gt_open_render();
	uint32_t h = gt_create(owner, 4096);
	uint64_t id = gt_client_id(recipient);
	struct drm_garnet_accept acc = { .name = 1, .pad = 1 };

	gt_assert_errno(share_raw(owner, h, id, 1u << 1), EINVAL);
	gt_assert_errno(share_raw(owner, h, id, ~0u), EINVAL);
	/* garnet's own ioctls follow the seed: a bad handle is -EINVAL. */
	gt_assert_errno(share_raw(owner, 0x10101010, id, 0), EINVAL);
	gt_assert_errno(share_raw(owner, h, 0, 0), ENOENT);
	gt_assert_errno(share_raw(owner, h, ~0ull, 0), ENOENT);
	gt_assert_errno(gt_ioctl(recipient, DRM_IOCTL_GARNET_ACCEPT, &acc), EINVAL);
	close(owner);
	close(recipient);
}

/* No client can exhaust kernel memory with names: 4096 live names per file at most. */
static void names_per_file_are_limited(void)
{
	int owner = gt_open_render(), recipient = gt_open_render();
	uint32_t h = gt_create(owner, 4096);
	uint64_t id = gt_client_id(recipient);
	uint64_t first = 0;

	for (int i = 0; i < 4096; i++) {
		uint64_t name = gt_share(owner, h, id, 0);

		if (i == 0)
			first = name;
	}
	gt_assert_errno(share_raw(owner, h, id, 0), ENOSPC);
	/* Revoking one makes room for one. */
	gt_assert_ok(revoke_name(owner, first));
	gt_share(owner, h, id, 0);
	gt_assert_errno(share_raw(owner, h, id, 0), ENOSPC);
	close(owner);
	close(recipient);
}

/* A recipient that has closed can never be shared with, even by its old id. */
static void closed_recipient_id_is_never_reused(void)
{
	int owner = gt_open_render(), gone = gt_open_render();
	uint64_t old_id = gt_client_id(gone);
	int fresh;

	close(gone);
	fresh = gt_open_render();
	gt_assert(gt_client_id(fresh) != old_id);
	gt_assert_errno(share_raw(owner, gt_create(owner, 4096), old_id, 0), ENOENT);
	close(fresh);
	close(owner);
}

static void failed_accepts_are_counted_and_logged(void)
{
	int probe = gt_open_render(), guesser = gt_open_render();
	long long failed = gt_counter(probe, "accept_failed");
	int logged = gt_kmsg_count("possible brute-force attempt");
	char id_text[64];
	char *names;
	struct drm_garnet_accept acc;

	for (uint64_t guess = 1; guess <= 100; guess++)
		gt_assert_errno(accept_name(guesser, guess * 0x9e3779b97f4a7c15ull, &acc), ENOENT);
	gt_assert_eq(gt_counter(probe, "accept_failed"), failed + 100);
	gt_assert(gt_kmsg_count("possible brute-force attempt") > logged);
	/* debugfs attributes the failures to the guessing file. */
	snprintf(id_text, sizeof(id_text), "%llu 0 100\n",
		 (unsigned long long)gt_client_id(guesser));
	names = gt_debugfs_read(probe, "garnet_names");
	gt_assert(strstr(names, id_text) != NULL);
	free(names);
	close(guesser);
	close(probe);
}

struct race {
	int owner, recipient;
	uint64_t recipient_id;
	volatile uint64_t names[64];
	volatile int stop;
};

/* The owner shares, revokes and closes objects while the recipient accepts and closes. */
static void *owner_loop(void *data)
{
	struct race *r = data;

	for (int i = 0; i < 2000; i++) {
		struct drm_i915_gem_create create = { .size = 4096 };
		struct drm_garnet_share share = { .recipient = r->recipient_id };
		struct drm_garnet_revoke rv;
		struct drm_gem_close cl;

		if (gt_ioctl(r->owner, DRM_IOCTL_I915_GEM_CREATE, &create))
			continue;
		share.handle = create.handle;
		share.flags = i % 2 ? GARNET_SHARE_SINGLE_USE : 0;
		if (gt_ioctl(r->owner, DRM_IOCTL_GARNET_SHARE, &share) == 0)
			r->names[i % 64] = share.name;
		if (i % 3 == 0) {
			rv = (struct drm_garnet_revoke){ .name = r->names[(i * 7) % 64] };
			gt_ioctl(r->owner, DRM_IOCTL_GARNET_REVOKE, &rv);
		}
		cl = (struct drm_gem_close){ .handle = create.handle };
		gt_ioctl(r->owner, DRM_IOCTL_GEM_CLOSE, &cl);
	}
	r->stop = 1;
	return NULL;
}

static void *recipient_loop(void *data)
{
	struct race *r = data;

	for (unsigned int i = 0; !r->stop; i++) {
		struct drm_garnet_accept acc = { .name = r->names[i % 64] };
		struct drm_gem_close cl;

		if (gt_ioctl(r->recipient, DRM_IOCTL_GARNET_ACCEPT, &acc) == 0) {
			cl = (struct drm_gem_close){ .handle = acc.handle };
			gt_ioctl(r->recipient, DRM_IOCTL_GEM_CLOSE, &cl);
		} else if (errno != ENOENT) {
			gt_fail(__FILE__, __LINE__, "ACCEPT: %s", strerror(errno));
		}
	}
	return NULL;
}

/* Sharing, accepting, revoking and freeing race; nothing leaks or breaks. */
static void share_accept_revoke_close_race(void)
{
	struct race r = { .owner = gt_open_render(), .recipient = gt_open_render() };
	long long objects;
	pthread_t a, b, c;

	objects = gt_counter(r.owner, "objects");
	r.recipient_id = gt_client_id(r.recipient);
	gt_assert_ok(pthread_create(&a, NULL, owner_loop, &r));
	gt_assert_ok(pthread_create(&b, NULL, recipient_loop, &r));
	gt_assert_ok(pthread_create(&c, NULL, recipient_loop, &r));
	gt_assert_ok(pthread_join(a, NULL));
	gt_assert_ok(pthread_join(b, NULL));
	gt_assert_ok(pthread_join(c, NULL));
	gt_assert_eq(gt_counter(r.owner, "objects"), objects);
	close(r.recipient);
	close(r.owner);
}

GT_MAIN(
	GT_SUBTEST(each_file_has_its_own_client_id, "each-file-has-its-own-client-id"),
	GT_SUBTEST(recipient_accepts_and_sees_the_data, "recipient-accepts-and-sees-the-data"),
	GT_SUBTEST(names_are_random_64_bit_numbers, "names-are-random-64-bit-numbers"),
	GT_SUBTEST(wrong_recipient_gets_enoent, "wrong-recipient-gets-enoent"),
	GT_SUBTEST(unknown_and_foreign_names_fail_alike, "unknown-and-foreign-names-fail-alike"),
	GT_SUBTEST(single_use_name_accepts_once, "single-use-name-accepts-once"),
	GT_SUBTEST(reusable_name_accepts_until_revoked, "reusable-name-accepts-until-revoked"),
	GT_SUBTEST(only_the_owner_may_revoke, "only-the-owner-may-revoke"),
	GT_SUBTEST(name_dies_with_the_object, "name-dies-with-the-object"),
	GT_SUBTEST(names_die_with_the_owning_file, "names-die-with-the-owning-file"),
	GT_SUBTEST(share_argument_errors, "share-argument-errors"),
	GT_SUBTEST(names_per_file_are_limited, "names-per-file-are-limited"),
	GT_SUBTEST(closed_recipient_id_is_never_reused, "closed-recipient-id-is-never-reused"),
	GT_SUBTEST(share_accept_revoke_close_race, "share-accept-revoke-close-race"),
	GT_SUBTEST(failed_accepts_are_counted_and_logged, "failed-accepts-are-counted-and-logged"),
)
