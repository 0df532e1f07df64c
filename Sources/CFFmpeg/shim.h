// FFmpeg's libavformat, libavcodec, libswresample and libavutil (Debian's FFmpeg 5.1) for Swift, loaded when first
// needed rather than linked: Debian builds libavcodec with --enable-gpl and against some sixty other libraries (x264,
// x265, dav1d, …), which every `aubade` command would otherwise map and relocate at start, though most never decode
// anything but MP3. `aubade_ffmpeg_load` opens the libraries of the major versions these headers describe and
// returns a table of the functions Aubade calls; the headers give the types. Error codes and the stereo layout are
// macros Swift cannot import: small inline functions give them names.
#pragma once
#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavutil/channel_layout.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>
#include <libavutil/macros.h>
#include <libavutil/mem.h>
#include <libavutil/opt.h>
#include <libswresample/swresample.h>

static inline int aubade_averror_eof(void) { return AVERROR_EOF; }
static inline int aubade_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int aubade_averror_exit(void) { return AVERROR_EXIT; }

/// The functions Aubade calls, each from the library that has it.
struct aubade_ffmpeg {
    __typeof__(&av_find_input_format) _Nonnull av_find_input_format;
    __typeof__(&avio_alloc_context) _Nonnull avio_alloc_context;
    __typeof__(&avio_context_free) _Nonnull avio_context_free;
    __typeof__(&avformat_alloc_context) _Nonnull avformat_alloc_context;
    __typeof__(&avformat_open_input) _Nonnull avformat_open_input;
    __typeof__(&avformat_find_stream_info) _Nonnull avformat_find_stream_info;
    __typeof__(&avformat_close_input) _Nonnull avformat_close_input;
    __typeof__(&av_read_frame) _Nonnull av_read_frame;
    __typeof__(&avcodec_find_decoder_by_name) _Nonnull avcodec_find_decoder_by_name;
    __typeof__(&avcodec_get_name) _Nonnull avcodec_get_name;
    __typeof__(&avcodec_alloc_context3) _Nonnull avcodec_alloc_context3;
    __typeof__(&avcodec_free_context) _Nonnull avcodec_free_context;
    __typeof__(&avcodec_parameters_to_context) _Nonnull avcodec_parameters_to_context;
    __typeof__(&avcodec_open2) _Nonnull avcodec_open2;
    __typeof__(&av_packet_alloc) _Nonnull av_packet_alloc;
    __typeof__(&av_packet_free) _Nonnull av_packet_free;
    __typeof__(&av_packet_unref) _Nonnull av_packet_unref;
    __typeof__(&avcodec_send_packet) _Nonnull avcodec_send_packet;
    __typeof__(&avcodec_receive_frame) _Nonnull avcodec_receive_frame;
    __typeof__(&av_malloc) _Nonnull av_malloc;
    __typeof__(&av_freep) _Nonnull av_freep;
    __typeof__(&av_strdup) _Nonnull av_strdup;
    __typeof__(&av_frame_alloc) _Nonnull av_frame_alloc;
    __typeof__(&av_frame_free) _Nonnull av_frame_free;
    __typeof__(&av_frame_unref) _Nonnull av_frame_unref;
    __typeof__(&av_channel_layout_default) _Nonnull av_channel_layout_default;
    __typeof__(&av_strerror) _Nonnull av_strerror;
    __typeof__(&av_log_set_level) _Nonnull av_log_set_level;
    __typeof__(&av_dict_get) _Nonnull av_dict_get;
    __typeof__(&swr_alloc_set_opts2) _Nonnull swr_alloc_set_opts2;
    __typeof__(&swr_init) _Nonnull swr_init;
    __typeof__(&swr_free) _Nonnull swr_free;
    __typeof__(&swr_get_out_samples) _Nonnull swr_get_out_samples;
    __typeof__(&swr_convert) _Nonnull swr_convert;
};

#define AUBADE_FF_OPEN(var, name, major) \
    void *var = dlopen("lib" name ".so." AV_STRINGIFY(major), RTLD_NOW | RTLD_LOCAL); \
    if (!var) { *error = dlerror(); return table; }
#define AUBADE_FF_LOAD(lib, fn) \
    if (!(table.fn = (__typeof__(table.fn))dlsym(lib, #fn))) { *error = "a function is missing: " #fn; return table; }

/// Opens the libraries (once per process: the loader counts the opens) and fills the table; on failure `*error` says
/// why (the loader's message) and the table must not be used.
static inline struct aubade_ffmpeg aubade_ffmpeg_load(const char *_Nullable *_Nonnull error) {
    struct aubade_ffmpeg table;
    __builtin_memset(&table, 0, sizeof table);
    *error = NULL;
    AUBADE_FF_OPEN(util, "avutil", LIBAVUTIL_VERSION_MAJOR)
    AUBADE_FF_OPEN(swr, "swresample", LIBSWRESAMPLE_VERSION_MAJOR)
    AUBADE_FF_OPEN(codec, "avcodec", LIBAVCODEC_VERSION_MAJOR)
    AUBADE_FF_OPEN(format, "avformat", LIBAVFORMAT_VERSION_MAJOR)
    AUBADE_FF_LOAD(util, av_malloc);
    AUBADE_FF_LOAD(util, av_freep);
    AUBADE_FF_LOAD(util, av_strdup);
    AUBADE_FF_LOAD(util, av_frame_alloc);
    AUBADE_FF_LOAD(util, av_frame_free);
    AUBADE_FF_LOAD(util, av_frame_unref);
    AUBADE_FF_LOAD(util, av_channel_layout_default);
    AUBADE_FF_LOAD(util, av_strerror);
    AUBADE_FF_LOAD(util, av_log_set_level);
    AUBADE_FF_LOAD(util, av_dict_get);
    AUBADE_FF_LOAD(swr, swr_alloc_set_opts2);
    AUBADE_FF_LOAD(swr, swr_init);
    AUBADE_FF_LOAD(swr, swr_free);
    AUBADE_FF_LOAD(swr, swr_get_out_samples);
    AUBADE_FF_LOAD(swr, swr_convert);
    AUBADE_FF_LOAD(codec, avcodec_find_decoder_by_name);
    AUBADE_FF_LOAD(codec, avcodec_get_name);
    AUBADE_FF_LOAD(codec, avcodec_alloc_context3);
    AUBADE_FF_LOAD(codec, avcodec_free_context);
    AUBADE_FF_LOAD(codec, avcodec_parameters_to_context);
    AUBADE_FF_LOAD(codec, avcodec_open2);
    AUBADE_FF_LOAD(codec, av_packet_alloc);
    AUBADE_FF_LOAD(codec, av_packet_free);
    AUBADE_FF_LOAD(codec, av_packet_unref);
    AUBADE_FF_LOAD(codec, avcodec_send_packet);
    AUBADE_FF_LOAD(codec, avcodec_receive_frame);
    AUBADE_FF_LOAD(format, av_find_input_format);
    AUBADE_FF_LOAD(format, avio_alloc_context);
    AUBADE_FF_LOAD(format, avio_context_free);
    AUBADE_FF_LOAD(format, avformat_alloc_context);
    AUBADE_FF_LOAD(format, avformat_open_input);
    AUBADE_FF_LOAD(format, avformat_find_stream_info);
    AUBADE_FF_LOAD(format, avformat_close_input);
    AUBADE_FF_LOAD(format, av_read_frame);
    return table;
}

#undef AUBADE_FF_OPEN
#undef AUBADE_FF_LOAD
