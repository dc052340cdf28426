// SPDX-License-Identifier: MIT
// The DRM backend: a KMS device opened through the seat, one output per connected connector
// (followed on hotplug), page-flip-driven repaint, and the session's VT switches.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <xf86drm.h>

#include "../core/compositor.h"
#include "../core/output.h"
#include "../core/buffer.h"
#include "../core/seat.h"
#include "drm.h"
#include "libinput.h"
#include "session.h"

static struct drm_output *drm_output(struct garnet_output *base)
{
	return wl_container_of(base, (struct drm_output *)NULL, base);
}

/* ---- repaint ---- */

static pixman_image_t *drm_begin_frame(struct garnet_output *base, int *age)
{
	struct drm_output *output = drm_output(base);
	int back = !output->front;

	/* Painted after all: a scanout prepared for a frame that was never shown goes. */
	drm_scanout_release(output, &output->scanout_next);
	*age = output->ages[back];
	return output->fbs[back].image;
}

/* Powered off while a flip was on its way: the CRTC goes dark once it is done. */
static void darken_if_asked(struct drm_output *output)
{
	if (!output->dark || output->crtc_dark || output->flip_pending ||
	    !garnet_session_is_active(output->backend->session))
		return;
	if (!drm_kms_darken(output))
		garnet_log(output->base.compositor, GARNET_LOG_ERROR, "drm",
			   "%s: cannot power off: %s", output->base.name, strerror(errno));
}

static void frame_shown(struct drm_output *output, const struct timespec *when)
{
	/* A frame shown again leaves the buffers as they were. A client's buffer on screen
	 * leaves neither dumb buffer holding the last frame: the next one painted is whole. */
	if (!output->reshowing && output->presenting_scanout) {
		drm_scanout_release(output, &output->scanout_shown);
		output->scanout_shown = output->scanout_next;
		output->scanout_next = (struct drm_scanout){0};
		output->ages[0] = output->ages[1] = 0;
	} else if (!output->reshowing) {
		drm_scanout_release(output, &output->scanout_shown);
		output->front = !output->front;
		output->ages[output->front] = 1;
		if (output->ages[!output->front] > 0)
			output->ages[!output->front]++;
	}
	output->reshowing = false;
	output->presenting_scanout = false;
	/* Before the next frame is begun (it may be, inside finish_frame). */
	drm_mode_flip_done(output);
	garnet_output_finish_frame(&output->base, when);
	darken_if_asked(output);
}

static void now(struct drm_output *output, struct timespec *ts)
{
	clock_gettime(output->base.compositor->clock, ts);
}

static int idle_frame_done(void *data)
{
	struct drm_output *output = data;
	struct timespec ts;

	now(output, &ts);
	garnet_output_finish_frame(&output->base, &ts);
	return 0;
}

/* Nothing new to show: the frame still takes one refresh period, so clients that redraw
 * without damage are paced like the others. */
static void schedule_idle_frame(struct drm_output *output)
{
	int32_t refresh = output->base.mode.refresh_mhz > 0 ? output->base.mode.refresh_mhz : 60000;
	int ms = (int)(1000000 / refresh);

	wl_event_source_timer_update(output->idle_frame, ms < 1 ? 1 : ms);
}

