entry @mm_load_umax_i64(%arg0: tile<ptr<i64, <multicast>>>, %arg1: tile<ptr<i64, <unicast>>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<i64, <multicast>>>
  %5 = make_tensor_view %4, shape = [256], strides = [1] : tile<ptr<i64, <multicast>>> -> tensor_view<256xi64, strides=[1], #cuda_tile.ptr_attr<multicast>>
  %6 = make_partition_view %5 : partition_view<tile=(64), tensor_view<256xi64, strides=[1], #cuda_tile.ptr_attr<multicast>>>
  %7, %8 = multimem_load_reduce_view_tko acquire sys %6[%1] token = %0  attributes {reduction = #cuda_tile.multimem_reduction_kind<umax>} : partition_view<tile=(64), tensor_view<256xi64, strides=[1], #cuda_tile.ptr_attr<multicast>>>, tile<i32>, token -> tile<64xi64>, token
  %9 = assume div_by<16>, %arg1 : tile<ptr<i64, <unicast>>>
  %10 = make_tensor_view %9, shape = [256], strides = [1] : tile<ptr<i64, <unicast>>> -> tensor_view<256xi64, strides=[1], #cuda_tile.ptr_attr<unicast>>
  %11 = make_partition_view %10 : partition_view<tile=(64), padding_value = zero, tensor_view<256xi64, strides=[1], #cuda_tile.ptr_attr<unicast>>>
  %12 = store_view_tko weak %7, %11[%1] token = %8 : tile<64xi64>, partition_view<tile=(64), padding_value = zero, tensor_view<256xi64, strides=[1], #cuda_tile.ptr_attr<unicast>>>, tile<i32> -> token
  return
}
