#include "kernel-shim.h"
