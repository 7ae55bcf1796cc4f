entry @mm_allreduce_bf16(%arg0: tile<ptr<bf16, <multicast>>>, %arg1: tile<ptr<bf16, <multicast>>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<bf16, <multicast>>>
  %5 = make_tensor_view %4, shape = [256], strides = [1] : tile<ptr<bf16, <multicast>>> -> tensor_view<256xbf16, strides=[1], #cuda_tile.ptr_attr<multicast>>
  %6 = make_partition_view %5 : partition_view<tile=(64), tensor_view<256xbf16, strides=[1], #cuda_tile.ptr_attr<multicast>>>
  %7, %8 = multimem_load_reduce_view_tko relaxed device %6[%1] token = %0  : partition_view<tile=(64), tensor_view<256xbf16, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<i32>, token -> tile<64xbf16>, token
  %9 = assume div_by<16>, %arg1 : tile<ptr<bf16, <multicast>>>
  %10 = make_tensor_view %9, shape = [256], strides = [1] : tile<ptr<bf16, <multicast>>> -> tensor_view<256xbf16, strides=[1], #cuda_tile.ptr_attr<multicast>>
  %11 = make_partition_view %10 : partition_view<tile=(64), tensor_view<256xbf16, strides=[1], #cuda_tile.ptr_attr<multicast>>>
  %12 = multimem_store_view_tko relaxed device %11, %7[%1] token = %8  : partition_view<tile=(64), tensor_view<256xbf16, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<64xbf16>, tile<i32>, token -> token
  return
}
