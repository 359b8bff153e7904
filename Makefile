# skein — plain GNU make. Quick start: `make run`, `make check`.
#
# Sites with OTF2 outside pkg-config's path (e.g. a Spack prefix) can say
#   make OTF2_PREFIX=/path/to/otf2
# or point PKG_CONFIG_PATH at it.

VERSION    := 0.1.0
PREFIX     ?= /usr/local
SHARED     ?= ../shared
CC         ?= cc
BUILD      ?= build
PKG_CONFIG ?= pkg-config

PKGS := ncursesw yaml-0.1 hwloc zlib
ifdef OTF2_PREFIX
OTF2_CFLAGS := -I$(OTF2_PREFIX)/include
OTF2_LIBS   := -L$(OTF2_PREFIX)/lib -Wl,-rpath,$(OTF2_PREFIX)/lib -lotf2
else
OTF2_CFLAGS  = $(shell $(PKG_CONFIG) --cflags otf2 2>/dev/null)
OTF2_LIBS    = $(shell $(PKG_CONFIG) --libs otf2 2>/dev/null || echo -lotf2)
endif

WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2
ifeq ($(CI),true)
WARN += -Werror
endif
OPT      ?= -O2 -g
SAN      :=
CPPFLAGS += -Isrc -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -DSKEIN_VERSION='"$(VERSION)"'
CFLAGS   += -std=c11 $(OPT) $(WARN) $(SAN) -MMD -MP

# Every layer folder of src/ is built; doc/architecture.md names them.
CORE_SRC := $(wildcard src/*/*.c src/*/*/*.c)
TUI_SRC  := $(wildcard tui/*.c)
TEST_SRC := $(wildcard tests/test_*.c)
CORE_OBJ := $(CORE_SRC:%.c=$(BUILD)/%.o)
TUI_OBJ  := $(TUI_SRC:%.c=$(BUILD)/%.o)
TESTS    := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
LIB      := $(BUILD)/libskein.a
BIN      := $(BUILD)/skein

# skein-mpi (mpi/, doc/distributed.md): the command line of tui/ without
# its main, built with an MPI compiler wrapper when there is one. MPICC
# names it; by default MPICH's (mpicc.mpich), else mpicc. With Open MPI
# installed too, $(BUILD)/skein-mpi.openmpi is built for it (make check).
MPICC         ?= $(shell command -v mpicc.mpich 2>/dev/null || command -v mpicc 2>/dev/null)
MPICC_OPENMPI ?= $(shell command -v mpicc.openmpi 2>/dev/null)
MPI_BIN       := $(if $(MPICC),$(BUILD)/skein-mpi)
MPI_OBJ       := $(patsubst mpi/%.c,$(BUILD)/mpi/%.o,$(wildcard mpi/*.c))
MPI_LINK_OBJ   = $(filter-out $(BUILD)/tui/skein.o,$(TUI_OBJ)) $(LIB) $(TUI_LIBS) $(CORE_LIBS)

CORE_CFLAGS = $(OTF2_CFLAGS) $(shell $(PKG_CONFIG) --cflags yaml-0.1 hwloc libxml-2.0 zlib 2>/dev/null)
CORE_LIBS   = $(OTF2_LIBS) $(shell $(PKG_CONFIG) --libs yaml-0.1 hwloc zlib 2>/dev/null || echo -lyaml -lhwloc -lz) -lm -pthread
TUI_LIBS    = $(shell $(PKG_CONFIG) --libs ncursesw 2>/dev/null)
TEST_LIBS   = $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null || echo -lcmocka)

EXAMPLE := traces/corpus/stencil-4-delay/traces.otf2

.PHONY: all run check check-unit check-portable check-asan check-tsan unit-tests unit-test-bins tsan-unit-tests check-cli check-cli-1 check-cli-2 traces-gen check-mpi check-traces deps deps-check \
	install uninstall clean traces bench bench-mpi fuzz fuzz-config fuzz-otf2 fuzz-topo fuzz-samples \
	fuzz-saved fuzz-projections doc-keys

all: $(BIN) $(MPI_BIN)

$(BUILD)/src/%.o: src/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(CORE_CFLAGS) -c $< -o $@

$(BUILD)/tui/%.o: tui/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(CORE_CFLAGS) -c $< -o $@

# The built-in configuration, embedded as bytes (od and awk are POSIX;
# xxd is not everywhere) and parsed at start-up by the config loader.
$(BUILD)/gen/config_defaults.c: config/defaults.yaml
	@mkdir -p $(@D)
	{ echo '/* generated from config/defaults.yaml: do not edit */'; \
	  echo '#include <stddef.h>'; \
	  echo 'extern const char config_defaults_yaml[];'; \
	  echo 'extern const size_t config_defaults_yaml_len;'; \
	  echo 'const char config_defaults_yaml[] = {'; \
	  od -An -v -tu1 config/defaults.yaml | awk '{ for (i = 1; i <= NF; i++) printf "%s,", $$i; print "" }'; \
	  echo '0 };'; \
	  echo 'const size_t config_defaults_yaml_len = sizeof config_defaults_yaml - 1;'; } > $@.tmp
	mv $@.tmp $@

