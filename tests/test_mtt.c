/* Multi-target tracker: identity metrics on a hand-checked case, zero errors
 * on noise-free conveyor-belt streams, track life cycle, measurement CSVs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/api/registry.h"
#include "lib/assign/mtt.h"
#include "lib/assign/particles.h"
#include "tests/pt_test.h"

/* Objects 0 and 1 swap tracks 10/11 after frame 1; object 2's track 12 is
 * replaced by 13 at frame 3. Overlaps: 0-10:2 0-11:3 1-11:2 1-10:3 2-12:3
 * 2-13:2, so IDTP = 3 + 3 + 3 = 9 of 15, 3 switches, MOTA = 1 - 3/15. */
static void test_metrics_hand_checked(void)
{
    int frame[15], id[15], track[15];
    static const int tracks_of[3][5] = {{10, 10, 11, 11, 11}, {11, 11, 10, 10, 10}, {12, 12, 12, 13, 13}};
    int n = 0;
    for (int f = 4; f >= 0; f--) /* reversed frames: the metrics must sort */
        for (int o = 0; o < 3; o++) {
            frame[n] = f;
            id[n] = o;
            track[n] = tracks_of[o][f];
            n++;
        }
    pt_mtt_metrics m;
    pt_error err;
    PT_CHECK(pt_mtt_metrics_compute(frame, id, track, n, &m, &err) == PT_OK, "metrics computed");
    PT_CHECK(m.objects == 3 && m.tracks == 4, "3 objects, 4 tracks (got %d, %d)", m.objects, m.tracks);
    PT_CHECK(m.id_switches == 3, "3 ID switches (got %ld)", m.id_switches);
    PT_CHECK(m.objects_split == 3, "3 split objects (got %d)", m.objects_split);
    PT_CHECK(m.tracks_merged == 2, "2 merged tracks (got %d)", m.tracks_merged);
    PT_CHECK(m.idtp == 9, "IDTP 9 (got %ld)", m.idtp);
    PT_CHECK_NEAR(m.mota, 0.8, 1e-12, "MOTA");
    PT_CHECK_NEAR(m.idf1, 0.6, 1e-12, "IDF1");
    for (int k = 0; k < n; k++)
        track[k] = 100 + id[k];
    pt_mtt_metrics_compute(frame, id, track, n, &m, &err);
    PT_CHECK(m.id_switches == 0 && m.objects_split == 0 && m.tracks_merged == 0 && m.mota == 1.0 &&
                 m.idf1 == 1.0,
             "a perfect tracking has no errors");
}

static pt_status track_stream(const pt_measurement_set *set, const pt_mtt_params *params, pt_mtt_metrics *m)
{
    pt_error err;
    int *tracks = malloc(sizeof(int) * (size_t)set->count), *frames = malloc(sizeof(int) * (size_t)set->count),
        *ids = malloc(sizeof(int) * (size_t)set->count);
    double ms;
    pt_status st = pt_mtt_run(params, set, tracks, &ms, &err);
    for (long k = 0; k < set->count; k++) {
        frames[k] = set->items[k].frame;
        ids[k] = set->items[k].id;
    }
    if (!st)
        st = pt_mtt_metrics_compute(frames, ids, tracks, set->count, m, &err);
    if (st)
        fprintf(stderr, "tracker: %s\n", err.what);
    free(tracks);
    free(frames);
    free(ids);
    return st;
}

/* Noise-free belts, with collisions and objects entering and leaving: no identity errors. */
static void test_noise_free_streams(void)
{
    static const int sizes[][2] = {{20, 150}, {200, 60}, {1000, 20}};
    for (int s = 0; s < 3; s++)
        for (int solver = 0; solver < 3; solver++) {
            static const char *const solvers[] = {"seq", "omp", "exact"};
            pt_particles_params pp;
            pt_particles_default(&pp);
            pp.objects = sizes[s][0];
            pp.frames = sizes[s][1];
            pp.noise = 0.0;
            pp.seed = 11 + (uint64_t)s;
            pt_measurement_set set;
            pt_error err;
            if (pt_particles_generate(&pp, &set, &err)) {
                PT_CHECK(0, "generate: %s", err.what);
                continue;
            }
            pt_mtt_params mp;
            pt_mtt_default(&mp);
            mp.init_vx = pp.speed;
            mp.solver = pt_assign_backend_by_name(solvers[solver]);
            mp.threads = 2;
            pt_mtt_metrics m;
            PT_CHECK(track_stream(&set, &mp, &m) == PT_OK, "tracker runs");
            PT_CHECK(m.id_switches == 0 && m.objects_split == 0 && m.tracks_merged == 0 && m.idf1 == 1.0,
                     "noise-free %d objects, solver %s: %ld switches, %d split, %d merged, IDF1 %.4f",
                     pp.objects, solvers[solver], m.id_switches, m.objects_split, m.tracks_merged, m.idf1);
            PT_CHECK(m.objects > pp.objects, "objects enter the belt (%d seen)", m.objects);
            pt_measurement_set_free(&set);
        }
}

