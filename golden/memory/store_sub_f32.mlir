entry @store_sub_f32(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [64, 64], strides = [64, 1] : tensor_view<64x64xf32, strides=[64,1]>
  %6 = make_partition_view %5 : partition_view<tile=(16x64), padding_value = zero, tensor_view<64x64xf32, strides=[64,1]>>
  %7 = constant <i32: 0> : tile<i32>
  %8, %9 = load_view_tko weak %6[%1, %7] token = %0 : partition_view<tile=(16x64), padding_value = zero, tensor_view<64x64xf32, strides=[64,1]>>, tile<i32> -> tile<16x64xf32>, token
  %10 = constant <f32: 2.000000e+00> : tile<16x64xf32>
  %11 = mulf %8, %10  : tile<16x64xf32>
  %12 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %13 = make_tensor_view %12, shape = [64, 128], strides = [128, 1] : tensor_view<64x128xf32, strides=[128,1]>
  %14 = make_partition_view %13 : partition_view<tile=(16x64), padding_value = zero, tensor_view<64x128xf32, strides=[128,1]>>
  %15 = constant <i32: 2> : tile<i32>
  %16 = muli %2, %15 : tile<i32>
  %17 = addi %16, %7 : tile<i32>
  %18 = store_view_tko weak %11, %14[%1, %17] token = %9 : tile<16x64xf32>, partition_view<tile=(16x64), padding_value = zero, tensor_view<64x128xf32, strides=[128,1]>>, tile<i32> -> token
  %19 = constant <f32: -1.000000e+00> : tile<16x64xf32>
  %20 = mulf %8, %19  : tile<16x64xf32>
  %21 = constant <i32: 1> : tile<i32>
  %22 = addi %16, %21 : tile<i32>
  %23 = store_view_tko weak %20, %14[%1, %22] token = %18 : tile<16x64xf32>, partition_view<tile=(16x64), padding_value = zero, tensor_view<64x128xf32, strides=[128,1]>>, tile<i32> -> token
  return
}
