#include "cresample.h"

typedef float float4 __attribute__((vector_size(16), aligned(4)));
typedef float float8 __attribute__((vector_size(32), aligned(4)));

// AVX2 doubles the lanes of the horizontal and vertical sums; ifuncs choose the clone once, where the loader
// supports them.
#if defined(__x86_64__) && defined(__linux__)
#define CLONED __attribute__((target_clones("avx2", "default")))
#else
#define CLONED
#endif

CLONED void webimage_resample_load_rgba8(const uint8_t *restrict source, int width, float *restrict row) {
    int count = 4 * width;
    uint8_t alpha = 255;
    for (int i = 0; i < count; i++) row[i] = source[i];
    for (int x = 0; x < width; x++) alpha &= source[4 * x + 3];
    if (alpha == 255) return;
    for (int x = 0; x < width; x++) {
        if (source[4 * x + 3] == 255) continue;
        float *pixel = row + 4 * x, factor = pixel[3] / 255.0f;
        pixel[0] = pixel[0] * factor;
        pixel[1] = pixel[1] * factor;
        pixel[2] = pixel[2] * factor;
    }
}

CLONED void webimage_resample_row(const float *row, const int32_t *first, const float *weights, int taps, int pairs,
                                  float *out) {
    for (int q = 0; q < pairs; q++) {
        const float *left = row + 4 * first[2 * q], *right = row + 4 * first[2 * q + 1];
        const float *pairWeights = weights + (long)q * taps * 8;
        float8 sum = {0, 0, 0, 0, 0, 0, 0, 0};
        for (int k = 0; k < taps; k++) {
            float4 a = *(const float4 *)(left + 4 * k), b = *(const float4 *)(right + 4 * k);
            float8 pixels = __builtin_shufflevector(a, b, 0, 1, 2, 3, 4, 5, 6, 7);
            sum = sum + pixels * *(const float8 *)(pairWeights + 8 * k);
        }
        *(float8 *)(out + 8 * q) = sum;
    }
}

CLONED void webimage_resample_accumulate(float *restrict line, const float *restrict source, float weight, int count) {
    for (int i = 0; i < count; i++) line[i] += source[i] * weight;
}

static inline uint8_t rounded8(float value) {
    value = value + 0.5f;
    value = value > 0 ? value : 0;
    return (uint8_t)(value < 255 ? value : 255);
}

CLONED void webimage_resample_store_rgba8(const float *restrict line, int width, uint8_t *restrict out) {
    for (int x = 0; x < width; x++) {
        const float *pixel = line + 4 * x;
        float alpha = pixel[3], factor = alpha >= 255 ? 1 : alpha > 0 ? 255 / alpha : 0;
        uint8_t *sample = out + 4 * x;
        sample[0] = rounded8(pixel[0] * factor);
        sample[1] = rounded8(pixel[1] * factor);
        sample[2] = rounded8(pixel[2] * factor);
        sample[3] = rounded8(alpha);
    }
}
