entry @cvt_bf16_f64_negative_inf(%arg0: tile<ptr<bf16>>, %arg1: tile<ptr<f64>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<bf16>>
  %5 = make_tensor_view %4, shape = [512], strides = [1] : tensor_view<512xbf16, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<512xbf16, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<512xbf16, strides=[1]>>, tile<i32> -> tile<128xbf16>, token
  %9 = ftof %7 rounding<negative_inf> : tile<128xbf16> -> tile<128xf64>
  %10 = assume div_by<16>, %arg1 : tile<ptr<f64>>
  %11 = make_tensor_view %10, shape = [512], strides = [1] : tensor_view<512xf64, strides=[1]>
  %12 = make_partition_view %11 : partition_view<tile=(128), padding_value = zero, tensor_view<512xf64, strides=[1]>>
  %13 = store_view_tko weak %9, %12[%1] token = %8 : tile<128xf64>, partition_view<tile=(128), padding_value = zero, tensor_view<512xf64, strides=[1]>>, tile<i32> -> token
  return
}
