#include "CColorShim.h"

static inline unsigned level(float linear) {
    // NaN and values below zero read black; above one, white.
    if (!(linear > 0.0f)) return 0;
    if (linear >= 1.0f) return 65535;
    return (unsigned)(linear * 65535.0f + 0.5f);
}

void wi_color_matrix_shaper16_apply(const WIColorMatrixShaper16 *tables, uint16_t *rgba, size_t count) {
    const float *red = tables->linear[0], *green = tables->linear[1], *blue = tables->linear[2];
    const uint16_t *encode = tables->encode;
    for (size_t i = 0; i < count; i++) {
        uint16_t *pixel = rgba + i * 4;
        float r = red[pixel[0]], g = green[pixel[1]], b = blue[pixel[2]];
        for (int row = 0; row < 3; row++) {
            const float *m = tables->matrix[row];
            pixel[row] = encode[level(m[0] * r + m[1] * g + m[2] * b + tables->black[row])];
        }
    }
}
