// SPDX-License-Identifier: MIT
// The programs garnet starts: trusted [launcher] entries (through the security layer, which
// gives them their identities and restarts them) and the untrusted autostart commands.
#include <string.h>

#include "launcher.h"

/* An entry a binding launches starts when the binding is pressed, not with garnet; so does
 * the locker when a lock binding or idle time locks the session. */
static bool launched_by_binding(const struct config *cfg, const char *entry)
{
	if (cfg->lock_after_idle > 0 && strcmp(entry, "lock-screen") == 0)
		return true;
	for (int i = 0; i < cfg->binding_count; i++) {
		if (strcmp(cfg->bindings[i].action, "lock") == 0 &&
		    strcmp(entry, "lock-screen") == 0)
			return true;
		if (strcmp(cfg->bindings[i].action, "launch") == 0 && cfg->bindings[i].argument &&
		    strcmp(cfg->bindings[i].argument, entry) == 0)
			return true;
	}
	return false;
}

static bool launch_on_demand(void *data, const char *entry)
{
	return garnet_security_start_on_demand(data, entry);
}

void launcher_start(struct garnet_security *security, struct garnet_compositor *c,
		    const struct config *cfg)
{
	for (int i = 0; i < cfg->launcher_count; i++)
		garnet_security_launch(security, cfg->launchers[i].name, cfg->launchers[i].command,
				       cfg->launcher_restarts,
				       launched_by_binding(cfg, cfg->launchers[i].name));
	garnet_compositor_set_launch_handler(c, launch_on_demand, security);
}

void launcher_autostart(struct garnet_compositor *c, const struct config *cfg,
			const struct cli *cli)
{
	for (int i = 0; i < cfg->autostart_count; i++)
		garnet_compositor_spawn(c, cfg->autostart[i]);
	for (int i = 0; i < cli->autostart_count; i++)
		garnet_compositor_spawn(c, cli->autostart[i]);
}
