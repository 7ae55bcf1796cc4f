entry @cvt_f64_e4m3(%arg0: tile<ptr<f64>>, %arg1: tile<ptr<f8E4M3FN>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f64>>
  %5 = make_tensor_view %4, shape = [512], strides = [1] : tensor_view<512xf64, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<512xf64, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<512xf64, strides=[1]>>, tile<i32> -> tile<128xf64>, token
  %9 = ftof %7  : tile<128xf64> -> tile<128xf8E4M3FN>
  %10 = assume div_by<16>, %arg1 : tile<ptr<f8E4M3FN>>
  %11 = make_tensor_view %10, shape = [512], strides = [1] : tensor_view<512xf8E4M3FN, strides=[1]>
  %12 = make_partition_view %11 : partition_view<tile=(128), padding_value = zero, tensor_view<512xf8E4M3FN, strides=[1]>>
  %13 = store_view_tko weak %9, %12[%1] token = %8 : tile<128xf8E4M3FN>, partition_view<tile=(128), padding_value = zero, tensor_view<512xf8E4M3FN, strides=[1]>>, tile<i32> -> token
  return
}
