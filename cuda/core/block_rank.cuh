/* Ordered compaction over a thread block, a tile of blockDim.x items at a
 * time: each thread holds one item's flag; its place among the tile's set
 * flags (threads in order) comes from its warp's ballot and the counts of
 * the warps before it. Kept items are written in the order of the input,
 * so a list compacted on the GPU is the list the CPU builds. */
#ifndef PT_BLOCK_RANK_CUH
#define PT_BLOCK_RANK_CUH

/* This thread's place among the set flags of the block's tile; *total gets
 * the tile's count. warp_counts: shared, one int per warp of the block.
 * Every thread of the block calls it; it synchronises before returning, so
 * the next call may follow at once. */
static __device__ __forceinline__ int pt_block_rank(int flag, int *warp_counts, int *total)
{
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    unsigned ballot = __ballot_sync(0xffffffffu, flag);
    if (lane == 0)
        warp_counts[warp] = __popc(ballot);
    __syncthreads();
    int before = 0, sum = 0;
    for (int w = 0; w < warps; w++) {
        before += w < warp ? warp_counts[w] : 0;
        sum += warp_counts[w];
    }
    __syncthreads();
    *total = sum;
    return before + __popc(ballot & ((1u << lane) - 1u));
}

#endif
