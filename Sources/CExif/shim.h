// libexif: the service's `/info` names and formats EXIF tags as libexif does (imgproxy's answers show its
// titles and value texts).
#include <libexif/exif-data.h>
#include <libexif/exif-tag.h>
#include <libexif/exif-entry.h>
