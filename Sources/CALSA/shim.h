#pragma once
// alsa-lib for ears, plus the one thing Swift cannot write itself: alsa-lib's
// error handler is variadic, so it lives here. It formats each message into a
// per-thread buffer instead of stderr, so the audio owner can put the words
// into its closed_why sentence (and keep alsa-lib's own lines off the journal).
#include <alsa/asoundlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

// A function-local static: Swift emits the functions of this header into the
// importing module, but not file-scope statics, so the buffer lives in here.
static inline char *ears_alsa_error_buffer(void) {
    static __thread char buffer[512];
    return buffer;
}
#define EARS_ALSA_ERROR_BUFFER_SIZE 512

static void ears_alsa_error_handler(const char *file, int line, const char *function,
                                    int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ears_alsa_error_buffer(), EARS_ALSA_ERROR_BUFFER_SIZE, fmt, ap);
    va_end(ap);
}

/// Routes alsa-lib's diagnostics into a per-thread buffer; call once per process.
static inline int ears_alsa_capture_errors(void) {
    return snd_lib_error_set_handler(ears_alsa_error_handler);
}

/// The last diagnostic alsa-lib reported on this thread ("" if none), then forgets it.
static inline void ears_alsa_take_last_error(char *out, size_t size) {
    if (size == 0) return;
    char *buffer = ears_alsa_error_buffer();
    strncpy(out, buffer, size - 1);
    out[size - 1] = 0;
    buffer[0] = 0;
}
