entry @cell_add_i32_inbounds(%arg0: tile<ptr<i32>>, %arg1: tile<ptr<i32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<i32>>
  %5 = make_tensor_view %4, shape = [256], strides = [1] : tensor_view<256xi32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(64), padding_value = zero, tensor_view<256xi32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(64), padding_value = zero, tensor_view<256xi32, strides=[1]>>, tile<i32> -> tile<64xi32>, token
  %9 = assume div_by<16>, %arg1 : tile<ptr<i32>>
  %10 = make_tensor_view %9, shape = [64], strides = [1] : tensor_view<64xi32, strides=[1]>
  %11 = make_partition_view %10 : partition_view<tile=(64), tensor_view<64xi32, strides=[1]>>
  %12 = constant <i32: 0> : tile<i32>
  %13 = atomic_red_view_tko relaxed device %11[%12], add, %7 token = %8 inbounds = [true] : tile<64xi32>, partition_view<tile=(64), tensor_view<64xi32, strides=[1]>>, tile<i32> -> token
  return
}
