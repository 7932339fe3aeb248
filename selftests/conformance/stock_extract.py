#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Cut stock 6.1's own trampoline generator out of the pristine kernel
tree, for the conformance suite's second oracle (group stock_oracle).

    stock_extract.py ARCH SOURCE_TREE OUT.c

Writes OUT.c: a line naming where it came from, #include of this
directory's stock_env_<arch>.h (the kernel definitions the code uses,
written for the harness), then the listed top-level definitions of the
architecture's JIT files, file by file in their order there, unchanged
but for arch_prepare_bpf_trampoline, renamed
stock_arch_prepare_bpf_trampoline.
Nothing of the kernel's is kept in this repository: OUT.c lives in the
build directory.  A name that is not found, or found twice, is an error
naming it: the pristine tree is not the 6.1 this list was written for.
"""
import re
import sys

# What each architecture's arch_prepare_bpf_trampoline() needs, file by
# file, in the order they are written out.  An item is a top-level
# definition by name (function, table, "struct X", "enum X"), "#NAME" a
# macro, "#*" every macro of the file but its include guard, "enum *"
# every enum of the file, "^TEXT" every line starting with TEXT.
ITEMS = {
    "x86_64": [
        ("arch/x86/net/bpf_jit_comp.c",
         ["#EMIT", "#EMIT1", "#EMIT2", "#EMIT3", "#EMIT4", "#EMIT1_off32",
          "#EMIT2_off32", "#EMIT3_off32", "#EMIT_mov", "#X86_JE",
          "#X86_JNE", "#AUX_REG", "#X86_REG_R9", "#BPF_INSN_SAFETY",
          "#X86_PATCH_SIZE", "#RESTORE_TAIL_CALL_CNT",
          "emit_code", "is_imm8", "is_simm32", "is_uimm32",
          "reg2hex", "is_ereg", "is_ereg_8l", "add_1mod", "add_2mod",
          "add_1reg", "add_2reg", "emit_patch", "emit_call",
          "emit_jump", "emit_return", "emit_mov_imm32",
          "emit_mov_imm64", "emit_mov_reg", "emit_insn_suffix",
          "emit_ldx", "emit_stx", "emit_nops", "save_regs",
          "restore_regs", "invoke_bpf_prog", "emit_align",
          "emit_cond_near_jump", "invoke_bpf", "invoke_bpf_mod_ret",
          "arch_prepare_bpf_trampoline"]),
    ],
    "arm64": [
        ("arch/arm64/include/asm/insn-def.h",
         ["#AARCH64_INSN_SIZE", "#AARCH64_BREAK_MON",
          "#AARCH64_BREAK_FAULT"]),
        ("arch/arm64/include/asm/brk-imm.h", ["#FAULT_BRK_IMM"]),
        ("arch/arm64/include/asm/insn.h",
         ["enum *", "#__AARCH64_INSN_FUNCS", "^__AARCH64_INSN_FUNCS("]),
        ("arch/arm64/net/bpf_jit.h", ["#*"]),
        ("arch/arm64/lib/insn.c",
         ["#AARCH64_INSN_SF_BIT", "#AARCH64_INSN_N_BIT",
          "#AARCH64_INSN_LSL_12", "#ADR_IMM_HILOSPLIT", "#ADR_IMM_SIZE",
          "#ADR_IMM_LOMASK", "#ADR_IMM_HIMASK", "#ADR_IMM_LOSHIFT",
          "#ADR_IMM_HISHIFT", "aarch64_get_imm_shift_mask",
          "aarch64_insn_encode_immediate", "aarch64_insn_encode_register",
          "aarch64_insn_ldst_size", "aarch64_insn_encode_ldst_size",
          "label_imm_common", "aarch64_insn_gen_comp_branch_imm",
          "aarch64_insn_gen_hint", "aarch64_insn_gen_branch_reg",
          "aarch64_insn_gen_load_store_imm",
          "aarch64_insn_gen_load_store_pair",
          "aarch64_insn_gen_add_sub_imm", "aarch64_insn_gen_movewide",
          "aarch64_insn_gen_adr"]),
        ("arch/arm64/net/bpf_jit_comp.c",
         ["#TMP_REG_1", "#TMP_REG_2", "#TCALL_CNT", "#TMP_REG_3",
          "#FP_BOTTOM", "bpf2a64", "struct jit_ctx", "emit",
          "emit_a64_mov_i", "i64_i16_blocks", "emit_a64_mov_i64",
          "emit_bti", "emit_call", "jit_fill_hole", "validate_code",
          "bpf_flush_icache", "invoke_bpf_prog", "invoke_bpf_mod_ret",
          "save_args", "restore_args", "is_struct_ops_tramp",
          "prepare_trampoline", "arch_prepare_bpf_trampoline"]),
    ],
}


def span_to_close(lines, i):
    """[i, end) from line i to the line closing its outermost brace,
    or None if line i ends a declaration first."""
    depth, opened = 0, False
    for j in range(i, len(lines)):
        code = re.sub(r"/\*.*?\*/|//.*$", "", lines[j])
        if not opened and ";" in code and "{" not in code:
            return None
        depth += code.count("{") - code.count("}")
        opened = opened or "{" in code
        if opened and depth == 0:
            return (i, j + 1)
    return None


def find_macro(lines, name):
    """[start, end) of '#define NAME' and its continuation lines."""
    hits = [i for i, l in enumerate(lines)
            if re.match(r"#define\s+%s\b" % re.escape(name), l)]
    spans = []
    for i in hits:
        end = i
        while lines[end].rstrip().endswith("\\"):
            end += 1
        spans.append((i, end + 1))
    return spans


def find_definition(lines, name):
    """A top-level function, table, struct or enum NAME."""
    if name.startswith(("struct ", "enum ")):
        pat = re.compile(r"^%s\s*\{" % re.escape(name))
    else:
        pat = re.compile(r"^[A-Za-z_].*\b%s\s*(\(|\[)" % re.escape(name))
    spans = []
    for i, l in enumerate(lines):
        if pat.match(l) and not l.startswith("#"):
            span = span_to_close(lines, i)
            if span:
                spans.append(span)
    return spans


def find_all(lines, spec):
    """The spans of an "enum *", "#*" or "^TEXT" item, at least one."""
    spans = []
    if spec == "enum *":
        for i, l in enumerate(lines):
            if re.match(r"enum \w+\s*\{", l):
                spans.append(span_to_close(lines, i))
    elif spec == "#*":
        for i, l in enumerate(lines):
            m = re.match(r"#define\s+(\w+)", l)
            if m and not m.group(1).endswith("_H"):
                spans += find_macro(lines, m.group(1))
    else:
        spans = [(i, i + 1) for i, l in enumerate(lines)
                 if l.startswith(spec[1:])]
    return sorted(set(s for s in spans if s))


def main():
    arch, tree, out = sys.argv[1:4]
    body, missing = [], []
    for path, items in ITEMS[arch]:
        with open("%s/%s" % (tree, path)) as f:
            lines = f.read().split("\n")
        spans = []
        for item in items:
            if item in ("enum *", "#*") or item.startswith("^"):
                hits = find_all(lines, item)
                ok = len(hits) > 0
            else:
                hits = (find_macro(lines, item[1:]) if item[0] == "#"
                        else find_definition(lines, item))
                ok = len(hits) == 1
            if ok:
                spans += hits
            else:
                missing.append("%s: %s (%d found)" % (path, item, len(hits)))
        body.append("/* %s */" % path)
        for start, end in sorted(set(spans)):
            body += lines[start:end] + [""]
    if missing:
        sys.stderr.write("stock_extract: in %s: %s\n"
                         % (tree, "; ".join(missing)))
        return 1
    text = "\n".join(body).replace("int arch_prepare_bpf_trampoline(",
                                   "int stock_arch_prepare_bpf_trampoline(")
    with open(out, "w") as f:
        f.write("/* Generated by stock_extract.py from %s: the pristine "
                "tree's own code. */\n#include \"stock_env_%s.h\"\n\n%s"
                % (tree, arch, text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
