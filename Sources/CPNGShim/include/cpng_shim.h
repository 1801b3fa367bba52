#ifndef CPNG_SHIM_H
#define CPNG_SHIM_H

// A thin C layer over libpng's full and progressive readers. libpng reports errors by longjmp, which Swift
// cannot catch, so every entry point here sets up its own setjmp and returns a status code instead.
// Output is always straight RGBA: 8-bit samples, or native-endian 16-bit samples for 16-bit sources,
// exactly as stored (no gamma or colour conversion).

#include <stddef.h>
#include <stdint.h>

/// What a call ended with.
typedef enum {
    CPNG_OK = 0,
    /// The bytes ended before the image did.
    CPNG_TRUNCATED = 1,
    /// libpng rejected the bytes; the reader's message says why.
    CPNG_CORRUPT = 2,
    /// The caller's stop poll asked to stop (see cpng_reader_set_stop).
    CPNG_CANCELLED = 3,
} cpng_status;

/// The source's header and the output layout chosen for it.
typedef struct {
    uint32_t width;
    uint32_t height;
    /// Source bit depth (1, 2, 4, 8 or 16).
    int bit_depth;
    /// Source colour type (0, 2, 3, 4 or 6).
    int color_type;
    /// Adam7 interlaced.
    int interlaced;
    /// An alpha channel or a tRNS chunk.
    int has_alpha;
    /// Output samples are 16-bit (the source is 16-bit).
    int output_16;
} cpng_header;

/// One-shot reader over a complete PNG in memory.
typedef struct cpng_reader cpng_reader;

/// A reader over `size` bytes at `data`, which must stay valid until it is destroyed; NULL when out of memory.
cpng_reader *cpng_reader_create(const uint8_t *data, size_t size);
/// Makes cpng_reader_read_image poll `stop(context)` before each row and return CPNG_CANCELLED as soon as it
/// returns nonzero (the reader is then done: destroy it). NULL `stop` turns polling off.
void cpng_reader_set_stop(cpng_reader *reader, int (*stop)(void *), void *context);
/// Reads every chunk up to the image data and fills `header`.
cpng_status cpng_reader_read_header(cpng_reader *reader, cpng_header *header);
/// Decodes the whole image into `pixels` (height rows of `row_bytes`, which must equal width × 4 or 8).
cpng_status cpng_reader_read_image(cpng_reader *reader, void *pixels, size_t row_bytes);
/// Reads every chunk up to the image data and fills `header`, for decoding row by row with
/// cpng_reader_read_row instead of cpng_reader_read_image. Rows come top to bottom; an interlaced image's
/// come pass by pass, each non-empty pass a reduced image of its own (see cpng_pass_size), since merging
/// passes needs the whole image.
cpng_status cpng_reader_start_rows(cpng_reader *reader, cpng_header *header);
/// Decodes the next row into `row`, which holds at least width × 4 (or 8) bytes.
cpng_status cpng_reader_read_row(cpng_reader *reader, void *row);
/// The columns and rows of Adam7 pass `pass` (0…6) of a width × height image (0 when the pass is empty).
void cpng_pass_size(uint32_t width, uint32_t height, int pass, uint32_t *columns, uint32_t *rows);
/// libpng's message for the last failure ("" when none).
const char *cpng_reader_message(const cpng_reader *reader);
void cpng_reader_destroy(cpng_reader *reader);

/// Incremental reader fed bytes as they arrive (libpng's progressive reader).
typedef struct cpng_progressive cpng_progressive;

/// A progressive reader writing rows into `canvas` (height rows of `row_bytes`), which must stay valid until
/// it is destroyed and should start out zeroed; NULL when out of memory.
cpng_progressive *cpng_progressive_create(void *canvas, size_t row_bytes, uint32_t height);
/// Feeds the next `size` bytes of the stream.
cpng_status cpng_progressive_feed(cpng_progressive *reader, const uint8_t *data, size_t size);
/// Fills `header` and returns 1 once the header has been read, else 0.
int cpng_progressive_header(const cpng_progressive *reader, cpng_header *header);
/// Adam7 passes fully written into the canvas (0…7); 7 once a non-interlaced image is complete.
int cpng_progressive_passes_done(const cpng_progressive *reader);
/// Rows of the current pass written so far (for non-interlaced images, rows of the image).
uint32_t cpng_progressive_rows_done(const cpng_progressive *reader);
/// 1 once the image data has been read to its end.
int cpng_progressive_finished(const cpng_progressive *reader);
const char *cpng_progressive_message(const cpng_progressive *reader);
void cpng_progressive_destroy(cpng_progressive *reader);

#endif
