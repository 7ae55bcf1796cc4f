entry @bmm_f32_f32(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>, %arg2: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [4, 64, 64], strides = [4096, 64, 1] : tensor_view<4x64x64xf32, strides=[4096,64,1]>
  %6 = make_partition_view %5 : partition_view<tile=(2x32x64), padding_value = zero, tensor_view<4x64x64xf32, strides=[4096,64,1]>>
  %7 = constant <i32: 0> : tile<i32>
  %8, %9 = load_view_tko weak %6[%1, %2, %7] token = %0 : partition_view<tile=(2x32x64), padding_value = zero, tensor_view<4x64x64xf32, strides=[4096,64,1]>>, tile<i32> -> tile<2x32x64xf32>, token
  %10 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %11 = make_tensor_view %10, shape = [4, 64, 64], strides = [4096, 64, 1] : tensor_view<4x64x64xf32, strides=[4096,64,1]>
  %12 = make_partition_view %11 : partition_view<tile=(2x64x32), padding_value = zero, tensor_view<4x64x64xf32, strides=[4096,64,1]>>
  %13, %14 = load_view_tko weak %12[%1, %7, %3] token = %9 : partition_view<tile=(2x64x32), padding_value = zero, tensor_view<4x64x64xf32, strides=[4096,64,1]>>, tile<i32> -> tile<2x64x32xf32>, token
  %15 = constant <f32: 0.000000e+00> : tile<2x32x32xf32>
  %16 = mmaf %8, %13, %15 : tile<2x32x64xf32>, tile<2x64x32xf32>, tile<2x32x32xf32>
  %17 = assume div_by<16>, %arg2 : tile<ptr<f32>>
  %18 = make_tensor_view %17, shape = [4, 64, 64], strides = [4096, 64, 1] : tensor_view<4x64x64xf32, strides=[4096,64,1]>
  %19 = make_partition_view %18 : partition_view<tile=(2x32x32), padding_value = zero, tensor_view<4x64x64xf32, strides=[4096,64,1]>>
  %20 = store_view_tko weak %16, %19[%1, %2, %3] token = %14 : tile<2x32x32xf32>, partition_view<tile=(2x32x32), padding_value = zero, tensor_view<4x64x64xf32, strides=[4096,64,1]>>, tile<i32> -> token
  return
}
