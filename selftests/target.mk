# SPDX-License-Identifier: GPL-2.0
# What building user space for TARGET_ARCH (x86_64 or arm64) takes: the BPF
# target architecture, the C compiler, and the headers, directory and
# extra libraries of Debian's static libbpf/libelf for it.  Included by
# selftests/Makefile and selftests/kselftest/Makefile.

TARGET_ARCH ?= x86_64
BUILD_DIR ?= $(abspath $(dir $(lastword $(MAKEFILE_LIST)))../build)

ifeq ($(TARGET_ARCH),x86_64)
BPF_ARCH := x86
TARGET_CC := gcc
LIBDIR := /usr/lib/x86_64-linux-gnu
TARGET_CFLAGS :=
EXTRA_LIBS :=
else ifeq ($(TARGET_ARCH),arm64)
BPF_ARCH := arm64
TARGET_CC := aarch64-linux-gnu-gcc
# Debian's arm64 packages unpacked by scripts/foreign-sysroot.sh; libc
# comes with the cross compiler.
SYSROOT := $(BUILD_DIR)/sysroot-arm64
LIBDIR := $(SYSROOT)/usr/lib/aarch64-linux-gnu
TARGET_CFLAGS := -I$(SYSROOT)/usr/include
EXTRA_LIBS := -lzstd
else
$(error unsupported TARGET_ARCH $(TARGET_ARCH))
endif