$(BUILD)/gen/config_defaults.o: $(BUILD)/gen/config_defaults.c
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(LIB): $(CORE_OBJ) $(BUILD)/gen/config_defaults.o
	@rm -f $@
	$(AR) rcs $@ $^

$(BIN): $(TUI_OBJ) $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(TUI_OBJ) $(LIB) $(TUI_LIBS) $(CORE_LIBS)


$(BUILD)/mpi/%.o: mpi/%.c
	@mkdir -p $(@D)
	$(MPICC) -I. $(CPPFLAGS) $(CFLAGS) $(CORE_CFLAGS) -c $< -o $@

$(BUILD)/mpi/openmpi/%.o: mpi/%.c
	@mkdir -p $(@D)
	$(MPICC_OPENMPI) -I. $(CPPFLAGS) $(CFLAGS) $(CORE_CFLAGS) -c $< -o $@

$(BUILD)/skein-mpi: $(MPI_OBJ) $(TUI_OBJ) $(LIB)
	$(MPICC) $(CFLAGS) $(LDFLAGS) -o $@ $(MPI_OBJ) $(MPI_LINK_OBJ)

$(BUILD)/skein-mpi.openmpi: $(MPI_OBJ:$(BUILD)/mpi/%=$(BUILD)/mpi/openmpi/%) $(TUI_OBJ) $(LIB)
	$(MPICC_OPENMPI) $(CFLAGS) $(LDFLAGS) -o $@ $(filter $(BUILD)/mpi/openmpi/%,$^) $(MPI_LINK_OBJ)

# dcomm over MPI, checked by tests/mpi.sh under each MPI
$(BUILD)/tests/mpi_dcomm: tests/mpi_dcomm.c tests/dcomm_exercise.h $(BUILD)/mpi/dcomm_mpi.o $(LIB)
	@mkdir -p $(@D)
	$(MPICC) -I. $(CPPFLAGS) $(CFLAGS) $(CORE_CFLAGS) -o $@ $< $(BUILD)/mpi/dcomm_mpi.o $(LIB) $(CORE_LIBS)

$(BUILD)/tests/mpi_dcomm.openmpi: tests/mpi_dcomm.c tests/dcomm_exercise.h $(BUILD)/mpi/openmpi/dcomm_mpi.o $(LIB)
	@mkdir -p $(@D)
	$(MPICC_OPENMPI) -I. $(CPPFLAGS) $(CFLAGS) $(CORE_CFLAGS) -o $@ $< $(BUILD)/mpi/openmpi/dcomm_mpi.o $(LIB) $(CORE_LIBS)

