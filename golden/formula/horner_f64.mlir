entry @horner_f64(%arg0: tile<ptr<f64>>, %arg1: tile<ptr<f64>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f64>>
  %5 = make_tensor_view %4, shape = [1000], strides = [1] : tensor_view<1000xf64, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xf64, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xf64, strides=[1]>>, tile<i32> -> tile<128xf64>, token
  %9 = constant <f64: 2.500000e-01> : tile<128xf64>
  %10 = constant <f64: -5.000000e-01> : tile<128xf64>
  %11 = fma %7, %9, %10  : tile<128xf64>
  %12 = constant <f64: 1.000000e+00> : tile<128xf64>
  %13 = fma %11, %7, %12  : tile<128xf64>
  %14 = constant <f64: 2.000000e+00> : tile<128xf64>
  %15 = fma %13, %7, %14  : tile<128xf64>
  %16 = assume div_by<16>, %arg1 : tile<ptr<f64>>
  %17 = make_tensor_view %16, shape = [1000], strides = [1] : tensor_view<1000xf64, strides=[1]>
  %18 = make_partition_view %17 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xf64, strides=[1]>>
  %19 = store_view_tko weak %15, %18[%1] token = %8 : tile<128xf64>, partition_view<tile=(128), padding_value = zero, tensor_view<1000xf64, strides=[1]>>, tile<i32> -> token
  return
}
