#pragma once
#include <stdarg.h>
#include <microhttpd.h>

/*
 * Helpers for EarsStatus. Swift cannot call C variadic functions, and
 * MHD_start_daemon takes its options as a variadic (type, value) list whose
 * value types differ per option (MHD_socket, unsigned int, function pointer).
 * Spelling the call out here keeps every value at exactly the C type
 * libmicrohttpd reads with va_arg, instead of relying on Swift's CVarArg
 * word-packing to happen to match.
 */

/*
 * A logger that drops everything. libmicrohttpd only logs when
 * MHD_USE_ERROR_LOG is set (EarsStatus never sets it), but its messages can
 * quote request data (URLs, header values), so a sink that provably prints
 * nothing is installed as well, first in the option list as the
 * documentation asks, in case a future build logs during startup.
 */
static inline void ears_mhd_discard_log(void *cls, const char *format, va_list ap) {
    (void)cls;
    (void)format;
    (void)ap;
}

/*
 * Starts a daemon serving an already bound and listening socket.
 *
 * flags:                     MHD_FLAG bits (threading and polling model).
 * listen_fd:                 a listening stream socket; on success the daemon
 *                            uses it until MHD_quiesce_daemon or
 *                            MHD_stop_daemon (which closes it unless the
 *                            daemon was quiesced first).
 * handler, handler_cls:      the access handler and its closure.
 * connection_limit:          most connections served at once; further
 *                            clients wait in the kernel listen backlog.
 * connection_timeout_seconds: idle seconds before a connection is dropped.
 *
 * Returns NULL on failure. Note that on some failure paths libmicrohttpd
 * 0.9.75 closes listen_fd itself and on others it does not.
 */
static inline struct MHD_Daemon *ears_mhd_start_on_socket(
    unsigned int flags,
    int listen_fd,
    MHD_AccessHandlerCallback handler,
    void *handler_cls,
    unsigned int connection_limit,
    unsigned int connection_timeout_seconds)
{
    return MHD_start_daemon(
        flags,
        0, /* port: ignored when MHD_OPTION_LISTEN_SOCKET is given */
        NULL, NULL, /* no accept policy: peers on a Unix socket have no address */
        handler, handler_cls,
        MHD_OPTION_EXTERNAL_LOGGER, (MHD_LogCallback)ears_mhd_discard_log, (void *)NULL,
        MHD_OPTION_LISTEN_SOCKET, (MHD_socket)listen_fd,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout_seconds,
        MHD_OPTION_END);
}
