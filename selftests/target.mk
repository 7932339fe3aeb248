# SPDX-License-Identifier: GPL-2.0
# What building user space for TARGET_ARCH (x86_64, arm64 or riscv64)
# takes: the BPF target architecture, the C compiler, the headers of
# libbpf/libelf for it, and the libraries a static test program links
# (TARGET_LIBS, after its objects) with what they are made from
# (TARGET_DEPS, for prerequisites).  Included by selftests/Makefile and
# selftests/kselftest/Makefile, before their first rule.

TARGET_ARCH ?= x86_64
SELFTESTS_DIR := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
BUILD_DIR ?= $(abspath $(SELFTESTS_DIR)/../build)
TARGET_DEPS :=

ifeq ($(TARGET_ARCH),x86_64)
BPF_ARCH := x86
TARGET_CC := gcc
TARGET_CFLAGS :=
TARGET_LIBS := -L/usr/lib/x86_64-linux-gnu -lbpf -lelf -lz
else ifeq ($(TARGET_ARCH),arm64)
BPF_ARCH := arm64
TARGET_CC := aarch64-linux-gnu-gcc
# Debian's arm64 packages unpacked by scripts/foreign-sysroot.sh; libc
# comes with the cross compiler.
SYSROOT := $(BUILD_DIR)/sysroot-arm64
TARGET_CFLAGS := -I$(SYSROOT)/usr/include
TARGET_LIBS := -L$(SYSROOT)/usr/lib/aarch64-linux-gnu -lbpf -lelf -lz -lzstd
else ifeq ($(TARGET_ARCH),riscv64)
BPF_ARCH := riscv
TARGET_CC := riscv64-linux-gnu-gcc
# libelf, zlib and zstd: Debian trixie's riscv64 packages (bookworm has
# none) unpacked by scripts/foreign-sysroot.sh; libc is bookworm's cross
# glibc 2.36, which needs riscv64-libelf-compat.c under trixie's libelf.
#
# libbpf is built here from the kernel tree's tools/lib/bpf (1.1.0)
# rather than taken from trixie (1.5): the same libbpf as the headers
# kselftest's test_progs is compiled with and as Debian's 1.1.2 on the
# other architectures, so the three run the same loader; and it needs
# no shims.  The pristine tree serves (the series does not touch tools/);
# one build is shared by every riscv64 guest, under a lock.
SYSROOT := $(BUILD_DIR)/sysroot-riscv64
RISCV64_LIBBPF ?= $(BUILD_DIR)/libbpf-riscv64
LIBBPF_SRC ?= $(BUILD_DIR)/stock/linux/tools/lib/bpf
TARGET_CFLAGS := -I$(RISCV64_LIBBPF)/include -I$(SYSROOT)/usr/include
TARGET_DEPS := $(RISCV64_LIBBPF)/libbpf.a $(OUT)/riscv64-libelf-compat.o
TARGET_LIBS := $(TARGET_DEPS) -L$(SYSROOT)/usr/lib/riscv64-linux-gnu \
	-lelf -lz -lzstd
else
$(error unsupported TARGET_ARCH $(TARGET_ARCH))
endif

# The rules below are not the default goal of the including Makefile.
.DEFAULT_GOAL := all

ifeq ($(TARGET_ARCH),riscv64)
# With MAKEOVERRIDES= our command line (OUT, TARGET_ARCH, ...) reaches
# libbpf's Makefile as environment only, which does not override it.
$(RISCV64_LIBBPF)/libbpf.a: $(wildcard $(LIBBPF_SRC)/*.[ch] $(LIBBPF_SRC)/Makefile)
	@[ -f $(LIBBPF_SRC)/libbpf.c ] || { echo "no libbpf source in $(LIBBPF_SRC) (make source)" >&2; exit 1; }
	@mkdir -p $(RISCV64_LIBBPF)
	flock $(RISCV64_LIBBPF)/.lock $(MAKE) -s --no-print-directory \
		-C $(LIBBPF_SRC) MAKEOVERRIDES= \
		OUTPUT=$(RISCV64_LIBBPF)/ CROSS_COMPILE=riscv64-linux-gnu- \
		CC=$(TARGET_CC) EXTRA_CFLAGS="-O2 -I$(SYSROOT)/usr/include" \
		DESTDIR=$(RISCV64_LIBBPF) prefix= \
		$(RISCV64_LIBBPF)/libbpf.a install_headers

$(OUT)/riscv64-libelf-compat.o: $(SELFTESTS_DIR)/riscv64-libelf-compat.c
	@mkdir -p $(dir $@)
	$(TARGET_CC) -O2 -Wall -Wextra -c $< -o $@
endif
