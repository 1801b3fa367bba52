#ifndef CRESAMPLE_H
#define CRESAMPLE_H

#include <stdint.h>

/// The inner loops of the resampler (WebImageCore's RowResampler) over premultiplied RGBA floats, in C so that each
/// is compiled for AVX2 beside the baseline on x86-64 Linux and picked when the process starts. Every function adds
/// in the same order on every path (no fused multiply-add), so results are the same bytes on every machine.

/// A row of `width` 8-bit RGBA pixels as premultiplied floats (4 per pixel): an opaque pixel's channels as they
/// are, another's colour times alpha / 255.
void webimage_resample_load_rgba8(const uint8_t *source, int width, float *row);

/// The horizontal pass for pairs of output pixels: output pixel `o` sums `taps` pixels of `row` from `first[o]`,
/// weighed for pair `q` and tap `k` by `weights[(q · taps + k) · 8 ...]`: w(2q, k) four times, then w(2q + 1, k)
/// four times. Writes `2 · pairs` pixels to `out`.
void webimage_resample_row(const float *row, const int32_t *first, const float *weights, int taps, int pairs,
                           float *out);

/// `line[i] += source[i] · weight` for `count` floats.
void webimage_resample_accumulate(float *line, const float *source, float weight, int count);

/// `width` premultiplied float pixels back to 8-bit straight alpha: colour divided by alpha / 255 (not when
/// opaque), every value rounded and clamped to 0…255.
void webimage_resample_store_rgba8(const float *line, int width, uint8_t *out);

#endif