static void drm_present(struct garnet_output *base, bool painted)
{
	struct drm_output *output = drm_output(base);
	struct timespec ts;
	bool modeset = output->needs_modeset;
	int ret;

	if (!garnet_session_is_active(output->backend->session)) {
		/* Another VT owns the screen: hold the frame until garnet's is back. */
		output->stalled = true;
		return;
	}
	if (!painted && !output->needs_modeset && !base->cursor_only) {
		schedule_idle_frame(output);
		return;
	}
	/* Not painted: a modeset is due, or the cursor plane moved, but the scene did not change;
	 * the frame on screen is shown again (and stays the front one for captures). */
	output->reshowing = !painted;
	output->presenting_scanout = painted && output->scanout_next.fb_id;
	if (output->presenting_scanout)
		ret = drm_kms_show_fb(output, output->scanout_next.fb_id, &base->shown_damage);
	else if (!painted && output->scanout_shown.fb_id)
		ret = drm_kms_show_fb(output, output->scanout_shown.fb_id, NULL);
	else
		ret = drm_kms_show(output, painted ? !output->front : output->front,
				   painted ? &base->shown_damage : NULL);
	if (ret >= 0 && modeset)
		drm_mode_modeset_done(output);
	if (ret == 0) {
		output->flip_pending = true;
		return;
	}
	if (ret < 0) {
		garnet_log(base->compositor, GARNET_LOG_ERROR, "drm", "%s: cannot show a frame: %s",
			   base->name, strerror(errno));
		output->reshowing = false;
		/* The display kept the frame before: the next one is painted, and whole. */
		if (output->presenting_scanout)
			drm_scanout_release(output, &output->scanout_next);
		garnet_output_damage_whole(base);
		output->presenting_scanout = false;
	}
	now(output, &ts);
	if (ret > 0)
		frame_shown(output, &ts);
	else
		schedule_idle_frame(output);
}

/* Off: KMS darkens the CRTC (now, or after the flip pending). On: the core repaints the whole
 * output, and that frame's commit lights the CRTC with it (needs_modeset). */
static bool drm_set_power(struct garnet_output *base, bool on)
{
	struct drm_output *output = drm_output(base);

	output->dark = !on;
	if (!on)
		darken_if_asked(output);
	return true;
}

static pixman_image_t *drm_front_image(struct garnet_output *base)
{
	struct drm_output *output = drm_output(base);

	pixman_image_t *shown = output->scanout_shown.hold
					? garnet_content_held_image(output->scanout_shown.hold)
					: NULL;

	/* A client gone while its buffer is on screen leaves no image: its going repaints. */
	return shown ? shown : output->fbs[output->front].image;
}

static void page_flip_done(int fd, unsigned int seq, unsigned int sec, unsigned int usec,
			   unsigned int crtc_id, void *data)
{
	struct drm_backend *b = data;
	struct drm_output *output;
	struct timespec ts = {.tv_sec = sec, .tv_nsec = (long)usec * 1000};

	wl_list_for_each(output, &b->outputs, link) {
		if (output->crtc_id != crtc_id || !output->flip_pending)
			continue;
		output->flip_pending = false;
		output->base.msc = seq ? seq - 1 : output->base.msc;
		/* DRM_CAP_TIMESTAMP_MONOTONIC is checked at start: the kernel's vblank time is
		 * on the compositor's clock. */
		garnet_log(b->compositor, GARNET_LOG_DEBUG, "drm", "%s: flip at %u.%06u",
			   output->base.name, sec, usec);
		frame_shown(output, &ts);
		return;
	}
}

static int drm_readable(int fd, uint32_t mask, void *data)
{
	drmEventContext ctx = {
		.version = 3,
		.page_flip_handler2 = page_flip_done,
	};

	drmHandleEvent(fd, &ctx);
	return 0;
}

/* ---- outputs ---- */

static void drm_output_destroy(struct garnet_output *base)
{
	struct drm_output *output = drm_output(base);
	struct drm_backend *b = output->backend;

	garnet_output_finish(base);
	wl_list_remove(&output->link);
	b->crtcs_in_use &= ~(1u << output->crtc_index);
	wl_event_source_remove(output->idle_frame);
	drm_scanout_release(output, &output->scanout_next);
	drm_scanout_release(output, &output->scanout_shown);
	for (int i = 0; i < 2; i++)
		drm_fb_finish(&output->fbs[i], b->fd);
	drm_mode_list_finish(output);
	drm_cursor_finish(output);
	if (output->mode_blob)
		drmModeDestroyPropertyBlob(b->fd, output->mode_blob);
	free(output);
}

static const struct garnet_output_impl drm_output_impl = {
	.begin_frame = drm_begin_frame,
	.present = drm_present,
	.front_image = drm_front_image,
	.show_cursor = drm_cursor_show,
	.set_power = drm_set_power,
	.scanout = drm_scanout,
	.set_mode = drm_set_mode,
	.destroy = drm_output_destroy,
};

