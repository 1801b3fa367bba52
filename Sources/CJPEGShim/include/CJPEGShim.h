// A small C layer over libjpeg for what Swift cannot do itself: libjpeg reports errors by calling a handler
// that must not return (its default calls exit()), which needs setjmp/longjmp. Every entry point here
// catches those errors and returns a status code instead.
#ifndef CJPEGSHIM_H
#define CJPEGSHIM_H

#include <stddef.h>
#include <stdint.h>

/// Result of an incremental decoder call.
typedef enum {
    /// More bytes are needed before anything new can be shown.
    WI_JPEG_NEED_MORE = 0,
    /// The requested step finished (header read, output started) or new pixels are in the canvas.
    WI_JPEG_PROGRESS = 1,
    /// The final image is in the canvas and the stream is fully read.
    WI_JPEG_DONE = 2,
    /// libjpeg failed; see wi_jpeg_incremental_message. The decoder cannot be used any more.
    WI_JPEG_FAILED = 3
} WIJPEGStatus;

/// What the header says, filled by wi_jpeg_incremental_read_header.
typedef struct {
    int width;
    int height;
    /// Nonzero when the image has several scans (progressive); such images are decoded scan by scan.
    int has_multiple_scans;
    /// Nonzero for CMYK or YCCK images (decoded as CMYK samples).
    int is_cmyk;
} WIJPEGHeader;

/// One JPEG stream decoded while its bytes arrive (libjpeg with a suspending source).
typedef struct WIJPEGIncremental WIJPEGIncremental;

/// A new decoder, or NULL when out of memory.
WIJPEGIncremental *wi_jpeg_incremental_create(void);
void wi_jpeg_incremental_destroy(WIJPEGIncremental *decoder);

/// Gives the decoder every byte received so far; the stream must only ever grow. `bytes` is read only
/// during the calls that follow and must be passed again (it may move) before the next one.
/// With `is_final` nonzero no more bytes will come: running out then means the file is truncated.
void wi_jpeg_incremental_set_input(WIJPEGIncremental *decoder, const uint8_t *bytes, size_t count, int is_final);

/// Reads the header. WI_JPEG_PROGRESS fills `header`; WI_JPEG_NEED_MORE means call again with more bytes.
WIJPEGStatus wi_jpeg_incremental_read_header(WIJPEGIncremental *decoder, WIJPEGHeader *header);

/// Starts decoding scaled by `scale_num`/`scale_denom` (a TurboJPEG scaling factor) with the IDCT and
/// upsampling tjDecompress2 uses by default, so the final pixels match it exactly. Writes the output size.
/// A CMYK image's rows hold its four CMYK samples a pixel, as stored, for the caller to convert.
WIJPEGStatus wi_jpeg_incremental_start(WIJPEGIncremental *decoder, int scale_num, int scale_denom,
                                       int *output_width, int *output_height);

/// Decodes as far as the bytes allow into `canvas` (output_width × output_height RGBA, packed rows).
///
/// Single-scan images write rows top to bottom; `rows_done` says how many are final. Multi-scan images
/// redraw the whole canvas from the newest complete scan (`rows_done` is then the full height).
/// Alpha is always 255 in rows written; rows not yet written are left as they were.
WIJPEGStatus wi_jpeg_incremental_advance(WIJPEGIncremental *decoder, uint8_t *canvas, int *rows_done);

/// wi_jpeg_incremental_advance for a single-scan image that stops after at most `max_rows` more rows
/// (WI_JPEG_PROGRESS), so the caller can work on the rows done while later ones decode. A multi-scan image
/// advances as wi_jpeg_incremental_advance does.
WIJPEGStatus wi_jpeg_incremental_advance_rows(WIJPEGIncremental *decoder, uint8_t *canvas, int max_rows,
                                              int *rows_done);

/// Makes every later call poll `stop(context)` (through libjpeg's progress monitor, per scanline call and per
/// iMCU row of input) and fail with WI_JPEG_FAILED as soon as it returns nonzero; the decoder is then dead
/// and wi_jpeg_incremental_cancelled says why. NULL `stop` turns polling off.
void wi_jpeg_incremental_set_stop(WIJPEGIncremental *decoder, int (*stop)(void *), void *context);

/// Nonzero when a call failed because the stop poll asked it to.
int wi_jpeg_incremental_cancelled(const WIJPEGIncremental *decoder);

/// Whether the stream ran out before its end (only known once the input is final).
int wi_jpeg_incremental_truncated(const WIJPEGIncremental *decoder);

/// The last libjpeg error or warning text ("" if none).
const char *wi_jpeg_incremental_message(const WIJPEGIncremental *decoder);

/// Converts `pixel_count` CMYK pixels to opaque RGBA in place. `inverted` is the Adobe convention
/// (stored values are 255 − ink, as Photoshop and ImageMagick write them).
void wi_jpeg_cmyk_to_rgba(uint8_t *pixels, size_t pixel_count, int inverted);

#endif
