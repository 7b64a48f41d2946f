// mlir-runner's flags: entry points, result kinds printed as mlir-runner
// prints them, -O levels, --mcpu, upstream's runner-utils libraries skipped,
// one or two dashes, input from a file or standard input.

// RUN: mlkit-run -e answer -entry-point-result=i32 %s | filecheck %s --check-prefix=I32
// RUN: mlkit-run --e=answer --entry-point-result=i32 -O3 < %s | filecheck %s --check-prefix=I32
// RUN: mlkit-run --entry-point answer -entry-point-result i32 --mcpu=native %s | filecheck %s --check-prefix=I32
// I32: {{^}}42{{$}}

// A CPU LLVM does not know is an error, not an abort of the process.
// RUN: not mlkit-run -e answer -entry-point-result=i32 -mcpu=no-such-cpu %s 2>&1 | filecheck %s --check-prefix=CPU
// CPU: mlkit-run: error: --mcpu: 'no-such-cpu' is not a recognized processor for target

// RUN: mlkit-run -e big -entry-point-result=i64 -O1 %s | filecheck %s --check-prefix=I64
// I64: {{^}}-8589934592{{$}}

// RUN: mlkit-run -e half %s | filecheck %s --check-prefix=F32
// RUN: mlkit-run -e half -entry-point-result=f32 -O2 %s | filecheck %s --check-prefix=F32
// F32: {{^}}2.500000e-01{{$}}

// RUN: mlkit-run -e tenth -entry-point-result=f64 -O0 %s | filecheck %s --check-prefix=F64
// F64: {{^}}1.000000e-01{{$}}

// RUN: mlkit-run -e inf -entry-point-result=f64 %s | filecheck %s --check-prefix=INF
// INF: {{^}}-INF{{$}}

// RUN: mlkit-run -e answer -entry-point-result=i32 -shared-libs=/usr/lib/libmlir_runner_utils.so,%S/libmlir_c_runner_utils.so.20 %s | filecheck %s --check-prefix=I32

// RUN: mlkit-run --help | filecheck %s --check-prefix=HELP
// HELP: USAGE: mlkit-run [options] <input file>
// HELP: -entry-point-result=<value>
// HELP: -shared-libs=<value>

llvm.func @answer() -> i32 {
  %0 = llvm.mlir.constant(42 : i32) : i32
  llvm.return %0 : i32
}

llvm.func @big() -> i64 {
  %0 = llvm.mlir.constant(-8589934592 : i64) : i64
  llvm.return %0 : i64
}

llvm.func @half() -> f32 {
  %0 = llvm.mlir.constant(2.500000e-01 : f32) : f32
  llvm.return %0 : f32
}

llvm.func @tenth() -> f64 {
  %0 = llvm.mlir.constant(1.000000e-01 : f64) : f64
  llvm.return %0 : f64
}

llvm.func @inf() -> f64 {
  %0 = llvm.mlir.constant(-1.000000e+00 : f64) : f64
  %1 = llvm.mlir.constant(0.000000e+00 : f64) : f64
  %2 = llvm.fdiv %0, %1 : f64
  llvm.return %2 : f64
}
