// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the policy parser: raw bytes through the parser and compiler and the
 * answer-file parser, then,
 * for text, a system and a user policy (split at a form feed) loaded into a context and
 * asked about every permission. Must never crash, leak or hang.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "private.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const objects[] = {"", "HDMI-A-1", "media-play", "zwlr_layer_shell_v1"};

static void ask_everything(struct wmac_context *ctx, struct wmac_subject *s)
{
	for (int p = 0; p < BUILTIN_PERMISSION_COUNT; p++)
		for (size_t o = 0; o < sizeof(objects) / sizeof(objects[0]); o++)
			(void)wmac_check(ctx, s, builtin_permissions[p], objects[o]);
	(void)wmac_check(ctx, s, "org.example.custom", NULL);
	(void)wmac_answer(ctx, s, "screenshot", "HDMI-A-1", WMAC_ALLOW, WMAC_SCOPE_SESSION);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wmac_error err;
	struct policy *policy = policy_create();
	if (policy_parse(policy, false, "fuzz", (const char *)data, size, &err) == 0)
		policy_compile(policy, &err);
	policy_unref(policy);

	/* The same bytes as a per-user answer file, the other parser fed by user-writable data. */
	struct answer_set answers = {0};
	answer_text_parse(&answers, "answers", (const char *)data, size, &err);
	answer_set_finish(&answers);

	if (memchr(data, '\0', size))
		return 0;
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	char *user = strchr(text, '\f');
	if (user)
		*user++ = '\0';
	struct wmac_context *ctx = wmac_context_create();
	if (wmac_context_load_text(ctx, "system", text, "user", user, &err) == 0) {
		struct wmac_launch_record rec = {
			.entry = "panel",
			.executable = "/usr/bin/panel",
			.uid = 1000,
		};
		struct wmac_subject *launched = wmac_subject_from_launch(&rec);
		struct wmac_subject *sandboxed = wmac_subject_from_launch(&rec);
		wmac_subject_set_sandbox(sandboxed, "org.flatpak", "org.example.App", "1");
		ask_everything(ctx, launched);
		ask_everything(ctx, sandboxed);
		wmac_subject_destroy(launched);
		wmac_subject_destroy(sandboxed);
	}
	wmac_context_destroy(ctx);
	free(text);
	return 0;
}
