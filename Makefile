# Makefile — builds nesslc (GNU make).  Run ./configure first.
#
#   make              build ./nesslc (objects in build/)
#   make check        build, then run unit tests and every program test (with
#                     nvcc configured, also mode cuda-compile: every test's
#                     generated CUDA compiled, no GPU needed)
#   make check-unit   build and run only tests/unit/*.c
#   make check-asan   the same suite on an ASan+UBSan build in build-asan/
#   make check-gpu    (GPU machine) every λcu program through the CUDA back end,
#                     each run as built and with NESL_BT=16, and a subset
#                     under compute-sanitizer (tests/check_gpu.sh;
#                     NESSLC=path uses a prebuilt nesslc, nothing is rebuilt)
#   make fuzz         fuzz the front end with libFuzzer (ASan+UBSan, needs
#                     clang), not part of check (doc/fuzzing.md)
#   make difftest     random programs through every executor, compared
#                     (N=programs SEED=first seed; doc/difftest.md)
#   make install      PREFIX/bin/nesslc and PREFIX/share/doc/nesslc
#   make bench        baselines (nvcc) and NESL benchmark programs in build/bench
#                     (bench/README.md; bench/run_device.sh runs them on a GPU)
#   make clean        remove build outputs (distclean: also config.mk)
#
# Variables: TESTS="filter..." limits the program tests, JOBS=N their
# parallelism, MODE=m the executor (see tests/run_tests.sh --help),
# TEST_TIMEOUT=S the per-test time limit (default 60 s, check-asan 600 s),
# FUZZ_SECONDS=S / FUZZ_TARGETS="nesl lcu" the fuzzers' run, FUZZ_SAN=none
# (or undefined) / FUZZ_DIR=build/fuzz-none a faster unsanitized fuzzer build
# in its own directory, V=1 full command lines.

.DEFAULT_GOAL := all
MAKEFLAGS += --no-print-directory
.DELETE_ON_ERROR:
.SUFFIXES:

# clean/distclean need no configuration; everything else does.
NOCONFIG_GOALS := clean distclean
ifneq ($(filter-out $(NOCONFIG_GOALS),$(or $(MAKECMDGOALS),all)),)
  ifeq ($(wildcard config.mk),)
    $(error config.mk not found: run ./configure first (./configure --help for options))
  endif
  include config.mk
endif

# Short "CC file" lines unless V=1; warnings and errors always show.
ifeq ($(V),1)
  Q :=
  say := @true
else
  Q := @
  say := @printf '  %-6s %s\n'
endif

# ---- build variants ---------------------------------------------------------
# One Makefile, several out-of-tree builds: check-asan re-invokes make with
# BUILD=build-asan SAN=1, fuzz with BUILD=build/fuzz SAN=fuzzer, so sanitized
# objects never mix with normal ones.
BUILD ?= build
comma := ,
BIN ?= nesslc
SAN ?= 0
GEN := $(BUILD)/gen

ifeq ($(SAN),1)
  SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -g -O1
  # Exported to every command make runs, so the harness's nesslc runs see them.
  export UBSAN_OPTIONS ?= halt_on_error=1:print_stacktrace=1
  export ASAN_OPTIONS ?= detect_leaks=1:abort_on_error=0
endif
# The fuzzers' objects (make fuzz): coverage for libFuzzer, and every UBSan
# report fatal so that libFuzzer saves its input.
# FUZZ_SAN picks the sanitizers: "address,undefined" (the default), or
# "undefined" or "none" for throughput (libFuzzer still catches crashes,
# hangs and aborts; doc/fuzzing.md).
FUZZ_SAN ?= address,undefined
ifeq ($(SAN),fuzzer)
  SAN_FLAGS := -fsanitize=fuzzer-no-link$(if $(filter-out none,$(FUZZ_SAN)),$(comma)$(FUZZ_SAN)) \
               $(if $(findstring undefined,$(FUZZ_SAN)),-fno-sanitize-recover=undefined) \
               -fno-omit-frame-pointer -g
