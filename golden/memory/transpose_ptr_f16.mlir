entry @transpose_ptr_f16(%arg0: tile<ptr<f16>>, %arg1: tile<ptr<f16>>, %arg2: tile<i64>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f16>>
  %5 = make_tensor_view %4, shape = [128, 64], strides = [64, 1] : tensor_view<128x64xf16, strides=[64,1]>
  %6 = make_partition_view %5 : partition_view<tile=(32x32), padding_value = zero, tensor_view<128x64xf16, strides=[64,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2] token = %0 : partition_view<tile=(32x32), padding_value = zero, tensor_view<128x64xf16, strides=[64,1]>>, tile<i32> -> tile<32x32xf16>, token
  %9 = constant <i32: 4096> : tile<i32>
  %10 = muli %2, %9 : tile<i32>
  %11 = constant <i32: 32> : tile<i32>
  %12 = muli %1, %11 : tile<i32>
  %13 = addi %10, %12 : tile<i32>
  %14 = reshape %13 : tile<i32> -> tile<1x1xi32>
  %15 = broadcast %14 : tile<1x1xi32> -> tile<32x1xi32>
  %16 = iota : tile<32xi32>
  %17 = reshape %16 : tile<32xi32> -> tile<32x1xi32>
  %18 = addi %15, %17 : tile<32x1xi32>
  %19 = broadcast %18 : tile<32x1xi32> -> tile<32x32xi32>
  %20 = reshape %16 : tile<32xi32> -> tile<1x32xi32>
  %21 = constant <i32: 128> : tile<1x32xi32>
  %22 = muli %20, %21 : tile<1x32xi32>
  %23 = broadcast %22 : tile<1x32xi32> -> tile<32x32xi32>
  %24 = addi %19, %23 : tile<32x32xi32>
  %25 = exti %24 signed : tile<32x32xi32> -> tile<32x32xi64>
  %26 = constant <i64: 0> : tile<32x32xi64>
  %27 = cmpi greater_than_or_equal %25, %26, signed : tile<32x32xi64> -> tile<32x32xi1>
  %28 = reshape %arg2 : tile<i64> -> tile<1x1xi64>
  %29 = broadcast %28 : tile<1x1xi64> -> tile<32x32xi64>
  %30 = cmpi less_than %25, %29, signed : tile<32x32xi64> -> tile<32x32xi1>
  %31 = andi %27, %30 : tile<32x32xi1>
  assert %31, "kernel `transpose_ptr_f16`: `store_ptr_tko`: a lane addresses memory outside argument 1 (Shared) (at memory.py:55)" : tile<32x32xi1>
  %32 = reshape %arg1 : tile<ptr<f16>> -> tile<1x1xptr<f16>>
  %33 = broadcast %32 : tile<1x1xptr<f16>> -> tile<32x32xptr<f16>>
  %34 = offset %33, %24 : tile<32x32xptr<f16>>, tile<32x32xi32> -> tile<32x32xptr<f16>>
  %35 = store_ptr_tko weak %34, %7 token=%8 : tile<32x32xptr<f16>>, tile<32x32xf16> -> token
  return
}
