#include <string.h>
#include "cpng_internal.h"

static void on_error(png_structp png, png_const_charp message) {
    cpng_errors *errors = png_get_error_ptr(png);
    if (errors) {
        strncpy(errors->message, message ? message : "libpng error", sizeof errors->message - 1);
        errors->message[sizeof errors->message - 1] = 0;
    }
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

png_structp cpng_create_read_struct(cpng_errors *errors) {
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, errors, on_error, on_warning);
#if defined(PNG_SET_OPTION_SUPPORTED) && defined(PNG_IGNORE_ADLER32)
    // Every IDAT chunk's CRC already guards the compressed bytes; zlib's Adler-32 over the whole inflated
    // image is a second, slow pass over memory (browsers skip it too).
    if (png) png_set_option(png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    // libpng allocates (and clears) a text or metadata chunk's declared length before reading it, and a length
    // over its limit is only a warning on read: a 700-byte file declaring a 1.9 GB iTXt took 1.9 GB. The
    // ancillary chunks are read by the Swift chunk walker (metadata, colour), and no transform asked of libpng
    // depends on them, so it skips them all, reading through in small pieces; tRNS is the one it needs.
    if (png) {
        static const png_byte skipped[] = "bKGD\0cHRM\0cICP\0eXIf\0gAMA\0hIST\0iCCP\0iTXt\0mDCV\0cLLI\0oFFs\0"
                                          "pCAL\0pHYs\0sBIT\0sCAL\0sPLT\0sRGB\0tEXt\0tIME\0zTXt\0";
        png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, 0);
        png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, skipped, (int)(sizeof skipped / 5));
    }
    return png;
}

int cpng_configure_output(png_structp png, png_infop info, cpng_header *header, int handle_interlace) {
    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(png, info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;

    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (has_trns) png_set_tRNS_to_alpha(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if ((color_type & PNG_COLOR_MASK_ALPHA) == 0 && !has_trns) png_set_add_alpha(png, 0xffff, PNG_FILLER_AFTER);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (bit_depth == 16) png_set_swap(png);
#endif
    int passes = 1;
    if (interlace != PNG_INTERLACE_NONE) passes = handle_interlace ? png_set_interlace_handling(png) : PNG_INTERLACE_ADAM7_PASSES;
    png_read_update_info(png, info);

    header->width = width;
    header->height = height;
    header->bit_depth = bit_depth;
    header->color_type = color_type;
    header->interlaced = interlace != PNG_INTERLACE_NONE;
    header->has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) != 0 || has_trns;
    header->output_16 = bit_depth == 16;
    return passes;
}

cpng_status cpng_failure(const cpng_errors *errors) {
    return errors->truncated ? CPNG_TRUNCATED : CPNG_CORRUPT;
}
