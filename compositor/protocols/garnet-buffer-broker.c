// SPDX-License-Identifier: MIT
// garnet_buffer_broker_v1: one client (the owner) hands a garnet.ko object to another (the
// receiver) through garnet. The receiver asks first and gets a token; an offer naming it is
// decided by the security layer (libwmac's buffer-import, subject the receiver, object the
// owner), and only then does garnet share the object single-use with the receiver's DRM file.
// The owner withdraws the offer by destroying it (doc/buffers.md, "Client to client").
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <xf86drm.h>
#include <i915_drm.h>
#include <garnet_drm.h>

#include "garnet-buffer-broker-v1-server-protocol.h"
#include "../core/gem-buffer.h"
#include "../core/compositor.h"

/* A handover needs one of each; a few more serve a client with several peers. Every offer
 * pins an object and a handle in the compositor, every receiver a token. */
#define MAX_OFFERS_PER_CLIENT 16
#define MAX_RECEIVERS_PER_CLIENT 16
/* Offers naming no live receiver that are logged per client; the rest are only counted. */
#define LOGGED_UNKNOWN_TOKENS 4

struct broker {
	struct garnet_compositor *compositor;
	struct garnet_gem_manager *manager;
	struct wl_list receivers; /* receiver.link: those whose token is still unused */
	struct wl_listener compositor_destroy;
};

struct offer;

struct receiver {
	struct wl_resource *resource;
	struct broker *broker;
	struct garnet_gem_client *gc; /* the receiver's, for its counts */
	struct wl_list link;
	uint64_t token; /* 0 once an offer used it */
	uint64_t client_id; /* the DRM file the name is made for */
	struct offer *offer; /* the offer delivered to it, while both live */
};

struct offer {
	struct wl_resource *resource;
	struct garnet_gem_client *gc; /* the owner's: its file holds handle and the name */
	uint32_t handle;
	uint64_t name; /* made for the receiver; 0 when none */
	struct receiver *receiver; /* delivered to, while both live */
};

static pid_t client_pid(struct wl_client *client)
{
	pid_t pid = 0;

	wl_client_get_credentials(client, &pid, NULL, NULL);
	return pid;
}

/* The name stops opening; one already accepted or used up is gone already (-ENOENT). */
static void withdraw_name(struct offer *offer)
{
	struct drm_garnet_revoke revoke = {.name = offer->name};

	if (offer->name)
		drmIoctl(garnet_gem_client_fd(offer->gc), DRM_IOCTL_GARNET_REVOKE, &revoke);
	offer->name = 0;
}

/* ---- garnet_buffer_offer_v1 ---- */

static const struct garnet_buffer_offer_v1_interface offer_impl = {
	.destroy = garnet_resource_destroy_request,
};

static void offer_resource_destroy(struct wl_resource *resource)
{
	struct offer *offer = wl_resource_get_user_data(resource);
	struct drm_gem_close close_arg = {.handle = offer->handle};

	withdraw_name(offer);
	if (offer->receiver) {
		garnet_buffer_receiver_v1_send_revoked(offer->receiver->resource);
		offer->receiver->offer = NULL;
	}
	drmIoctl(garnet_gem_client_fd(offer->gc), DRM_IOCTL_GEM_CLOSE, &close_arg);
	garnet_gem_client_broker_counts(offer->gc)->offers--;
	garnet_gem_client_unref(offer->gc);
	free(offer);
}

/* ---- garnet_buffer_receiver_v1 ---- */

static const struct garnet_buffer_receiver_v1_interface receiver_impl = {
	.destroy = garnet_resource_destroy_request,
};

static void receiver_resource_destroy(struct wl_resource *resource)
{
	struct receiver *receiver = wl_resource_get_user_data(resource);

	wl_list_remove(&receiver->link);
	if (receiver->offer) {
		withdraw_name(receiver->offer);
		receiver->offer->receiver = NULL;
	}
	garnet_gem_client_broker_counts(receiver->gc)->receivers--;
	garnet_gem_client_unref(receiver->gc);
	free(receiver);
}

static struct receiver *take_receiver(struct broker *broker, uint64_t token)
{
	struct receiver *receiver;

	if (!token)
		return NULL;
	wl_list_for_each(receiver, &broker->receivers, link) {
		if (receiver->token == token) {
			/* A token reaches one offer, whatever becomes of it. */
			receiver->token = 0;
			wl_list_remove(&receiver->link);
			wl_list_init(&receiver->link);
			return receiver;
		}
	}
	return NULL;
}

static bool new_token(struct broker *broker, uint64_t *out)
{
	struct receiver *receiver;
	uint64_t token;
	bool taken;

	do {
		if (getrandom(&token, sizeof(token), 0) != (ssize_t)sizeof(token))
			return false;
		taken = token == 0;
		wl_list_for_each(receiver, &broker->receivers, link)
			taken = taken || receiver->token == token;
	} while (taken);
	*out = token;
	return true;
}

