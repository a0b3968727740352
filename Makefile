# pupiltrack — GNU Make build.
#   make                 pupiltrack with the OpenMP back end (+ CUDA when nvcc is found)
#   make CUDA=0|1        force the CUDA back end off / on
#   make check           unit tests, command-line tests, sanitizer build of the unit tests
#   make fuzz            libFuzzer targets (clang) in build/fuzz/
#   make install PREFIX=/usr/local

VERSION   := 0.1.0
PREFIX    ?= /usr/local
BUILD     ?= build
CC        ?= gcc
CFLAGS    ?= -O2 -g
# The project's own flags stay when CFLAGS/LDFLAGS are given on the command line.
PT_CFLAGS  = $(CFLAGS) -std=c11 -Wall -Wextra -fopenmp -D_DEFAULT_SOURCE -DPT_VERSION='"$(VERSION)"' -I.
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
NVCCFLAGS += -I.

# Sources by domain: lib/DOMAIN, omp/DOMAIN, cuda/DOMAIN (see the README's layout).
# cuda/detect/chunk_plan.c is the CUDA back end's host arithmetic (no CUDA
# calls), built with or without CUDA so that its test runs everywhere; so are
# the CUDA back ends' tables (cuda/*/*_table.c), whose entries say when CUDA
# is missing.
# cli/backends/ is the back-end registry above lib/; it goes into the archive
# so that the tests reach every back end by name as the program does.
LIB_SRC   := $(wildcard lib/*/*.c eval/*.c omp/*/*.c cli/backends/*.c) \
             cuda/detect/chunk_plan.c $(wildcard cuda/*/*_table.c)
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
# The program; the sanitizer build makes its own beside its objects.
PT_BIN    ?= pupiltrack

.DEFAULT_GOAL := all

$(BUILD)/tools/%: scripts/tools/%.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -o $@ $<

$(BUILD)/tools/%: scripts/tools/%.c $(LIBA)
	@mkdir -p $(dir $@)
	$(CC) $(PT_CFLAGS) -o $@ $< $(LIBA) $(LDLIBS)

tools: $(BUILD)/tools/h2d_bandwidth $(BUILD)/tools/auction_host_bench

.PHONY: all tools check check-unit check-cli check-asan fuzz install clean
all: $(PT_BIN)

$(PT_BIN): $(CLI_OBJ) $(LIBA)
	$(CC) $(PT_LDFLAGS) -o $@ $(CLI_OBJ) $(LIBA) $(LDLIBS)

$(LIBA): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(PT_CFLAGS) -MMD -MP -c -o $@ $<

# Starburst's fits and votes must round as on the CPU: no fused multiply-adds.
$(BUILD)/cuda/detect/starburst.o $(BUILD)/cuda/detect/starburst_pipeline.o: NVCCFLAGS += --fmad=false
# So must tl's (cuda/detect/tl*.cu).
$(BUILD)/cuda/detect/tl.o $(BUILD)/cuda/detect/tl%.o: NVCCFLAGS += --fmad=false
# Canny-Hough: filters, votes and fits round as omp/detect/canny.c and hough.c do.
$(BUILD)/cuda/detect/canny.o $(BUILD)/cuda/detect/hough.o $(BUILD)/cuda/detect/hough_vote.o \
$(BUILD)/cuda/detect/hough_refine.o: NVCCFLAGS += --fmad=false

$(BUILD)/%.o: %.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/tests/%: tests/%.c $(LIBA)
	@mkdir -p $(dir $@)
	$(CC) $(PT_CFLAGS) $(PT_LDFLAGS) -o $@ $< $(LIBA) $(LDLIBS)

check: check-unit check-cli check-asan

check-unit: $(TEST_BIN) $(PT_BIN)
	@sh tests/run_unit.sh $(TEST_BIN)

check-cli: $(PT_BIN)
	@sh tests/run_cli.sh ./$(PT_BIN)

# The unit tests again under AddressSanitizer and UndefinedBehaviorSanitizer.
check-asan:
	@$(MAKE) --no-print-directory BUILD=build-asan PT_BIN=build-asan/pupiltrack CUDA=0 \
	  CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
	  LDFLAGS="-fsanitize=address,undefined" check-unit

fuzz:
	@$(MAKE) --no-print-directory BUILD=build-fuzz CUDA=0 CC=clang \
	  CFLAGS="-O1 -g -fsanitize=fuzzer-no-link,address,undefined" fuzz-targets

fuzz-targets: $(FUZZ_SRC:fuzz/%.c=$(BUILD)/fuzz/%)

$(BUILD)/fuzz/%: fuzz/%.c $(LIBA)
	@mkdir -p $(dir $@)
	$(CC) $(PT_CFLAGS) -fsanitize=fuzzer,address,undefined -o $@ $< $(LIBA) $(LDLIBS)

install: pupiltrack
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 pupiltrack $(DESTDIR)$(PREFIX)/bin/pupiltrack
	install -m 644 man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/

clean:
	rm -rf build build-asan build-fuzz pupiltrack

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d)
