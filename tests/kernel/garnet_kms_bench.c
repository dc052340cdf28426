// SPDX-License-Identifier: MIT
/*
 * Benchmark of garnet's display, run in the VM on bochs-display: what a full-screen 1920x1080
 * commit and a 64x64 damage commit cost in the kernel (composition into VRAM, from debugfs
 * compose_ns) and from the commit to its event. Prints the figures; asserts only that each
 * commit copied what it should.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <drm_fourcc.h>

#include "garnet_test.h"
#include "kms_util.h"

enum { ROUNDS = 60 };

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

struct figures {
	double compose_ms, latency_ms;
	long long bytes;
};

static void start(struct kms *k, struct figures *f, long long *ns, long long *commits,
		  long long *bytes)
{
	(void)f;
	*ns = kms_display_value(k, "compose_ns");
	*commits = kms_display_value(k, "commits");
	*bytes = kms_display_value(k, "bytes_copied");
}

static void finish(struct kms *k, struct figures *f, long long ns, long long commits,
		   long long bytes, double latency_total)
{
	long long n = kms_display_value(k, "commits") - commits;

	gt_assert(n >= ROUNDS);
	f->compose_ms = (kms_display_value(k, "compose_ns") - ns) / 1e6 / n;
	f->bytes = (kms_display_value(k, "bytes_copied") - bytes) / n;
	f->latency_ms = latency_total / ROUNDS;
}

int main(void)
{
	struct figures full, small;
	long long ns, commits, bytes;
	struct kms_fb fb[2];
	double latency = 0;
	uint32_t blob;
	struct kms k;

	kms_open(&k);
	for (int i = 0; i < 2; i++) {
		kms_fb_create(&k, &fb[i], 1920, 1080, DRM_FORMAT_XRGB8888);
		kms_fb_fill_pattern(&fb[i], 60 + i);
	}
	kms_set_mode(&k, kms_mode(&k, 1920, 1080), &fb[0]);

	/* Full screen: page flips between two framebuffers, no damage clips. */
	start(&k, &full, &ns, &commits, &bytes);
	for (int i = 0; i < ROUNDS; i++) {
		double t = now_ms();

		gt_assert_ok(drmModePageFlip(k.fd, k.crtc_id, fb[(i + 1) % 2].fb_id,
					     DRM_MODE_PAGE_FLIP_EVENT, &k));
		gt_assert(kms_wait_event(&k, 5000, NULL, NULL));
		latency += now_ms() - t;
	}
	finish(&k, &full, ns, commits, bytes, latency);
	gt_assert_eq(full.bytes, 1920 * 1080 * 4);

	/* 64x64 damage on the framebuffer already shown, moving over the screen. */
	latency = 0;
	start(&k, &small, &ns, &commits, &bytes);
	for (int i = 0; i < ROUNDS; i++) {
		struct drm_mode_rect clip = { .x1 = (i * 97) % 1856, .y1 = (i * 53) % 1016 };
		drmModeAtomicReq *req = drmModeAtomicAlloc();
		double t;

		clip.x2 = clip.x1 + 64;
		clip.y2 = clip.y1 + 64;
		gt_assert_ok(drmModeCreatePropertyBlob(k.fd, &clip, sizeof(clip), &blob));
		drmModeAtomicAddProperty(req, k.primary_id, k.primary.fb_id, fb[0].fb_id);
		drmModeAtomicAddProperty(req, k.primary_id, k.primary.damage_clips, blob);
		t = now_ms();
		gt_assert_eq(kms_commit(&k, req, DRM_MODE_ATOMIC_NONBLOCK |
					DRM_MODE_PAGE_FLIP_EVENT), 0);
		gt_assert(kms_wait_event(&k, 5000, NULL, NULL));
		latency += now_ms() - t;
		drmModeAtomicFree(req);
		drmModeDestroyPropertyBlob(k.fd, blob);
	}
	finish(&k, &small, ns, commits, bytes, latency);
	gt_assert_eq(small.bytes, 64 * 64 * 4);

	printf("full-screen 1920x1080 commit: %.3f ms composing into VRAM (%lld bytes), "
	       "%.2f ms commit to event\n", full.compose_ms, full.bytes, full.latency_ms);
	printf("64x64 damage commit: %.3f ms composing into VRAM (%lld bytes), "
	       "%.2f ms commit to event\n", small.compose_ms, small.bytes, small.latency_ms);
	printf("ratio full/damage (composition): %.0f\n", full.compose_ms / small.compose_ms);
	printf("sample: full_commit_1920x1080/compose %.3f ms lower\n", full.compose_ms);
	printf("sample: full_commit_1920x1080/commit_to_event %.3f ms lower\n", full.latency_ms);
	printf("sample: damage_commit_64x64/compose %.3f ms lower\n", small.compose_ms);
	printf("sample: damage_commit_64x64/commit_to_event %.3f ms lower\n", small.latency_ms);

	for (int i = 0; i < 2; i++)
		kms_fb_destroy(&k, &fb[i]);
	kms_close(&k);
	return 0;
}