# Unit tests link the core library alone: curses in the core is a link error.
$(BUILD)/tests/%: tests/%.c tests/testutil.h $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(CORE_CFLAGS) -o $@ $< $(LIB) $(TEST_LIBS) $(CORE_LIBS)

# test_dist_cc fails one rank's allocations in turn (tests/test_dist_cc.c).
$(BUILD)/tests/test_dist_cc: TEST_LIBS += -Wl,--wrap=malloc,--wrap=calloc
# test_charm_nomem fails the Charm++ analysis's allocations in turn.
$(BUILD)/tests/test_charm_nomem: TEST_LIBS += -Wl,--wrap=malloc,--wrap=calloc
# test_projections_bad looks for the largest allocation of a run.
$(BUILD)/tests/test_projections_bad: TEST_LIBS += -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc
# test_delay_bytes counts the bytes the waits' and delays' stages and the blame hold.
$(BUILD)/tests/test_delay_bytes: TEST_LIBS += -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free
# test_report_par fails the JSON pieces' reallocs in turn.
$(BUILD)/tests/test_report_par: TEST_LIBS += -Wl,--wrap=realloc
# test_profile counts the pairs comm_compute sorts.
$(BUILD)/tests/test_profile: TEST_LIBS += -Wl,--wrap=qsort

# test_view_topo counts the bytes the text functions read.
$(BUILD)/tests/test_view_topo: TEST_LIBS += -Wl,--wrap=text_width,--wrap=text_cut,--wrap=text_safe \
	-Wl,--wrap=text_safe_pad,--wrap=text_fit,--wrap=text_put,--wrap=text_cols_bytes,--wrap=text_utf8_next

# Writes the hostile archives of tests/hostile.sh with the OTF2 writer.
$(BUILD)/tools/craft: tests/hostile/craft.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(OTF2_CFLAGS) -o $@ $< $(OTF2_LIBS)

deps:
	@sh mk/deps.sh build

deps-check:
	@sh mk/deps.sh check

run: deps
	@$(MAKE) --no-print-directory all
	$(BIN) $(EXAMPLE)

# The three builds compile on every processor; their unit tests then run
# as one pool of jobs (tests/run-units.sh); then two streams at once
# (tests/together.sh), one a processor: the first half of check-cli and
# the portable runs; check-traces, the second half and tests/mpi.sh.
# Three streams (mpi.sh on its own) took more CPU on 2 cores, 537-590 s
# where two took 490-521 (2026-12-02): the waiting MPI ranks and every
# other process contended for the cores.
JOBS := $(shell nproc 2>/dev/null || echo 1)

# The tests call the tools that make check installs with apt-get
# (mk/deps.sh): the system's directories come first on their PATH, ahead
# of a version manager's shims (pyenv's python3 shim took 0.8 s a start
# on the development VM, /usr/bin/python3 0.04 s; leap.sh alone starts
# python3 160 times), and what runs is what a fresh Debian has.
CHECK_TARGETS := check check-unit check-portable check-cli check-cli-1 check-cli-2 check-mpi \
	check-traces check-asan check-tsan
$(CHECK_TARGETS): export PATH := /usr/sbin:/usr/bin:/sbin:/bin:$(PATH)
# and glibc's malloc backs its large blocks with huge pages where the
# kernel allows (transparent huge pages on madvise): otf2-print, the
# tests' ground truth, touches some 180 MB on even a small archive, and
# took 0.77 s of CPU a run on the development VM, 0.23 with this (page
# faults: 46,385 and 12,591); cli_structure.sh, which runs it 96 times,
# 42 s where 82. No result depends on it.
$(CHECK_TARGETS): export GLIBC_TUNABLES := $(if $(findstring glibc.malloc.hugetlb,$(GLIBC_TUNABLES)),$(GLIBC_TUNABLES),$(if $(GLIBC_TUNABLES),$(GLIBC_TUNABLES):)glibc.malloc.hugetlb=1)

