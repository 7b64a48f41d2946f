// linalg.pack with padding and transposed outer blocks, a dynamic tile, and
// linalg.unpack back; and a matmul through linalg-block-pack-matmul with
// partial blocks: all lowered by lower-to-cpu.

// RUN: mlkit-opt %s -lower-to-cpu | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines
// RUN: mlkit-opt %s -linalg-block-pack-matmul=block-factors=2,2,2 -lower-to-cpu \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// The 3x5 source in 2x2 tiles, column blocks first; -1 pads the partial tiles.
// CHECK:Unranked Memref base@ = {{.*}} rank = 4 offset = 0 sizes = [3, 2, 2, 2] strides = [8, 4, 2, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[[[1,     2],
// CHECK-NEXT{LITERAL}:   [6,     7]],
// CHECK-NEXT{LITERAL}:  [[11,     12],
// CHECK-NEXT{LITERAL}:   [-1,     -1]]],
// CHECK-NEXT{LITERAL}: [[[3,     4],
// CHECK-NEXT{LITERAL}:   [8,     9]],
// CHECK-NEXT{LITERAL}:  [[13,     14],
// CHECK-NEXT{LITERAL}:   [-1,     -1]]],
// CHECK-NEXT{LITERAL}: [[[5,     -1],
// CHECK-NEXT{LITERAL}:   [10,     -1]],
// CHECK-NEXT{LITERAL}:  [[15,     -1],
// CHECK-NEXT{LITERAL}:   [-1,     -1]]]]

// Unpacked again: the source.
// CHECK:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [3, 5] strides = [5, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[1,   2,   3,   4,   5],
// CHECK-NEXT{LITERAL}: [6,   7,   8,   9,   10],
// CHECK-NEXT{LITERAL}: [11,   12,   13,   14,   15]]

// Rows in tiles of 2, chosen at run time, padded with zeros.
// CHECK:Unranked Memref base@ = {{.*}} rank = 3 offset = 0 sizes = [2, 5, 2] strides = [10, 2, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[[1,    6],
// CHECK-NEXT{LITERAL}:  [2,    7],
// CHECK-NEXT{LITERAL}:  [3,    8],
// CHECK-NEXT{LITERAL}:  [4,    9],
// CHECK-NEXT{LITERAL}:  [5,    10]],
// CHECK-NEXT{LITERAL}: [[11,    0],
// CHECK-NEXT{LITERAL}:  [12,    0],
// CHECK-NEXT{LITERAL}:  [13,    0],
// CHECK-NEXT{LITERAL}:  [14,    0],
// CHECK-NEXT{LITERAL}:  [15,    0]]]

// The source times its transpose plus one: packed by the second RUN line in
// 2x2 blocks, odd sizes padded.
// CHECK:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [3, 3] strides = [3, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[56,   131,   206],
// CHECK-NEXT{LITERAL}: [131,   331,   531],
// CHECK-NEXT{LITERAL}: [206,   531,   856]]

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %src = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0], [6.0, 7.0, 8.0, 9.0, 10.0], [11.0, 12.0, 13.0, 14.0, 15.0]]> : tensor<3x5xf32>
  %pad = arith.constant -1.0 : f32
  %e = tensor.empty() : tensor<3x2x2x2xf32>
  %packed = linalg.pack %src padding_value(%pad : f32) outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [2, 2]
      into %e : tensor<3x5xf32> -> tensor<3x2x2x2xf32>
  %p = tensor.cast %packed : tensor<3x2x2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%p) : (tensor<*xf32>) -> ()

  %e2 = tensor.empty() : tensor<3x5xf32>
  %back = linalg.unpack %packed outer_dims_perm = [1, 0] inner_dims_pos = [0, 1] inner_tiles = [2, 2]
      into %e2 : tensor<3x2x2x2xf32> -> tensor<3x5xf32>
  %b = tensor.cast %back : tensor<3x5xf32> to tensor<*xf32>
  call @printMemrefF32(%b) : (tensor<*xf32>) -> ()

  %t = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %e3 = tensor.empty(%t, %t) : tensor<?x5x?xf32>
  %rows = linalg.pack %src padding_value(%zero : f32) inner_dims_pos = [0] inner_tiles = [%t]
      into %e3 : tensor<3x5xf32> -> tensor<?x5x?xf32>
  %r = tensor.cast %rows : tensor<?x5x?xf32> to tensor<*xf32>
  call @printMemrefF32(%r) : (tensor<*xf32>) -> ()

  %tr = arith.constant dense<[[1.0, 6.0, 11.0], [2.0, 7.0, 12.0], [3.0, 8.0, 13.0], [4.0, 9.0, 14.0], [5.0, 10.0, 15.0]]> : tensor<5x3xf32>
  %ones = arith.constant dense<1.0> : tensor<3x3xf32>
  %mm = linalg.matmul ins(%src, %tr : tensor<3x5xf32>, tensor<5x3xf32>) outs(%ones : tensor<3x3xf32>) -> tensor<3x3xf32>
  %m = tensor.cast %mm : tensor<3x3xf32> to tensor<*xf32>
  call @printMemrefF32(%m) : (tensor<*xf32>) -> ()
  return
}
