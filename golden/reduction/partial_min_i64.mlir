entry @partial_min_i64(%arg0: tile<ptr<i64>>, %arg1: tile<ptr<i64>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<i64>>
  %5 = make_tensor_view %4, shape = [4096], strides = [1] : tensor_view<4096xi64, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(512), padding_value = zero, tensor_view<4096xi64, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(512), padding_value = zero, tensor_view<4096xi64, strides=[1]>>, tile<i32> -> tile<512xi64>, token
  %9 = reduce %7 dim=0 identities=[9223372036854775807] : tile<512xi64> -> tile<i64> 
  (%10: tile<i64>, %11: tile<i64>) {
    %12 = mini %10, %11 signed : tile<i64>
    yield %12 : tile<i64>
  }
  %13 = reshape %9 : tile<i64> -> tile<1xi64>
  %14 = assume div_by<16>, %arg1 : tile<ptr<i64>>
  %15 = make_tensor_view %14, shape = [8], strides = [1] : tensor_view<8xi64, strides=[1]>
  %16 = make_partition_view %15 : partition_view<tile=(1), padding_value = zero, tensor_view<8xi64, strides=[1]>>
  %17 = store_view_tko weak %13, %16[%1] token = %8 : tile<1xi64>, partition_view<tile=(1), padding_value = zero, tensor_view<8xi64, strides=[1]>>, tile<i32> -> token
  return
}
