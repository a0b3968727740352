/* A second look at half resolution for eyes found with little confidence
 * (pupiltrack(1), PARAMETERS: half_retry). */
#ifndef PT_PARAMS_RETRY_H
#define PT_PARAMS_RETRY_H

typedef struct {
    double below;  /* half_retry: confidence under which an eye is looked at again; 0 = off */
    double margin; /* half_retry_margin: how much more confident the second look must be */
} pt_retry_params;

#endif
