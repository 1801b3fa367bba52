// Incremental JPEG decoding with libjpeg: a source manager over the bytes received so far that suspends
// when they run out, buffered-image mode for multi-scan (progressive) files, plain scanline output for
// single-scan ones. Errors longjmp back into the entry point that called libjpeg.
#include <limits.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

#include "CJPEGShim.h"

/// TurboJPEG's TJFLAG_LIMITSCANS bound: more scans than this is a denial-of-service file.
#define WI_MAX_SCANS 500

typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
    int truncated;
} WIErrorManager;

typedef struct {
    struct jpeg_source_mgr pub;
    /// Bytes given by the last set_input call; next_input_byte points into them.
    size_t length;
    /// Bytes libjpeg asked to skip beyond what had arrived.
    size_t pending_skip;
    int is_final;
    /// Set once the fake end marker replaced missing bytes; the stream is over.
    int inserted_eoi;
} WISource;

typedef enum { STAGE_HEADER, STAGE_STARTING, STAGE_DECODING, STAGE_DONE, STAGE_FAILED } WIStage;

struct WIJPEGIncremental {
    struct jpeg_decompress_struct cinfo;
    WIErrorManager error;
    WISource source;
    WIStage stage;
    int is_cmyk;
    /// Buffered-image state: the newest scan known complete, the scan last drawn, and whether an
    /// output pass is open or waits for jpeg_finish_output.
    int completed_scans;
    int drawn_scan;
    int in_output_pass;
    int needs_finish_output;
    /// Row pointers into the caller's canvas, rebuilt each call because the canvas may move.
    JSAMPROW *rows;
    /// The caller's cancellation poll and its context (NULL: never stops), called by libjpeg's progress
    /// monitor and between our own steps; nonzero aborts through the error path.
    int (*stop)(void *);
    void *stop_context;
    struct jpeg_progress_mgr progress;
    int cancelled;
};

static const JOCTET fake_eoi[2] = { 0xFF, JPEG_EOI };

static void wi_error_exit(j_common_ptr cinfo) {
    WIErrorManager *error = (WIErrorManager *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, error->message);
    longjmp(error->jump, 1);
}

static void wi_emit_message(j_common_ptr cinfo, int level) {
    WIErrorManager *error = (WIErrorManager *)cinfo->err;
    if (level >= 0) return;
    cinfo->err->num_warnings++;
    (*cinfo->err->format_message)(cinfo, error->message);
    // Both warnings mean the entropy-coded data stopped early: libjpeg fills the rest with grey.
    if (cinfo->err->msg_code == JWRN_JPEG_EOF || cinfo->err->msg_code == JWRN_HIT_MARKER) error->truncated = 1;
}

/// Aborts the call in progress through the error path when the caller's poll says stop.
static void wi_check_stop(WIJPEGIncremental *decoder) {
    if (!decoder->stop || !decoder->stop(decoder->stop_context)) return;
    decoder->cancelled = 1;
    snprintf(decoder->error.message, sizeof decoder->error.message, "cancelled");
    longjmp(decoder->error.jump, 1);
}

/// libjpeg's progress monitor: called per scanline call and per iMCU row while a multi-scan file is absorbed.
/// `cinfo` is the decoder's first member.
static void wi_progress(j_common_ptr cinfo) { wi_check_stop((WIJPEGIncremental *)cinfo); }

static void wi_source_init(j_decompress_ptr cinfo) { (void)cinfo; }

static boolean wi_source_fill(j_decompress_ptr cinfo) {
    WISource *source = (WISource *)cinfo->src;
    if (!source->is_final) return FALSE;  // suspend: libjpeg resumes from its last committed byte
    WARNMS(cinfo, JWRN_JPEG_EOF);
    source->inserted_eoi = 1;
    source->pub.next_input_byte = fake_eoi;
    source->pub.bytes_in_buffer = sizeof fake_eoi;
    return TRUE;
}

static void wi_source_skip(j_decompress_ptr cinfo, long count) {
    WISource *source = (WISource *)cinfo->src;
    if (count <= 0) return;
    size_t wanted = (size_t)count;
    if (wanted <= source->pub.bytes_in_buffer) {
        source->pub.next_input_byte += wanted;
        source->pub.bytes_in_buffer -= wanted;
    } else {
        source->pending_skip += wanted - source->pub.bytes_in_buffer;
        source->pub.next_input_byte += source->pub.bytes_in_buffer;
        source->pub.bytes_in_buffer = 0;
    }
}

static void wi_source_term(j_decompress_ptr cinfo) { (void)cinfo; }