/* ---- garnet_buffer_broker_v1 ---- */

struct broker_resource {
	struct broker *broker;
	struct garnet_gem_client *gc;
};

static void broker_receive(struct wl_client *client, struct wl_resource *resource, uint32_t id,
			   uint32_t client_id_hi, uint32_t client_id_lo)
{
	struct broker_resource *br = wl_resource_get_user_data(resource);
	struct garnet_gem_broker_counts *counts = garnet_gem_client_broker_counts(br->gc);
	struct receiver *receiver;
	uint64_t token;

	if (counts->receivers >= MAX_RECEIVERS_PER_CLIENT) {
		wl_resource_post_error(resource, GARNET_BUFFER_BROKER_V1_ERROR_TOO_MANY,
				       "more than %d receivers", MAX_RECEIVERS_PER_CLIENT);
		return;
	}
	receiver = calloc(1, sizeof(*receiver));
	if (!receiver || !new_token(br->broker, &token)) {
		free(receiver);
		wl_resource_post_no_memory(resource);
		return;
	}
	receiver->resource = wl_resource_create(client, &garnet_buffer_receiver_v1_interface,
						wl_resource_get_version(resource), id);
	if (!receiver->resource) {
		free(receiver);
		wl_resource_post_no_memory(resource);
		return;
	}
	receiver->broker = br->broker;
	receiver->gc = garnet_gem_client_ref(br->gc);
	receiver->token = token;
	receiver->client_id = (uint64_t)client_id_hi << 32 | client_id_lo;
	wl_list_insert(&br->broker->receivers, &receiver->link);
	counts->receivers++;
	wl_resource_set_implementation(receiver->resource, &receiver_impl, receiver,
				       receiver_resource_destroy);
	garnet_buffer_receiver_v1_send_token(receiver->resource, (uint32_t)(token >> 32),
					     (uint32_t)token);
}

/* The owner's handle exists; the token, the decision and the name decide the rest. */
static void deliver(struct broker *broker, struct offer *offer, uint64_t token, uint64_t size)
{
	struct garnet_compositor *c = broker->compositor;
	struct wl_client *owner = wl_resource_get_client(offer->resource);
	struct garnet_gem_broker_counts *counts = garnet_gem_client_broker_counts(offer->gc);
	struct receiver *receiver = take_receiver(broker, token);
	struct drm_garnet_share share = {.handle = offer->handle,
					 .flags = GARNET_SHARE_SINGLE_USE};
	struct wl_client *client;

	if (!receiver) {
		/* Counted only as far as they are logged: the count never overflows. */
		if (counts->unknown_tokens < LOGGED_UNKNOWN_TOKENS) {
			counts->unknown_tokens++;
			garnet_log(c, GARNET_LOG_WARNING, "security",
				   "denied: client pid %d offered a buffer to a token of no "
				   "receiver%s", (int)client_pid(owner),
				   counts->unknown_tokens == LOGGED_UNKNOWN_TOKENS ?
					   " (its further ones go unlogged)" : "");
		}
		garnet_buffer_offer_v1_send_failed(offer->resource);
		return;
	}
	client = wl_resource_get_client(receiver->resource);
	if (!c->hooks.import_buffer || !c->hooks.import_buffer(c->hooks.data, client, owner)) {
		garnet_log(c, GARNET_LOG_WARNING, "security",
			   "denied: client pid %d may not import a buffer of client pid %d",
			   (int)client_pid(client), (int)client_pid(owner));
		goto failed;
	}
	share.recipient = receiver->client_id;
	if (drmIoctl(garnet_gem_client_fd(offer->gc), DRM_IOCTL_GARNET_SHARE, &share) < 0) {
		garnet_log(c, GARNET_LOG_WARNING, "gem",
			   "offer from client pid %d to client pid %d, recipient %llu: %s",
			   (int)client_pid(owner), (int)client_pid(client),
			   (unsigned long long)receiver->client_id, strerror(errno));
		goto failed;
	}
	offer->name = share.name;
	offer->receiver = receiver;
	receiver->offer = offer;
	garnet_log(c, GARNET_LOG_INFO, "security",
		   "client pid %d imports a buffer of client pid %d", (int)client_pid(client),
		   (int)client_pid(owner));
	garnet_buffer_receiver_v1_send_offered(receiver->resource, (uint32_t)(share.name >> 32),
					       (uint32_t)share.name, (uint32_t)(size >> 32),
					       (uint32_t)size);
	garnet_buffer_offer_v1_send_delivered(offer->resource);
	return;

failed:
	garnet_buffer_receiver_v1_send_failed(receiver->resource);
	garnet_buffer_offer_v1_send_failed(offer->resource);
}

