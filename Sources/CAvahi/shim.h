#pragma once
/*
 * The Avahi client library (libavahi-client, Debian libavahi-client-dev):
 * the client, its entry groups (publish.h), the threaded event loop
 * (thread-watch.h), error strings, alternative names and TXT string lists.
 * Only the non-variadic calls are used (avahi_entry_group_add_service_strlst,
 * not avahi_entry_group_add_service), so no shim functions are needed.
 */
#include <avahi-client/client.h>
#include <avahi-client/publish.h>
#include <avahi-common/alternative.h>
#include <avahi-common/error.h>
#include <avahi-common/malloc.h>
#include <avahi-common/strlst.h>
#include <avahi-common/thread-watch.h>