WIJPEGIncremental *wi_jpeg_incremental_create(void) {
    WIJPEGIncremental *decoder = calloc(1, sizeof *decoder);
    if (!decoder) return NULL;
    decoder->cinfo.err = jpeg_std_error(&decoder->error.pub);
    decoder->error.pub.error_exit = wi_error_exit;
    decoder->error.pub.emit_message = wi_emit_message;
    if (setjmp(decoder->error.jump)) {
        free(decoder);
        return NULL;
    }
    jpeg_create_decompress(&decoder->cinfo);
    decoder->source.pub.init_source = wi_source_init;
    decoder->source.pub.fill_input_buffer = wi_source_fill;
    decoder->source.pub.skip_input_data = wi_source_skip;
    decoder->source.pub.resync_to_restart = jpeg_resync_to_restart;
    decoder->source.pub.term_source = wi_source_term;
    decoder->cinfo.src = &decoder->source.pub;
    decoder->stage = STAGE_HEADER;
    return decoder;
}

void wi_jpeg_incremental_set_stop(WIJPEGIncremental *decoder, int (*stop)(void *), void *context) {
    decoder->stop = stop;
    decoder->stop_context = context;
    decoder->progress.progress_monitor = wi_progress;
    decoder->cinfo.progress = stop ? &decoder->progress : NULL;
}

int wi_jpeg_incremental_cancelled(const WIJPEGIncremental *decoder) { return decoder->cancelled; }

void wi_jpeg_incremental_destroy(WIJPEGIncremental *decoder) {
    if (!decoder) return;
    jpeg_destroy_decompress(&decoder->cinfo);
    free(decoder->rows);
    free(decoder);
}

void wi_jpeg_incremental_set_input(WIJPEGIncremental *decoder, const uint8_t *bytes, size_t count, int is_final) {
    WISource *source = &decoder->source;
    if (source->inserted_eoi) return;  // a final stream already ended
    size_t position = source->length - source->pub.bytes_in_buffer;
    if (count < position) count = position;  // the stream never shrinks; ignore a shorter buffer's tail
    size_t skip = source->pending_skip < count - position ? source->pending_skip : count - position;
    position += skip;
    source->pending_skip -= skip;
    source->pub.next_input_byte = bytes + position;
    source->pub.bytes_in_buffer = count - position;
    source->length = count;
    source->is_final = is_final;
}

/// Marks the decoder dead after a longjmp; libjpeg's state is undefined from here on.
static WIJPEGStatus wi_fail(WIJPEGIncremental *decoder) {
    decoder->stage = STAGE_FAILED;
    return WI_JPEG_FAILED;
}

WIJPEGStatus wi_jpeg_incremental_read_header(WIJPEGIncremental *decoder, WIJPEGHeader *header) {
    if (decoder->stage == STAGE_FAILED) return WI_JPEG_FAILED;
    if (setjmp(decoder->error.jump)) return wi_fail(decoder);
    if (decoder->stage == STAGE_HEADER) {
        if (jpeg_read_header(&decoder->cinfo, TRUE) == JPEG_SUSPENDED) return WI_JPEG_NEED_MORE;
        decoder->stage = STAGE_STARTING;
    }
    J_COLOR_SPACE space = decoder->cinfo.jpeg_color_space;
    header->width = (int)decoder->cinfo.image_width;
    header->height = (int)decoder->cinfo.image_height;
    header->has_multiple_scans = jpeg_has_multiple_scans(&decoder->cinfo) ? 1 : 0;
    header->is_cmyk = (space == JCS_CMYK || space == JCS_YCCK) ? 1 : 0;
    return WI_JPEG_PROGRESS;
}

WIJPEGStatus wi_jpeg_incremental_start(WIJPEGIncremental *decoder, int scale_num, int scale_denom,
                                       int *output_width, int *output_height) {
    if (decoder->stage != STAGE_STARTING) return WI_JPEG_FAILED;
    if (setjmp(decoder->error.jump)) return wi_fail(decoder);
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    J_COLOR_SPACE space = cinfo->jpeg_color_space;
    decoder->is_cmyk = (space == JCS_CMYK || space == JCS_YCCK);
    // tjDecompress2's settings for TJPF_RGBA / TJPF_CMYK without flags.
    cinfo->out_color_space = decoder->is_cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    cinfo->dct_method = JDCT_ISLOW;
    cinfo->do_fancy_upsampling = TRUE;
    cinfo->scale_num = (unsigned int)scale_num;
    cinfo->scale_denom = (unsigned int)scale_denom;
    cinfo->buffered_image = jpeg_has_multiple_scans(cinfo);
    if (!jpeg_start_decompress(cinfo)) return WI_JPEG_NEED_MORE;
    decoder->rows = calloc(cinfo->output_height, sizeof(JSAMPROW));
    if (!decoder->rows) {
        snprintf(decoder->error.message, sizeof decoder->error.message, "out of memory");
        return wi_fail(decoder);
    }
    *output_width = (int)cinfo->output_width;
    *output_height = (int)cinfo->output_height;
    decoder->stage = STAGE_DECODING;
    return WI_JPEG_PROGRESS;
}

