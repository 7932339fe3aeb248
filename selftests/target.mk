# SPDX-License-Identifier: GPL-2.0
# What building user space for TARGET_ARCH (x86_64 or arm64) takes:
# the BPF target architecture, the C compiler, the headers of
# libbpf/libelf for it, and the libraries a static test program links
# (TARGET_LIBS, after its objects) with what they are made from
# (TARGET_DEPS, for prerequisites).  Included by selftests/Makefile and
# selftests/kselftest/Makefile.

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
else
$(error unsupported TARGET_ARCH $(TARGET_ARCH))
endif
