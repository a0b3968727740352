/* The auction on OpenMP threads. */
#ifndef PT_OMP_AUCTION_H
#define PT_OMP_AUCTION_H

#include "lib/assign/assign.h"

/* The same on threads (0 = all cores), bidding asynchronously: each
 * object's price and owner packed in one 64-bit word, replaced by
 * compare-and-swap when a bid is higher . */
pt_status pt_assign_auction_omp(const pt_assign_problem *p, int threads,
                                pt_assign_result *res, pt_error *err);


#endif
