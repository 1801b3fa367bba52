#include <stdlib.h>
#include <string.h>
#include "cpng_internal.h"

struct cpng_progressive {
    cpng_errors errors;
    png_structp png;
    png_infop info;
    uint8_t *canvas;
    size_t row_bytes;
    uint32_t height;
    cpng_header header;
    int has_header;
    int pass;
    int passes_done;
    uint32_t rows_done;
    int finished;
};

static void on_info(png_structp png, png_infop info) {
    cpng_progressive *reader = png_get_progressive_ptr(png);
    cpng_configure_output(png, info, &reader->header, 1);
    if (reader->header.height != reader->height || png_get_rowbytes(png, info) != reader->row_bytes) {
        png_error(png, "the header does not match the canvas");
    }
    reader->has_header = 1;
}

static void on_row(png_structp png, png_bytep new_row, png_uint_32 row, int pass) {
    cpng_progressive *reader = png_get_progressive_ptr(png);
    if (pass != reader->pass) {
        // Rows arrive pass by pass, so every earlier pass is complete.
        reader->pass = pass;
        reader->passes_done = pass;
        reader->rows_done = 0;
    }
    if (row >= reader->height) return;
    if (new_row) png_progressive_combine_row(png, reader->canvas + (size_t)row * reader->row_bytes, new_row);
    reader->rows_done = row + 1;
    if (!reader->header.interlaced && row + 1 == reader->height) reader->passes_done = 7;
}

static void on_end(png_structp png, png_infop info) {
    (void)info;
    cpng_progressive *reader = png_get_progressive_ptr(png);
    reader->passes_done = 7;
    reader->finished = 1;
}

cpng_progressive *cpng_progressive_create(void *canvas, size_t row_bytes, uint32_t height) {
    cpng_progressive *reader = calloc(1, sizeof *reader);
    if (!reader) return NULL;
    reader->canvas = canvas;
    reader->row_bytes = row_bytes;
    reader->height = height;
    reader->png = cpng_create_read_struct(&reader->errors);
    if (reader->png) reader->info = png_create_info_struct(reader->png);
    if (!reader->png || !reader->info) {
        cpng_progressive_destroy(reader);
        return NULL;
    }
    png_set_progressive_read_fn(reader->png, reader, on_info, on_row, on_end);
    return reader;
}

cpng_status cpng_progressive_feed(cpng_progressive *reader, const uint8_t *data, size_t size) {
    if (setjmp(png_jmpbuf(reader->png))) return cpng_failure(&reader->errors);
    png_process_data(reader->png, reader->info, (png_bytep)data, size);
    return CPNG_OK;
}

int cpng_progressive_header(const cpng_progressive *reader, cpng_header *header) {
    if (!reader->has_header) return 0;
    *header = reader->header;
    return 1;
}

int cpng_progressive_passes_done(const cpng_progressive *reader) { return reader->passes_done; }

uint32_t cpng_progressive_rows_done(const cpng_progressive *reader) { return reader->rows_done; }

int cpng_progressive_finished(const cpng_progressive *reader) { return reader->finished; }

const char *cpng_progressive_message(const cpng_progressive *reader) { return reader->errors.message; }

void cpng_progressive_destroy(cpng_progressive *reader) {
    if (!reader) return;
    if (reader->png) png_destroy_read_struct(&reader->png, reader->info ? &reader->info : NULL, NULL);
    free(reader);
}
