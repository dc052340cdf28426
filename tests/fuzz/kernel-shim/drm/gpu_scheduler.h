#include "kernel-shim.h"

/* The scheduler's structures, only embedded in garnet's: the fuzzer runs no scheduler. */
struct drm_sched_job { void *s_fence; };
struct drm_sched_entity { void *rq; };
struct drm_gpu_scheduler { long timeout; };