static void connector_name(const drmModeConnector *conn, char *out, size_t size)
{
	const char *type = drmModeGetConnectorTypeName(conn->connector_type);

	snprintf(out, size, "%s-%u", type ? type : "Unknown", conn->connector_type_id);
}

/* The [output] section for this connector: one naming it, else one naming none. */
static const struct garnet_drm_output_config *find_config(struct drm_backend *b,
							  const char *name)
{
	const struct garnet_drm_output_config *any = NULL;

	for (int i = 0; i < b->config_count; i++) {
		const char *n = b->configs[i].name;

		if (n && *n && strcmp(n, name) == 0)
			return &b->configs[i];
		if ((!n || !*n) && !any)
			any = &b->configs[i];
	}
	return any;
}

static bool choose_mode(struct drm_backend *b, const drmModeConnector *conn,
			const struct garnet_drm_output_config *cfg, const char *name,
			drmModeModeInfo *out)
{
	const drmModeModeInfo *best = NULL;

	if (conn->count_modes < 1)
		return false;
	if (cfg && cfg->width > 0) {
		for (int i = 0; i < conn->count_modes; i++) {
			const drmModeModeInfo *m = &conn->modes[i];

			if (m->hdisplay != cfg->width || m->vdisplay != cfg->height)
				continue;
			if (cfg->refresh_mhz > 0 &&
			    abs(drm_mode_refresh_mhz(m) - cfg->refresh_mhz) > 500)
				continue;
			if (!best || drm_mode_refresh_mhz(m) > drm_mode_refresh_mhz(best))
				best = m;
		}
		if (!best)
			garnet_log(b->compositor, GARNET_LOG_WARNING, "drm",
				   "%s has no mode %dx%d: using its preferred mode", name,
				   cfg->width, cfg->height);
	}
	for (int i = 0; !best && i < conn->count_modes; i++) {
		if (conn->modes[i].type & DRM_MODE_TYPE_PREFERRED)
			best = &conn->modes[i];
	}
	*out = best ? *best : conn->modes[0];
	return true;
}

static int find_crtc(struct drm_backend *b, const drmModeRes *res, const drmModeConnector *conn)
{
	for (int e = 0; e < conn->count_encoders; e++) {
		drmModeEncoder *enc = drmModeGetEncoder(b->fd, conn->encoders[e]);
		uint32_t possible;

		if (!enc)
			continue;
		possible = enc->possible_crtcs;
		drmModeFreeEncoder(enc);
		for (int i = 0; i < res->count_crtcs && i < 32; i++) {
			if ((possible & (1u << i)) && !(b->crtcs_in_use & (1u << i)))
				return i;
		}
	}
	return -1;
}

