#pragma once
/*
 * libsystemd's service-manager notification API (sd_notify(3),
 * sd_watchdog_enabled(3)). Only the non-variadic calls are used, so no shim
 * functions are needed: EarsSystemd builds each message in Swift and hands it
 * to sd_notify whole.
 */
#include <systemd/sd-daemon.h>
