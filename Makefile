# SPDX-License-Identifier: GPL-2.0
#
# Portable sleepable BPF trampolines for Linux 6.1: build and test harness.
#
#   make run     build the patched kernels (x86_64, arm64, riscv64), boot each,
#                run the sleepable-program suite, print arch x case table
#   make test    what CI runs: stock and patched, three architectures,
#                conformance suite; ends with "N passed, M failed, K skipped"
#   make help    everything else
#
# Everything lands under build/ (ignored by git).  Kernel builds are out of
# tree and incremental, and share objects through ccache.

SHELL := /bin/bash
ROOT := $(CURDIR)
BUILD := $(ROOT)/build
ARCHS := x86_64 arm64 riscv64
# Backends the userspace conformance suite runs (natively or in qemu-user).
CONF_ARCHS := x86_64 arm64 riscv64
ARCH ?= x86_64
VARIANT ?= patched
T ?=
# Cases of our suite to leave out, by name, comma-separated (make vmtest,
# make kasan ...): the rest of a suite after a long case ran on its own.
X ?=
ITERS ?= 20000
VM_TIMEOUT ?= 1500
KSELFTEST_TIMEOUT ?= 1200
KASAN_TIMEOUT ?= 1200
# QEMU runs side by side in make run and make test (one host thread each).
VM_JOBS ?= $(shell nproc)
# Load/attach/detach/free rounds of each trampoline churn case in a make
# test boot, per architecture: a round takes about 0.15 s on an x86_64
# guest, 1.6-2.1 s on an arm64 one and 0.8 s on a riscv64 one beside
# another guest.  Each boot runs at least 12, three of each of the four
# kinds, the first four checked kind by kind; the two churn cases of the
# seven boots took about 270 s of make test's QEMU time at 100 / 25 / 50
# rounds (clean-clone run of e3f9b90, 2026-12-06), so make test runs
# 40 / 12 / 20.  make kasan runs the 2,000 rounds per case the churn test
# was specified with.
CHURN_ROUNDS_x86_64 ?= 40
CHURN_ROUNDS_arm64 ?= 12
CHURN_ROUNDS_riscv64 ?= 20
CHURN_ROUNDS ?= $(CHURN_ROUNDS_$(ARCH))
KASAN_CHURN_ROUNDS ?= 2000
# attach_detach_stress: rounds of attach and detach per thread (two
# threads), 500 as specified on x86_64 (0.12 s a round under TCG).  An
# arm64 round takes about 2.2 s at a steady rate (500 + 500 took 2,244 s
# on a KASLR boot), so make test runs 10 there; the specified 500 is one
# command away:
#   make vmtest ARCH=arm64 T=attach_detach_stress STRESS_ROUNDS=500 \
#	VM_TIMEOUT=6000
STRESS_ROUNDS_x86_64 ?= 500
# The stock kernel is the baseline the patched one is compared with, not
# what is under test: 100 rounds there (500 took 117 s of its run).
STRESS_ROUNDS_stock_x86_64 ?= 100
STRESS_ROUNDS_arm64 ?= 10
STRESS_ROUNDS_riscv64 ?= 10
STRESS_ROUNDS ?= $(STRESS_ROUNDS_$(ARCH))
BENCH_TIMEOUT ?= 900
PY := python3

export BUILD_DIR := $(BUILD)

.NOTPARALLEL:
.PHONY: help deps source kernel user vmtest kselftest tools bench run test patches kasan bti nomodrwx preempt veneers prefix-test \
	distro-check distro-boot guests \
	checkpatch clean distclean summary check-arch conformance mutants series-check \
	quilt quilt-check tables glue-upstream guests-for test-prep

