entry @window_64_step128(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [4096], strides = [1] : tensor_view<4096xf32, strides=[1]>
  %6 = make_strided_view %5 : strided_view<tile=(64), traversal_strides=[128], padding_value = zero, tensor_view<4096xf32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : strided_view<tile=(64), traversal_strides=[128], padding_value = zero, tensor_view<4096xf32, strides=[1]>>, tile<i32> -> tile<64xf32>, token
  %9 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %10 = make_tensor_view %9, shape = [2048], strides = [1] : tensor_view<2048xf32, strides=[1]>
  %11 = make_partition_view %10 : partition_view<tile=(64), padding_value = zero, tensor_view<2048xf32, strides=[1]>>
  %12 = store_view_tko weak %7, %11[%1] token = %8 : tile<64xf32>, partition_view<tile=(64), padding_value = zero, tensor_view<2048xf32, strides=[1]>>, tile<i32> -> token
  return
}
