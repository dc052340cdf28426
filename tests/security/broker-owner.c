// SPDX-License-Identifier: MIT
/*
 * The owner side of garnet_buffer_broker_v1 as a process of its own, so that libwmac verifies
 * its executable (clients inside the test program share the compositor's process and stay
 * unverified). It fills a 4096-byte object with PIXEL, offers it to the receiver of TOKEN,
 * prints "delivered" or "failed" and keeps the offer (and its connection) until its stdin
 * closes: the name garnet made dies with the offer.
 *
 *   broker-owner TOKEN PIXEL      (both hexadecimal)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xf86drm.h>
#include <i915_drm.h>
#include <garnet_drm.h>
#include <wayland-client.h>

#include "garnet-buffer-v1-client-protocol.h"
#include "garnet-buffer-broker-v1-client-protocol.h"

#define SIZE 4096

struct owner {
	struct garnet_buffer_v1 *gem;
	struct garnet_buffer_broker_v1 *broker;
	char device[256];
	uint64_t recipient;
	bool done, delivered;
};

static void on_global(void *data, struct wl_registry *registry, uint32_t name,
		      const char *interface, uint32_t version)
{
	struct owner *o = data;

	(void)version;
	if (strcmp(interface, garnet_buffer_v1_interface.name) == 0)
		o->gem = wl_registry_bind(registry, name, &garnet_buffer_v1_interface, 1);
	else if (strcmp(interface, garnet_buffer_broker_v1_interface.name) == 0)
		o->broker = wl_registry_bind(registry, name, &garnet_buffer_broker_v1_interface, 1);
}

static void on_global_remove(void *data, struct wl_registry *registry, uint32_t name)
{
	(void)data, (void)registry, (void)name;
}

static const struct wl_registry_listener registry_listener = {on_global, on_global_remove};

static void gem_device(void *data, struct garnet_buffer_v1 *gem, const char *path)
{
	struct owner *o = data;

	(void)gem;
	snprintf(o->device, sizeof(o->device), "%s", path);
}

static void gem_recipient(void *data, struct garnet_buffer_v1 *gem, uint32_t hi, uint32_t lo)
{
	(void)data, (void)gem, (void)hi, (void)lo;
}

static void gem_format(void *data, struct garnet_buffer_v1 *gem, uint32_t format)
{
	(void)data, (void)gem, (void)format;
}

static const struct garnet_buffer_v1_listener gem_listener = {gem_device, gem_recipient,
								gem_format};

static void broker_recipient(void *data, struct garnet_buffer_broker_v1 *broker, uint32_t hi,
			     uint32_t lo)
{
	struct owner *o = data;

	(void)broker;
	o->recipient = (uint64_t)hi << 32 | lo;
}

static const struct garnet_buffer_broker_v1_listener broker_listener = {broker_recipient};

static void offer_delivered(void *data, struct garnet_buffer_offer_v1 *offer)
{
	struct owner *o = data;

	(void)offer;
	o->done = o->delivered = true;
}

static void offer_failed(void *data, struct garnet_buffer_offer_v1 *offer)
{
	(void)offer;
	((struct owner *)data)->done = true;
}

static const struct garnet_buffer_offer_v1_listener offer_listener = {offer_delivered,
									offer_failed};

/* A shared object of SIZE bytes in one colour; 0 (and a message) on failure. */
static uint64_t shared_object(int fd, uint64_t recipient, uint32_t pixel)
{
	static uint32_t data[SIZE / 4];
	struct drm_i915_gem_create create = {.size = SIZE};
	struct drm_i915_gem_pwrite pwrite = {.size = SIZE, .data_ptr = (uintptr_t)data};
	struct drm_garnet_share share = {.flags = GARNET_SHARE_SINGLE_USE, .recipient = recipient};

	for (size_t i = 0; i < SIZE / 4; i++)
		data[i] = pixel;
	if (drmIoctl(fd, DRM_IOCTL_I915_GEM_CREATE, &create) < 0)
		return 0;
	pwrite.handle = share.handle = create.handle;
	if (drmIoctl(fd, DRM_IOCTL_I915_GEM_PWRITE, &pwrite) < 0 ||
	    drmIoctl(fd, DRM_IOCTL_GARNET_SHARE, &share) < 0)
		return 0;
	return share.name;
}

int main(int argc, char **argv)
{
	struct owner o = {0};
	struct wl_display *display;
	struct garnet_buffer_offer_v1 *offer;
	uint64_t token, name;
	uint32_t pixel;
	char c;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: broker-owner TOKEN PIXEL\n");
		return 2;
	}
	token = strtoull(argv[1], NULL, 16);
	pixel = (uint32_t)strtoul(argv[2], NULL, 16);
	display = wl_display_connect(NULL);
	if (!display) {
		fprintf(stderr, "broker-owner: cannot connect: %s\n", strerror(errno));
		return 1;
	}
	wl_registry_add_listener(wl_display_get_registry(display), &registry_listener, &o);
	wl_display_roundtrip(display);
	if (!o.gem || !o.broker) {
		fprintf(stderr, "broker-owner: garnet_buffer_v1 or the broker is not offered\n");
		return 1;
	}
	garnet_buffer_v1_add_listener(o.gem, &gem_listener, &o);
	garnet_buffer_broker_v1_add_listener(o.broker, &broker_listener, &o);
	wl_display_roundtrip(display);
	fd = open(o.device, O_RDWR | O_CLOEXEC);
	name = fd < 0 ? 0 : shared_object(fd, o.recipient, pixel);
	if (!name) {
		fprintf(stderr, "broker-owner: %s: %s\n", o.device, strerror(errno));
		return 1;
	}
	offer = garnet_buffer_broker_v1_offer(o.broker, (uint32_t)(name >> 32), (uint32_t)name,
					      (uint32_t)(token >> 32), (uint32_t)token);
	garnet_buffer_offer_v1_add_listener(offer, &offer_listener, &o);
	while (!o.done && wl_display_dispatch(display) >= 0)
		;
	printf("%s\n", o.delivered ? "delivered" : "failed");
	fflush(stdout);
	while (read(0, &c, 1) > 0)
		;
	wl_display_disconnect(display);
	return 0;
}
