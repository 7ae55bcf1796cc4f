entry @swap_halves_i64(%arg0: tile<ptr<i64>>, %arg1: tile<ptr<i64>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<i64>>
  %5 = make_tensor_view %4, shape = [1024], strides = [1] : tensor_view<1024xi64, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(256), padding_value = zero, tensor_view<1024xi64, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(256), padding_value = zero, tensor_view<1024xi64, strides=[1]>>, tile<i32> -> tile<256xi64>, token
  %9 = constant <i32: 1> : tile<i32>
  %10 = extract %7[%9] : tile<256xi64> -> tile<128xi64>
  %11 = constant <i32: 0> : tile<i32>
  %12 = extract %7[%11] : tile<256xi64> -> tile<128xi64>
  %13 = cat %10, %12 dim = 0 : tile<128xi64>, tile<128xi64> -> tile<256xi64>
  %14 = assume div_by<16>, %arg1 : tile<ptr<i64>>
  %15 = make_tensor_view %14, shape = [1024], strides = [1] : tensor_view<1024xi64, strides=[1]>
  %16 = make_partition_view %15 : partition_view<tile=(256), padding_value = zero, tensor_view<1024xi64, strides=[1]>>
  %17 = store_view_tko weak %13, %16[%1] token = %8 : tile<256xi64>, partition_view<tile=(256), padding_value = zero, tensor_view<1024xi64, strides=[1]>>, tile<i32> -> token
  return
}
