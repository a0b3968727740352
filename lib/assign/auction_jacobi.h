/* The auction of Maier et al., "Real-time multitarget tracking for
 * sensor-based sorting" (J. Real-Time Image Processing, 2018), beside
 * pupiltrack's default auction (pupiltrack-assign(1), "--auction jacobi"):
 * Jacobi rounds, in which every unassigned person bids at the same prices
 * (bidding phase) and then every object takes its highest bid (assignment
 * phase); each bid is one 32-bit word, the bid value in its upper 20 bits
 * and the bidder in its lower 12, so the highest word is the highest bid
 * (ties to the higher index) and one atomic maximum places it. Benefits are
 * integers scaled by K = n + 1 with a last epsilon of 1 (epsilon < 1/n in
 * the costs' units), so integer costs give an optimal assignment. The word
 * limits problems to n <= 4096 (persons padded with dummies) and prices
 * below 2^20: larger ones are refused with PT_ERR_PARAM. */
#ifndef PT_AUCTION_JACOBI_H
#define PT_AUCTION_JACOBI_H

#include "lib/assign/assign.h"

#define PT_JACOBI_INDEX_BITS 12
#define PT_JACOBI_VALUE_BITS 20
#define PT_JACOBI_MAX_N (1 << PT_JACOBI_INDEX_BITS)
#define PT_JACOBI_MAX_VALUE ((1L << PT_JACOBI_VALUE_BITS) - 1)

#ifdef __cplusplus
extern "C" {
#endif

/* On threads (1: sequential, 0: all cores); the bids of a round are placed
 * with atomic maxima, so any thread count gives the same assignment. */
pt_status pt_assign_auction_jacobi(const pt_assign_problem *p, int threads, pt_assign_result *res,
                                   pt_error *err);

/* The benefits the variant bids on (pt_auction_benefits_make), checked
 * against the word's limits. */
pt_status pt_auction_jacobi_benefits(const pt_assign_problem *p, pt_auction_benefits *b,
                                     pt_error *err);

/* -b seq --auction jacobi (one thread, here), -b omp (omp/assign) and -b
 * cuda (cuda/assign/auction_table.c). */
extern const pt_assign_backend pt_assign_seq_jacobi;
extern const pt_assign_backend pt_assign_omp_jacobi;
extern const pt_assign_backend pt_assign_cuda_jacobi;

#ifdef __cplusplus
}
#endif

#endif
