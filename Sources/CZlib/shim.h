#ifndef PIPELINE_CZLIB_SHIM_H
#define PIPELINE_CZLIB_SHIM_H
#include <zlib.h>

/* deflateInit2 and inflateInit2 are macros (they pass ZLIB_VERSION and sizeof(z_stream)), which
   Swift cannot call: these wrappers do. windowBits 15 + 16 selects the gzip wrapper (RFC 1952)
   instead of the zlib one (RFC 1950); see zlib.h. */
static inline int czlib_deflate_init_gzip(z_streamp strm, int level) {
    return deflateInit2(strm, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

static inline int czlib_inflate_init_gzip(z_streamp strm) {
    return inflateInit2(strm, 15 + 16);
}
#endif
