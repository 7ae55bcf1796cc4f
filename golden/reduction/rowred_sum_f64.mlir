entry @rowred_sum_f64(%arg0: tile<ptr<f64>>, %arg1: tile<ptr<f64>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f64>>
  %5 = make_tensor_view %4, shape = [128, 64], strides = [64, 1] : tensor_view<128x64xf64, strides=[64,1]>
  %6 = make_partition_view %5 : partition_view<tile=(16x64), padding_value = zero, tensor_view<128x64xf64, strides=[64,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2] token = %0 : partition_view<tile=(16x64), padding_value = zero, tensor_view<128x64xf64, strides=[64,1]>>, tile<i32> -> tile<16x64xf64>, token
  %9 = reduce %7 dim=1 identities=[0.000000e+00] : tile<16x64xf64> -> tile<16xf64> 
  (%10: tile<f64>, %11: tile<f64>) {
    %12 = addf %10, %11  : tile<f64>
    yield %12 : tile<f64>
  }
  %13 = assume div_by<16>, %arg1 : tile<ptr<f64>>
  %14 = make_tensor_view %13, shape = [128], strides = [1] : tensor_view<128xf64, strides=[1]>
  %15 = make_partition_view %14 : partition_view<tile=(16), padding_value = zero, tensor_view<128xf64, strides=[1]>>
  %16 = store_view_tko weak %9, %15[%1] token = %8 : tile<16xf64>, partition_view<tile=(16), padding_value = zero, tensor_view<128xf64, strides=[1]>>, tile<i32> -> token
  return
}
