#ifndef PIPELINE_CZSTD_SHIM_H
#define PIPELINE_CZSTD_SHIM_H
/* Debian's libzstd-dev (zstd 1.5): the one-shot ZSTD_compress / ZSTD_decompress and the frame header's content size.
   Session recordings are stored as zstd frames (`Store/StoredRecording.swift`). */
#include <zstd.h>
#endif
