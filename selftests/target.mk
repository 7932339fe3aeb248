# SPDX-License-Identifier: GPL-2.0
# What building user space for TARGET_ARCH (x86_64 or arm64) takes: the BPF
# target architecture, the C compiler, and the directory and extra
# libraries of Debian's static libbpf/libelf for it.  Included by
# selftests/Makefile and selftests/kselftest/Makefile.

TARGET_ARCH ?= x86_64

ifeq ($(TARGET_ARCH),x86_64)
BPF_ARCH := x86
TARGET_CC := gcc
LIBDIR := /usr/lib/x86_64-linux-gnu
EXTRA_LIBS :=
else ifeq ($(TARGET_ARCH),arm64)
BPF_ARCH := arm64
TARGET_CC := aarch64-linux-gnu-gcc
LIBDIR := /usr/lib/aarch64-linux-gnu
EXTRA_LIBS := -lzstd
else
$(error unsupported TARGET_ARCH $(TARGET_ARCH))
endif
