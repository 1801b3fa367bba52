#include "CColorShim.h"
#include <string.h>

void wi_color_matrix_shaper8_apply(const WIColorMatrixShaper8 *tables, uint8_t *rgba, size_t count) {
    const uint8_t *encode = tables->encode;
    const uint64_t mask = ((uint64_t)1 << WI_COLOR_FIELD_BITS) - 1;
    for (size_t i = 0; i < count; i++) {
        uint32_t pixel;
        memcpy(&pixel, rgba + i * 4, 4);
        uint64_t sum = tables->red[pixel & 0xFF] + tables->green[(pixel >> 8) & 0xFF]
            + tables->blue[(pixel >> 16) & 0xFF];
        uint32_t out = (uint32_t)encode[sum & mask]
            | (uint32_t)encode[(sum >> WI_COLOR_FIELD_BITS) & mask] << 8
            | (uint32_t)encode[sum >> (2 * WI_COLOR_FIELD_BITS)] << 16
            | (pixel & 0xFF000000u);
        memcpy(rgba + i * 4, &out, 4);
    }
}