# The whole suite: the layering of the sources (mk/layers.sh), unit and
# trace tests, again under ASan+UBSan and under
# TSan, the CLI tests, and the tracer's end-to-end run.
check: deps-check
	@sh mk/layers.sh .
	@$(MAKE) --no-print-directory -j$(JOBS) unit-tests
	@$(MAKE) --no-print-directory -j$(JOBS) $(ASAN_VARS) unit-test-bins
	@$(MAKE) --no-print-directory -j$(JOBS) $(TSAN_VARS) tsan-unit-tests
	@# before the unit runs, whose three test_view_golden would build the
	@# generators on demand at once (one lost the race on a fresh copy and
	@# skipped 134 cases), and before the streams: skein-mpi's build writes
	@# dependency files the other streams' makes read
	@$(MAKE) --no-print-directory -j$(JOBS) traces-gen $(MPI_CHECK_BIN) $(PRELOADS) $(BUILD)/tools/craft
	@UNITS_SKIP="$(TSAN_SKIP:%=build/tsan/tests/%)" UNITS_NOTHREADS="$(TSAN_SKIP:%=$(BUILD)/tests/%)" \
		sh tests/run-units.sh $(SHARED) $(BUILD) build/asan build/tsan
	@sh tests/together.sh \
		"$(MAKE) --no-print-directory check-cli-1; s=\$$?; sh tests/portable.sh $(SHARED) $(BUILD) && exit \$$s" \
		"$(MAKE) --no-print-directory check-traces; s=\$$?; $(MAKE) --no-print-directory check-cli-2 || s=1; \
		 $(MAKE) --no-print-directory check-mpi && exit \$$s"

check-unit: unit-tests traces-gen
	@sh tests/run-unit.sh $(BUILD) $(SHARED)

# The tests that can read a topology, again on foreign hardware (hwloc's
# HWLOC_XMLFILE and HWLOC_SYNTHETIC): no result depends on the machine.
check-portable: unit-tests traces-gen $(BUILD)/tests/topospy.so
	@sh tests/portable.sh $(SHARED) $(BUILD)

# The unit tests built, not run (check runs the three builds' at once).
unit-tests: $(BIN) unit-test-bins
# without skein itself (the sanitizers' builds: no unit test runs it)
unit-test-bins: $(TESTS)

# The unit tests that never start a thread: TSan, which finds races
# between threads, has nothing to look at in them (checked by a
# pthread_create count on every test, 2026-12-02). check neither builds
# nor runs them under TSan (25 s of CPU); tests/nothreads.c, preloaded
# into their plain runs, fails any of them that starts a thread after all.
TSAN_SKIP := test_badinput test_charm_nomem test_config test_config_keys test_evt_bytes \
	test_mem test_recycle test_samples test_sort test_text test_view_table
tsan-unit-tests: $(filter-out $(TSAN_SKIP:%=$(BUILD)/tests/%),$(TESTS))

# The preloads some tests run under (tests/nothreads.c, topospy.c,
# nodlopen.c, failmalloc.c): what each checks, each file says.
PRELOADS := $(BUILD)/tests/nothreads.so $(BUILD)/tests/topospy.so $(BUILD)/tests/nodlopen.so \
	$(BUILD)/tests/failmalloc.so
$(BUILD)/tests/%.so: tests/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -fPIC -shared -o $@ $< -ldl

# -g1 (lines and functions: what a sanitizer's report names) compiles the
# two builds in 93 s of 2 cores where -g took 126 s (2026-11-30)
ASAN_VARS = BUILD=build/asan OPT="-O1 -g1" \
	SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
# The reader and the analysis use two threads: races are bugs too.
TSAN_VARS = BUILD=build/tsan OPT="-O1 -g1" SAN="-fsanitize=thread"

check-asan:
	@$(MAKE) --no-print-directory $(ASAN_VARS) check-unit

check-tsan:
	@$(MAKE) --no-print-directory $(TSAN_VARS) check-unit

