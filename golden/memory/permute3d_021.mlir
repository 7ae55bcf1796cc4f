entry @permute3d_021(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [4, 32, 64], strides = [2048, 64, 1] : tensor_view<4x32x64xf32, strides=[2048,64,1]>
  %6 = make_partition_view %5 : partition_view<tile=(4x32x64), padding_value = zero, tensor_view<4x32x64xf32, strides=[2048,64,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2, %3] token = %0 : partition_view<tile=(4x32x64), padding_value = zero, tensor_view<4x32x64xf32, strides=[2048,64,1]>>, tile<i32> -> tile<4x32x64xf32>, token
  %9 = permute %7 [0, 2, 1] : tile<4x32x64xf32> -> tile<4x64x32xf32>
  %10 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %11 = make_tensor_view %10, shape = [4, 64, 32], strides = [2048, 32, 1] : tensor_view<4x64x32xf32, strides=[2048,32,1]>
  %12 = make_partition_view %11 : partition_view<tile=(4x64x32), padding_value = zero, tensor_view<4x64x32xf32, strides=[2048,32,1]>>
  %13 = store_view_tko weak %9, %12[%1, %2, %3] token = %8 : tile<4x64x32xf32>, partition_view<tile=(4x64x32), padding_value = zero, tensor_view<4x64x32xf32, strides=[2048,32,1]>>, tile<i32> -> token
  return
}