help:
	@echo "make run                       patched kernels for $(ARCHS): build, boot, run the suite, print a table"
	@echo "make test                      CI: stock+patched x $(ARCHS), final line 'N passed, M failed, K skipped'"
	@echo "make vmtest ARCH=a [VARIANT=patched|stock] [T=filter] [X=case,...]   one kernel, one QEMU run"
	@echo "make bench [ARCH=a] [ITERS=n] [RUNS=n]  stock 6.1, patched 6.1, upstream 6.12 on production configs,"
	@echo "                               side by side under -icount (every arch without ARCH)"
	@echo "make kselftest ARCH=a [VARIANT=patched|stock] [T=filter]   the kernel's BPF selftests (test_progs subset) in QEMU"
	@echo "make tools ARCH=a [VARIANT=patched|stock] [T=filter]   Debian's BPF tools (libbpf-tools, bpftrace) in QEMU"
	@echo "make conformance ARCH=a        userspace conformance suite of the trampoline IR backend ($(CONF_ARCHS))"
	@echo "make mutants                   source mutants of the IR and backends: the conformance suite must fail each"
	@echo "make kasan ARCH=a [T=filter]   the patched kernel with generic KASAN (VARIANT=kasan), our suite"
	@echo "make prefix-test P=n ARCH=a [T=filter]   the kernel of patches 1..n, its guest, our suite"
	@echo "make bti                       arm64 patched kernel built with clang and in-kernel BTI (VARIANT=bti), our suite"
	@echo "make nomodrwx [ARCH=a] [T=filter]  the patched kernel with STRICT_MODULE_RWX off (VARIANT=nomodrwx,"
	@echo "                               riscv64 unless ARCH is given), our suite"
	@echo "make preempt [ARCH=a] [PREEMPT_ROUNDS=n]  the patched kernel with PREEMPT (VARIANT=preempt, riscv64"
	@echo "                               unless ARCH is given), bpf_entry_attach_race with 4,000 rounds"
	@echo "make veneers [T=filter]        arm64 patched kernel with 1,024 direct-call veneers (VARIANT=veneers),"
	@echo "                               veneer_reclaim on more than 1,100 functions"
	@echo "make kernel ARCH=a VARIANT=v   build one kernel (build/<v>/obj-<a>), v = stock, patched, kasan, bti, nomodrwx, preempt, veneers, distro-stock or distro-patched"
	@echo "make distro-check [CONFIGS=..] compile the series' directories with Debian's 6.1 configs, -Werror"
	@echo "                               (x86_64-gcc arm64-gcc arm64-clang; results in build/results/distro-check.ktap)"
	@echo "make distro-boot ARCH=a [VARIANT=patched|stock] [T=filter]  a kernel from Debian's own 6.1 config"
	@echo "                               (x86_64, arm64; most modules left out), our suite in QEMU"
	@echo "make patches                   export the series with git format-patch to build/patches"
	@echo "make quilt                     the series as debian/patches/ (DEP-3 headers, series file) in build/quilt"
	@echo "make tables [SHORT=1] [CASES=1] the results in build/results as Markdown (the README's tables)"
	@echo "make -C libbpf-glue [install|check]  libbpf-glue's libraries, glue-probe, headers and libbpf-glue.pc"
	@echo "make glue-upstream [ARCH=a]    libbpf-glue's cases on upstream 6.12 (riscv64 unless ARCH is given)"
	@echo "make checkpatch                scripts/checkpatch.pl --strict on every patch"
	@echo "make series-check              build every prefix of the series for $(ARCHS)"
	@echo "make deps                      install Debian packages (done by every target)"
	@echo "make clean | distclean         remove results and objects | everything under build/"
	@echo "Results: build/results/<variant>-<arch>.ktap, kselftest-<variant>-<arch>.ktap, bench-<arch>.{txt,svg}"

check-arch:
	@case " $(ARCHS) " in *" $(ARCH) "*) ;; *) \
		echo "ARCH=$(ARCH) is not supported (supported: $(ARCHS))" >&2; \
		exit 2;; esac
	@case "$(VARIANT)" in stock|patched|kasan|bti|nomodrwx|preempt|veneers|distro-stock|distro-patched|bench-stock|bench-patched) ;; \
	bench-upstream) scripts/install-deps.sh upstream && \
		flock $(BUILD)/.source.lock $(PY) scripts/source.py upstream;; \
	*) echo "VARIANT=$(VARIANT): use stock, patched, kasan, bti, nomodrwx, preempt, veneers," \
		"distro-stock, distro-patched, bench-stock, bench-patched or bench-upstream" >&2; exit 2;; esac

# Re-checked on every run: cheap when everything is installed.
deps:
	@scripts/install-deps.sh

# One make at a time moves the patched tree: a second one waits here
# rather than failing on git's index lock.
source: deps
	@mkdir -p $(BUILD)
	@flock $(BUILD)/.source.lock $(PY) scripts/source.py prepare

