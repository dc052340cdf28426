// SPDX-License-Identifier: GPL-2.0-only
/*
 * Software vblank: an hrtimer ticking at the mode's frame period. Neither bochs-display nor
 * the virtual output has a vblank interrupt, so this timer is the display's clock: page-flip
 * events are delivered from it, and their timestamps are its scheduled expiry times, evenly
 * spaced whatever the latency of the timer interrupt itself.
 */
#include <drm/drm_print.h>
#include <drm/drm_vblank.h>

#include "garnet_drv.h"
#include "garnet_kms.h"

static enum hrtimer_restart garnet_vblank_tick(struct hrtimer *timer)
{
	struct garnet_kms *kms = container_of(timer, struct garnet_kms, vblank_timer);
	u64 overruns;

	if (!READ_ONCE(kms->vblank_on))
		return HRTIMER_NORESTART;
	overruns = hrtimer_forward_now(timer, kms->frame_period);
	if (overruns > 1)
		drm_dbg_kms(&kms->gdev->drm, "vblank timer late by %llu frames\n", overruns - 1);

	atomic64_inc(&kms->counters.vblanks);
	/*
	 * The core derives the number of frames that passed from the timestamps
	 * (garnet_vblank_timestamp), so a late tick still advances the count correctly.
	 */
	drm_crtc_handle_vblank(&kms->crtc);
	return HRTIMER_RESTART;
}

void garnet_vblank_init(struct garnet_kms *kms)
{
	hrtimer_init(&kms->vblank_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	kms->vblank_timer.function = garnet_vblank_tick;
}

int garnet_vblank_enable(struct drm_crtc *crtc)
{
	struct garnet_kms *kms = crtc_to_kms(crtc);
	struct drm_vblank_crtc *vblank = &crtc->dev->vblank[drm_crtc_index(crtc)];

	drm_calc_timestamping_constants(crtc, &crtc->mode);
	if (!vblank->framedur_ns)
		return -EINVAL;
	kms->frame_period = ns_to_ktime(vblank->framedur_ns);
	WRITE_ONCE(kms->vblank_on, true);
	hrtimer_start(&kms->vblank_timer, kms->frame_period, HRTIMER_MODE_REL);
	return 0;
}

/*
 * Called with the core's vblank_time_lock held, which the tick's drm_crtc_handle_vblank()
 * takes too: waiting here for a running tick could deadlock, so the tick is told to stop
 * instead and a pending one is dequeued if it has not started.
 */
void garnet_vblank_disable(struct drm_crtc *crtc)
{
	struct garnet_kms *kms = crtc_to_kms(crtc);

	WRITE_ONCE(kms->vblank_on, false);
	hrtimer_try_to_cancel(&kms->vblank_timer);
}

/* At teardown, without locks: no tick may run once the device is gone. */
void garnet_vblank_stop(struct garnet_kms *kms)
{
	WRITE_ONCE(kms->vblank_on, false);
	hrtimer_cancel(&kms->vblank_timer);
}

/*
 * The last vblank is one period before the timer's next expiry: the tick forwards the timer
 * before it reports the vblank, and between ticks the next expiry stays put.
 */
bool garnet_vblank_timestamp(struct drm_crtc *crtc, int *max_error, ktime_t *vblank_time,
			     bool in_vblank_irq)
{
	struct garnet_kms *kms = crtc_to_kms(crtc);

	if (!READ_ONCE(kms->vblank_on))
		return false;
	*vblank_time = ktime_sub(hrtimer_get_expires(&kms->vblank_timer), kms->frame_period);
	*max_error = 0;
	return true;
}
