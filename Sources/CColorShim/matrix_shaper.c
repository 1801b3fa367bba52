#include "CColorShim.h"
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

void wi_color_matrix_shaper8_apply(const WIColorMatrixShaper8 *tables, uint8_t *rgba, size_t count) {
    const uint8_t *encode = tables->encode;
    for (size_t i = 0; i < count; i++) {
        uint32_t pixel;
        memcpy(&pixel, rgba + i * 4, 4);
        const int16_t *r = tables->red[pixel & 0xFF];
        const int16_t *g = tables->green[(pixel >> 8) & 0xFF];
        const int16_t *b = tables->blue[(pixel >> 16) & 0xFF];
#if defined(__SSE2__)
        __m128i sum = _mm_add_epi16(_mm_add_epi16(_mm_loadl_epi64((const __m128i *)r),
                                                  _mm_loadl_epi64((const __m128i *)g)),
                                    _mm_loadl_epi64((const __m128i *)b));
        int red = (int16_t)_mm_extract_epi16(sum, 0);
        int green = (int16_t)_mm_extract_epi16(sum, 1);
        int blue = (int16_t)_mm_extract_epi16(sum, 2);
#else
        int red = r[0] + g[0] + b[0], green = r[1] + g[1] + b[1], blue = r[2] + g[2] + b[2];
#endif
        uint32_t out = (uint32_t)encode[red] | (uint32_t)encode[green] << 8 | (uint32_t)encode[blue] << 16
            | (pixel & 0xFF000000u);
        memcpy(rgba + i * 4, &out, 4);
    }
}
