# bench/bench.mk — `make bench`: the baselines (nvcc) and the NESL benchmark
# programs (nesslc --target=cuda) into build/bench/, for bench/run_device.sh.
# Included by the Makefile.  A NESL program that nesslc cannot build yet is
# logged in build/bench/nesl/STEM.log and shows as "not built" in the table;
# it does not stop the build.

BENCH_DIR := $(BUILD)/bench
BENCH_NVCCFLAGS ?= -O3 -arch=sm_90 --extended-lambda -std=c++17
BENCH_NESLFLAGS ?= --target=cuda -arch=sm_90
BENCH_STEMS := $(shell python3 bench/benchlib.py instances)
BENCH_F32 := $(shell python3 bench/benchlib.py float32)
BENCH_BASES := $(shell python3 bench/benchlib.py baselines) copybw
BENCH_BASE_BINS := $(addprefix $(BENCH_DIR)/base/,$(BENCH_BASES))
BENCH_NESL_SRCS := $(patsubst %,$(BENCH_DIR)/src/%.nesl,$(BENCH_STEMS))
BENCH_NESL_LOGS := $(patsubst %,$(BENCH_DIR)/nesl/%.log,$(BENCH_STEMS))

.PHONY: bench bench-base bench-nesl bench-validate bench-plot

.PRECIOUS: $(BENCH_DIR)/src/%.nesl

bench: bench-base bench-nesl
	@built=$$(cd $(BENCH_DIR)/nesl && ls | grep -v '\.log$$' | wc -l); \
	 echo "bench: $(words $(BENCH_BASE_BINS)) baselines, $$built of $(words $(BENCH_STEMS)) NESL programs built in $(BENCH_DIR) (run bench/run_device.sh on the GPU machine)"

bench-base: $(BENCH_BASE_BINS)

bench-nesl: $(BENCH_NESL_LOGS)

ifeq ($(HAVE_NVCC),1)
$(BENCH_DIR)/base/%: bench/base/%.cu bench/base/bench.cuh
	@mkdir -p $(@D)
	$(say) NVCC $<
	$(Q)$(NVCC) $(BENCH_NVCCFLAGS) -o $@ $< $(if $(filter spmv,$*),-lcusparse)
else
$(BENCH_DIR)/base/%:
	@echo "bench: nvcc not found (./configure): cannot build the baselines" >&2; exit 1
endif

$(BENCH_DIR)/src/%.nesl: bench/progs/common.nesl bench/benchlib.py $(wildcard bench/progs/*.nesl.in)
	@mkdir -p $(@D)
	$(Q)python3 bench/benchlib.py source $* >$@

# The log records nesslc's output; the executable exists only if it built.
$(BENCH_DIR)/nesl/%.log: $(BENCH_DIR)/src/%.nesl $(BIN)
	@mkdir -p $(@D)
	$(say) NESSLC $<
	$(Q)if ./$(BIN) $(BENCH_NESLFLAGS) $(if $(filter $*,$(BENCH_F32)),-ffloat32) \
	        -o $(BENCH_DIR)/nesl/$* $< >$@ 2>&1; then :; else \
	    rm -f $(BENCH_DIR)/nesl/$*; echo "  not built: $* ($$(grep -m1 error: $@ | cut -c1-100))"; fi

# Interpreters against bench/ref.py at small sizes (no GPU needed).
bench-validate: $(BIN)
	python3 bench/validate.py --nesslc ./$(BIN)

# bench/plot.py on a results CSV: make bench-plot CSV=path
bench-plot:
	python3 bench/plot.py $(or $(CSV),$(BENCH_DIR)/results.csv)
