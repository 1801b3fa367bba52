// The per-pixel loop of the colour conversion for matrix-shaper profiles (the kind phones and cameras embed:
// Display P3, Adobe RGB), kept in C for SSE2 and plain integer arithmetic over tables.
#ifndef CCOLORSHIM_H
#define CCOLORSHIM_H

#include <stddef.h>
#include <stdint.h>

/// Tables for one profile's 8-bit RGB → sRGB conversion.
///
/// `red[v]` is the (R, G, B) linear-light sRGB contribution of a source red sample `v`, in levels of 1/16383:
/// the profile's red curve applied, then the red column of the source → sRGB matrix (the fourth entry is
/// padding). Likewise `green` and `blue` (which also carries any constant offset). The sum of the three indexes
/// `encode`, the sRGB transfer function, which is valid from the smallest sum the tables can make to the
/// largest (out-of-gamut sums read clipped values, so the loop needs no clamping).
typedef struct {
    int16_t red[256][4];
    int16_t green[256][4];
    int16_t blue[256][4];
    /// Points at the entry for sum 0 inside a caller-owned table.
    const uint8_t *encode;
} WIColorMatrixShaper8;

/// Converts `count` RGBA pixels in place; alpha is untouched.
void wi_color_matrix_shaper8_apply(const WIColorMatrixShaper8 *tables, uint8_t *rgba, size_t count);

#endif
