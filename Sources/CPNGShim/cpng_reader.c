#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cpng_internal.h"

struct cpng_reader {
    cpng_errors errors;
    png_structp png;
    png_infop info;
    const uint8_t *data;
    size_t size;
    size_t offset;
    cpng_header header;
    int passes;
    int has_header;
    /// The caller's cancellation poll and its context (NULL: never stops), called once a row.
    int (*stop)(void *);
    void *stop_context;
};

static void read_from_memory(png_structp png, png_bytep out, size_t length) {
    cpng_reader *reader = png_get_io_ptr(png);
    if (length > reader->size - reader->offset) {
        reader->errors.truncated = 1;
        png_error(png, "the data ends before the image does");
    }
    memcpy(out, reader->data + reader->offset, length);
    reader->offset += length;
}

cpng_reader *cpng_reader_create(const uint8_t *data, size_t size) {
    cpng_reader *reader = calloc(1, sizeof *reader);
    if (!reader) return NULL;
    reader->data = data;
    reader->size = size;
    reader->png = cpng_create_read_struct(&reader->errors);
    if (reader->png) reader->info = png_create_info_struct(reader->png);
    if (!reader->png || !reader->info) {
        cpng_reader_destroy(reader);
        return NULL;
    }
    png_set_read_fn(reader->png, reader, read_from_memory);
    return reader;
}

static cpng_status read_header(cpng_reader *reader, cpng_header *header, int handle_interlace) {
    if (setjmp(png_jmpbuf(reader->png))) return cpng_failure(&reader->errors);
    png_read_info(reader->png, reader->info);
    reader->passes = cpng_configure_output(reader->png, reader->info, &reader->header, handle_interlace);
    reader->has_header = 1;
    *header = reader->header;
    return CPNG_OK;
}

void cpng_reader_set_stop(cpng_reader *reader, int (*stop)(void *), void *context) {
    reader->stop = stop;
    reader->stop_context = context;
}

cpng_status cpng_reader_read_header(cpng_reader *reader, cpng_header *header) {
    return read_header(reader, header, 1);
}

cpng_status cpng_reader_start_rows(cpng_reader *reader, cpng_header *header) {
    return read_header(reader, header, 0);
}

cpng_status cpng_reader_read_row(cpng_reader *reader, void *row) {
    if (!reader->has_header) {
        strcpy(reader->errors.message, "the header has not been read");
        return CPNG_CORRUPT;
    }
    if (setjmp(png_jmpbuf(reader->png))) return cpng_failure(&reader->errors);
    png_read_row(reader->png, row, NULL);
    return CPNG_OK;
}

void cpng_pass_size(uint32_t width, uint32_t height, int pass, uint32_t *columns, uint32_t *rows) {
    *columns = PNG_PASS_COLS(width, pass);
    *rows = PNG_PASS_ROWS(height, pass);
}

cpng_status cpng_reader_read_image(cpng_reader *reader, void *pixels, size_t row_bytes) {
    if (!reader->has_header) {
        strcpy(reader->errors.message, "the header has not been read");
        return CPNG_CORRUPT;
    }
    if (setjmp(png_jmpbuf(reader->png))) return cpng_failure(&reader->errors);
    if (png_get_rowbytes(reader->png, reader->info) != row_bytes) png_error(reader->png, "unexpected row size");
    uint8_t *rows = pixels;
    // With interlace handling on, each pass merges its pixels into the rows already written.
    for (int pass = 0; pass < reader->passes; pass++) {
        for (png_uint_32 y = 0; y < reader->header.height; y++) {
            if (reader->stop && reader->stop(reader->stop_context)) {
                strcpy(reader->errors.message, "cancelled");
                return CPNG_CANCELLED;
            }
            png_read_row(reader->png, rows + (size_t)y * row_bytes, NULL);
        }
    }
    return CPNG_OK;
}

const char *cpng_reader_message(const cpng_reader *reader) {
    return reader->errors.message;
}

void cpng_reader_destroy(cpng_reader *reader) {
    if (!reader) return;
    if (reader->png) png_destroy_read_struct(&reader->png, reader->info ? &reader->info : NULL, NULL);
    free(reader);
}
