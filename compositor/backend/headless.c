// SPDX-License-Identifier: MIT
// Headless backend: outputs in memory (double-buffered, so buffer age is real) with a simulated
// vblank, or repaint-on-demand when the refresh rate is 0. Like a display's primary plane, an
// output shows a frame that is one opaque client GEM buffer of its size as it is (direct
// scanout, the DRM backend's rule), so what tests and benchmarks see on headless outputs is
// what a screen shows.
#include <stdio.h>
#include <stdlib.h>

#include "garnet/headless.h"
#include "../core/buffer.h"
#include "../core/compositor.h"
#include "../core/output.h"

struct headless_output {
	struct garnet_output base;
	pixman_image_t *buffers[2];
	int ages[2];
	int front; /* index on screen */
	/* A client's buffer prepared for the next frame, and the one on screen (then neither
	 * of buffers holds the last frame); each held until a later frame replaces it. */
	struct garnet_content *scanout_next, *scanout_shown;
	struct wl_event_source *vblank;
	int64_t vblank_ns; /* when the frame presented last is on screen */
	/* What an output configuration client may choose: the mode garnet started it in, then
	 * common sizes at its refresh (any other size is a custom mode, also accepted). */
	struct garnet_output_mode modes[8];
};

#define MAX_MODE_PIXELS (7680 * 4320)

static const struct {
	int32_t width, height;
} common_sizes[] = {{640, 480},	  {800, 600},  {1024, 768}, {1280, 720},
		    {1280, 1024}, {1600, 900}, {1920, 1080}};

static struct headless_output *headless_output(struct garnet_output *output)
{
	return wl_container_of(output, (struct headless_output *)NULL, base);
}

static void drop_hold(struct garnet_content **hold)
{
	if (*hold)
		garnet_content_drop_hold(*hold);
	*hold = NULL;
}

static pixman_image_t *headless_begin_frame(struct garnet_output *base, int *age)
{
	struct headless_output *output = headless_output(base);
	int back = !output->front;

	/* Painted after all: a scanout prepared for a frame that was never shown goes. */
	drop_hold(&output->scanout_next);

	*age = output->ages[back];
	return output->buffers[back];
}

/* The frame is on screen since its vblank, whenever the loop came to the timer: a display's
 * refresh does not wait for the compositor, and its timestamps (as the kernel's of a page
 * flip) are the vblank's, on a grid of refresh periods. */
static int vblank_fired(void *data)
{
	struct headless_output *output = data;
	struct timespec when = {
		.tv_sec = output->vblank_ns / 1000000000,
		.tv_nsec = output->vblank_ns % 1000000000,
	};

	garnet_output_finish_frame(&output->base, &when);
	return 0;
}

static void headless_present(struct garnet_output *base, bool painted)
{
	struct headless_output *output = headless_output(base);
	struct timespec now;
	int64_t period_ns, since_ns, until_ns, delay;

	if (painted && output->scanout_next) {
		/* The client's buffer is on screen: the next frame painted is painted whole. */
		drop_hold(&output->scanout_shown);
		output->scanout_shown = output->scanout_next;
		output->scanout_next = NULL;
		output->ages[0] = output->ages[1] = 0;
	} else if (painted) {
		/* Flip: the back buffer is shown; every buffer that has been painted grows a
		 * frame older. */
		drop_hold(&output->scanout_shown);
		output->front = !output->front;
		output->ages[output->front] = 1;
		if (output->ages[!output->front] > 0)
			output->ages[!output->front]++;
	}
	clock_gettime(base->compositor->clock, &now);
	if (base->mode.refresh_mhz <= 0) {
		garnet_output_finish_frame(base, &now);
		return;
	}
	/* The next vblank after now, counted from the last one (the grid's phase). */
	period_ns = 1000000000000LL / base->mode.refresh_mhz;
	since_ns = (now.tv_sec - base->last_present.tv_sec) * 1000000000LL +
		   (now.tv_nsec - base->last_present.tv_nsec);
	if (since_ns < 0)
		since_ns = 0;
	until_ns = period_ns - since_ns % period_ns;
	output->vblank_ns = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec + until_ns;
	/* Rounded up: the timer's step is a millisecond, and it must not fire before the
	 * vblank it stands for. */
	delay = (until_ns + 999999) / 1000000;
	wl_event_source_timer_update(output->vblank, (int)delay);
}

/* Any opaque GEM buffer of the output's size: memory has no plane to refuse it. */
static bool headless_scanout(struct garnet_output *base, const struct garnet_scanout_buffer *buffer,
			     struct garnet_content *hold)
{
	struct headless_output *output = headless_output(base);

