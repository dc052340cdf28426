// SPDX-License-Identifier: MIT
// Damage of recent frames, so a buffer of age N is repainted only where it is out of date.
#include "damage-ring.h"

void garnet_damage_ring_init(struct garnet_damage_ring *ring)
{
	for (int i = 0; i < GARNET_DAMAGE_RING_SIZE; i++)
		pixman_region32_init(&ring->previous[i]);
}

void garnet_damage_ring_finish(struct garnet_damage_ring *ring)
{
	for (int i = 0; i < GARNET_DAMAGE_RING_SIZE; i++)
		pixman_region32_fini(&ring->previous[i]);
}

void garnet_damage_ring_get_buffer_damage(struct garnet_damage_ring *ring, int age,
					  const pixman_region32_t *frame_damage,
					  const pixman_box32_t *whole, pixman_region32_t *out)
{
	/* Age 1 is the frame just shown: it lacks only this frame's damage. Unknown or too
	 * old contents are repainted whole. */
	if (age <= 0 || age > GARNET_DAMAGE_RING_SIZE + 1) {
		pixman_region32_reset(out, (pixman_box32_t *)whole);
		return;
	}
	pixman_region32_copy(out, (pixman_region32_t *)frame_damage);
	for (int i = 0; i < age - 1; i++)
		pixman_region32_union(out, out, &ring->previous[i]);
}

void garnet_damage_ring_rotate(struct garnet_damage_ring *ring, const pixman_region32_t *damage)
{
	pixman_region32_t oldest = ring->previous[GARNET_DAMAGE_RING_SIZE - 1];

	for (int i = GARNET_DAMAGE_RING_SIZE - 1; i > 0; i--)
		ring->previous[i] = ring->previous[i - 1];
	pixman_region32_copy(&oldest, (pixman_region32_t *)damage);
	ring->previous[0] = oldest;
}
