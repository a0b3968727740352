/* libFuzzer target: mtt's measurement loader (frame,x,y[,id]), then the
 * tracker over what it accepted (small streams; gaps of any length cost
 * one step), every measurement getting a track, and the identity metrics
 * when ids are given. */
#include "fuzz/fuzz_files.h"
#include "lib/assign/mtt.h"
#include "lib/assign/particles.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[256];
    fuzz_write("measurements.csv", data, size, path, sizeof path);
    pt_measurement_set set;
    pt_error err;
    if (pt_measurements_load_csv(path, &set, &err) != PT_OK)
        return 0;
    if (set.count > 0 && set.count <= 300) {
        pt_mtt_params params;
        pt_mtt_default(&params);
        params.threads = 1;
        int *tracks = malloc(sizeof(int) * (size_t)set.count);
        double ms;
        if (tracks && pt_mtt_run(&params, &set, tracks, &ms, &err) == PT_OK) {
            for (long k = 0; k < set.count; k++)
                if (tracks[k] < 0)
                    __builtin_trap(); /* every measurement is on a track */
            if (set.has_ids) {
                int *frame = malloc(sizeof(int) * (size_t)set.count);
                int *id = malloc(sizeof(int) * (size_t)set.count);
                if (frame && id) {
                    for (long k = 0; k < set.count; k++) {
                        frame[k] = set.items[k].frame;
                        id[k] = set.items[k].id;
                    }
                    pt_mtt_metrics m;
                    if (pt_mtt_metrics_compute(frame, id, tracks, set.count, &m, &err) == PT_OK &&
                        !(m.idf1 >= 0 && m.idf1 <= 1))
                        __builtin_trap();
                }
                free(frame);
                free(id);
            }
        }
        free(tracks);
    }
    pt_measurement_set_free(&set);
    return 0;
}
