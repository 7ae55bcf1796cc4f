entry @assume_bounded_gather(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<i32>>, %arg2: tile<ptr<f32>>, %arg3: tile<i64>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg1 : tile<ptr<i32>>
  %5 = make_tensor_view %4, shape = [2048], strides = [1] : tensor_view<2048xi32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(256), padding_value = zero, tensor_view<2048xi32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(256), padding_value = zero, tensor_view<2048xi32, strides=[1]>>, tile<i32> -> tile<256xi32>, token
  %9 = constant <i32: 255> : tile<256xi32>
  %10 = andi %7, %9 : tile<256xi32>
  %11 = assume bounded<0, 255>, %10 : tile<256xi32>
  %12 = exti %11 signed : tile<256xi32> -> tile<256xi64>
  %13 = constant <i64: 0> : tile<256xi64>
  %14 = cmpi greater_than_or_equal %12, %13, signed : tile<256xi64> -> tile<256xi1>
  %15 = reshape %arg3 : tile<i64> -> tile<1xi64>
  %16 = broadcast %15 : tile<1xi64> -> tile<256xi64>
  %17 = cmpi less_than %12, %16, signed : tile<256xi64> -> tile<256xi1>
  %18 = andi %14, %17 : tile<256xi1>
  assert %18, "kernel `assume_bounded_gather`: `load_ptr_tko`: a lane addresses memory outside argument 0 (Shared) (at scaled.py:155)" : tile<256xi1>
  %19 = reshape %arg0 : tile<ptr<f32>> -> tile<1xptr<f32>>
  %20 = broadcast %19 : tile<1xptr<f32>> -> tile<256xptr<f32>>
  %21 = offset %20, %11 : tile<256xptr<f32>>, tile<256xi32> -> tile<256xptr<f32>>
  %22, %23 = load_ptr_tko weak %21 token=%8 : tile<256xptr<f32>> -> tile<256xf32>, token
  %24 = assume div_by<16>, %arg2 : tile<ptr<f32>>
  %25 = make_tensor_view %24, shape = [2048], strides = [1] : tensor_view<2048xf32, strides=[1]>
  %26 = make_partition_view %25 : partition_view<tile=(256), padding_value = zero, tensor_view<2048xf32, strides=[1]>>
  %27 = store_view_tko weak %22, %26[%1] token = %23 : tile<256xf32>, partition_view<tile=(256), padding_value = zero, tensor_view<2048xf32, strides=[1]>>, tile<i32> -> token
  return
}
