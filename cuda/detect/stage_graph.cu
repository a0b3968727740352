/* A stage of a chunk (a fixed sequence of kernel launches on one stream)
 * replayed from a CUDA graph: one graph launch instead of up to ~60 kernel
 * launches, so the host spends microseconds per chunk and the GPU starts
 * each kernel without waiting for the host. The graph is captured on first
 * use of a shape: the integers its launches depend on besides the slot's
 * buffers and the back end's parameters, which stay the same for the slot's
 * life. The last PT_CUDA_GRAPH_CACHE shapes keep their graphs, so a call's
 * end chunks, full chunks and remainder do not capture again on every
 * change. */
#include <string.h>

#include "cuda/detect/cuda_internal.h"

extern "C" cudaError_t pt_cuda_stage_graph_launch(pt_cuda_stage_graph *g, const int *shape,
                                                  int nshape, pt_cuda_enqueue_fn enqueue,
                                                  const void *arg, cudaStream_t stream)
{
    if (nshape > PT_CUDA_GRAPH_SHAPE)
        return cudaErrorInvalidValue;
    int key[PT_CUDA_GRAPH_SHAPE] = {0};
    memcpy(key, shape, (size_t)nshape * sizeof *key);
    for (int k = 0; k < PT_CUDA_GRAPH_CACHE; k++)
        if (g->exec[k] && memcmp(key, g->shape[k], sizeof key) == 0)
            return cudaGraphLaunch(g->exec[k], stream);
    int k = g->next;
    g->next = (k + 1) % PT_CUDA_GRAPH_CACHE;
    if (g->exec[k])
        cudaGraphExecDestroy(g->exec[k]);
    g->exec[k] = NULL;
    cudaError_t st = cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal);
    if (st != cudaSuccess)
        return st;
    cudaError_t launched = enqueue(arg, stream);
    cudaGraph_t graph = NULL;
    st = cudaStreamEndCapture(stream, &graph);
    if (launched != cudaSuccess || st != cudaSuccess) {
        if (graph)
            cudaGraphDestroy(graph);
        return launched != cudaSuccess ? launched : st;
    }
    st = cudaGraphInstantiate(&g->exec[k], graph, 0);
    cudaGraphDestroy(graph);
    if (st != cudaSuccess) {
        g->exec[k] = NULL;
        return st;
    }
    memcpy(g->shape[k], key, sizeof key);
    return cudaGraphLaunch(g->exec[k], stream);
}

extern "C" void pt_cuda_stage_graph_free(pt_cuda_stage_graph *g)
{
    for (int k = 0; k < PT_CUDA_GRAPH_CACHE; k++) {
        if (g->exec[k])
            cudaGraphExecDestroy(g->exec[k]);
        g->exec[k] = NULL;
    }
    g->next = 0;
}