static void broker_offer(struct wl_client *client, struct wl_resource *resource, uint32_t id,
			 uint32_t name_hi, uint32_t name_lo, uint32_t token_hi, uint32_t token_lo)
{
	struct broker_resource *br = wl_resource_get_user_data(resource);
	struct garnet_gem_broker_counts *counts = garnet_gem_client_broker_counts(br->gc);
	struct drm_garnet_accept accept = {.name = (uint64_t)name_hi << 32 | name_lo};
	struct drm_gem_close close_arg = {0};
	struct offer *offer;

	if (counts->offers >= MAX_OFFERS_PER_CLIENT) {
		wl_resource_post_error(resource, GARNET_BUFFER_BROKER_V1_ERROR_TOO_MANY,
				       "more than %d offers", MAX_OFFERS_PER_CLIENT);
		return;
	}
	/* On the owner's own file of the compositor: whatever is wrong with the name, the
	 * kernel says -ENOENT, and so does this (as garnet_buffer_v1.create_buffer). */
	if (drmIoctl(garnet_gem_client_fd(br->gc), DRM_IOCTL_GARNET_ACCEPT, &accept) < 0) {
		garnet_log(br->broker->compositor, GARNET_LOG_WARNING, "security",
			   "denied: client pid %d offered a name that is not a live name shared "
			   "with it", (int)client_pid(client));
		wl_resource_post_error(resource, GARNET_BUFFER_BROKER_V1_ERROR_INVALID_NAME,
				       "not a name shared with this compositor");
		return;
	}
	offer = calloc(1, sizeof(*offer));
	if (offer)
		offer->resource = wl_resource_create(client, &garnet_buffer_offer_v1_interface,
						     wl_resource_get_version(resource), id);
	if (!offer || !offer->resource) {
		free(offer);
		close_arg.handle = accept.handle;
		drmIoctl(garnet_gem_client_fd(br->gc), DRM_IOCTL_GEM_CLOSE, &close_arg);
		wl_resource_post_no_memory(resource);
		return;
	}
	offer->gc = garnet_gem_client_ref(br->gc);
	offer->handle = accept.handle;
	counts->offers++;
	wl_resource_set_implementation(offer->resource, &offer_impl, offer,
				       offer_resource_destroy);
	deliver(br->broker, offer, (uint64_t)token_hi << 32 | token_lo, accept.size);
}

static const struct garnet_buffer_broker_v1_interface broker_impl = {
	.destroy = garnet_resource_destroy_request,
	.receive = broker_receive,
	.offer = broker_offer,
};

static void broker_resource_destroy(struct wl_resource *resource)
{
	struct broker_resource *br = wl_resource_get_user_data(resource);

	garnet_gem_client_unref(br->gc);
	free(br);
}

static void broker_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct broker *broker = data;
	struct broker_resource *br = calloc(1, sizeof(*br));
	struct wl_resource *resource;
	uint64_t recipient;

	if (!br) {
		wl_client_post_no_memory(client);
		return;
	}
	br->broker = broker;
	br->gc = garnet_gem_client_get(broker->manager, client);
	if (!br->gc) {
		free(br);
		wl_client_post_implementation_error(client, "garnet.ko cannot be opened");
		return;
	}
	resource = wl_resource_create(client, &garnet_buffer_broker_v1_interface, (int)version,
				      id);
	if (!resource) {
		garnet_gem_client_unref(br->gc);
		free(br);
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &broker_impl, br, broker_resource_destroy);
	recipient = garnet_gem_client_id(br->gc);
	garnet_buffer_broker_v1_send_recipient(resource, (uint32_t)(recipient >> 32),
					       (uint32_t)recipient);
}

/* Clients, and with them every receiver and offer, are gone by now. */
static void broker_compositor_destroy(struct wl_listener *listener, void *data)
{
	struct broker *broker = wl_container_of(listener, broker, compositor_destroy);

	(void)data;
	wl_list_remove(&broker->compositor_destroy.link);
	free(broker);
}

bool garnet_buffer_broker_init(struct garnet_compositor *c, struct garnet_gem_manager *m)
{
	struct broker *broker = calloc(1, sizeof(*broker));

	if (!broker)
		return false;
	broker->compositor = c;
	broker->manager = m;
	wl_list_init(&broker->receivers);
	if (!garnet_global_create(c, &garnet_buffer_broker_v1_interface, 1, broker, broker_bind,
				  false)) {
		free(broker);
		return false;
	}
	broker->compositor_destroy.notify = broker_compositor_destroy;
	wl_signal_add(&c->events.destroy, &broker->compositor_destroy);
	return true;
}
