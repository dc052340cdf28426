// SPDX-License-Identifier: MIT
// garnet's own lock screen: when the locker dies the session stays locked (session-lock.c),
// and this prompt takes the keyboard: one dot per character typed, Return asks the embedder's
// authenticator (PAM in the garnet executable, off the compositor's thread), a correct password
// unlocks. Nothing a client draws can cover it: while locked only the lock layer is drawn, and
// an abandoned lock has no lock surfaces left.
#include <stdlib.h>
#include <string.h>
#include <xkbcommon/xkbcommon.h>

#include "compositor.h"
#include "output.h"
#include "seat.h"
#include "lock-prompt.h"

/* The prompt's state (the compositor's lock_prompt). */
struct garnet_lock_prompt {
	char password[256];
	size_t len;
	bool checking, failed;
	pixman_image_t *image;
	/* The embedder's password check (garnet_compositor_set_authenticator); none: no prompt. */
	void (*authenticate)(void *data, const char *password);
	void *authenticate_data;
};

#define PROMPT_WIDTH 320
#define PROMPT_HEIGHT 48
#define DOT 8

bool garnet_lock_prompt_available(struct garnet_compositor *c)
{
	return c->lock_prompt->authenticate != NULL;
}

bool garnet_lock_prompt_active(struct garnet_compositor *c)
{
	return c->locked && !c->lock_held && garnet_lock_prompt_available(c);
}

static void damage_prompt(struct garnet_compositor *c)
{
	struct garnet_output *o;
	pixman_box32_t box;

	wl_list_for_each(o, &c->outputs, link) {
		if (garnet_lock_prompt_box(o, &box))
			garnet_compositor_damage_box(c, &box);
	}
}

bool garnet_lock_prompt_box(struct garnet_output *o, pixman_box32_t *box)
{
	if (!garnet_lock_prompt_active(o->compositor))
		return false;
	garnet_output_center_box(o, PROMPT_WIDTH, PROMPT_HEIGHT, box);
	return true;
}

/* The prompt as it looks now: a frame (red after a wrong password, grey while checking) and a
 * dot per character; the characters themselves are never drawn. */
pixman_image_t *garnet_lock_prompt_image(struct garnet_compositor *c)
{
	struct garnet_lock_prompt *p = c->lock_prompt;
	uint32_t frame = p->checking ? 0xff808080u : p->failed ? 0xffc03030u : 0xffd0d0d0u;
	pixman_color_t white = {0xffff, 0xffff, 0xffff, 0xffff};
	pixman_color_t edge = {((frame >> 16) & 0xff) * 0x101, ((frame >> 8) & 0xff) * 0x101,
			       (frame & 0xff) * 0x101, 0xffff};
	pixman_color_t inside = {0x2000, 0x2400, 0x2800, 0xffff};
	pixman_rectangle16_t border = {0, 0, PROMPT_WIDTH, PROMPT_HEIGHT};
	pixman_rectangle16_t body = {2, 2, PROMPT_WIDTH - 4, PROMPT_HEIGHT - 4};
	size_t shown = p->len < (PROMPT_WIDTH - 16) / (DOT + 4) ? p->len
								 : (PROMPT_WIDTH - 16) / (DOT + 4);

	if (!p->image) {
		p->image = pixman_image_create_bits(PIXMAN_x8r8g8b8, PROMPT_WIDTH, PROMPT_HEIGHT,
						    NULL, 0);
		if (!p->image)
			return NULL;
	}
	pixman_image_fill_rectangles(PIXMAN_OP_SRC, p->image, &edge, 1, &border);
	pixman_image_fill_rectangles(PIXMAN_OP_SRC, p->image, &inside, 1, &body);
	for (size_t i = 0; i < shown; i++) {
		pixman_rectangle16_t dot = {(int16_t)(8 + i * (DOT + 4)),
					    (PROMPT_HEIGHT - DOT) / 2, DOT, DOT};

		pixman_image_fill_rectangles(PIXMAN_OP_SRC, p->image, &white, 1, &dot);
	}
	return p->image;
}

static void forget_password(struct garnet_lock_prompt *p)
{
	/* Not left in memory longer than needed. */
	explicit_bzero(p->password, sizeof(p->password));
	p->len = 0;
}

bool garnet_lock_prompt_key(struct garnet_compositor *c, uint32_t key, bool pressed)
{
	struct garnet_lock_prompt *p = c->lock_prompt;
	struct garnet_seat *seat = c->seat;
	xkb_keysym_t sym;
	char utf8[8];
	int n;

	if (!garnet_lock_prompt_active(c))
		return false;
	if (!pressed || p->checking)
		return true;
	sym = xkb_state_key_get_one_sym(seat->xkb_state, key + 8);
	if (sym == XKB_KEY_Return || sym == XKB_KEY_KP_Enter) {
		if (p->len == 0)
			return true;
		p->password[p->len] = '\0';
		p->checking = true;
		p->failed = false;
		damage_prompt(c);
		garnet_log(c, GARNET_LOG_INFO, "lock", "checking the password");
		p->authenticate(p->authenticate_data, p->password);
		forget_password(p);
		return true;
	}
	if (sym == XKB_KEY_BackSpace) {
		if (p->len > 0)
			p->password[--p->len] = '\0';
	} else if (sym == XKB_KEY_Escape) {
		forget_password(p);
	} else {
		n = xkb_state_key_get_utf8(seat->xkb_state, key + 8, utf8, sizeof(utf8));
		if (n > 0 && (unsigned char)utf8[0] >= 0x20 && utf8[0] != 0x7f &&
		    p->len + (size_t)n < sizeof(p->password))
			memcpy(p->password + p->len, utf8, (size_t)n), p->len += (size_t)n;
	}
	p->failed = false;
	damage_prompt(c);
	return true;
}

void garnet_compositor_unlock_result(struct garnet_compositor *c, bool authenticated)
{
	struct garnet_lock_prompt *p = c->lock_prompt;

	if (!p->checking)
		return;
	p->checking = false;
	damage_prompt(c);
	if (!authenticated || !garnet_lock_prompt_active(c)) {
		p->failed = true;
		garnet_log(c, GARNET_LOG_WARNING, "lock", "authentication failed: still locked");
		damage_prompt(c);
		return;
	}
	garnet_log(c, GARNET_LOG_INFO, "lock", "session unlocked by garnet's lock screen");
	if (c->protocol_hooks.unlock)
		c->protocol_hooks.unlock(c);
}

void garnet_compositor_set_authenticator(struct garnet_compositor *c,
					 void (*authenticate)(void *data, const char *password),
					 void *data)
{
	c->lock_prompt->authenticate = authenticate;
	c->lock_prompt->authenticate_data = data;
}

bool garnet_lock_prompt_init(struct garnet_compositor *c)
{
	c->lock_prompt = calloc(1, sizeof(*c->lock_prompt));
	return c->lock_prompt != NULL;
}

void garnet_lock_prompt_finish(struct garnet_compositor *c)
{
	struct garnet_lock_prompt *p = c->lock_prompt;

	if (!p)
		return;
	forget_password(p);
	if (p->image)
		pixman_image_unref(p->image);
	free(p);
	c->lock_prompt = NULL;
}
