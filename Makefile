# pupiltrack — GNU Make build.
#   make                 pupiltrack with the OpenMP back end (+ CUDA when nvcc is found)
#   make CUDA=0|1        force the CUDA back end off / on
#   make VIDEO=0|1       video input through FFmpeg's libraries off / on (default: on when
#                        pkg-config finds libavformat libavcodec libavutil libswscale)
#   make check           unit tests, command-line tests, sanitizer build of the unit tests
#   make fuzz            libFuzzer targets (clang, ASan, UBSan halting on error) in build-fuzz/fuzz/
#   make fuzz-run        each target for FUZZ_SECONDS (default 30) on its corpus (fuzz/corpus/)
#   make install PREFIX=/usr/local   (also DESTDIR, LIBDIR, INCLUDEDIR, MANDIR, PYTHONDIR)

VERSION   := 0.1.0
# The shared library's soname: libpupiltrack.so.$(SOVERSION) (pupiltrack(3)).
SOVERSION := 0
PREFIX    ?= /usr/local
LIBDIR    ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR    ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
# Where `make install` puts the Python module pupiltrack.py.
PYTHONDIR ?= $(PREFIX)/lib/python3/dist-packages
BUILD     ?= build
CC        ?= gcc
CFLAGS    ?= -O2 -g
# The project's own flags stay when CFLAGS/LDFLAGS are given on the command line.
# Objects serve the static and the shared library alike: position-independent,
# and only what lib/api/pupiltrack.h marks PT_API is exported.
PT_CFLAGS  = $(CFLAGS) -std=c11 -Wall -Wextra -fopenmp -fPIC -fvisibility=hidden \
             -D_DEFAULT_SOURCE -DPT_VERSION='"$(VERSION)"' -I.
PT_LDFLAGS = $(LDFLAGS) -fopenmp
LDLIBS    += -lpng -ltiff -lm

NVCC      ?= $(shell command -v nvcc 2>/dev/null || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
CUDA      ?= $(if $(NVCC),1,0)
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(NVCC))
# sm_75 … sm_90 as machine code, plus PTX for newer GPUs.
CUDA_ARCH ?= -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 \
             -gencode arch=compute_86,code=sm_86 -gencode arch=compute_89,code=sm_89 \
             -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90
NVCCFLAGS ?= -O3 -std=c++17 $(CUDA_ARCH) -Xcompiler -Wall,-fopenmp -lineinfo
# Includes are written from the repository root (#include "lib/core/pt_error.h").
NVCCFLAGS += -I. -Xcompiler -fPIC,-fvisibility=hidden

