#ifndef CXXHASH_SHIM_H
#define CXXHASH_SHIM_H
/* Debian's libxxhash-dev (xxHash 0.8): XXH3's 128-bit hash, for the ingest ledger's fingerprint of a batch file
   (docs/inbox.md, "The ledger's fingerprint"). Only the stable API: XXH3_128bits and the canonical (big-endian) form. */
#include <xxhash.h>
#endif