/* Modest noise still tracks nearly perfectly. */
static void test_noisy_stream(void)
{
    pt_particles_params pp;
    pt_particles_default(&pp);
    pp.objects = 100;
    pp.frames = 100;
    pp.noise = 0.5;
    pt_measurement_set set;
    pt_error err;
    pt_particles_generate(&pp, &set, &err);
    pt_mtt_params mp;
    pt_mtt_default(&mp);
    mp.init_vx = pp.speed;
    pt_mtt_metrics m;
    PT_CHECK(track_stream(&set, &mp, &m) == PT_OK && m.idf1 > 0.97 && m.mota > 0.99,
             "noise 0.5 px: IDF1 %.4f, MOTA %.4f", m.idf1, m.mota);
    pt_measurement_set_free(&set);
}

/* Two objects cross 1 px apart at constant velocity: the Kalman prediction
 * keeps them apart. A vanished object's track dies after score_initial + 1 misses. */
static void test_crossing_and_deletion(void)
{
    pt_mtt_params mp;
    pt_mtt_default(&mp);
    pt_tracker *t;
    pt_error err;
    PT_CHECK(pt_tracker_create(&mp, &t, &err) == PT_OK, "tracker created");
    int first[2] = {-1, -1}, same = 1;
    for (int f = 0; f < 20; f++) {
        double xy[4] = {2.0 * f, 0.0, 38.0 - 2.0 * f, 1.0};
        int ids[2];
        pt_tracker_step(t, xy, 2, ids, &err);
        if (f == 0) {
            first[0] = ids[0];
            first[1] = ids[1];
        }
        same &= ids[0] == first[0] && ids[1] == first[1];
    }
    PT_CHECK(same && first[0] != first[1], "crossing objects keep their tracks");
    int count, misses = 0;
    pt_tracker_tracks(t, &count);
    while (count > 0 && misses < 50) {
        pt_tracker_step(t, NULL, 0, NULL, &err);
        misses++;
        pt_tracker_tracks(t, &count);
    }
    /* Score 10 after many hits: 10 - 11 < 0 after 11 misses. */
    PT_CHECK(misses == mp.score_max + 1, "tracks deleted after %d misses (want %d)", misses, mp.score_max + 1);
    pt_tracker_destroy(t);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void test_measurement_csv(void)
{
    char dir[] = "/tmp/pt-mtt-XXXXXX", path[256];
    if (!mkdtemp(dir)) {
        PT_CHECK(0, "mkdtemp");
        return;
    }
    snprintf(path, sizeof path, "%s/m.csv", dir);
    pt_measurement_set set;
    pt_error err;
    write_file(path, "id,y,x,frame\n7,2.5,1.5,3\n8,4,3,1\n");
    PT_CHECK(pt_measurements_load_csv(path, &set, &err) == PT_OK && set.count == 2 && set.has_ids &&
                 set.items[0].frame == 1 && set.items[0].id == 8 && set.items[1].x == 1.5,
             "header in any order, rows sorted by frame");
    pt_measurement_set_free(&set);
    write_file(path, "0,1,2\n1,3,4\n");
    PT_CHECK(pt_measurements_load_csv(path, &set, &err) == PT_OK && set.count == 2 && !set.has_ids,
             "positional frame,x,y");
    pt_measurement_set_free(&set);
    static const struct {
        const char *text, *expect;
    } bad[] = {{"frame,x,y\n0,1,abc\n", "line 2: y is not"},
               {"0,1,2\n0,1\n", "line 2: 2 cells"},
               {"0,nan,2\n", "line 1: x is not"},
               {"1.5,1,2\n", "line 1: frame must"},
               {"frame,x\n0,1\n", "lacks the 'y'"},
               {"", "no measurements"}};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        write_file(path, bad[k].text);
        PT_CHECK(pt_measurements_load_csv(path, &set, &err) == PT_ERR_FORMAT && strstr(err.what, bad[k].expect),
                 "bad measurements %zu: '%s'", k, err.what);
    }
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    test_metrics_hand_checked();
    test_crossing_and_deletion();
    test_measurement_csv();
    test_noise_free_streams();
    test_noisy_stream();
    return PT_TEST_SUMMARY("mtt");
}