kernel: check-arch source
	@scripts/kbuild.sh $(VARIANT) $(ARCH)

# Test program, case list and initramfs for build/$(VARIANT)/obj-$(ARCH).
user: check-arch
	@scripts/build-guest.sh $(VARIANT) $(ARCH)

# With the pristine tree, the x86_64 and arm64 suites also run stock 6.1's own
# trampoline generator on every shape (group stock_oracle).
conformance: deps source
	@case " $(CONF_ARCHS) " in *" $(ARCH) "*) ;; *) \
		echo "no conformance suite for ARCH=$(ARCH) yet (have: $(CONF_ARCHS))" >&2; \
		exit 2;; esac
	@mkdir -p $(BUILD)/results
	@echo "[conformance $(ARCH)] building and running the trampoline IR suite"
	@$(MAKE) -s -C selftests/conformance ARCH=$(ARCH) run \
		STOCK_SRC=$(BUILD)/stock/linux \
		KTAP=$(BUILD)/results/conformance-$(ARCH).ktap

# Source mutants of the IR and the backends (selftests/conformance/mutants),
# each of which the conformance suite must fail; results kept per source
# state (MUTANTS_CACHE=off runs them regardless).
mutants: deps
	@$(PY) scripts/mutants.py

vmtest: kernel user
	@CHURN_ROUNDS=$(CHURN_ROUNDS) STRESS_ROUNDS=$(STRESS_ROUNDS) EXCLUDE="$(X)" \
		scripts/run-vm.sh test $(VARIANT) $(ARCH) "$(T)" $(VM_TIMEOUT)

# A kernel from Debian's own configuration (scripts/distro-config.sh:
# every built-in option as Debian has it, modules but a few left out),
# stock or with the series, booted with our suite.  Not in make test: its
# build is several times a test kernel's.
DISTRO_ARCHS := x86_64 arm64
DISTRO_TIMEOUT ?= 2400
distro-boot: source
	@case " $(DISTRO_ARCHS) " in *" $(ARCH) "*) ;; *) \
		echo "make distro-boot: no Debian 6.1 configuration for ARCH=$(ARCH) (have: $(DISTRO_ARCHS))" >&2; \
		exit 2;; esac
	@case "$(VARIANT)" in stock|patched) ;; *) \
		echo "make distro-boot: VARIANT=stock or VARIANT=patched" >&2; exit 2;; esac
	@scripts/kbuild.sh distro-$(VARIANT) $(ARCH)
	@scripts/build-guest.sh distro-$(VARIANT) $(ARCH)
	@CHURN_ROUNDS=$(CHURN_ROUNDS) STRESS_ROUNDS=$(STRESS_ROUNDS) \
		scripts/run-vm.sh test distro-$(VARIANT) $(ARCH) "$(T)" $(DISTRO_TIMEOUT)

# The kernel's own BPF selftests for trampolines, LSM and sleepable
# programs (selftests/kselftest/tests), one QEMU run.
kselftest: kernel
	@scripts/build-kselftest.sh $(VARIANT) $(ARCH)
	@scripts/run-vm.sh kselftest $(VARIANT) $(ARCH) "$(T)" $(KSELFTEST_TIMEOUT)

# Debian's own BPF tools (libbpf-tools, bpftrace, bpftool, from Debian's
# packages of the guest's architecture: scripts/debian-guest.sh) run as a
# user runs them, each checked against a workload (selftests/tools).
tools: kernel
	@scripts/run-vm.sh tools $(VARIANT) $(ARCH) "$(T)" $(VM_TIMEOUT)

# The patched kernel at patch P of the series (variant prefixP: its own
# tree and build), with its guest, our suite in one QEMU run; cases that
# need a later patch are listed for the variant (e.g. P=3 on arm64, the
# patch that first gives arm64 direct calls).
P ?=
prefix-test: check-arch source
	@CHURN_ROUNDS=$(CHURN_ROUNDS) STRESS_ROUNDS=$(STRESS_ROUNDS) EXCLUDE="$(X)" \
		scripts/prefix-test.sh "$(P)" $(ARCH) "$(T)" $(VM_TIMEOUT)