static void add_output(struct drm_backend *b, const drmModeRes *res, drmModeConnector *conn)
{
	const struct garnet_drm_output_config *cfg;
	struct garnet_output_mode mode = {.scale = 1};
	struct drm_output *output;
	char name[64], description[128];
	int crtc;

	connector_name(conn, name, sizeof(name));
	cfg = find_config(b, name);
	crtc = find_crtc(b, res, conn);
	if (crtc < 0) {
		garnet_log(b->compositor, GARNET_LOG_WARNING, "drm",
			   "%s: no free CRTC can drive it", name);
		return;
	}
	output = calloc(1, sizeof(*output));
	if (!output)
		return;
	output->backend = b;
	output->connector_id = conn->connector_id;
	output->crtc_index = crtc;
	output->crtc_id = res->crtcs[crtc];
	output->needs_modeset = true;
	if (!choose_mode(b, conn, cfg, name, &output->mode) || !drm_mode_list_init(output, conn))
		goto err_output;
	if (b->atomic && !drm_kms_init_atomic(output)) {
		garnet_log(b->compositor, GARNET_LOG_ERROR, "drm",
			   "%s: the CRTC has no usable primary plane", name);
		goto err_output;
	}
	for (int i = 0; i < 2; i++) {
		if (!drm_fb_init(&output->fbs[i], b->fd, output->mode.hdisplay,
				 output->mode.vdisplay, false)) {
			garnet_log(b->compositor, GARNET_LOG_ERROR, "drm",
				   "%s: cannot allocate a %ux%u framebuffer: %s", name,
				   output->mode.hdisplay, output->mode.vdisplay, strerror(errno));
			goto err_fbs;
		}
	}
	output->idle_frame = wl_event_loop_add_timer(b->compositor->loop, idle_frame_done, output);
	if (!output->idle_frame)
		goto err_fbs;
	drm_cursor_init(output);
	mode.width = output->mode.hdisplay;
	mode.height = output->mode.vdisplay;
	mode.refresh_mhz = drm_mode_refresh_mhz(&output->mode);
	if (cfg) {
		mode.scale = cfg->scale > 0 ? cfg->scale : 1;
		mode.transform = cfg->transform;
	}
	b->crtcs_in_use |= 1u << crtc;
	wl_list_insert(b->outputs.prev, &output->link);
	snprintf(description, sizeof(description), "%s on %s (%s)", name, b->path,
		 b->atomic ? "atomic" : "legacy KMS");
	/* Before init: output managers list the modes of a new head at once. */
	output->base.modes = output->modes;
	output->base.mode_count = output->mode_count;
	garnet_output_init(&output->base, b->compositor, &drm_output_impl, &mode, name,
			   description);
	return;

err_fbs:
	drm_scanout_release(output, &output->scanout_next);
	drm_scanout_release(output, &output->scanout_shown);
	for (int i = 0; i < 2; i++)
		drm_fb_finish(&output->fbs[i], b->fd);
err_output:
	drm_mode_list_finish(output);
	free(output);
}

static struct drm_output *output_for_connector(struct drm_backend *b, uint32_t connector_id)
{
	struct drm_output *output;

	wl_list_for_each(output, &b->outputs, link) {
		if (output->connector_id == connector_id)
			return output;
	}
	return NULL;
}

/* Brings the outputs in line with the connectors: new ones added, unplugged ones removed. */
static void scan_connectors(struct drm_backend *b)
{
	drmModeRes *res = drmModeGetResources(b->fd);

	if (!res) {
		garnet_log(b->compositor, GARNET_LOG_ERROR, "drm", "%s: no KMS resources: %s",
			   b->path, strerror(errno));
		return;
	}
	for (int i = 0; i < res->count_connectors; i++) {
		drmModeConnector *conn = drmModeGetConnector(b->fd, res->connectors[i]);
		struct drm_output *output;
		bool connected;

		if (!conn)
			continue;
		connected = conn->connection == DRM_MODE_CONNECTED && conn->count_modes > 0;
		output = output_for_connector(b, conn->connector_id);
		if (connected && !output) {
			add_output(b, res, conn);
		} else if (!connected && output) {
			garnet_log(b->compositor, GARNET_LOG_INFO, "drm", "%s unplugged",
				   output->base.name);
			if (garnet_session_is_active(b->session))
				drm_kms_disable(output);
			garnet_output_destroy(&output->base);
		}
		drmModeFreeConnector(conn);
	}
	drmModeFreeResources(res);
}

static int udev_readable(int fd, uint32_t mask, void *data)
{
	struct drm_backend *b = data;
	struct udev_device *dev = udev_monitor_receive_device(b->monitor);
	const char *action;

	if (!dev)
		return 0;
	/* Any change of the card is worth a look at its connectors: drivers mark a hotplug
	 * with HOTPLUG=1, but one without connector polling (bochs, garnet.ko) reports a forced
	 * connector status only through a change event someone else makes. A rescan that finds
	 * nothing new changes nothing. */
	action = udev_device_get_action(dev);
	if (udev_device_get_devnum(dev) == b->devnum && action && strcmp(action, "change") == 0 &&
	    garnet_session_is_active(b->session)) {
		garnet_log(b->compositor, GARNET_LOG_DEBUG, "drm", "change of %s (HOTPLUG=%s)",
			   b->path, udev_device_get_property_value(dev, "HOTPLUG") ?: "unset");
		scan_connectors(b);
	}
	udev_device_unref(dev);
	return 0;
}

