entry @gather_ptr_f32(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<i32>>, %arg2: tile<ptr<f32>>, %arg3: tile<i64>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg1 : tile<ptr<i32>>
  %5 = make_tensor_view %4, shape = [1000], strides = [1] : tensor_view<1000xi32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi32, strides=[1]>>, tile<i32> -> tile<128xi32>, token
  %9 = exti %7 signed : tile<128xi32> -> tile<128xi64>
  %10 = constant <i64: 0> : tile<128xi64>
  %11 = cmpi greater_than_or_equal %9, %10, signed : tile<128xi64> -> tile<128xi1>
  %12 = reshape %arg3 : tile<i64> -> tile<1xi64>
  %13 = broadcast %12 : tile<1xi64> -> tile<128xi64>
  %14 = cmpi less_than %9, %13, signed : tile<128xi64> -> tile<128xi1>
  %15 = andi %11, %14 : tile<128xi1>
  %16 = constant <i32: 0> : tile<128xi32>
  %17 = cmpi greater_than_or_equal %7, %16, signed : tile<128xi32> -> tile<128xi1>
  %18 = constant <i32: 700> : tile<128xi32>
  %19 = cmpi less_than %7, %18, signed : tile<128xi32> -> tile<128xi1>
  %20 = andi %17, %19 : tile<128xi1>
  %21 = constant <i1: true> : tile<128xi1>
  %22 = xori %20, %21 : tile<128xi1>
  %23 = ori %15, %22 : tile<128xi1>
  assert %23, "kernel `gather_ptr_f32`: `load_ptr_tko`: a lane addresses memory outside argument 0 (Shared) (at memory.py:247)" : tile<128xi1>
  %24 = reshape %arg0 : tile<ptr<f32>> -> tile<1xptr<f32>>
  %25 = broadcast %24 : tile<1xptr<f32>> -> tile<128xptr<f32>>
  %26 = offset %25, %7 : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
  %27 = constant <f32: -1.000000e+00> : tile<128xf32>
  %28, %29 = load_ptr_tko weak %26, %20, %27 token=%8 : tile<128xptr<f32>>, tile<128xi1>, tile<128xf32> -> tile<128xf32>, token
  %30 = assume div_by<16>, %arg2 : tile<ptr<f32>>
  %31 = make_tensor_view %30, shape = [1000], strides = [1] : tensor_view<1000xf32, strides=[1]>
  %32 = make_partition_view %31 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xf32, strides=[1]>>
  %33 = store_view_tko weak %28, %32[%1] token = %29 : tile<128xf32>, partition_view<tile=(128), padding_value = zero, tensor_view<1000xf32, strides=[1]>>, tile<i32> -> token
  return
}