# The key lists of doc/skein.1 and README.md are `skein keys` output.
doc-keys: $(BIN)
	@sh mk/keys-doc.sh $(BIN)

# The CLI suites in two halves (check runs them beside each other, the
# second after check-traces and before tests/mpi.sh: 171 and 22 s of CPU,
# each script timed alone, 2026-12-02; the two streams then ended 17 s
# apart).
check-cli: check-cli-1 check-cli-2

# The generators some CLI scripts run, built before them: the two halves
# would otherwise build them on demand, two at once.
traces-gen:
	@$(MAKE) --no-print-directory -s -C traces gen

check-cli-1: $(BIN) $(BUILD)/tools/craft traces-gen $(BUILD)/tests/failmalloc.so
	@sh tests/charm.sh $(BIN) $(SHARED)
	@sh tests/threads.sh $(BIN) $(SHARED)
	@sh tests/leap.sh $(BIN) $(SHARED)
	@sh tests/saved.sh $(BIN) $(SHARED)
	@sh tests/profile.sh $(BIN) $(SHARED)
	@sh tests/escape.sh $(BIN) $(BUILD)/tools/craft
	@sh tests/cli_structure.sh $(BIN) $(SHARED)
	@sh tests/waits.sh $(BIN)
	@sh tests/onesided.sh $(BIN) $(SHARED)
	@sh tests/hostile.sh $(BIN) $(BUILD)/tools/craft

check-cli-2: $(BIN) $(BUILD)/tools/craft traces-gen $(BUILD)/tests/nodlopen.so
	@sh tests/cli.sh $(BIN) $(SHARED)
	@sh tests/tui.sh $(BIN)
	@sh tests/walkthrough.sh $(BIN)
	@sh tests/samples.sh $(BIN) $(SHARED)
	@sh tests/realapps.sh $(BIN)
	@sh tests/deps.sh
	@sh tests/layers.sh

# skein-mpi under MPICH and, when installed, Open MPI (tests/mpi.sh)
MPI_CHECK_BIN := $(MPI_BIN) $(if $(MPICC),$(BUILD)/tests/mpi_dcomm) \
	$(if $(and $(MPICC),$(MPICC_OPENMPI)),$(BUILD)/skein-mpi.openmpi $(BUILD)/tests/mpi_dcomm.openmpi)
check-mpi: $(BIN) $(MPI_CHECK_BIN) $(BUILD)/tools/craft
	@sh tests/mpi.sh $(BUILD) $(SHARED)

check-traces: $(BIN)
	@$(MAKE) --no-print-directory -C traces check SKEIN=$(abspath $(BIN))

$(BUILD)/bench/otf2_bare: tests/bench/otf2_bare.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -Wno-unused-parameter $(CORE_CFLAGS) -o $@ $< $(CORE_LIBS)

$(BUILD)/bench/prj_bare: tests/bench/prj_bare.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(CORE_CFLAGS) -o $@ $< -lz

$(BUILD)/bench/bench_skein: tests/bench/bench_skein.c $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(CORE_CFLAGS) -o $@ $< $(LIB) $(CORE_LIBS)

$(BUILD)/bench/bench_saved: tests/bench/bench_saved.c $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(CORE_CFLAGS) -o $@ $< $(LIB) $(CORE_LIBS)

# A benchmark, not a test: figures for doc/performance.md.
bench: deps $(BUILD)/bench/otf2_bare $(BUILD)/bench/prj_bare $(BUILD)/bench/bench_skein $(BUILD)/bench/bench_saved \
	$(BIN) $(MPI_BIN)
	@$(MAKE) --no-print-directory -C traces/gen all
	@BENCH_KEEP=1 sh tests/bench/bench.sh $(BUILD)
	@# BENCH_ONLY names one part of bench.sh: skein-mpi's runs are not one
	@if [ -z "$${BENCH_ONLY:-}" ]; then echo; sh tests/bench/mpi.sh $(BUILD); fi