# Sources by domain: lib/DOMAIN, omp/DOMAIN, cuda/DOMAIN (see the README's layout).
# cuda/detect/chunk_plan.c is the CUDA back end's host arithmetic (no CUDA
# calls), built with or without CUDA so that its test runs everywhere; so are
# the CUDA back ends' tables (cuda/*/*_table.c), whose entries say when CUDA
# is missing. lib/api/registry.c, the back-end registry, is the top of the
# library: the program, the tests and pupiltrack.h's detectors reach every
# back end by name there.
LIB_SRC   := $(filter-out lib/io/video_ffmpeg.c lib/io/ffmpeg_lib.c lib/io/video_none.c,$(wildcard lib/*/*.c eval/*.c \
             omp/*/*.c)) \
             cuda/detect/chunk_plan.c $(wildcard cuda/*/*_table.c)

# Video input: lib/io/video_ffmpeg.c over FFmpeg's libraries where pkg-config
# finds them, else lib/io/video_none.c, which refuses video saying why.
FFMPEG_PKGS := libavformat libavcodec libavutil libswscale
FFMPEG_FOUND := $(shell pkg-config --exists $(FFMPEG_PKGS) 2>/dev/null && echo 1 || echo 0)
VIDEO     ?= $(FFMPEG_FOUND)
ifeq ($(VIDEO),1)
LIB_SRC   += lib/io/video_ffmpeg.c lib/io/ffmpeg_lib.c
$(BUILD)/lib/io/video_ffmpeg.o $(BUILD)/lib/io/ffmpeg_lib.o: \
  PT_CFLAGS += $(shell pkg-config --cflags $(FFMPEG_PKGS))
# The libraries are loaded when the first video is opened (lib/io/ffmpeg_lib.c),
# not linked: a run without video does not load them.
LDLIBS    += -ldl
else
LIB_SRC   += lib/io/video_none.c
ifeq ($(filter clean,$(MAKECMDGOALS)),)
$(info pupiltrack: video input is off: $(if $(filter 1,$(FFMPEG_FOUND)),VIDEO=0,FFmpeg's libraries \
  not found (libavformat-dev libavcodec-dev libavutil-dev libswscale-dev)))
endif
endif
CLI_SRC   := $(wildcard cli/*.c)
TEST_SRC  := $(wildcard tests/test_*.c)
FUZZ_SRC  := $(wildcard fuzz/fuzz_*.c)

CU_SRC    := $(wildcard cuda/*/*.cu)
ifeq ($(CUDA)$(if $(CU_SRC),y,n),1y)
CU_OBJ    := $(CU_SRC:%.cu=$(BUILD)/%.o)
LDLIBS    += -L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64 -lcudart -lstdc++
else
# Without CUDA, cuda/*/none_*.c give every CUDA entry point an honest "unavailable".
CU_OBJ    := $(patsubst %.c,$(BUILD)/%.o,$(wildcard cuda/*/none_*.c))
endif

LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/%.o) $(CU_OBJ)
CLI_OBJ   := $(CLI_SRC:%.c=$(BUILD)/%.o)
TEST_BIN  := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
LIBA      := $(BUILD)/libpupiltrack.a
LIBSO     := $(BUILD)/libpupiltrack.so.$(VERSION)
# The commands without main(), for fuzz targets of parsers that live in cli/.
CLI_LIBA  := $(BUILD)/libpupiltrack-cli.a
# The program; the sanitizer build makes its own beside its objects.
PT_BIN    ?= pupiltrack

.DEFAULT_GOAL := all

$(BUILD)/tools/%: scripts/tools/%.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -o $@ $<

$(BUILD)/tools/%: scripts/tools/%.c $(LIBA)
	@mkdir -p $(dir $@)
	$(CC) $(PT_CFLAGS) -o $@ $< $(LIBA) $(LDLIBS)

tools: $(BUILD)/tools/h2d_bandwidth $(BUILD)/tools/auction_host_bench $(BUILD)/tools/host_copy_bandwidth

.PHONY: all tools check check-unit check-cli check-lib check-asan check-fuzz fuzz fuzz-targets fuzz-run install clean
all: $(PT_BIN) $(LIBSO)

$(PT_BIN): $(CLI_OBJ) $(LIBA)
	$(CC) $(PT_LDFLAGS) -o $@ $(CLI_OBJ) $(LIBA) $(LDLIBS)

$(LIBA): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(LIBSO): $(LIB_OBJ) lib/api/pupiltrack.map
	$(CC) -shared -Wl,-soname,libpupiltrack.so.$(SOVERSION) -Wl,-z,defs \
	  -Wl,--version-script,lib/api/pupiltrack.map $(PT_LDFLAGS) -o $@ $(LIB_OBJ) $(LDLIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(PT_CFLAGS) -MMD -MP -c -o $@ $<

# Loops that take square roots, floors and comparisons over vector lanes
# (RANSAC's ellipse votes, Canny's magnitude, hough's gradient votes): no
# errno, and comparisons and roundings the compiler may make on every lane.
# Every value rounds as before; only the IEEE exception flags, which
# nothing reads, may differ.
$(BUILD)/lib/detect/ransac.o $(BUILD)/omp/detect/canny.o $(BUILD)/omp/detect/hough.o: \
  PT_CFLAGS += -fno-math-errno -fno-trapping-math

# Starburst's fits and votes must round as on the CPU: no fused multiply-adds.
$(BUILD)/cuda/detect/starburst.o $(BUILD)/cuda/detect/starburst_pipeline.o: NVCCFLAGS += --fmad=false
# So must tl's (cuda/detect/tl*.cu).
$(BUILD)/cuda/detect/tl.o $(BUILD)/cuda/detect/tl%.o: NVCCFLAGS += --fmad=false
# Canny-Hough: filters, votes and fits round as omp/detect/canny.c and hough.c do.
$(BUILD)/cuda/detect/canny.o $(BUILD)/cuda/detect/hough.o $(BUILD)/cuda/detect/hough_vote.o \
$(BUILD)/cuda/detect/hough_refine.o: NVCCFLAGS += --fmad=false
# And the reported confidence's (cuda/detect/pupil_score.cu).
$(BUILD)/cuda/detect/pupil_score.o: NVCCFLAGS += --fmad=false

$(BUILD)/%.o: %.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/tests/%: tests/%.c $(LIBA)
	@mkdir -p $(dir $@)
	$(CC) $(PT_CFLAGS) $(PT_LDFLAGS) -o $@ $< $(LIBA) $(LDLIBS)

check: check-unit check-cli check-lib check-asan check-fuzz

check-unit: $(TEST_BIN) $(PT_BIN)
	@sh tests/run_unit.sh $(TEST_BIN)

check-cli: $(PT_BIN)
	@sh tests/run_cli.sh ./$(PT_BIN)

# The library as a user gets it: installed into a temporary prefix, its
# exports, the example program built with pkg-config, the Python module.
check-lib: $(PT_BIN) $(LIBSO)
	@MAKE="$(MAKE)" sh tests/run_lib.sh ./$(PT_BIN)

# The unit tests again under AddressSanitizer and UndefinedBehaviorSanitizer.
check-asan:
	@$(MAKE) --no-print-directory BUILD=build-asan PT_BIN=build-asan/pupiltrack CUDA=0 \
	  CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	  LDFLAGS="-fsanitize=address,undefined" check-unit

# Fuzz targets: clang's libFuzzer with AddressSanitizer and
# UndefinedBehaviorSanitizer; any undefined behaviour stops the run as a crash.
# At -O1 clang does not vectorise the omp simd loops: no note for each.
FUZZ_SANITIZE := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_SECONDS  ?= 30
fuzz:
	@$(MAKE) --no-print-directory BUILD=build-fuzz CUDA=0 CC=clang PT_BIN=build-fuzz/pupiltrack \
	  CFLAGS="-O1 -g -fno-omit-frame-pointer -Wno-pass-failed -fsanitize=fuzzer-no-link $(FUZZ_SANITIZE)" fuzz-targets

fuzz-targets: $(FUZZ_SRC:fuzz/%.c=$(BUILD)/fuzz/%)

$(CLI_LIBA): $(filter-out $(BUILD)/cli/main.o,$(CLI_OBJ))
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/fuzz/%: fuzz/%.c $(CLI_LIBA) $(LIBA)
	@mkdir -p $(dir $@)
	$(CC) $(PT_CFLAGS) -fsanitize=fuzzer $(FUZZ_SANITIZE) -o $@ $< -Wl,--start-group $(CLI_LIBA) $(LIBA) -Wl,--end-group $(LDLIBS)

# Each target for FUZZ_SECONDS on its corpus (scripts/fuzz_run.sh).
fuzz-run: fuzz
	@sh scripts/fuzz_run.sh build-fuzz $(FUZZ_SECONDS)

# In make check: the fuzz run when clang with libFuzzer is here (built on
# the 2 cores make check may use), else a note.
check-fuzz:
	@if sh scripts/fuzz_run.sh --available; then \
	  $(MAKE) --no-print-directory -j2 fuzz && sh scripts/fuzz_run.sh build-fuzz $(FUZZ_SECONDS); \
	else echo "fuzz: skipped (no clang with libFuzzer: apt-get install clang libclang-rt-dev)"; fi

install: $(PT_BIN) $(LIBSO) $(LIBA)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3 \
	  $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(PYTHONDIR)
	install -m 755 $(PT_BIN) $(DESTDIR)$(PREFIX)/bin/pupiltrack
	install -m 644 man/*.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 man/*.3 $(DESTDIR)$(MANDIR)/man3/
	install -m 755 $(LIBSO) $(DESTDIR)$(LIBDIR)/
	ln -sf libpupiltrack.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libpupiltrack.so.$(SOVERSION)
	ln -sf libpupiltrack.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/libpupiltrack.so
	install -m 644 $(LIBA) $(DESTDIR)$(LIBDIR)/
	install -m 644 lib/api/pupiltrack.h $(DESTDIR)$(INCLUDEDIR)/pupiltrack.h
	sed -e 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(LIBDIR)|; s|@INCLUDEDIR@|$(INCLUDEDIR)|' \
	  -e 's|@VERSION@|$(VERSION)|; s|@LIBS_PRIVATE@|-fopenmp $(LDLIBS)|' \
	  lib/api/pupiltrack.pc.in >$(DESTDIR)$(PKGCONFIGDIR)/pupiltrack.pc
	chmod 644 $(DESTDIR)$(PKGCONFIGDIR)/pupiltrack.pc
	sed 's|@LIBDIR@|$(LIBDIR)|' lib/api/pupiltrack.py >$(DESTDIR)$(PYTHONDIR)/pupiltrack.py
	chmod 644 $(DESTDIR)$(PYTHONDIR)/pupiltrack.py

clean:
	rm -rf build build-asan build-fuzz pupiltrack

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d)
