/* Second looks at eyes found with little confidence: at half resolution,
 * and Starburst's with reflections refilled (pupiltrack(1), PARAMETERS:
 * half_retry, glint_retry). */
#ifndef PT_PARAMS_RETRY_H
#define PT_PARAMS_RETRY_H

typedef struct {
    double below;  /* half_retry: confidence under which an eye is looked at again; 0 = off */
    double margin; /* half_retry_margin: how much more confident the second look must be */
    double glint;  /* glint_retry: confidence under which Starburst's eye is looked at again
                      with the reflections near its pupil refilled; 0 = off */
    double glint_margin; /* glint_retry_margin: how much more confident that look must be */
} pt_retry_params;

#endif