# skein-mpi's figures alone (doc/distributed.md)
bench-mpi: $(BIN) $(MPI_BIN)
	@$(MAKE) --no-print-directory -C traces/gen all
	@sh tests/bench/mpi.sh $(BUILD)

# libFuzzer (clang) on the configuration loader, the OTF2 definitions path,
# the topology loader, the samples reader, the saved-analysis opener and
# the Projections reader with the Charm++ structure; FUZZ_SECONDS bounds
# each run (doc/robustness.md, doc/samples.md, doc/format.md and
# doc/charm.md say what they cover). New inputs go to build/fuzz/corpus-*;
# the project's files seed them (and for Projections the small shared
# runs, one file each: .sts, "===", PE 0's log, ...).
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_SAN     := -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
FUZZ_BUILD   := $(MAKE) --no-print-directory BUILD=build/fuzz CC=$(FUZZ_CC) OPT="-O1 -g" SAN="$(FUZZ_SAN)"
# libotf2 allocates arrays by the counts a record claims before reading
# them; ASan refuses what glibc would refuse (past 2 GiB), as in production.
FUZZ_ENV     := ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1:max_allocation_size_mb=2048 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan-otf2.supp
FUZZ_RUNS    := charm-hello1d_8c_4pe charm-ring_group_4pe charm-simple_reduction_16c_4pe \
		charm-allreduce_16c_4pe charm-synth-projections-4pe pipit-charm-pingpong-projections

fuzz: fuzz-config fuzz-otf2 fuzz-topo fuzz-samples fuzz-saved fuzz-projections

fuzz-config:
	@$(FUZZ_BUILD) build/fuzz/fuzz/fuzz_config
	@mkdir -p build/fuzz/corpus
	build/fuzz/fuzz/fuzz_config -max_total_time=$(FUZZ_SECONDS) -max_len=8192 \
		-artifact_prefix=build/fuzz/ build/fuzz/corpus config tests/config

# saved analyses: seeds written by skein from three corpus traces
fuzz-saved: $(BIN)
	@$(FUZZ_BUILD) build/fuzz/fuzz/fuzz_saved
	@mkdir -p build/fuzz/corpus-saved build/fuzz/seed-saved
	@for t in stencil-4-delay coalesce-4 kary_tree-4; do \
		$(BIN) analyze -q --save build/fuzz/seed-saved/$$t.skein traces/corpus/$$t >/dev/null || exit 1; \
	done
	@$(BIN) analyze -q --reorder --leap-merge --save build/fuzz/seed-saved/gather-reordered.skein \
		traces/corpus/gen-gather-6-delay >/dev/null
	@for r in charm-hello1d_8c_4pe charm-ring_group_4pe; do d=$(SHARED)/traces/projections/$$r; \
		[ ! -d "$$d" ] || $(BIN) analyze -q --save build/fuzz/seed-saved/$$r.skein "$$d" >/dev/null || exit 1; \
	done
	build/fuzz/fuzz/fuzz_saved -max_total_time=$(FUZZ_SECONDS) -max_len=65536 \
		-artifact_prefix=build/fuzz/saved- build/fuzz/corpus-saved build/fuzz/seed-saved

fuzz-samples:
	@$(FUZZ_BUILD) build/fuzz/fuzz/fuzz_samples
	@mkdir -p build/fuzz/corpus-samples
	build/fuzz/fuzz/fuzz_samples -max_total_time=$(FUZZ_SECONDS) -max_len=16384 \
		-artifact_prefix=build/fuzz/samples- build/fuzz/corpus-samples tests/fuzz/samples traces/samples/toy/data

