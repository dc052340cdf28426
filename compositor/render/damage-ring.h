/* SPDX-License-Identifier: MIT */
/* The damage ring (render layer, part of core): what each of an output's last buffers lacks,
 * so a repaint into a buffer of a known age paints only that. */
#ifndef GARNET_RENDER_DAMAGE_RING_H
#define GARNET_RENDER_DAMAGE_RING_H

#include <pixman.h>

#define GARNET_DAMAGE_RING_SIZE 4
struct garnet_damage_ring {
	pixman_region32_t previous[GARNET_DAMAGE_RING_SIZE]; /* [0]: the last frame painted */
};

void garnet_damage_ring_init(struct garnet_damage_ring *ring);
void garnet_damage_ring_finish(struct garnet_damage_ring *ring);
/* What a buffer of this age lacks: damage of this frame plus of the age-1 frames before. */
void garnet_damage_ring_get_buffer_damage(struct garnet_damage_ring *ring, int age,
					  const pixman_region32_t *frame_damage,
					  const pixman_box32_t *whole, pixman_region32_t *out);
void garnet_damage_ring_rotate(struct garnet_damage_ring *ring, const pixman_region32_t *damage);

#endif
