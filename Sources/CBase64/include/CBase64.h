#ifndef CBASE64_H
#define CBASE64_H
#include <stddef.h>
#include <stdint.h>

/* The bulk of a canonical Base64 text (RFC 4648 §4, standard alphabet) decoded 32 characters at a time with AVX2
   (docs/inbox.md, "Base64 of the recordings"). `Base64.decodeCanonical` in Swift calls it first and decodes what is
   left, and the padded last quad, with its table.

   Decodes whole blocks of 32 characters from `src` (at most `length` characters) into 24 bytes each at `dst`, and
   returns the number of characters decoded: a multiple of 32, and 0 when the processor has no AVX2. Each block's
   store is 32 bytes wide: the caller leaves at least 8 bytes of `dst` after the last block's 24 (so `length` is
   never all of a text; see the caller). It stops before the first block holding a character outside the alphabet
   (`=` included) and sets `*invalid` to 1; that block and the rest are the caller's. */
size_t pipeline_base64_decode_blocks(const uint8_t *src, size_t length, uint8_t *dst, int *invalid);

/* Whether `pipeline_base64_decode_blocks` decodes on this processor (AVX2), for tests and benchmarks. */
int pipeline_base64_has_simd(void);

#endif
