/* Minimal test harness: each test file's main() calls PT_TEST functions and
 * ends with PT_TEST_SUMMARY(), which prints "N passed, N failed" and returns
 * the exit status. */
#ifndef PT_TEST_H
#define PT_TEST_H

#include <stdio.h>

static int pt_test_passed, pt_test_failed;

#define PT_CHECK(cond, ...)                                                    \
    do {                                                                       \
        if (cond) {                                                            \
            pt_test_passed++;                                                  \
        } else {                                                               \
            pt_test_failed++;                                                  \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);              \
            fprintf(stderr, __VA_ARGS__);                                      \
            fprintf(stderr, "\n");                                             \
        }                                                                      \
    } while (0)

#define PT_CHECK_NEAR(a, b, tol, what)                                         \
    PT_CHECK(fabs((double)(a) - (double)(b)) <= (tol),                         \
             "%s: %.6g vs %.6g (tol %.3g)", what, (double)(a), (double)(b),    \
             (double)(tol))

#define PT_TEST_SUMMARY(name)                                                  \
    (printf("%s: %d passed, %d failed\n", name, pt_test_passed,               \
            pt_test_failed),                                                   \
     pt_test_failed ? 1 : 0)

#endif
