entry @mm_reduce_add_f32(%arg0: tile<ptr<f32, <unicast>>>, %arg1: tile<ptr<f32, <multicast>>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32, <unicast>>>
  %5 = make_tensor_view %4, shape = [256], strides = [1] : tile<ptr<f32, <unicast>>> -> tensor_view<256xf32, strides=[1], #cuda_tile.ptr_attr<unicast>>
  %6 = make_partition_view %5 : partition_view<tile=(64), padding_value = zero, tensor_view<256xf32, strides=[1], #cuda_tile.ptr_attr<unicast>>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(64), padding_value = zero, tensor_view<256xf32, strides=[1], #cuda_tile.ptr_attr<unicast>>>, tile<i32> -> tile<64xf32>, token
  %9 = assume div_by<16>, %arg1 : tile<ptr<f32, <multicast>>>
  %10 = make_tensor_view %9, shape = [64], strides = [1] : tile<ptr<f32, <multicast>>> -> tensor_view<64xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>
  %11 = make_partition_view %10 : partition_view<tile=(64), tensor_view<64xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>
  %12 = constant <i32: 0> : tile<i32>
  %13 = multimem_reduce_view_tko relaxed tl_blk %11, %7[%12] token = %8  : partition_view<tile=(64), tensor_view<64xf32, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<64xf32>, tile<i32>, token -> token
  return
}
