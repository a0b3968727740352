/* Hot loops are compiled twice on x86-64 (AVX2 and baseline) and picked at
 * load time, since the default build targets plain SSE2. */
#ifndef PT_CLONES_H
#define PT_CLONES_H

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && \
    !defined(__SANITIZE_ADDRESS__)
#define PT_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define PT_VECTOR_CLONES
#endif

#endif
