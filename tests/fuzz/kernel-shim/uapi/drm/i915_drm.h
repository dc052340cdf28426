/* The uapi as userspace sees it (libdrm's copy), on the shim's types. */
#include "kernel-shim.h"
#include <libdrm/i915_drm.h>
