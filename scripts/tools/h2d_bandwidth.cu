/* Host-to-device copy bandwidth of 1280x1024 8-bit frames, pinned and pageable,
 * batched cudaMemcpyAsync over several streams: the physical limit of frame
 * throughput (BENCHMARKS.md). Prints GB/s and frames/s. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#define CHECK(call)                                                                   \
    do {                                                                              \
        cudaError_t e_ = (call);                                                      \
        if (e_ != cudaSuccess) {                                                      \
            fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e_));               \
            exit(1);                                                                  \
        }                                                                             \
    } while (0)

static double run(unsigned char *host, unsigned char *dev, size_t frame, int batch, int reps,
                  cudaStream_t *streams, int nstreams)
{
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    CHECK(cudaEventRecord(a, 0));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventRecord(a, 0));
    for (int r = 0; r < reps; r++)
        for (int i = 0; i < batch; i++) {
            cudaStream_t s = streams[i % nstreams];
            CHECK(cudaMemcpyAsync(dev + (size_t)i * frame, host + (size_t)i * frame, frame,
                                  cudaMemcpyHostToDevice, s));
        }
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventRecord(b, 0));
    CHECK(cudaEventSynchronize(b));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    return (double)frame * batch * reps / (ms * 1e-3);
}

int main(void)
{
    const size_t frame = 1280 * 1024;
    const int batch = 256, reps = 8, nstreams = 4;
    cudaStream_t streams[nstreams];
    for (int i = 0; i < nstreams; i++)
        CHECK(cudaStreamCreate(&streams[i]));
    unsigned char *dev, *pinned, *pageable = (unsigned char *)malloc(frame * batch);
    CHECK(cudaMalloc((void **)&dev, frame * batch));
    CHECK(cudaMallocHost((void **)&pinned, frame * batch));
    memset(pinned, 1, frame * batch);
    memset(pageable, 1, frame * batch);
    run(pinned, dev, frame, batch, 1, streams, nstreams);
    double bp = run(pinned, dev, frame, batch, reps, streams, nstreams);
    double bq = run(pageable, dev, frame, batch, 2, streams, nstreams);
    printf("h2d pinned:   %.1f GB/s = %.0f frames/s (1280x1024 8-bit)\n", bp / 1e9, bp / frame);
    printf("h2d pageable: %.1f GB/s = %.0f frames/s\n", bq / 1e9, bq / frame);
    return 0;
}
