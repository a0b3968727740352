/* Area under the ROC curve of a score for a yes/no event (pupiltrack(1),
 * METRICS): the probability that a random item with the event scores above
 * a random item without it, ties counting one half (the Mann-Whitney U
 * statistic over the product of the two counts). */
#ifndef PT_ROC_H
#define PT_ROC_H

typedef struct {
    double score;
    int positive; /* the event holds */
} pt_roc_item;

/* The area for n items; sorts items by score in place. -1 when either class
 * is empty (the area is undefined). */
double pt_roc_auc(pt_roc_item *items, long n);

#endif
