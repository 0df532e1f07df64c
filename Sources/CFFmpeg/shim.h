// FFmpeg's libavformat, libavcodec, libswresample and libavutil for Swift (Debian's FFmpeg 5.1). Their error codes
// and the stereo layout are macros Swift cannot import: small inline functions give them names.
#pragma once
#include <errno.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/mem.h>
#include <libavutil/opt.h>
#include <libswresample/swresample.h>

static inline int aubade_averror_eof(void) { return AVERROR_EOF; }
static inline int aubade_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int aubade_averror_exit(void) { return AVERROR_EXIT; }
static inline int64_t aubade_nopts(void) { return AV_NOPTS_VALUE; }
