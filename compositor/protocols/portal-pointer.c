// SPDX-License-Identifier: MIT
// A cast's pointer told apart from its picture. An output's cast places the pointer in the
// output's pixels; a window's cast only while the pointer is over that window or a menu of
// it, which is what the window itself hears: a recording of one window learns nothing of
// where the pointer goes elsewhere on the screen. Over garnet's own dialog the pointer is
// hidden from every cast.
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/compositor.h"
#include "../core/output.h"
#include "../core/sealed-memfd.h"
#include "../core/seat.h"
#include "../core/surface.h"
#include "../render/renderer.h"
#include "portal-pointer.h"
#include "xdg-shell.h"
#include "garnet-portal-v1-server-protocol.h"

static bool over_window(struct garnet_seat *seat, struct garnet_surface *window)
{
	return seat->pointer_focus && garnet_xdg_root_surface(seat->pointer_focus) == window;
}

/* The hotspot in the picture's pixels; false when it is not on the picture. */
static bool place(struct garnet_seat *seat, struct garnet_output *output,
		  const pixman_box32_t *region, int32_t width, int32_t height,
		  struct garnet_surface *window, int32_t *x, int32_t *y)
{
	double px = floor(seat->x), py = floor(seat->y);
	int32_t wx, wy;

	if (window) {
		if (!over_window(seat, window) || !garnet_surface_position(window, &wx, &wy))
			return false;
		px -= wx;
		py -= wy;
	} else {
		struct pixman_f_transform m;
		double v[3] = {px + 0.5, py + 0.5, 1};

		garnet_output_matrix(output, &m);
		pixman_f_transform_point(&m, (struct pixman_f_vector *)v);
		px = floor(v[0]) - region->x1;
		py = floor(v[1]) - region->y1;
	}
	if (px < 0 || py < 0 || px >= width || py >= height)
		return false;
	*x = (int32_t)px;
	*y = (int32_t)py;
	return true;
}

void cast_pointer_look(struct garnet_compositor *c, struct garnet_output *output,
		       const pixman_box32_t *region, int32_t width, int32_t height,
		       struct garnet_surface *window, struct cast_pointer_look *look)
{
	struct garnet_seat *seat = c->seat;

	*look = (struct cast_pointer_look){0};
	if (!seat || garnet_seat_pointer_is_garnets(seat) || (!window && !output) ||
	    !place(seat, output, region, width, height, window, &look->x, &look->y))
		return;
	look->image =
		garnet_render_pointer_image(seat, CAST_POINTER_MAX, &look->hot_x, &look->hot_y);
	look->visible = look->image != NULL;
}

void cast_pointer_look_fini(struct cast_pointer_look *look)
{
	if (look->image)
		pixman_image_unref(look->image);
	look->image = NULL;
}

static bool same_image(const struct cast_pointer *told, const struct cast_pointer_look *look)
{
	int32_t w = pixman_image_get_width(look->image), h = pixman_image_get_height(look->image);
	const uint32_t *bits = pixman_image_get_data(look->image);
	int stride = pixman_image_get_stride(look->image);

	if (!told->pixels || w != told->width || h != told->height ||
	    look->hot_x != told->hot_x || look->hot_y != told->hot_y)
		return false;
	for (int32_t row = 0; row < h; row++) {
		if (memcmp((const char *)bits + (size_t)row * (size_t)stride,
			   told->pixels + (size_t)row * (size_t)w, (size_t)w * 4) != 0)
			return false;
	}
	return true;
}

bool cast_pointer_changed(const struct cast_pointer *told, const struct cast_pointer_look *look)
{
	if (!told->told || told->visible != look->visible)
		return true;
	if (!look->visible)
		return false;
	return told->x != look->x || told->y != look->y || !same_image(told, look);
}

/* The image into told and, sealed, to the backend; false when it could not be (then the
 * backend keeps the image it had and hears it again next time). */
static bool tell_image(struct wl_resource *capture, struct cast_pointer *told,
		       const struct cast_pointer_look *look)
{
	int32_t w = pixman_image_get_width(look->image), h = pixman_image_get_height(look->image);
	const char *bits = (const char *)pixman_image_get_data(look->image);
	int stride = pixman_image_get_stride(look->image);
	uint32_t *pixels = malloc((size_t)w * (size_t)h * 4);
	int fd;

	if (!pixels)
		return false;
	for (int32_t row = 0; row < h; row++)
		memcpy(pixels + (size_t)row * (size_t)w, bits + (size_t)row * (size_t)stride,
		       (size_t)w * 4);
	fd = garnet_sealed_memfd("garnet-pointer", pixels, (size_t)w * (size_t)h * 4);
	if (fd < 0) {
		free(pixels);
		return false;
	}
	garnet_portal_capture_v1_send_pointer_image(capture, fd, w, h, look->hot_x, look->hot_y);
	close(fd);
	free(told->pixels);
	told->pixels = pixels;
	told->width = w;
	told->height = h;
	told->hot_x = look->hot_x;
	told->hot_y = look->hot_y;
	return true;
}

void cast_pointer_tell(struct wl_resource *capture, struct cast_pointer *told,
		       const struct cast_pointer_look *look)
{
	told->told = true;
	told->visible = look->visible;
	if (!look->visible) {
		garnet_portal_capture_v1_send_pointer_hidden(capture);
		return;
	}
	if (!same_image(told, look) && !tell_image(capture, told, look)) {
		/* No image the backend could show: no pointer, rather than a wrong one. */
		told->visible = false;
		garnet_portal_capture_v1_send_pointer_hidden(capture);
		return;
	}
	told->x = look->x;
	told->y = look->y;
	garnet_portal_capture_v1_send_pointer(capture, look->x, look->y);
}

void cast_pointer_fini(struct cast_pointer *told)
{
	free(told->pixels);
	*told = (struct cast_pointer){0};
}
