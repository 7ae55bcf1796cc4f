entry @mm_store_2d_f32(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32, <multicast>>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [32, 32], strides = [32, 1] : tensor_view<32x32xf32, strides=[32,1]>
  %6 = make_partition_view %5 : partition_view<tile=(16x16), padding_value = zero, tensor_view<32x32xf32, strides=[32,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2] token = %0 : partition_view<tile=(16x16), padding_value = zero, tensor_view<32x32xf32, strides=[32,1]>>, tile<i32> -> tile<16x16xf32>, token
  %9 = assume div_by<16>, %arg1 : tile<ptr<f32, <multicast>>>
  %10 = make_tensor_view %9, shape = [32, 32], strides = [32, 1] : tile<ptr<f32, <multicast>>> -> tensor_view<32x32xf32, strides=[32,1], #cuda_tile.ptr_attr<multicast>>
  %11 = make_partition_view %10 : partition_view<tile=(16x16), tensor_view<32x32xf32, strides=[32,1], #cuda_tile.ptr_attr<multicast>>>
  %12 = constant <f32: 2.000000e+00> : tile<16x16xf32>
  %13 = mulf %7, %12  : tile<16x16xf32>
  %14 = multimem_store_view_tko weak %11, %13[%1, %2] token = %8 inbounds = [true, true] : partition_view<tile=(16x16), tensor_view<32x32xf32, strides=[32,1], #cuda_tile.ptr_attr<multicast>>>, tile<16x16xf32>, tile<i32>, token -> token
  return
}
