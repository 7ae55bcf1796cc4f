entry @fence_roundtrip(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>, %arg2: tile<ptr<f32>>, %arg3: tile<i64>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [1024], strides = [1] : tensor_view<1024xf32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token
  %9 = constant <i32: 128> : tile<i32>
  %10 = muli %1, %9 : tile<i32>
  %11 = reshape %10 : tile<i32> -> tile<1xi32>
  %12 = broadcast %11 : tile<1xi32> -> tile<128xi32>
  %13 = iota : tile<128xi32>
  %14 = addi %12, %13 : tile<128xi32>
  %15 = exti %14 signed : tile<128xi32> -> tile<128xi64>
  %16 = constant <i64: 0> : tile<128xi64>
  %17 = cmpi greater_than_or_equal %15, %16, signed : tile<128xi64> -> tile<128xi1>
  %18 = reshape %arg3 : tile<i64> -> tile<1xi64>
  %19 = broadcast %18 : tile<1xi64> -> tile<128xi64>
  %20 = cmpi less_than %15, %19, signed : tile<128xi64> -> tile<128xi1>
  %21 = andi %17, %20 : tile<128xi1>
  assert %21, "kernel `fence_roundtrip`: `store_ptr_tko`: a lane addresses memory outside argument 1 (Shared) (at control.py:441)" : tile<128xi1>
  %22 = constant <f32: 3.000000e+00> : tile<128xf32>
  %23 = mulf %7, %22  : tile<128xf32>
  %24 = reshape %arg1 : tile<ptr<f32>> -> tile<1xptr<f32>>
  %25 = broadcast %24 : tile<1xptr<f32>> -> tile<128xptr<f32>>
  %26 = offset %25, %14 : tile<128xptr<f32>>, tile<128xi32> -> tile<128xptr<f32>>
  %27 = store_ptr_tko weak %26, %23 token=%8 : tile<128xptr<f32>>, tile<128xf32> -> token
  %28 = memory_fence_alias_tko %27
  assert %21, "kernel `fence_roundtrip`: `load_ptr_tko`: a lane addresses memory outside argument 1 (Shared) (at control.py:443)" : tile<128xi1>
  %29, %30 = load_ptr_tko weak %26 token=%28 : tile<128xptr<f32>> -> tile<128xf32>, token
  %31 = constant <f32: 1.000000e+00> : tile<128xf32>
  %32 = addf %29, %31  : tile<128xf32>
  %33 = assume div_by<16>, %arg2 : tile<ptr<f32>>
  %34 = make_tensor_view %33, shape = [1024], strides = [1] : tensor_view<1024xf32, strides=[1]>
  %35 = make_partition_view %34 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>
  %36 = store_view_tko weak %32, %35[%1] token = %30 : tile<128xf32>, partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>, tile<i32> -> token
  return
}