	(void)buffer;
	drop_hold(&output->scanout_next);
	output->scanout_next = hold;
	return true;
}

static pixman_image_t *headless_front_image(struct garnet_output *base)
{
	struct headless_output *output = headless_output(base);
	pixman_image_t *shown = output->scanout_shown
					? garnet_content_held_image(output->scanout_shown)
					: NULL;

	/* A client gone while its buffer is on screen leaves no image: its going repaints. */
	return shown ? shown : output->buffers[output->front];
}

static void headless_destroy(struct garnet_output *base)
{
	struct headless_output *output = headless_output(base);

	drop_hold(&output->scanout_next);
	drop_hold(&output->scanout_shown);
	garnet_output_finish(base);
	if (output->vblank)
		wl_event_source_remove(output->vblank);
	for (int i = 0; i < 2; i++) {
		if (output->buffers[i])
			pixman_image_unref(output->buffers[i]);
	}
	free(output);
}

/* Buffers of the new size replace both (age 0: the next frame is painted whole). */
static bool headless_set_mode(struct garnet_output *base, const struct garnet_output_mode *mode,
			      bool test)
{
	struct headless_output *output = headless_output(base);
	pixman_image_t *buffers[2] = {NULL, NULL};

	/* Two buffers of 8K UHD are 265 MB: a client may not make garnet hold more. */
	if ((int64_t)mode->width * mode->height > MAX_MODE_PIXELS)
		return false;
	if (test)
		return true;
	for (int i = 0; i < 2; i++) {
		buffers[i] = pixman_image_create_bits(PIXMAN_x8r8g8b8, mode->width, mode->height,
						      NULL, 0);
		if (!buffers[i]) {
			if (buffers[0])
				pixman_image_unref(buffers[0]);
			return false;
		}
	}
	for (int i = 0; i < 2; i++) {
		pixman_image_unref(output->buffers[i]);
		output->buffers[i] = buffers[i];
		output->ages[i] = 0;
	}
	return true;
}

static void list_modes(struct headless_output *output, const struct garnet_output_mode *mode)
{
	size_t n = 0;

	output->modes[n++] = *mode;
	for (size_t i = 0; i < sizeof(common_sizes) / sizeof(common_sizes[0]); i++) {
		if (common_sizes[i].width == mode->width && common_sizes[i].height == mode->height)
			continue;
		output->modes[n] = *mode;
		output->modes[n].width = common_sizes[i].width;
		output->modes[n].height = common_sizes[i].height;
		n++;
	}
	output->base.modes = output->modes;
	output->base.mode_count = n;
}

static const struct garnet_output_impl headless_impl = {
	.begin_frame = headless_begin_frame,
	.present = headless_present,
	.front_image = headless_front_image,
	.scanout = headless_scanout,
	.set_mode = headless_set_mode,
	.destroy = headless_destroy,
};

struct garnet_output *garnet_headless_add_output(struct garnet_compositor *c,
						 const struct garnet_output_mode *mode)
{
	struct headless_output *output;
	char name[32], description[64];

	if (mode->width <= 0 || mode->height <= 0 || mode->width > 16384 || mode->height > 16384 ||
	    mode->scale < 1 || mode->scale > 8 || mode->transform < 0 ||
	    mode->transform > WL_OUTPUT_TRANSFORM_FLIPPED_270 || mode->refresh_mhz < 0) {
		garnet_log(c, GARNET_LOG_ERROR, "headless",
			   "invalid output mode %dx%d scale %d transform %d refresh %d",
			   mode->width, mode->height, mode->scale, mode->transform,
			   mode->refresh_mhz);
		return NULL;
	}
	output = calloc(1, sizeof(*output));
	if (!output)
		return NULL;
	for (int i = 0; i < 2; i++) {
		output->buffers[i] = pixman_image_create_bits(PIXMAN_x8r8g8b8, mode->width,
							      mode->height, NULL, 0);
		if (!output->buffers[i])
			goto err_buffers;
	}
	output->vblank = wl_event_loop_add_timer(c->loop, vblank_fired, output);
	if (!output->vblank)
		goto err_buffers;
	snprintf(name, sizeof(name), "HEADLESS-%u", ++c->next_output_number);
	snprintf(description, sizeof(description), "garnet headless output %dx%d", mode->width,
		 mode->height);
	if (!garnet_output_init(&output->base, c, &headless_impl, mode, name, description)) {
		wl_event_source_remove(output->vblank);
		goto err_buffers;
	}
	list_modes(output, mode);
	return &output->base;

err_buffers:
	for (int i = 0; i < 2; i++) {
		if (output->buffers[i])
			pixman_image_unref(output->buffers[i]);
	}
	free(output);
	return NULL;
}
