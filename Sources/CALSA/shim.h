// alsa-lib for Swift. snd_lib_error_handler_t is a variadic function-pointer type Swift cannot create,
// so the handlers live here. alsa-lib otherwise prints its own diagnostics to stderr; the owning wrapper
// turns every return code into an error carrying snd_strerror() instead.
#pragma once
#include <alsa/asoundlib.h>

static void alsashim_silent_error(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}
static inline void alsashim_silence_errors(void) { snd_lib_error_set_handler(alsashim_silent_error); }
static inline void alsashim_default_errors(void) { snd_lib_error_set_handler(NULL); }
