/* SPDX-License-Identifier: MIT */
/* The libinput backend (backends, beside the protocols layer): input devices of the seat
 * through libinput's udev backend, fed to the compositor's seat. */
#ifndef GARNET_BACKEND_LIBINPUT_H
#define GARNET_BACKEND_LIBINPUT_H

#include "garnet/drm.h"

struct garnet_compositor;
struct garnet_session;
struct garnet_libinput;

/* Opens every input device of the session's seat (and those plugged in later). NULL on failure,
 * logged. Follows the session: suspended while it is inactive. */
struct garnet_libinput *garnet_libinput_create(struct garnet_compositor *c,
					       struct garnet_session *session,
					       const struct garnet_input_config *config);
void garnet_libinput_destroy(struct garnet_libinput *input);

#endif
