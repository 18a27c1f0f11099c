#ifndef PIPELINE_CLZ4_SHIM_H
#define PIPELINE_CLZ4_SHIM_H
/* Debian's liblz4-dev (LZ4 1.9): the frame format (content size in the header, XXH32 content checksum at the end), in
   which the store keeps a session's recording once it is split into columns (`Store/StoredRecording.swift`). */
#include <lz4frame.h>
#endif