/* ---- the session ---- */

static void session_active_changed(struct wl_listener *listener, void *data)
{
	struct drm_backend *b = wl_container_of(listener, b, session_active);
	struct drm_output *output;
	struct timespec ts;

	if (!garnet_session_is_active(b->session))
		return; /* present() holds frames from now on; nothing else touches DRM */
	/* The other session may have changed modes and connectors: set ours again. */
	scan_connectors(b);
	wl_list_for_each(output, &b->outputs, link) {
		output->needs_modeset = true;
		/* Dark before the switch: it stays dark (the other session may have lit it). */
		output->crtc_dark = false;
		darken_if_asked(output);
		if (output->stalled) {
			output->stalled = false;
			clock_gettime(b->compositor->clock, &ts);
			garnet_output_finish_frame(&output->base, &ts);
		}
		garnet_output_damage_whole(&output->base);
	}
}

static bool switch_vt(void *data, int vt)
{
	struct drm_backend *b = data;

	return garnet_session_switch_vt(b->session, vt);
}

/* ---- the device ---- */

static bool has_connectors(int fd)
{
	drmModeRes *res = drmModeGetResources(fd);
	bool ok = res && res->count_connectors > 0 && res->count_crtcs > 0;

	drmModeFreeResources(res);
	return ok;
}

static bool open_device(struct drm_backend *b, const char *path)
{
	struct stat st;

	b->fd = garnet_session_open_device(b->session, path);
	if (b->fd < 0)
		return false;
	if (fstat(b->fd, &st) < 0 || !S_ISCHR(st.st_mode) || !has_connectors(b->fd)) {
		garnet_log(b->compositor, GARNET_LOG_ERROR, "drm",
			   "%s is not a KMS device with connectors", path);
		garnet_session_close_device(b->session, b->fd);
		b->fd = -1;
		return false;
	}
	b->devnum = st.st_rdev;
	b->path = strdup(path);
	return b->path != NULL;
}

/* The first KMS card of the seat (udev's ID_SEAT, seat0 when unset) that has connectors. */
static bool find_device(struct drm_backend *b)
{
	struct udev_enumerate *en = udev_enumerate_new(b->udev);
	struct udev_list_entry *entry;
	const char *seat = garnet_session_seat_name(b->session);
	bool found = false;

	if (!en)
		return false;
	udev_enumerate_add_match_subsystem(en, "drm");
	udev_enumerate_add_match_sysname(en, "card[0-9]*");
	udev_enumerate_scan_devices(en);
	udev_list_entry_foreach(entry, udev_enumerate_get_list_entry(en)) {
		struct udev_device *dev = udev_device_new_from_syspath(
			b->udev, udev_list_entry_get_name(entry));
		const char *node, *dev_seat;

		if (!dev)
			continue;
		node = udev_device_get_devnode(dev);
		dev_seat = udev_device_get_property_value(dev, "ID_SEAT");
		if (node && strcmp(dev_seat ? dev_seat : "seat0", seat) == 0 &&
		    open_device(b, node))
			found = true;
		udev_device_unref(dev);
		if (found)
			break;
	}
	udev_enumerate_unref(en);
	if (!found)
		garnet_log(b->compositor, GARNET_LOG_ERROR, "drm",
			   "no KMS device with connectors on %s (load a DRM driver, or name one "
			   "with --drm-device)", seat);
	return found;
}

static void drm_backend_destroy(struct garnet_backend *base)
{
	struct drm_backend *b = wl_container_of(base, b, base);
	struct drm_output *output, *tmp;

	wl_list_for_each_safe(output, tmp, &b->outputs, link)
		garnet_output_destroy(&output->base);
	garnet_seat_set_vt_switch_handler(b->compositor->seat, NULL, NULL);
	garnet_libinput_destroy(b->input);
	if (b->udev_source)
		wl_event_source_remove(b->udev_source);
	if (b->monitor)
		udev_monitor_unref(b->monitor);
	if (b->drm_source)
		wl_event_source_remove(b->drm_source);
	wl_list_remove(&b->session_active.link);
	if (b->fd >= 0)
		garnet_session_close_device(b->session, b->fd);
	garnet_session_destroy(b->session);
	if (b->udev)
		udev_unref(b->udev);
	for (int i = 0; i < b->config_count; i++)
		free((char *)b->configs[i].name);
	free(b->configs);
	free(b->path);
	free(b);
}

