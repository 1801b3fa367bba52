// The per-pixel loop of the colour conversion for matrix-shaper profiles (the kind phones and cameras embed:
// Display P3, Adobe RGB), kept in C: plain integer arithmetic over tables.
#ifndef CCOLORSHIM_H
#define CCOLORSHIM_H

#include <stddef.h>
#include <stdint.h>

/// Bits per component in a table entry.
#define WI_COLOR_FIELD_BITS 21

/// Tables for one profile's 8-bit RGB → sRGB conversion.
///
/// Entry `v` of `red` packs the linear-light sRGB contributions of a source red sample `v` (the profile's red
/// curve, then the red column of the source → sRGB matrix) to R, G and B, in three 21-bit fields from the low
/// bits up, each biased to be non-negative. Likewise `green` and `blue`. One entry from each table added
/// together gives, in each field, an index into `encode` (the sRGB transfer function, out-of-gamut sums
/// reading clipped values), so the loop needs neither clamping nor more than one addition a table.
typedef struct {
    /// 256 entries each.
    const uint64_t *red;
    const uint64_t *green;
    const uint64_t *blue;
    /// Long enough for every index the sums can make.
    const uint8_t *encode;
} WIColorMatrixShaper8;

/// Converts `count` RGBA pixels in place; alpha is untouched.
void wi_color_matrix_shaper8_apply(const WIColorMatrixShaper8 *tables, uint8_t *rgba, size_t count);

/// Tables and matrix for one profile's 16-bit RGB → sRGB conversion.
typedef struct {
    /// Each source channel's curve: linear light for every 16-bit sample (65,536 entries each).
    const float *linear[3];
    /// Source linear light → linear sRGB, row by row.
    float matrix[3][3];
    /// Linear sRGB at black (added to every pixel).
    float black[3];
    /// The sRGB curve: the 16-bit sample for each of 65,536 linear levels.
    const uint16_t *encode;
} WIColorMatrixShaper16;

/// Converts `count` 16-bit RGBA pixels in place; alpha is untouched.
void wi_color_matrix_shaper16_apply(const WIColorMatrixShaper16 *tables, uint16_t *rgba, size_t count);

#endif
