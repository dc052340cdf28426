// SPDX-License-Identifier: MIT
// zxdg_exporter_v2 / zxdg_importer_v2: a client hands another one a handle to its toplevel, so
// that the other one's dialog (a file chooser from a portal) can be made its child.
//
// A handle is a power over the exporter's window, so it is 128 random bits that only the
// exporter is told; an importer can only make its own toplevels children of the window (the
// surface it names is looked up among its own objects), is told nothing about the window, and
// loses the relationship once the export, the window or the import is destroyed.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "../core/compositor.h"
#include "../core/surface.h"
#include "client-protocols.h"
#include "xdg-foreign-unstable-v2-server-protocol.h"
#include "xdg-shell.h"

#define HANDLE_BYTES 16

struct foreign {
	struct wl_list exports; /* export.link */
	struct wl_listener compositor_destroy;
};

struct exported {
	struct wl_resource *resource;
	struct garnet_toplevel *toplevel; /* NULL once it or the export is gone */
	char handle[HANDLE_BYTES * 2 + 1];
	struct wl_list imports; /* import.link */
	struct wl_listener toplevel_destroy;
	struct wl_list link;
};

struct imported {
	struct wl_resource *resource;
	struct exported *export; /* NULL: inert, destroyed was sent */
	struct wl_list children; /* child.link: the importer's toplevels given this parent */
	struct wl_list link;
};

/* One of the importer's toplevels made a child of the export's window through an import. */
struct child {
	struct garnet_toplevel *toplevel;
	struct wl_listener toplevel_destroy;
	struct wl_list link;
};

static void child_destroy(struct child *child)
{
	wl_list_remove(&child->toplevel_destroy.link);
	wl_list_remove(&child->link);
	free(child);
}

static void child_toplevel_destroy(struct wl_listener *listener, void *data)
{
	struct child *child = wl_container_of(listener, child, toplevel_destroy);

	(void)data;
	child_destroy(child);
}

/* The relationships the import set up end: its children that still have the exported window
 * as parent lose it. */
static void import_unparent(struct imported *import)
{
	struct child *child, *tmp;

	wl_list_for_each_safe(child, tmp, &import->children, link) {
		if (import->export && child->toplevel->parent == import->export->toplevel)
			garnet_xdg_toplevel_set_parent(child->toplevel, NULL);
		child_destroy(child);
	}
}

static void import_invalidate(struct imported *import)
{
	import_unparent(import);
	if (import->export)
		wl_list_remove(&import->link);
	import->export = NULL;
	zxdg_imported_v2_send_destroyed(import->resource);
}

/* The export's window or the export itself went: every import of it is told. */
static void export_revoke(struct exported *export)
{
	struct imported *import, *tmp;

	wl_list_for_each_safe(import, tmp, &export->imports, link)
		import_invalidate(import);
	if (export->toplevel)
		wl_list_remove(&export->toplevel_destroy.link);
	export->toplevel = NULL;
}

static void export_toplevel_destroy(struct wl_listener *listener, void *data)
{
	struct exported *export = wl_container_of(listener, export, toplevel_destroy);

	(void)data;
	export_revoke(export);
}

static void export_resource_destroy(struct wl_resource *resource)
{
	struct exported *export = wl_resource_get_user_data(resource);

	export_revoke(export);
	wl_list_remove(&export->link);
	free(export);
}

static const struct zxdg_exported_v2_interface exported_impl = {
	.destroy = garnet_resource_destroy_request,
};

static bool make_handle(char out[HANDLE_BYTES * 2 + 1])
{
	uint8_t bytes[HANDLE_BYTES];

	if (getrandom(bytes, sizeof(bytes), 0) != (ssize_t)sizeof(bytes))
		return false;
	for (size_t i = 0; i < sizeof(bytes); i++)
		snprintf(out + i * 2, 3, "%02x", bytes[i]);
	return true;
}

static void exporter_export_toplevel(struct wl_client *client, struct wl_resource *resource,
				     uint32_t id, struct wl_resource *surface_resource)
{
	struct foreign *foreign = wl_resource_get_user_data(resource);
	struct garnet_surface *surface = garnet_surface_from_resource(surface_resource);
	struct garnet_toplevel *toplevel = garnet_xdg_toplevel_from_surface(surface);
	struct exported *export;

	if (!toplevel) {
		wl_resource_post_error(resource, ZXDG_EXPORTER_V2_ERROR_INVALID_SURFACE,
				       "wl_surface@%u is not an xdg_toplevel",
				       wl_resource_get_id(surface_resource));
		return;
	}
	export = calloc(1, sizeof(*export));
	if (!export || !make_handle(export->handle)) {
		free(export);
		wl_resource_post_no_memory(resource);
		return;
	}
	export->resource = wl_resource_create(client, &zxdg_exported_v2_interface,
					      wl_resource_get_version(resource), id);
	if (!export->resource) {
		free(export);
		wl_resource_post_no_memory(resource);
		return;
	}
	wl_list_init(&export->imports);
	export->toplevel = toplevel;
	export->toplevel_destroy.notify = export_toplevel_destroy;
	wl_signal_add(&toplevel->events.destroy, &export->toplevel_destroy);
	wl_list_insert(&foreign->exports, &export->link);
	wl_resource_set_implementation(export->resource, &exported_impl, export,
				       export_resource_destroy);
	zxdg_exported_v2_send_handle(export->resource, export->handle);
}

