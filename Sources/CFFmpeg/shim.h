#include <errno.h>
#include <string.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/channel_layout.h>

// What Swift cannot import from FFmpeg's headers (function-like macros, callbacks) and the in-memory reader:
// the container is read from a buffer the caller owns, never from a file or a URL.

static inline int webimage_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int webimage_averror_eof(void) { return AVERROR_EOF; }
static inline int64_t webimage_av_nopts_value(void) { return AV_NOPTS_VALUE; }

/// The bytes an AVIOContext reads: a buffer and the position in it.
typedef struct {
    const uint8_t *bytes;
    int64_t count;
    int64_t position;
} webimage_memory_input;

static int webimage_memory_read(void *opaque, uint8_t *buffer, int size) {
    webimage_memory_input *input = (webimage_memory_input *)opaque;
    int64_t left = input->count - input->position;
    if (left <= 0) return AVERROR_EOF;
    int count = size < left ? size : (int)left;
    memcpy(buffer, input->bytes + input->position, (size_t)count);
    input->position += count;
    return count;
}

static int64_t webimage_memory_seek(void *opaque, int64_t offset, int whence) {
    webimage_memory_input *input = (webimage_memory_input *)opaque;
    int64_t base;
    switch (whence & ~AVSEEK_FORCE) {
    case AVSEEK_SIZE: return input->count;
    case SEEK_SET: base = 0; break;
    case SEEK_CUR: base = input->position; break;
    case SEEK_END: base = input->count; break;
    default: return AVERROR(EINVAL);
    }
    if (offset > INT64_MAX - base) return AVERROR(EINVAL);
    int64_t target = base + offset;
    if (target < 0 || target > input->count) return AVERROR(EINVAL);
    input->position = target;
    return target;
}

/// An AVIOContext over `input` (which must outlive it), with a read buffer of `size` bytes; NULL when out of memory.
static inline AVIOContext *webimage_memory_context(webimage_memory_input *input, int size) {
    unsigned char *buffer = av_malloc((size_t)size);
    if (!buffer) return NULL;
    AVIOContext *context = avio_alloc_context(buffer, size, 0, input, webimage_memory_read, NULL, webimage_memory_seek);
    if (!context) av_free(buffer);
    return context;
}

/// Frees a context made by webimage_memory_context, its buffer too.
static inline void webimage_memory_context_free(AVIOContext **context) {
    if (!*context) return;
    av_freep(&(*context)->buffer);
    avio_context_free(context);
}

static int webimage_refuse_io_open(struct AVFormatContext *context, AVIOContext **pb, const char *url, int flags,
                                   AVDictionary **options) {
    (void)context; (void)pb; (void)url; (void)flags; (void)options;
    return AVERROR(EPERM);
}

/// Makes every file, URL or segment a container refers to (HLS playlists, concat lists, MOV data references,
/// image sequences) fail to open: only the bytes given are read.
static inline void webimage_refuse_nested_input(AVFormatContext *context) {
    context->io_open = webimage_refuse_io_open;
}

/// The stream's display matrix (rotation metadata), or NULL.
static inline const int32_t *webimage_display_matrix(const AVStream *stream) {
    return (const int32_t *)av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, NULL);
}

/// The layout's description ("5.1(side)"), written into `text`.
static inline void webimage_channel_layout_text(const AVCodecParameters *parameters, char *text, size_t size) {
    text[0] = 0;
    av_channel_layout_describe(&parameters->ch_layout, text, size);
}
