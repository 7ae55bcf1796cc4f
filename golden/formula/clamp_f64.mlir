entry @clamp_f64(%arg0: tile<ptr<f64>>, %arg1: tile<ptr<f64>>, %arg2: tile<f64>, %arg3: tile<f64>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f64>>
  %5 = make_tensor_view %4, shape = [1000], strides = [1] : tensor_view<1000xf64, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xf64, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xf64, strides=[1]>>, tile<i32> -> tile<128xf64>, token
  %9 = reshape %arg2 : tile<f64> -> tile<1xf64>
  %10 = broadcast %9 : tile<1xf64> -> tile<128xf64>
  %11 = maxf %7, %10 : tile<128xf64>
  %12 = reshape %arg3 : tile<f64> -> tile<1xf64>
  %13 = broadcast %12 : tile<1xf64> -> tile<128xf64>
  %14 = minf %11, %13 : tile<128xf64>
  %15 = assume div_by<16>, %arg1 : tile<ptr<f64>>
  %16 = make_tensor_view %15, shape = [1000], strides = [1] : tensor_view<1000xf64, strides=[1]>
  %17 = make_partition_view %16 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xf64, strides=[1]>>
  %18 = store_view_tko weak %14, %17[%1] token = %8 : tile<128xf64>, partition_view<tile=(128), padding_value = zero, tensor_view<1000xf64, strides=[1]>>, tile<i32> -> token
  return
}