endif

WARNFLAGS := -Wall -Wextra
# Bison/Flex output is not ours to fix: these objects alone get quieter flags.
GEN_WARNFLAGS := -Wno-unused-function -Wno-sign-compare -Wno-unused-parameter \
                 -Wno-unused-but-set-variable -Wno-unused-variable
ALL_CPPFLAGS := -D_POSIX_C_SOURCE=200809L -I$(GEN) -I. -Icommon -Ifrontend $(CPPFLAGS)
ALL_CFLAGS := -std=c11 $(WARNFLAGS) $(CFLAGS) $(SAN_FLAGS)
LIBS := $(LPSOLVE_LIBS) -lm -pthread

# ---- sources ----------------------------------------------------------------
# Every phase directory linked into nesslc; new *.c files are picked up by the
# wildcard.  rt/ is the runtime of generated programs, never linked in here.
PHASES := common frontend interp flatten lcu fusion cudagen driver
SRCS := $(sort $(foreach d,$(PHASES),$(wildcard $(d)/*.c)))
MAIN_SRC := driver/main.c

GEN_HDRS := $(GEN)/parser.h $(GEN)/lexer.h
# Kept although make could see them as intermediate files of a pattern chain.
.SECONDARY: $(GEN_HDRS)
GEN_SRCS := $(GEN)/parser.c $(GEN)/lexer.c $(GEN)/prelude_text.c $(GEN)/rt_text.c
LIB_NESL := $(sort $(wildcard lib/*.nesl))
# The runtime of generated programs (rt/): embedded in nesslc, which writes
# it next to each generated program (cudagen/cgen.c).
RT_FILES := $(sort $(wildcard rt/*.h rt/*.cuh rt/*.c))
# The CPU runtime library, built once (with and without OpenMP) and linked
# into every program of --target=c.
CPU_LIB := $(BUILD)/lib/libnesl_rt_cpu.a
CPU_SEQ_LIB := $(BUILD)/lib/libnesl_rt_cpu_seq.a
CPU_LIB_OBJS := $(patsubst rt/%.c,$(BUILD)/lib/cpu/%.o,$(filter %.c,$(RT_FILES)))
CPU_SEQ_LIB_OBJS := $(patsubst rt/%.c,$(BUILD)/lib/cpu_seq/%.o,$(filter %.c,$(RT_FILES)))
RT_OBJS := $(CPU_LIB_OBJS) $(CPU_SEQ_LIB_OBJS)
CGEN_CFLAGS ?= -O2 -std=c11
OPENMP_CFLAGS ?=

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
OBJS := $(call obj,$(SRCS))
GEN_OBJS := $(patsubst $(GEN)/%.c,$(BUILD)/obj/gen/%.o,$(GEN_SRCS))
# Everything but main(): what unit tests link against.
LIB_OBJS := $(filter-out $(call obj,$(MAIN_SRC)),$(OBJS)) $(GEN_OBJS)
# The front end alone (the fuzzer's target).
FRONTEND_OBJS := $(call obj,$(sort $(wildcard common/*.c frontend/*.c))) $(GEN_OBJS)

UNIT_SRCS := $(sort $(wildcard tests/unit/*.c))
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/unit/%,$(UNIT_SRCS))

# ---- main targets -----------------------------------------------------------
.PHONY: all unit check check-unit check-asan check-gpu fuzz install uninstall clean distclean FORCE

all: $(BIN) $(CPU_LIB) $(CPU_SEQ_LIB)

$(BIN): $(OBJS) $(GEN_OBJS)
	$(say) LINK $@
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LIBS)

# Objects depend on config.mk (a new compiler or flags rebuilds everything) and,
# order-only, on the generated headers so that `make -j` never compiles a file
# that includes parser.h/lexer.h before they exist; -MMD records the rest.
$(BUILD)/obj/%.o: %.c config.mk | $(GEN_HDRS)
	@mkdir -p $(@D)
	$(say) CC $<
	$(Q)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/obj/gen/%.o: $(GEN)/%.c config.mk | $(GEN_HDRS)
	@mkdir -p $(@D)
	$(say) CC $<
	$(Q)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(GEN_WARNFLAGS) -MMD -MP -c $< -o $@

# The C compiler, its flags for generated programs and OpenMP's (configure)
# are compiled into the back end.
$(call obj,cudagen/cgen.c): ALL_CPPFLAGS += -DNESSLC_CC='"$(CC)"' \
    -DNESSLC_CGEN_CFLAGS='"$(CGEN_CFLAGS)"' -DNESSLC_OPENMP_CFLAGS='"$(OPENMP_CFLAGS)"' \
    -DNESSLC_NVCC='"$(if $(filter 1,$(HAVE_NVCC)),$(NVCC))"'

# ---- the CPU runtime library ------------------------------------------------
# Every rt/*.c compiled once with the generated programs' flags (CGEN_CFLAGS,
# and the project's warning flags: the runtime stays warning-free), with
# OpenMP (libnesl_rt_cpu.a) and without (libnesl_rt_cpu_seq.a, for
# --no-openmp); nesslc -o links it like the CUDA one (cudagen/cgen.c) instead
# of compiling the runtime's sources for every program.
$(CPU_LIB): $(CPU_LIB_OBJS)
	$(say) AR $@
	$(Q)rm -f $@ && ar rcs $@ $^

$(CPU_SEQ_LIB): $(CPU_SEQ_LIB_OBJS)
	$(say) AR $@
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/lib/cpu/%.o: rt/%.c config.mk
	@mkdir -p $(@D)
	$(say) CC $<
	$(Q)$(CC) -Irt $(CGEN_CFLAGS) $(WARNFLAGS) $(OPENMP_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/lib/cpu_seq/%.o: rt/%.c config.mk
	@mkdir -p $(@D)
	$(say) CC $<
	$(Q)$(CC) -Irt $(CGEN_CFLAGS) $(WARNFLAGS) -MMD -MP -c $< -o $@

# ---- the CUDA runtime library ------------------------------------------------
# Built once (only when configure found nvcc) and linked into every program of
# --target=cuda; nesslc finds it relative to its executable (BUILD/lib).  It
# holds rt/rt_cuda*.cu (nvcc) and the shared C runtime files: every rt/*.c
# except the CPU-only rt/rt_cpu*.c (cc).  NVCC_ARCH_FLAGS: the GPUs it runs
# on (SASS for sm_80 and sm_90, PTX for later ones).
ifeq ($(HAVE_NVCC),1)
NVCC_ARCH_FLAGS ?= -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=[sm_90,compute_90]
CUDA_LIB := $(BUILD)/lib/libnesl_rt_cuda.a
RT_CUDA_OBJS := $(patsubst rt/%.cu,$(BUILD)/lib/obj/%.o,$(sort $(wildcard rt/rt_cuda*.cu))) \
                $(patsubst rt/%.c,$(BUILD)/lib/obj/%.o,$(filter-out rt/rt_cpu%,$(filter %.c,$(RT_FILES))))

all: $(CUDA_LIB)

$(CUDA_LIB): $(RT_CUDA_OBJS)
	$(say) AR $@
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/lib/obj/%.o: rt/%.cu rt/nesl_rt.h rt/nesl_scalar.h rt/nesl_cuda.cuh rt/nesl_cuda_scan.cuh rt/nesl_cuda_sd.cuh rt/nesl_cuda_bt.cuh rt/nesl_cuda_bt_soac.cuh rt/nesl_cuda_filter_multi.cuh rt/rt_core.h rt/rt_cuda_impl.h config.mk
	@mkdir -p $(@D)
	$(say) NVCC $<
	$(Q)$(NVCC) -O3 -std=c++17 $(NVCC_ARCH_FLAGS) -Irt -c $< -o $@

$(BUILD)/lib/obj/%.o: rt/%.c config.mk
	@mkdir -p $(@D)
	$(say) CC $<
	$(Q)$(CC) -Irt -std=c11 $(WARNFLAGS) -O2 -MMD -MP -c $< -o $@
endif

# Pattern rules with two targets are run once for both (a grouped target).
$(GEN)/%.c $(GEN)/%.h: frontend/%.y
	@mkdir -p $(@D)
	$(say) BISON $<
	$(Q)$(BISON) $(BISONFLAGS) --defines=$(GEN)/$*.h -o $(GEN)/$*.c $<

$(GEN)/%.c $(GEN)/%.h: frontend/%.l
	@mkdir -p $(@D)
	$(say) FLEX $<
	$(Q)$(FLEX) $(FLEXFLAGS) --header-file=$(GEN)/$*.h -o $(GEN)/$*.c $<

# The library text is embedded in the binary.  prelude.list changes only when
# the set of lib/*.nesl files does, so adding or removing one regenerates it.
$(GEN)/prelude.list: FORCE
	@mkdir -p $(@D)
	@echo '$(LIB_NESL)' | cmp -s - $@ || echo '$(LIB_NESL)' > $@

$(GEN)/prelude_text.c: lib/embed.sh $(GEN)/prelude.list $(LIB_NESL)
	$(say) EMBED "$(LIB_NESL)"
	$(Q)sh lib/embed.sh $(LIB_NESL) > $@.tmp && mv $@.tmp $@

$(GEN)/rt.list: FORCE
	@mkdir -p $(@D)
	@echo '$(RT_FILES)' | cmp -s - $@ || echo '$(RT_FILES)' > $@

$(GEN)/rt_text.c: rt/embed.sh $(GEN)/rt.list $(RT_FILES)
	$(say) EMBED "$(RT_FILES)"
	$(Q)sh rt/embed.sh $(RT_FILES) > $@.tmp && mv $@.tmp $@

# ---- tests ------------------------------------------------------------------
$(BUILD)/unit/%: tests/unit/%.c $(LIB_OBJS) config.mk | $(GEN_HDRS)
	@mkdir -p $(@D)
	$(say) LINK $@
	$(Q)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -MF $@.d $(LDFLAGS) -o $@ $< $(LIB_OBJS) $(LIBS)

# Also drops binaries whose source was removed, since the harness runs every
# executable in the directory.
unit: $(UNIT_BINS)
	@mkdir -p $(BUILD)/unit
	@for f in $(BUILD)/unit/*; do \
	    case $$f in *.d) continue ;; esac; \
	    [ -f tests/unit/$${f##*/}.c ] || rm -f "$$f"; \
	done

# The default modes: the five CPU executors, and the CUDA build (compile
# only) where ./configure found nvcc.
CHECK_MODES = interp,lcu,lcu0,c,c0$(if $(filter 1,$(HAVE_NVCC)),$(comma)cuda-compile)
HARNESS = tests/run_tests.sh --nesslc $(BIN) --unit $(BUILD)/unit \
          $(if $(JOBS),--jobs $(JOBS)) --mode $(or $(MODE),$(CHECK_MODES)) \
          $(if $(TEST_TIMEOUT),--timeout $(TEST_TIMEOUT))

# The runtime libraries too: mode cuda-compile links the CUDA one, and the C
# modes build faster with the CPU ones (nesslc compiles the runtime's sources
# for each program where they are missing).
check: all unit
	@$(HARNESS) $(TESTS)

check-unit: unit
	@$(HARNESS) --unit-only $(TESTS)

# Sanitized code runs several times slower: a longer per-test limit
# (tests/codegen/deep_recursion.lcu's λcu interpreter takes 220 s alone under
# ASan, and went past 300 s with another build sharing the machine).
check-asan:
	@$(MAKE) BUILD=build-asan BIN=build-asan/nesslc SAN=1 TEST_TIMEOUT=600 check

# Runs what is built: usable where the build directory was carried to a GPU
# machine without bison, flex or lp_solve.
check-gpu:
	@tests/check_gpu.sh --nesslc $(or $(NESSLC),$(BIN)) $(if $(JOBS),--jobs $(JOBS)) $(TESTS)

# ---- fuzzing (doc/fuzzing.md) ---------------------------------------------
# libFuzzer targets in tests/fuzz/ (fuzz_nesl: the whole front end through
# kernel formation; fuzz_lcu: the λcu parser and checker), built with
# $(FUZZ_CC) (configure) under ASan+UBSan into build/fuzz/ by a recursive make
# with SAN=fuzzer, so their objects never mix with the normal ones.  Each
# target runs FUZZ_SECONDS; crashes land in build/fuzz/crashes/.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= nesl lcu
FUZZ_DIR ?= build/fuzz

$(BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(LIB_OBJS) config.mk | $(GEN_HDRS)
	$(say) LINK $@
	$(Q)$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -fsanitize=fuzzer -MMD -MP -MF $@.d $(LDFLAGS) \
	    -o $@ $< $(LIB_OBJS) $(LIBS)

fuzz:
ifeq ($(FUZZ_CC),)
	@echo "make fuzz: unavailable: ./configure found no clang with libFuzzer" \
	      "(install clang, or set FUZZ_CC=... and re-run ./configure)" >&2; exit 1
else
	@$(MAKE) BUILD=$(FUZZ_DIR) CC=$(FUZZ_CC) SAN=fuzzer \
	    $(addprefix $(FUZZ_DIR)/fuzz_,$(FUZZ_TARGETS))
	@sh tests/fuzz/run_fuzz.sh $(FUZZ_DIR) $(FUZZ_SECONDS) $(FUZZ_TARGETS)
endif

# ---- random-program differential testing (doc/difftest.md) -----------------
# N programs from seeds SEED..SEED+N-1 (tests/gen/nesl_gen.py) run through
# every executor; disagreements are minimized into $(BUILD)/difftest/.
.PHONY: difftest
N ?= 200
SEED ?= 1
difftest: $(BIN)
	@python3 tests/gen/difftest.py --nesslc $(BIN) -n $(N) -s $(SEED) \
	    --out $(BUILD)/difftest $(if $(JOBS),-j $(JOBS)) $(DIFFTEST_FLAGS)

# ---- install / clean --------------------------------------------------------
DOCDIR = $(PREFIX)/share/doc/nesslc

install: $(BIN) $(CPU_LIB) $(CPU_SEQ_LIB)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(DOCDIR)
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/nesslc
	install -d $(DESTDIR)$(PREFIX)/lib/nesslc
	install -m 644 $(CPU_LIB) $(CPU_SEQ_LIB) $(DESTDIR)$(PREFIX)/lib/nesslc/
	$(if $(CUDA_LIB),install -m 644 $(CUDA_LIB) $(DESTDIR)$(PREFIX)/lib/nesslc/)
	install -m 644 README.md $(wildcard doc/*.md) $(DESTDIR)$(DOCDIR)

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/nesslc
	rm -rf $(DESTDIR)$(PREFIX)/lib/nesslc
	rm -rf $(DESTDIR)$(DOCDIR)

clean:
	rm -rf build build-asan nesslc

distclean: clean
	rm -f config.mk

FORCE:

-include $(OBJS:.o=.d) $(GEN_OBJS:.o=.d) $(RT_OBJS:.o=.d) $(RT_CUDA_OBJS:.o=.d) $(UNIT_BINS:=.d) $(wildcard $(BUILD)/fuzz_*.d)

# ---- benchmarks (bench/README.md) -------------------------------------------
include bench/bench.mk