# The template archive: two ranks written by craft; the seed packs its
# anchor, global and local definitions as the target reads them.
fuzz-otf2: $(BUILD)/tools/craft
	@$(FUZZ_BUILD) build/fuzz/fuzz/fuzz_otf2
	@rm -rf build/fuzz/otf2-template && $(BUILD)/tools/craft plain build/fuzz/otf2-template 2
	@mkdir -p build/fuzz/corpus-otf2 build/fuzz/seed-otf2
	@python3 tests/fuzz/pack_otf2.py build/fuzz/otf2-template build/fuzz/seed-otf2/plain
	@for k in big-ids escape global-ids bad-locks; do rm -rf build/fuzz/t-$$k && $(BUILD)/tools/craft $$k build/fuzz/t-$$k && \
		python3 tests/fuzz/pack_otf2.py build/fuzz/t-$$k build/fuzz/seed-otf2/$$k; done
	SKEIN_FUZZ_TEMPLATE=build/fuzz/otf2-template $(FUZZ_ENV) build/fuzz/fuzz/fuzz_otf2 \
		-max_total_time=$(FUZZ_SECONDS) -max_len=16384 -timeout=10 -rss_limit_mb=2048 \
		-artifact_prefix=build/fuzz/otf2- build/fuzz/corpus-otf2 build/fuzz/seed-otf2

fuzz-topo:
	@$(FUZZ_BUILD) build/fuzz/fuzz/fuzz_topo
	@mkdir -p build/fuzz/corpus-topo build/fuzz/seed-topo
	@printf '\001pack:2 core:4 pu:2' >build/fuzz/seed-topo/synthetic
	@printf '\001pack:2 [numa] core:3(indexes=0,1,2) pu:2' >build/fuzz/seed-topo/numa
	@for f in $(wildcard $(SHARED)/traces/hwloc/*.xml); do { printf '\000'; cat $$f; } >build/fuzz/seed-topo/$$(basename $$f); done
	$(FUZZ_ENV) build/fuzz/fuzz/fuzz_topo -max_total_time=$(FUZZ_SECONDS) -max_len=65536 -timeout=30 \
		-artifact_prefix=build/fuzz/topo- build/fuzz/corpus-topo build/fuzz/seed-topo

fuzz-projections:
	@$(FUZZ_BUILD) build/fuzz/fuzz/fuzz_projections
	@mkdir -p build/fuzz/corpus-prj build/fuzz/prj-seeds
	@for r in $(FUZZ_RUNS); do \
		d=$(SHARED)/traces/projections/$$r; [ -d "$$d" ] || continue; \
		s=$$(ls "$$d"/*.sts); b=$${s%.sts}; pe=0; \
		{ cat "$$s"; while [ -f "$$b.$$pe.log.gz" ] || [ -f "$$b.$$pe.log" ]; do \
			echo "==="; zcat -f "$$b.$$pe.log"*; pe=$$((pe + 1)); done; } >build/fuzz/prj-seeds/$$r; \
	done
	build/fuzz/fuzz/fuzz_projections -max_total_time=$(FUZZ_SECONDS) -max_len=65536 \
		-artifact_prefix=build/fuzz/prj- build/fuzz/corpus-prj build/fuzz/prj-seeds tests/fuzz/prj

$(BUILD)/fuzz/%: tests/fuzz/%.c $(LIB)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(CORE_CFLAGS) -fsanitize=fuzzer -o $@ $< $(LIB) $(CORE_LIBS)

traces:
	@sh mk/deps.sh traces
	$(MAKE) -C traces all

# the documents --help and skein(1) name by their file name go with them
install: $(BIN) $(MPI_BIN)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/doc/skein
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/skein
	install -m 644 doc/skein.1 $(DESTDIR)$(PREFIX)/share/man/man1/skein.1
	install -m 644 doc/*.md $(DESTDIR)$(PREFIX)/share/doc/skein/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/skein $(DESTDIR)$(PREFIX)/share/man/man1/skein.1
	rm -rf $(DESTDIR)$(PREFIX)/share/doc/skein

clean:
	rm -rf build

-include $(CORE_OBJ:.o=.d) $(TUI_OBJ:.o=.d) $(TESTS:=.d) $(wildcard $(BUILD)/mpi/*.d $(BUILD)/mpi/openmpi/*.d)