# The patched kernel with generic KASAN (kconfig/kasan.config), our suite
# in one boot (with KASLR on arm64).  Not part of make test: KASAN doubles
# the guest's run time under TCG, and make test runs KFENCE instead.
kasan: check-arch source
	@$(MAKE) -s vmtest VARIANT=kasan ARCH=$(ARCH) T="$(T)" \
		VM_TIMEOUT=$(KASAN_TIMEOUT) CHURN_ROUNDS=$(KASAN_CHURN_ROUNDS)

# The series' directories compiled with Debian's own 6.1 configurations
# (x86_64 gcc, arm64 gcc, arm64 clang with in-kernel BTI), -Werror.
distro-check: source
	@scripts/distro-check.sh $(CONFIGS)

# arm64 only: the patched kernel built with clang and ARM64_BTI_KERNEL
# (kconfig/bti.config), our suite in one boot with KASLR.
bti: source
	@$(MAKE) -s vmtest VARIANT=bti ARCH=arm64 T="$(T)"

# libbpf-glue's cases on upstream 6.12 (make bench's bench-upstream
# kernel; riscv64 unless ARCH is given, as 6.6 gave riscv64 syscall
# wrappers), run from the patched kernel's guest (its objects are CO-RE).
GLUE_UPSTREAM_ARCH := $(if $(filter command line environment,$(origin ARCH)),$(ARCH),riscv64)
glue-upstream: source
	@scripts/install-deps.sh upstream
	@flock $(BUILD)/.source.lock $(PY) scripts/source.py upstream
	@scripts/kbuild.sh bench-upstream $(GLUE_UPSTREAM_ARCH)
	@$(MAKE) -s guests VARIANT=patched ARCH=$(GLUE_UPSTREAM_ARCH)
	@GUEST_VARIANT=patched scripts/run-vm.sh test bench-upstream \
		$(GLUE_UPSTREAM_ARCH) glue $(VM_TIMEOUT)

# The patched kernel with STRICT_MODULE_RWX off (kconfig/nomodrwx.config):
# module text is writable, BPF text is not, and riscv64's text patching
# must still reach the latter.  riscv64 unless ARCH is given.
NOMODRWX_ARCH := $(if $(filter command line environment,$(origin ARCH)),$(ARCH),riscv64)
nomodrwx: source
	@$(MAKE) -s vmtest VARIANT=nomodrwx ARCH=$(NOMODRWX_ARCH) T="$(T)"

# The patched kernel fully preemptible (kconfig/preempt.config) and
# bpf_entry_attach_race with PREEMPT_ROUNDS attach/detach rounds: a task
# running a BPF program can be preempted anywhere in its patchable entry
# while trampolines and an extension come and go there.  riscv64 unless
# ARCH is given (its 6.1 function tracer needs !PREEMPTION, so this kernel
# has trampolines on BPF programs only); T= picks other cases.
PREEMPT_ARCH := $(if $(filter command line environment,$(origin ARCH)),$(ARCH),riscv64)
PREEMPT_ROUNDS ?= 4000
preempt: source
	@SLEEPTEST_KERNEL_ARGS="$(SLEEPTEST_KERNEL_ARGS) sleeptest.poke_rounds=$(PREEMPT_ROUNDS)" \
		$(MAKE) -s vmtest VARIANT=preempt ARCH=$(PREEMPT_ARCH) \
		T="$(or $(T),bpf_entry_attach_race)"

# arm64 only: the patched kernel with the default 1,024 direct-call
# veneers (kconfig/veneers.config; the test kernels have 64), booted with
# KASLR, where veneer_reclaim attaches to an eighth more distinct
# functions than there are veneers: 1,152, one after another.
veneers: source
	@$(MAKE) -s vmtest VARIANT=veneers ARCH=arm64 T="$(or $(T),veneer_reclaim)"

