// --emit=asm and --emit=obj go through LLVM's target machine: the host by
// default, another target with --mtriple, a CPU with --mcpu, and LLVM's O0..O3
// pipelines (new pass manager) with --opt-level, which --emit=llvm also takes.

// RUN: mlkit-opt %s --emit=asm | filecheck %s --check-prefix=HOST
// RUN: mlkit-opt %s --emit=asm --mtriple=aarch64-unknown-linux-gnu --opt-level=O2 | filecheck %s --check-prefix=AARCH64
// RUN: mlkit-opt %s --emit=asm --mtriple=x86_64-unknown-linux-gnu --mcpu=skylake-avx512 --opt-level=O3 | filecheck %s --check-prefix=AVX512
// RUN: mlkit-opt %s --emit=llvm --opt-level=O2 --mtriple=x86_64-unknown-linux-gnu | filecheck %s --check-prefix=OPT
// RUN: mlkit-opt %s --emit=obj -o %t.o
// RUN: %python -c "import sys; assert open(sys.argv[1], 'rb').read(4) == b'\x7fELF'" %t.o
// RUN: mlkit-opt %s --emit=obj --mtriple=x86_64-apple-darwin -o %t.macho
// RUN: %python -c "import sys; assert open(sys.argv[1], 'rb').read(4) == b'\xcf\xfa\xed\xfe'" %t.macho
// RUN: mlkit-opt %s --emit=asm --mcpu=native -o %t.s
// RUN: not mlkit-opt %s --emit=asm --mtriple=no-such-target 2>&1 | filecheck %s --check-prefix=BADTRIPLE
// RUN: not mlkit-opt %s --emit=asm --opt-level=O7 2>&1 | filecheck %s --check-prefix=BADLEVEL
// RUN: not mlkit-opt %S/Inputs/not-llvm.mlir --emit=obj -o %t.bad.o 2>&1 | filecheck %s --check-prefix=NOTLLVM
// RUN: not test -e %t.bad.o

// HOST: .text
// HOST: sum:

// AARCH64: sum:
// AARCH64: {{w[0-9]+}}
// AARCH64: ret

// AVX512: scale:
// AVX512: vmulps {{.*}}%ymm

// OPT: target datalayout =
// OPT: target triple = "x86_64-unknown-linux-gnu"
// The O2 pipeline replaces the loop by its closed form.
// OPT-LABEL: define i32 @sum(
// OPT: mul i33
// OPT-NOT: br label %{{[0-9]+}}
// OPT: ret i32

// BADTRIPLE: mlkit-opt: error: --mtriple: No available targets are compatible with triple "no-such-target"
// BADLEVEL: mlkit-opt: error: --opt-level: 'O7' is not an optimization level (expected O0, O1, O2 or O3)
// NOTLLVM: not-llvm.mlir:3:1: error: cannot translate 'func.func' to LLVM IR: the op is not in the llvm dialect
// NOTLLVM-NOT: Traceback

llvm.func @sum(%n: i32) -> i32 {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  llvm.br ^header(%c0, %c0 : i32, i32)
^header(%i: i32, %acc: i32):
  %cmp = llvm.icmp "slt" %i, %n : i32
  llvm.cond_br %cmp, ^body, ^exit
^body:
  %next_acc = llvm.add %acc, %i : i32
  %next = llvm.add %i, %c1 : i32
  llvm.br ^header(%next, %next_acc : i32, i32)
^exit:
  llvm.return %acc : i32
}

llvm.func @scale(%p: !llvm.ptr, %n: i64, %s: f32) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  llvm.br ^header(%c0 : i64)
^header(%i: i64):
  %cmp = llvm.icmp "slt" %i, %n : i64
  llvm.cond_br %cmp, ^body, ^exit
^body:
  %addr = llvm.getelementptr inbounds %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %v = llvm.load %addr {alignment = 4 : i64} : !llvm.ptr -> f32
  %m = llvm.fmul %v, %s : f32
  llvm.store %m, %addr {alignment = 4 : i64} : f32, !llvm.ptr
  %next = llvm.add %i, %c1 : i64
  llvm.br ^header(%next : i64)
^exit:
  llvm.return
}
