#ifndef CPNG_INTERNAL_H
#define CPNG_INTERNAL_H

#include <png.h>
#include "cpng_shim.h"

/// Error state every libpng struct of ours points to (its error pointer).
typedef struct {
    char message[160];
    /// Set by the memory read callback when the bytes run out, so the failure reads as truncation.
    int truncated;
} cpng_errors;

/// Installs the error handlers: errors are recorded in `errors` and longjmp; warnings are dropped.
png_structp cpng_create_read_struct(cpng_errors *errors);
/// Sets up straight RGBA output (8- or native 16-bit, no gamma) for the header just read, updates `info`
/// and fills `header`; returns the number of passes. With `handle_interlace`, libpng merges an interlaced
/// image's passes into full rows; without it, each pass comes out as its own reduced image.
int cpng_configure_output(png_structp png, png_infop info, cpng_header *header, int handle_interlace);
/// The status for a failure that longjmp'd back.
cpng_status cpng_failure(const cpng_errors *errors);

#endif
