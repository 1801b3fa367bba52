// libimagequant: palette quantisation for PNG results (imgproxy's IMGPROXY_PNG_QUANTIZE).
#include <libimagequant.h>
