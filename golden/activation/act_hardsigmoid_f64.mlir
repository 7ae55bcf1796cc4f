entry @act_hardsigmoid_f64(%arg0: tile<ptr<f64>>, %arg1: tile<ptr<f64>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f64>>
  %5 = make_tensor_view %4, shape = [1000], strides = [1] : tensor_view<1000xf64, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(256), padding_value = zero, tensor_view<1000xf64, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(256), padding_value = zero, tensor_view<1000xf64, strides=[1]>>, tile<i32> -> tile<256xf64>, token
  %9 = constant <f64: 0.16666666666666666> : tile<256xf64>
  %10 = mulf %7, %9  : tile<256xf64>
  %11 = constant <f64: 5.000000e-01> : tile<256xf64>
  %12 = addf %10, %11  : tile<256xf64>
  %13 = constant <f64: 0.000000e+00> : tile<256xf64>
  %14 = maxf %12, %13 : tile<256xf64>
  %15 = constant <f64: 1.000000e+00> : tile<256xf64>
  %16 = minf %14, %15 : tile<256xf64>
  %17 = assume div_by<16>, %arg1 : tile<ptr<f64>>
  %18 = make_tensor_view %17, shape = [1000], strides = [1] : tensor_view<1000xf64, strides=[1]>
  %19 = make_partition_view %18 : partition_view<tile=(256), padding_value = zero, tensor_view<1000xf64, strides=[1]>>
  %20 = store_view_tko weak %16, %19[%1] token = %8 : tile<256xf64>, partition_view<tile=(256), padding_value = zero, tensor_view<1000xf64, strides=[1]>>, tile<i32> -> token
  return
}