# make bench: stock 6.1, patched 6.1 and upstream 6.12 (Debian's
# linux-source-6.12), each built with the production configuration
# (kconfig/bench.config: no debug options, -O2, voluntary preemption; on
# arm64 the KASLR layout), side by side under -icount, with one guest (the
# bench-patched one) for all three.  Without ARCH on the command line,
# every architecture.  Results: build/results/bench-<arch>.{txt,svg}.
BENCH_ARCHS := $(if $(filter command line environment,$(origin ARCH)),$(ARCH),$(ARCHS))
BENCH_KERNELS := stock patched upstream
RUNS ?= 5
bench: source
	@scripts/install-deps.sh upstream
	@flock $(BUILD)/.source.lock $(PY) scripts/source.py upstream
	@rc=0; t0=$$(date +%s); for a in $(BENCH_ARCHS); do \
		rm -f $(BUILD)/results/bench-bench-*-$$a.* \
			$(BUILD)/results/bench-$$a.*; \
		for k in $(BENCH_KERNELS); do \
			echo "[bench $$a $$(( $$(date +%s) - t0 ))s] kernel $$k"; \
			scripts/kbuild.sh bench-$$k $$a || exit 1; \
		done; \
		scripts/build-guest.sh bench-patched $$a || exit 1; \
		for k in $(BENCH_KERNELS); do \
			echo "[bench $$a $$(( $$(date +%s) - t0 ))s] runs on $$k"; \
			GUEST_VARIANT=bench-patched RUNS=$(RUNS) \
			scripts/run-vm.sh bench bench-$$k $$a $(ITERS) \
				$(BENCH_TIMEOUT) || rc=1; \
		done; \
		$(PY) scripts/bench_compare.py $$a || rc=1; \
	done; echo "[bench $$(( $$(date +%s) - t0 ))s] done"; exit $$rc

# Everything the QEMU runs of one kernel need: the kernel, our suite's
# guest and the kernel selftests' guest.  (The Debian guest, one per
# architecture, is made by the first tools run that needs it.)
guests: check-arch source
	@scripts/kbuild.sh $(VARIANT) $(ARCH)
	@scripts/build-guest.sh $(VARIANT) $(ARCH)
	@scripts/build-kselftest.sh $(VARIANT) $(ARCH)

