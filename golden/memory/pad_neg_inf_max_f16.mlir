entry @pad_neg_inf_max_f16(%arg0: tile<ptr<f16>>, %arg1: tile<ptr<f16>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f16>>
  %5 = make_tensor_view %4, shape = [8, 100], strides = [100, 1] : tensor_view<8x100xf16, strides=[100,1]>
  %6 = make_partition_view %5 : partition_view<tile=(1x128), padding_value = neg_inf, tensor_view<8x100xf16, strides=[100,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2] token = %0 : partition_view<tile=(1x128), padding_value = neg_inf, tensor_view<8x100xf16, strides=[100,1]>>, tile<i32> -> tile<1x128xf16>, token
  %9 = reduce %7 dim=1 identities=[0xFC00 : f16] : tile<1x128xf16> -> tile<1xf16> 
  (%10: tile<f16>, %11: tile<f16>) {
    %12 = maxf %10, %11 : tile<f16>
    yield %12 : tile<f16>
  }
  %13 = reshape %9 : tile<1xf16> -> tile<1x1xf16>
  %14 = assume div_by<16>, %arg1 : tile<ptr<f16>>
  %15 = make_tensor_view %14, shape = [8, 1], strides = [1, 1] : tensor_view<8x1xf16, strides=[1,1]>
  %16 = make_partition_view %15 : partition_view<tile=(1x1), padding_value = zero, tensor_view<8x1xf16, strides=[1,1]>>
  %17 = store_view_tko weak %13, %16[%1, %2] token = %8 : tile<1x1xf16>, partition_view<tile=(1x1), padding_value = zero, tensor_view<8x1xf16, strides=[1,1]>>, tile<i32> -> token
  return
}