static const struct zxdg_exporter_v2_interface exporter_impl = {
	.destroy = garnet_resource_destroy_request,
	.export_toplevel = exporter_export_toplevel,
};

/* Every export is compared in full, so the time taken says nothing of how close a guess was. */
static struct exported *find_export(struct foreign *foreign, const char *handle)
{
	struct exported *export, *found = NULL;
	size_t len = strnlen(handle, HANDLE_BYTES * 2 + 1);

	if (len != HANDLE_BYTES * 2)
		return NULL;
	wl_list_for_each(export, &foreign->exports, link) {
		unsigned char diff = 0;

		for (size_t i = 0; i < HANDLE_BYTES * 2; i++)
			diff |= (unsigned char)(export->handle[i] ^ handle[i]);
		if (diff == 0 && export->toplevel)
			found = export;
	}
	return found;
}

static void imported_set_parent_of(struct wl_client *client, struct wl_resource *resource,
				   struct wl_resource *surface_resource)
{
	struct imported *import = wl_resource_get_user_data(resource);
	struct garnet_surface *surface = garnet_surface_from_resource(surface_resource);
	struct garnet_toplevel *toplevel = garnet_xdg_toplevel_from_surface(surface);
	struct child *child;

	(void)client;
	if (!toplevel) {
		wl_resource_post_error(resource, ZXDG_IMPORTED_V2_ERROR_INVALID_SURFACE,
				       "wl_surface@%u is not an xdg_toplevel",
				       wl_resource_get_id(surface_resource));
		return;
	}
	if (!import->export)
		return;
	/* The exported window is a descendant of this one: the link would make a loop. */
	if (!garnet_xdg_toplevel_set_parent(toplevel, import->export->toplevel)) {
		wl_resource_post_error(resource, ZXDG_IMPORTED_V2_ERROR_INVALID_SURFACE,
				       "wl_surface@%u is an ancestor of the imported toplevel",
				       wl_resource_get_id(surface_resource));
		return;
	}
	wl_list_for_each(child, &import->children, link)
		if (child->toplevel == toplevel)
			return;
	child = calloc(1, sizeof(*child));
	if (!child) {
		wl_resource_post_no_memory(resource);
		return;
	}
	child->toplevel = toplevel;
	child->toplevel_destroy.notify = child_toplevel_destroy;
	wl_signal_add(&toplevel->events.destroy, &child->toplevel_destroy);
	wl_list_insert(&import->children, &child->link);
}

static void import_resource_destroy(struct wl_resource *resource)
{
	struct imported *import = wl_resource_get_user_data(resource);

	import_unparent(import);
	if (import->export)
		wl_list_remove(&import->link);
	free(import);
}

static const struct zxdg_imported_v2_interface imported_impl = {
	.destroy = garnet_resource_destroy_request,
	.set_parent_of = imported_set_parent_of,
};

static void importer_import_toplevel(struct wl_client *client, struct wl_resource *resource,
				     uint32_t id, const char *handle)
{
	struct foreign *foreign = wl_resource_get_user_data(resource);
	struct imported *import = calloc(1, sizeof(*import));

	if (!import) {
		wl_resource_post_no_memory(resource);
		return;
	}
	import->resource = wl_resource_create(client, &zxdg_imported_v2_interface,
					      wl_resource_get_version(resource), id);
	if (!import->resource) {
		free(import);
		wl_resource_post_no_memory(resource);
		return;
	}
	wl_list_init(&import->children);
	wl_resource_set_implementation(import->resource, &imported_impl, import,
				       import_resource_destroy);
	import->export = find_export(foreign, handle);
	if (import->export)
		wl_list_insert(&import->export->imports, &import->link);
	else /* An unknown handle is answered like one whose window has gone. */
		zxdg_imported_v2_send_destroyed(import->resource);
}

static const struct zxdg_importer_v2_interface importer_impl = {
	.destroy = garnet_resource_destroy_request,
	.import_toplevel = importer_import_toplevel,
};

static void exporter_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *resource =
		wl_resource_create(client, &zxdg_exporter_v2_interface, (int)version, id);

	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &exporter_impl, data, NULL);
}

static void importer_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *resource =
		wl_resource_create(client, &zxdg_importer_v2_interface, (int)version, id);

	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &importer_impl, data, NULL);
}

static void foreign_compositor_destroy(struct wl_listener *listener, void *data)
{
	struct foreign *foreign = wl_container_of(listener, foreign, compositor_destroy);

	(void)data;
	wl_list_remove(&foreign->compositor_destroy.link);
	free(foreign);
}

bool garnet_xdg_foreign_init(struct garnet_compositor *c)
{
	struct foreign *foreign = calloc(1, sizeof(*foreign));

	if (!foreign)
		return false;
	wl_list_init(&foreign->exports);
	if (!garnet_global_create(c, &zxdg_exporter_v2_interface, 1, foreign, exporter_bind,
				  false) ||
	    !garnet_global_create(c, &zxdg_importer_v2_interface, 1, foreign, importer_bind,
				  false)) {
		free(foreign);
		return false;
	}
	foreign->compositor_destroy.notify = foreign_compositor_destroy;
	wl_signal_add(&c->events.destroy, &foreign->compositor_destroy);
	return true;
}
