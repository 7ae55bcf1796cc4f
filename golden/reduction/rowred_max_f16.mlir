entry @rowred_max_f16(%arg0: tile<ptr<f16>>, %arg1: tile<ptr<f16>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f16>>
  %5 = make_tensor_view %4, shape = [128, 64], strides = [64, 1] : tensor_view<128x64xf16, strides=[64,1]>
  %6 = make_partition_view %5 : partition_view<tile=(16x64), padding_value = zero, tensor_view<128x64xf16, strides=[64,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2] token = %0 : partition_view<tile=(16x64), padding_value = zero, tensor_view<128x64xf16, strides=[64,1]>>, tile<i32> -> tile<16x64xf16>, token
  %9 = reduce %7 dim=1 identities=[0xFC00 : f16] : tile<16x64xf16> -> tile<16xf16> 
  (%10: tile<f16>, %11: tile<f16>) {
    %12 = maxf %10, %11 : tile<f16>
    yield %12 : tile<f16>
  }
  %13 = assume div_by<16>, %arg1 : tile<ptr<f16>>
  %14 = make_tensor_view %13, shape = [128], strides = [1] : tensor_view<128xf16, strides=[1]>
  %15 = make_partition_view %14 : partition_view<tile=(16), padding_value = zero, tensor_view<128xf16, strides=[1]>>
  %16 = store_view_tko weak %9, %15[%1] token = %8 : tile<16xf16>, partition_view<tile=(16), padding_value = zero, tensor_view<128xf16, strides=[1]>>, tile<i32> -> token
  return
}