# make run and make test build the kernel and guests of their longest
# QEMU run first (arm64 patched, which boots twice; make test builds
# stock arm64 before it: each patched kernel starts from its stock
# kernel's objects, scripts/kseed.sh), start that run, and meanwhile, in
# the other slot, build every other kernel and guest, one at a time (make
# test: stock first, and its static checks).  guests-for names each
# kernel whose guests are built in READY, and the runs of those kernels
# take the first slot as it frees, beside the builds; the rest wait for
# the builds, then go VM_JOBS at a time, longest first.
READY := $(BUILD)/ready
FIRST_GUESTS_run := patched:arm64
FIRST_GUESTS_test := stock:arm64 patched:arm64
# make guests-for RUN_GUESTS="VARIANT:ARCH..." SKIP_GUESTS="..."
guests-for:
	@t0=$$(date +%s); for g in $(RUN_GUESTS); do \
		case " $(SKIP_GUESTS) " in *" $$g "*) continue;; esac; \
		echo "=== build $${g%%:*} $${g#*:} ($$(( $$(date +%s) - t0 ))s elapsed)"; \
		$(MAKE) -s guests VARIANT=$${g%%:*} ARCH=$${g#*:} && \
		mkdir -p $(READY) && touch $(READY)/$${g%%:*}-$${g#*:} || true; done
BOOT_ENV = CHURN_ROUNDS_x86_64=$(CHURN_ROUNDS_x86_64) \
	CHURN_ROUNDS_arm64=$(CHURN_ROUNDS_arm64) \
	STRESS_ROUNDS_x86_64=$(STRESS_ROUNDS_x86_64) \
	STRESS_ROUNDS_arm64=$(STRESS_ROUNDS_arm64) \
	STRESS_ROUNDS_stock_x86_64=$(STRESS_ROUNDS_stock_x86_64) \
	CHURN_ROUNDS_riscv64=$(CHURN_ROUNDS_riscv64) \
	STRESS_ROUNDS_riscv64=$(STRESS_ROUNDS_riscv64)
BOOT_RUNS = scripts/run-boots.sh $(VM_JOBS) $(VM_TIMEOUT) $(KSELFTEST_TIMEOUT)
RUNS_patched := test:patched:arm64 kselftest:patched:arm64 \
	test:patched:riscv64 kselftest:patched:riscv64 \
	test:patched:x86_64 kselftest:patched:x86_64 \
	tools:patched:arm64 tools:patched:riscv64 tools:patched:x86_64
# No kernel selftests and no tools on stock riscv64: 6.1 has no riscv64
# trampoline, all 23 selftest selections fail with -524 (161 s of a make
# test run), bpftrace refuses every fentry probe and Debian has no
# riscv64 libbpf-tools (140 s), and our suite's stock boot shows that
# -524 case by case.  make kselftest (or make tools) ARCH=riscv64
# VARIANT=stock still runs them.
RUNS_stock := test:stock:arm64 kselftest:stock:arm64 \
	test:stock:riscv64 \
	test:stock:x86_64 kselftest:stock:x86_64 \
	tools:stock:arm64 tools:stock:x86_64

run: source
	@rm -f $(BUILD)/results/*.ktap
	@rm -rf $(READY)
	@$(MAKE) -s guests-for RUN_GUESTS="$(FIRST_GUESTS_run)"
	@$(BOOT_ENV) $(BOOT_RUNS) --meanwhile "$(MAKE) -s guests-for \
		RUN_GUESTS='$(foreach a,$(ARCHS),patched:$(a))' \
		SKIP_GUESTS='$(FIRST_GUESTS_run)'" \
		--ready $(READY) \
		$(RUNS_patched)
	@$(PY) scripts/summary.py --variants patched --runs "$(RUNS_patched)"

test: source
	@rm -f $(BUILD)/results/*.ktap
	@rm -rf $(READY)
	@$(MAKE) -s guests-for RUN_GUESTS="$(FIRST_GUESTS_test)"
	@$(BOOT_ENV) $(BOOT_RUNS) --meanwhile "$(MAKE) -s test-prep" \
		--ready $(READY) \
		$(RUNS_patched) $(RUNS_stock)
	@$(PY) scripts/results-table.py --tools --tools-out $(BUILD)/results \
		> /dev/null || echo "tools tables not written" >&2
	@$(PY) scripts/summary.py --variants stock,patched --conformance "$(CONF_ARCHS)" \
		--runs "$(RUNS_patched) $(RUNS_stock)"

# What make test does beside its first QEMU run: every other kernel and
# guest, riscv64's first (its runs are the longest after arm64's), each
# stock kernel before its patched one (which starts from its objects);
# then the checks that need no guest, while the runs of those kernels go.
PREP_ARCHS := $(filter riscv64,$(ARCHS)) $(filter-out riscv64,$(ARCHS))
test-prep: source
	@$(MAKE) -s guests-for SKIP_GUESTS="$(FIRST_GUESTS_test)" \
		RUN_GUESTS="$(foreach a,$(PREP_ARCHS),stock:$(a) patched:$(a))"
	@$(PY) scripts/harness-selftest.py || true
	@for a in $(CONF_ARCHS); do $(MAKE) -s conformance ARCH=$$a || true; done
	@$(MAKE) -s mutants || true
	@$(MAKE) -s distro-check || true
	@$(MAKE) -s quilt-check || true
	@$(MAKE) -s -C libbpf-glue check OUT=$(BUILD)/libbpf-glue || true

summary:
	@$(PY) scripts/summary.py --variants stock,patched --conformance "$(CONF_ARCHS)" \
		--runs "$(RUNS_patched) $(RUNS_stock)"

# Markdown tables of build/results/*.ktap, every figure read from the KTAP
# files (scripts/results-table.py): one row per result file; SHORT=1 one
# row per kernel (the README's "Current results"), CASES=1 the case x
# kernel tables too; then the final line of each architecture's last
# make bench (build/results/bench-ARCH.txt), with its commit and goals.
# TOOLS=1: only the per-tool tables of Debian's tools (stock and patched
# path and result, per architecture), which make test also writes to
# build/results/tools-table-ARCH.md.
tables:
	@$(PY) scripts/results-table.py $(if $(SHORT),--short) $(if $(CASES),--cases) \
		$(if $(TOOLS),--tools)

patches: source
	@$(PY) scripts/source.py export $(BUILD)/patches

# The series as Debian carries kernel patches (debian/patches/ with DEP-3
# headers and a series file), and the check make test runs: quilt push -a
# on the pristine files gives the series tip.
quilt: source
	@$(PY) scripts/quilt.py export $(BUILD)/quilt

quilt-check: source
	@$(PY) scripts/quilt.py check $(BUILD)/quilt

series-check: source
	@scripts/series-check.sh $(ARCHS)

checkpatch: patches
	@$(PY) scripts/checkpatch.py $(BUILD)/patches

clean:
	rm -rf $(BUILD)/results $(BUILD)/*/user-* $(BUILD)/*/obj-*

distclean:
	rm -rf $(BUILD)