/// Points the row table at the canvas (it may have moved since the last call).
static void wi_point_rows(WIJPEGIncremental *decoder, uint8_t *canvas) {
    size_t stride = (size_t)decoder->cinfo.output_width * 4;
    for (JDIMENSION y = 0; y < decoder->cinfo.output_height; y++) decoder->rows[y] = canvas + y * stride;
}

/// Reads scanlines until row `stop`, the end of the pass, or the end of the input; returns whether the pass
/// is complete.
static int wi_read_rows(WIJPEGIncremental *decoder, JDIMENSION stop) {
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    if (stop > cinfo->output_height) stop = cinfo->output_height;
    while (cinfo->output_scanline < stop) {
        wi_check_stop(decoder);
        JDIMENSION first = cinfo->output_scanline;
        JDIMENSION count = jpeg_read_scanlines(cinfo, decoder->rows + first, stop - first);
        if (count == 0) return 0;
    }
    return cinfo->output_scanline == cinfo->output_height;
}

static WIJPEGStatus wi_advance_single_scan(WIJPEGIncremental *decoder, JDIMENSION max_rows, int *rows_done) {
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    JDIMENSION before = cinfo->output_scanline;
    JDIMENSION stop = max_rows < cinfo->output_height - before ? before + max_rows : cinfo->output_height;
    int complete = wi_read_rows(decoder, stop);
    *rows_done = (int)cinfo->output_scanline;
    if (complete && jpeg_finish_decompress(cinfo)) {
        decoder->stage = STAGE_DONE;
        return WI_JPEG_DONE;
    }
    return cinfo->output_scanline > before ? WI_JPEG_PROGRESS : WI_JPEG_NEED_MORE;
}

static WIJPEGStatus wi_advance_multi_scan(WIJPEGIncremental *decoder, int *rows_done) {
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    *rows_done = 0;
    if (decoder->needs_finish_output) {
        if (!jpeg_finish_output(cinfo)) return WI_JPEG_NEED_MORE;
        decoder->needs_finish_output = 0;
    }
    if (!decoder->in_output_pass) {
        for (;;) {
            wi_check_stop(decoder);
            int status = jpeg_consume_input(cinfo);
            if (status == JPEG_SUSPENDED || status == JPEG_REACHED_EOI) break;
            if (status == JPEG_SCAN_COMPLETED) decoder->completed_scans = cinfo->input_scan_number;
            if (cinfo->input_scan_number > WI_MAX_SCANS) {
                snprintf(decoder->error.message, sizeof decoder->error.message,
                         "progressive JPEG has more than %d scans", WI_MAX_SCANS);
                return wi_fail(decoder);
            }
        }
        int finished = jpeg_input_complete(cinfo);
        // Draw only complete scans so the output pass never waits for input; the last one once more after
        // EOI so the final pixels come from a pass that saw every coefficient.
        int scan = finished ? cinfo->input_scan_number : decoder->completed_scans;
        if (scan == 0 || (!finished && scan <= decoder->drawn_scan)) return WI_JPEG_NEED_MORE;
        jpeg_start_output(cinfo, scan);
        decoder->drawn_scan = scan;
        decoder->in_output_pass = 1;
    }
    if (!wi_read_rows(decoder, cinfo->output_height)) return WI_JPEG_NEED_MORE;
    decoder->in_output_pass = 0;
    *rows_done = (int)cinfo->output_height;
    if (!jpeg_finish_output(cinfo)) {
        decoder->needs_finish_output = 1;
        return WI_JPEG_PROGRESS;
    }
    if (jpeg_input_complete(cinfo) && cinfo->output_scan_number >= cinfo->input_scan_number) {
        jpeg_finish_decompress(cinfo);
        decoder->stage = STAGE_DONE;
        return WI_JPEG_DONE;
    }
    return WI_JPEG_PROGRESS;
}

WIJPEGStatus wi_jpeg_incremental_advance(WIJPEGIncremental *decoder, uint8_t *canvas, int *rows_done) {
    return wi_jpeg_incremental_advance_rows(decoder, canvas, INT_MAX, rows_done);
}

WIJPEGStatus wi_jpeg_incremental_advance_rows(WIJPEGIncremental *decoder, uint8_t *canvas, int max_rows,
                                              int *rows_done) {
    *rows_done = 0;
    if (decoder->stage == STAGE_DONE) return WI_JPEG_DONE;
    if (decoder->stage != STAGE_DECODING) return WI_JPEG_FAILED;
    if (setjmp(decoder->error.jump)) return wi_fail(decoder);
    wi_point_rows(decoder, canvas);
    return decoder->cinfo.buffered_image ? wi_advance_multi_scan(decoder, rows_done)
                                         : wi_advance_single_scan(decoder, (JDIMENSION)max_rows, rows_done);
}

int wi_jpeg_incremental_truncated(const WIJPEGIncremental *decoder) { return decoder->error.truncated; }

const char *wi_jpeg_incremental_message(const WIJPEGIncremental *decoder) { return decoder->error.message; }
