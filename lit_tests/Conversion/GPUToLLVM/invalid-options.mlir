// RUN: not mlkit-opt %s -gpu-to-llvm="intersperse-sizes-for-kernels" 2>&1 | filecheck %s
// CHECK: error: intersperse-sizes-for-kernels is not supported by mlkit
module {
}
