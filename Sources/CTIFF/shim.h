#include <tiffio.h>

/* libtiff's field getters are C variadic functions, which Swift can call only through a va_list it builds per call
   (an allocation and dynamic casts, a sizeable part of decoding a small file). These fixed-type forms call them
   directly. `defaulted` asks for libtiff's default when the directory has no such field. */
static inline int webimage_tiff_get_uint16(TIFF *tif, uint32_t tag, int defaulted, uint16_t *value) {
    return defaulted ? TIFFGetFieldDefaulted(tif, tag, value) : TIFFGetField(tif, tag, value);
}

static inline int webimage_tiff_get_uint32(TIFF *tif, uint32_t tag, int defaulted, uint32_t *value) {
    return defaulted ? TIFFGetFieldDefaulted(tif, tag, value) : TIFFGetField(tif, tag, value);
}

/* A field holding a 16-bit count and an array of uint16 (ExtraSamples), libtiff's default when absent. */
static inline int webimage_tiff_get_uint16_array(TIFF *tif, uint32_t tag, uint16_t *count, uint16_t **values) {
    return TIFFGetFieldDefaulted(tif, tag, count, values);
}

/* A field holding a 32-bit count and that many bytes (the ICC profile). */
static inline int webimage_tiff_get_bytes(TIFF *tif, uint32_t tag, uint32_t *count, void **data) {
    return TIFFGetField(tif, tag, count, data);
}
