/* AVX2 Base64 decoding of whole 32-character blocks; see include/CBase64.h and docs/inbox.md.
 *
 * Each character is classified by its two nibbles with byte shuffles (W. Muła and D. Lemire, "Faster Base64 encoding
 * and decoding using AVX2 instructions", ACM TWEB 12(3), 2018, the "bitmask" validation): the high nibble selects
 * one bit (which row of the ASCII table), the low nibble a byte holding the rows in which that column is in the
 * alphabet; a character is valid when the two meet. The tables are written out below from that rule and checked
 * against the scalar decoder for all 256 byte values at every position of a block (Tests/IngestTests). */
#include "CBase64.h"

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>

/* Rows (high nibbles) with characters of the alphabet, one bit each: 0x2_ bit 0 ('+' 0x2B, '/' 0x2F), 0x3_ bit 1
   ('0'–'9'), 0x4_ bit 2 ('A'–'O'), 0x5_ bit 3 ('P'–'Z'), 0x6_ bit 4 ('a'–'o'), 0x7_ bit 5 ('p'–'z'). Rows 0x0_,
   0x1_ and 0x8_–0xF_ (every byte ≥ 0x80) have no bit, so no character of theirs is valid. */
#define ROW_BITS 0, 0, 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0, 0, 0, 0, 0, 0, 0, 0
/* For each column (low nibble), the rows in which it is in the alphabet:
     column 0: 0x3_ ('0'), 0x5_ ('P'), 0x7_ ('p')                    → bits 1, 3, 5       = 0x2A
     columns 1–9: 0x3_, 0x4_, 0x5_, 0x6_, 0x7_                       → bits 1–5           = 0x3E
     column A: 0x4_ ('J'), 0x5_ ('Z'), 0x6_ ('j'), 0x7_ ('z')        → bits 2–5           = 0x3C
     column B: 0x2_ ('+'), 0x4_, 0x6_                                → bits 0, 2, 4       = 0x15
     columns C–E: 0x4_, 0x6_                                         → bits 2, 4          = 0x14
     column F: 0x2_ ('/'), 0x4_, 0x6_                                → bits 0, 2, 4       = 0x15 */
#define COLUMN_ROWS 0x2A, 0x3E, 0x3E, 0x3E, 0x3E, 0x3E, 0x3E, 0x3E, 0x3E, 0x3E, 0x3C, 0x15, 0x14, 0x14, 0x14, 0x15
/* What to add to a character of each row for its six bits (modulo 256): '+' 0x2B + 19 = 62 ('/' is the one
   exception in its row: 0x2F + 16 = 63), '0' 0x30 + 4 = 52, 'A' 0x41 − 65 = 0, 'a' 0x61 − 71 = 26. */
#define ROW_SHIFT 0, 0, 19, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0

__attribute__((target("avx2"))) static size_t decode_avx2(
    const uint8_t *src, size_t length, uint8_t *dst, int *invalid) {
    const __m256i row_bits = _mm256_setr_epi8(ROW_BITS, ROW_BITS);
    const __m256i column_rows = _mm256_setr_epi8(COLUMN_ROWS, COLUMN_ROWS);
    const __m256i row_shift = _mm256_setr_epi8(ROW_SHIFT, ROW_SHIFT);
    const __m256i low_nibble = _mm256_set1_epi8(0x0F);
    const __m256i slash = _mm256_set1_epi8(0x2F);
    /* a·64 + b for each pair of six-bit values, then ab·4096 + cd for each pair of pairs: 24 bits a lane. */
    const __m256i pairs = _mm256_set1_epi32(0x01400140);
    const __m256i quads = _mm256_set1_epi32(0x00011000);
    /* The 24 bits of each 32-bit lane, high byte first, packed into the low 12 bytes of each 128-bit half … */
    const __m256i order = _mm256_setr_epi8(
        2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1, 2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
    /* … and the two halves' 12 bytes made 24 contiguous ones. */
    const __m256i halves = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 7, 7);
    size_t done = 0;
    while (done + 32 <= length) {
        const __m256i text = _mm256_loadu_si256((const __m256i *)(src + done));
        const __m256i high = _mm256_and_si256(_mm256_srli_epi32(text, 4), low_nibble);
        const __m256i low = _mm256_and_si256(text, low_nibble);
        /* A byte ≥ 0x80 has a high nibble of 8–15: no row bit, so it is invalid whatever its column. */
        const __m256i rows = _mm256_shuffle_epi8(row_bits, high);
        const __m256i allowed = _mm256_shuffle_epi8(column_rows, low);
        const __m256i outside = _mm256_cmpeq_epi8(_mm256_and_si256(rows, allowed), _mm256_setzero_si256());
        if (_mm256_movemask_epi8(outside) != 0) {
            *invalid = 1;
            break;
        }
        const __m256i shift = _mm256_blendv_epi8(
            _mm256_shuffle_epi8(row_shift, high), _mm256_set1_epi8(16), _mm256_cmpeq_epi8(text, slash));
        const __m256i sextets = _mm256_add_epi8(text, shift);
        const __m256i merged = _mm256_madd_epi16(_mm256_maddubs_epi16(sextets, pairs), quads);
        const __m256i bytes = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(merged, order), halves);
        _mm256_storeu_si256((__m256i *)(dst + done / 4 * 3), bytes);
        done += 32;
    }
    return done;
}

int pipeline_base64_has_simd(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? 1 : 0;
}

size_t pipeline_base64_decode_blocks(const uint8_t *src, size_t length, uint8_t *dst, int *invalid) {
    /* -1: not asked yet. Threads that race here all store the same answer. */
    static int simd = -1;
    int known = __atomic_load_n(&simd, __ATOMIC_RELAXED);
    if (known < 0) {
        known = pipeline_base64_has_simd();
        __atomic_store_n(&simd, known, __ATOMIC_RELAXED);
    }
    return known ? decode_avx2(src, length, dst, invalid) : 0;
}

#else

int pipeline_base64_has_simd(void) { return 0; }

size_t pipeline_base64_decode_blocks(const uint8_t *src, size_t length, uint8_t *dst, int *invalid) {
    (void)src; (void)length; (void)dst; (void)invalid;
    return 0;
}

#endif