static bool copy_configs(struct drm_backend *b, const struct garnet_drm_options *o)
{
	if (o->output_count <= 0)
		return true;
	b->configs = calloc((size_t)o->output_count, sizeof(*b->configs));
	if (!b->configs)
		return false;
	b->config_count = o->output_count;
	for (int i = 0; i < o->output_count; i++) {
		b->configs[i] = o->outputs[i];
		b->configs[i].name = o->outputs[i].name ? strdup(o->outputs[i].name) : NULL;
	}
	return true;
}

bool garnet_drm_backend_create(struct garnet_compositor *c, const struct garnet_drm_options *o)
{
	struct drm_backend *b = calloc(1, sizeof(*b));
	uint64_t cap = 0;

	if (!b)
		return false;
	b->compositor = c;
	b->fd = -1;
	b->base.destroy = drm_backend_destroy;
	wl_list_init(&b->outputs);
	wl_list_init(&b->session_active.link);
	if (!copy_configs(b, o))
		goto err;
	b->session = garnet_session_create(c, o->seat, o->tty);
	if (!b->session)
		goto err;
	b->udev = udev_new();
	if (!b->udev)
		goto err;
	if (o->drm_device ? !open_device(b, o->drm_device) : !find_device(b))
		goto err;
	if (drmGetCap(b->fd, DRM_CAP_DUMB_BUFFER, &cap) != 0 || !cap) {
		garnet_log(c, GARNET_LOG_ERROR, "drm", "%s has no dumb buffers", b->path);
		goto err;
	}
	if (drmGetCap(b->fd, DRM_CAP_TIMESTAMP_MONOTONIC, &cap) != 0 || !cap) {
		garnet_log(c, GARNET_LOG_ERROR, "drm",
			   "%s does not time page flips on CLOCK_MONOTONIC", b->path);
		goto err;
	}
	/* Atomic unless the driver lacks it or the user asks for the legacy interface. */
	b->atomic = !getenv("GARNET_DRM_NO_ATOMIC") &&
		    drmSetClientCap(b->fd, DRM_CLIENT_CAP_ATOMIC, 1) == 0;
	garnet_log(c, GARNET_LOG_INFO, "drm", "%s on seat %s, %s", b->path,
		   garnet_session_seat_name(b->session), b->atomic ? "atomic" : "legacy KMS");
	b->drm_source = wl_event_loop_add_fd(c->loop, b->fd, WL_EVENT_READABLE, drm_readable, b);
	b->monitor = udev_monitor_new_from_netlink(b->udev, "udev");
	if (!b->drm_source || !b->monitor)
		goto err;
	udev_monitor_filter_add_match_subsystem_devtype(b->monitor, "drm", NULL);
	udev_monitor_enable_receiving(b->monitor);
	b->udev_source = wl_event_loop_add_fd(c->loop, udev_monitor_get_fd(b->monitor),
					      WL_EVENT_READABLE, udev_readable, b);
	if (!b->udev_source)
		goto err;
	b->session_active.notify = session_active_changed;
	wl_signal_add(garnet_session_get_active_signal(b->session), &b->session_active);
	/* Outputs before input, so absolute devices map onto a real layout. */
	scan_connectors(b);
	if (wl_list_empty(&b->outputs)) {
		garnet_log(c, GARNET_LOG_ERROR, "drm", "%s: no connected output", b->path);
		goto err;
	}
	b->input = garnet_libinput_create(c, b->session, &o->input);
	if (!b->input)
		goto err;
	garnet_seat_set_vt_switch_handler(c->seat, switch_vt, b);
	wl_list_insert(&c->backends, &b->base.link);
	return true;

err:
	drm_backend_destroy(&b->base);
	return false;
}
