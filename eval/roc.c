#include "eval/roc.h"

#include <stdlib.h>

static int by_score(const void *a, const void *b)
{
    double x = ((const pt_roc_item *)a)->score, y = ((const pt_roc_item *)b)->score;
    return (x > y) - (x < y);
}

/* Rank sum of the positives with mid-ranks for ties:
 * AUC = (R+ - P(P+1)/2) / (P N). */
double pt_roc_auc(pt_roc_item *items, long n)
{
    long pos = 0;
    for (long i = 0; i < n; i++)
        pos += items[i].positive != 0;
    long neg = n - pos;
    if (pos == 0 || neg == 0)
        return -1.0;
    qsort(items, (size_t)n, sizeof *items, by_score);
    double rank_sum = 0.0;
    for (long i = 0; i < n;) {
        long j = i, group_pos = 0;
        while (j < n && items[j].score == items[i].score) {
            group_pos += items[j].positive != 0;
            j++;
        }
        /* ranks i+1 .. j share their mean */
        rank_sum += group_pos * (0.5 * (double)(i + 1 + j));
        i = j;
    }
    return (rank_sum - 0.5 * (double)pos * (double)(pos + 1)) / ((double)pos * (double)neg);
}
