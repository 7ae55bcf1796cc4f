entry @permute3d_210(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [8, 16, 32], strides = [512, 32, 1] : tensor_view<8x16x32xf32, strides=[512,32,1]>
  %6 = make_partition_view %5 : partition_view<tile=(8x16x32), padding_value = zero, tensor_view<8x16x32xf32, strides=[512,32,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2, %3] token = %0 : partition_view<tile=(8x16x32), padding_value = zero, tensor_view<8x16x32xf32, strides=[512,32,1]>>, tile<i32> -> tile<8x16x32xf32>, token
  %9 = permute %7 [2, 1, 0] : tile<8x16x32xf32> -> tile<32x16x8xf32>
  %10 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %11 = make_tensor_view %10, shape = [32, 16, 8], strides = [128, 8, 1] : tensor_view<32x16x8xf32, strides=[128,8,1]>
  %12 = make_partition_view %11 : partition_view<tile=(32x16x8), padding_value = zero, tensor_view<32x16x8xf32, strides=[128,8,1]>>
  %13 = store_view_tko weak %9, %12[%1, %2, %3] token = %8 : tile<32x16x8xf32>, partition_view<tile=(32x16x8), padding_value = zero, tensor_view<32x16x8xf32, strides=[128,8,1]>>, tile<i32> -> token
  return
}
