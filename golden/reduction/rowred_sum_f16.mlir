entry @rowred_sum_f16(%arg0: tile<ptr<f16>>, %arg1: tile<ptr<f16>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f16>>
  %5 = make_tensor_view %4, shape = [128, 64], strides = [64, 1] : tensor_view<128x64xf16, strides=[64,1]>
  %6 = make_partition_view %5 : partition_view<tile=(16x64), padding_value = zero, tensor_view<128x64xf16, strides=[64,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2] token = %0 : partition_view<tile=(16x64), padding_value = zero, tensor_view<128x64xf16, strides=[64,1]>>, tile<i32> -> tile<16x64xf16>, token
  %9 = ftof %7  : tile<16x64xf16> -> tile<16x64xf32>
  %10 = reduce %9 dim=1 identities=[0.000000e+00 : f32] : tile<16x64xf32> -> tile<16xf32> 
  (%11: tile<f32>, %12: tile<f32>) {
    %13 = addf %11, %12  : tile<f32>
    yield %13 : tile<f32>
  }
  %14 = ftof %10  : tile<16xf32> -> tile<16xf16>
  %15 = assume div_by<16>, %arg1 : tile<ptr<f16>>
  %16 = make_tensor_view %15, shape = [128], strides = [1] : tensor_view<128xf16, strides=[1]>
  %17 = make_partition_view %16 : partition_view<tile=(16), padding_value = zero, tensor_view<128xf16, strides=[1]>>
  %18 = store_view_tko weak %14, %17[%1] token = %8 : tile<16xf16>, partition_view<tile=(16), padding_value = zero, tensor_view<128xf16, strides=[1]>>, tile<i32> -> token
  return
}
