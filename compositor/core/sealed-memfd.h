/* SPDX-License-Identifier: MIT */
/* Bytes garnet hands to clients in a file none of them can change (a keymap, a format table,
 * a pointer image): every client maps the same file, so the seals are what keep one client
 * from rewriting what the others read. */
#ifndef GARNET_CORE_SEALED_MEMFD_H
#define GARNET_CORE_SEALED_MEMFD_H

#include <stddef.h>

/* A memfd holding exactly size bytes of data, sealed against writes and size changes; -1
 * with errno set when it could not be made. */
int garnet_sealed_memfd(const char *name, const void *data, size_t size);

#endif
