entry @rowred_min_i64(%arg0: tile<ptr<i64>>, %arg1: tile<ptr<i64>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<i64>>
  %5 = make_tensor_view %4, shape = [128, 64], strides = [64, 1] : tensor_view<128x64xi64, strides=[64,1]>
  %6 = make_partition_view %5 : partition_view<tile=(16x64), padding_value = zero, tensor_view<128x64xi64, strides=[64,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2] token = %0 : partition_view<tile=(16x64), padding_value = zero, tensor_view<128x64xi64, strides=[64,1]>>, tile<i32> -> tile<16x64xi64>, token
  %9 = reduce %7 dim=1 identities=[9223372036854775807] : tile<16x64xi64> -> tile<16xi64> 
  (%10: tile<i64>, %11: tile<i64>) {
    %12 = mini %10, %11 signed : tile<i64>
    yield %12 : tile<i64>
  }
  %13 = assume div_by<16>, %arg1 : tile<ptr<i64>>
  %14 = make_tensor_view %13, shape = [128], strides = [1] : tensor_view<128xi64, strides=[1]>
  %15 = make_partition_view %14 : partition_view<tile=(16), padding_value = zero, tensor_view<128xi64, strides=[1]>>
  %16 = store_view_tko weak %9, %15[%1] token = %8 : tile<16xi64>, partition_view<tile=(16), padding_value = zero, tensor_view<128xi64, strides=[1]>>, tile<i32> -> token
  return
}
