// libxml2 built with ICU names ICU's types in encoding.h; Foundation brings its own ICU module, and the two
// definitions clash. Nothing here touches the encoding handler's ICU fields, so they are left out.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
