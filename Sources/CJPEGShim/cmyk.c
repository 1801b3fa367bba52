// CMYK → RGB for JPEGs stored as CMYK or YCCK (print workflows), shared by the one-shot and incremental
// decoders so both give the same pixels.
#include "CJPEGShim.h"

void wi_jpeg_cmyk_to_rgba(uint8_t *pixels, size_t pixel_count, int inverted) {
    for (size_t i = 0; i < pixel_count; i++) {
        uint8_t *p = pixels + i * 4;
        // Ink coverage: Adobe files store 255 − ink, others the ink itself.
        unsigned c = inverted ? 255u - p[0] : p[0];
        unsigned m = inverted ? 255u - p[1] : p[1];
        unsigned y = inverted ? 255u - p[2] : p[2];
        unsigned k = inverted ? 255u - p[3] : p[3];
        // Naive conversion without an ICC profile: channel = (1 − ink)(1 − k), rounded.
        p[0] = (uint8_t)(((255u - c) * (255u - k) + 127u) / 255u);
        p[1] = (uint8_t)(((255u - m) * (255u - k) + 127u) / 255u);
        p[2] = (uint8_t)(((255u - y) * (255u - k) + 127u) / 255u);
        p[3] = 255;
    }
}
