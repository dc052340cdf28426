// SPDX-License-Identifier: MIT
// garnet_xwayland_v1: a client (garnet-x11) asks for the display of an X11 domain. A new
// private domain is anyone's; a shared one only if garnet.ini declares it and the security
// layer lets this client join it, so an application cannot name another's domain to get into
// its X server.
#include <stdio.h>
#include <string.h>

#include "garnet-xwayland-v1-server-protocol.h"
#include "garnet/security.h"
#include "xwayland-private.h"
#include "xwayland-core.h"

/* Enough for any user's X applications; a client asking in a loop must not take every
 * display number of the machine. Idle private domains close (server.c), so a slot is held
 * only by a domain with X clients, or one asked for within the idle timeout. */
#define MAX_DOMAINS 64
/* One connection's share: garnet-x11 asks once; a client asking for more wants them all. */
#define MAX_DOMAINS_PER_CLIENT 8

static void destroy_resource(struct wl_client *client, struct wl_resource *resource)
{
	(void)client;
	wl_resource_destroy(resource);
}

static const struct garnet_xwayland_display_v1_interface display_impl = {
	.destroy = destroy_resource,
};

static const char *refusal(struct garnet_xwayland *xwl, struct wl_client *client,
			   const char *domain)
{
	struct garnet_compositor *c = xwl->compositor;
	struct garnet_xwayland_domain *d;
	int count = 0;

	if (domain[0]) {
		if (!xwayland_is_shared_domain(xwl, domain))
			return "no shared domain has this name in garnet.ini";
		if (c->hooks.join_xwayland_domain &&
		    !c->hooks.join_xwayland_domain(c->hooks.data, client, domain))
			return "the security policy does not let this program join that domain";
		return NULL;
	}
	if (xwayland_domains_of_creator(xwl, client) >= MAX_DOMAINS_PER_CLIENT)
		return "this client has asked for too many X11 domains (8 at a time)";
	wl_list_for_each (d, &xwl->domains, link)
		count++;
	return count >= MAX_DOMAINS ? "every X11 domain is taken (64): close X applications or "
				      "wait for idle ones to close"
				    : NULL;
}

static void get_display(struct wl_client *client, struct wl_resource *resource, uint32_t id,
			const char *domain, const char *program)
{
	struct garnet_xwayland *xwl = wl_resource_get_user_data(resource);
	struct wl_resource *answer =
		wl_resource_create(client, &garnet_xwayland_display_v1_interface, 1, id);
	struct garnet_xwayland_domain *d = NULL;
	const char *why;

	if (!answer) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(answer, &display_impl, NULL, NULL);
	/* An Xwayland asking would hand its X clients a way out of their domain. */
	why = garnet_xwayland_is_server(client) ? "an X server has no domain to ask for"
						: refusal(xwl, client, domain);
	if (!why) {
		d = garnet_xwayland_domain_get(xwl, domain, program);
		why = d ? NULL : "no X display could be made (see garnet's log)";
		if (d)
			xwayland_domain_set_creator(d, client);
	}
	if (why) {
		garnet_log(xwl->compositor, GARNET_LOG_WARNING, "xwayland",
			   "refused a display for domain '%s': %s", domain[0] ? domain : "(new)",
			   why);
		garnet_xwayland_display_v1_send_refused(answer, why);
		return;
	}
	garnet_xwayland_display_v1_send_ready(answer, d->name, d->display, d->auth_path);
}

static const struct garnet_xwayland_v1_interface xwayland_impl = {
	.destroy = destroy_resource,
	.get_display = get_display,
};

static void bind_xwayland(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *resource =
		wl_resource_create(client, &garnet_xwayland_v1_interface, (int)version, id);

	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &xwayland_impl, data, NULL);
}

bool xwayland_domain_protocol_init(struct garnet_xwayland *xwl)
{
	xwl->global = wl_global_create(xwl->compositor->display, &garnet_xwayland_v1_interface, 1,
				       xwl, bind_xwayland);
	return xwl->global != NULL;
}
