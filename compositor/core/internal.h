/* SPDX-License-Identifier: MIT */
/* libgarnet's own view of its objects while they move into a header each (being taken apart). */
#ifndef GARNET_INTERNAL_H
#define GARNET_INTERNAL_H

#include <xkbcommon/xkbcommon.h>

#include "garnet/headless.h"
#include "garnet/output.h"
#include "garnet/seat.h"
#include "coords.h"
#include "compositor.h"
#include "output.h"
#include "surface.h"
#include "subsurface.h"
#include "region.h"
#include "transform.h"
#include "view.h"
#include "seat.h"
#include "data-source.h"
#include "consent.h"
#include "lock-prompt.h"
#include "client-budget.h"
#include "buffer.h"
#include "../render/damage-ring.h"
#include "../render/renderer.h"
#include "../render/consent-dialog.h"
#include "../protocols/toplevel.h"
#include "../protocols/xdg-shell.h"
#include "../protocols/text-input.h"
#include "../protocols/session-lock.h"
#include "../protocols/security-context.h"
#include "../protocols/single-pixel-buffer.h"
#include "../protocols/garnet-test.h"
#include "../protocols/primary-selection.h"
#include "../protocols/data-control.h"
#include "../protocols/xdg-activation.h"
#include "../protocols/shortcuts.h"
#include "../protocols/protocols.h"
#include "../shell/shell.h"

#endif
