// SPDX-License-Identifier: MIT
/* The built-in permission names and the rules for naming new ones. */
#include <string.h>

#include "private.h"

const char *const builtin_permissions[BUILTIN_PERMISSION_COUNT] = {
	WMAC_PERMISSION_SCREENSHOT,	 WMAC_PERMISSION_SCREENCAST,
	WMAC_PERMISSION_LOCK_SCREEN,	 WMAC_PERMISSION_VIRTUAL_KEYBOARD,
	WMAC_PERMISSION_VIRTUAL_POINTER, WMAC_PERMISSION_INPUT_METHOD,
	WMAC_PERMISSION_GLOBAL_SHORTCUT, WMAC_PERMISSION_SELECTION_READ,
	WMAC_PERMISSION_SELECTION_WRITE, WMAC_PERMISSION_PRIVILEGED_GLOBAL,
	WMAC_PERMISSION_BUFFER_IMPORT,	 WMAC_PERMISSION_FULLSCREEN,
	WMAC_PERMISSION_RAISE_FOCUS,
};

int builtin_permission_index(const char *name)
{
	for (int i = 0; i < BUILTIN_PERMISSION_COUNT; i++) {
		if (strcmp(builtin_permissions[i], name) == 0)
			return i;
	}
	return -1;
}

/*
 * Custom names are namespaced (at least one dot) so they can never collide with a built-in
 * name added later, and are plain lowercase so a typo cannot hide in case or Unicode.
 */
bool custom_permission_name_valid(const char *name)
{
	size_t len = strlen(name);
	if (len == 0 || len > 128 || !strchr(name, '.'))
		return false;
	if (name[0] == '.' || name[0] == '-' || name[len - 1] == '.' || name[len - 1] == '-')
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = name[i];
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.'))
			return false;
		if (c == '.' && name[i + 1] == '.')
			return false;
	}
	return true;
}

WMAC_EXPORT bool wmac_permission_is_builtin(const char *name)
{
	return name && builtin_permission_index(name) >= 0;
}

WMAC_EXPORT const char *wmac_decision_name(enum wmac_decision decision)
{
	switch (decision) {
	case WMAC_ALLOW:
		return "allow";
	case WMAC_DENY:
		return "deny";
	case WMAC_ASK:
		return "ask";
	}
	return "invalid";
}

WMAC_EXPORT const char *wmac_version(void)
{
	return WMAC_VERSION;
}
