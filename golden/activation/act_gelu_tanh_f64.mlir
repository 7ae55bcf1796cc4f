entry @act_gelu_tanh_f64(%arg0: tile<ptr<f64>>, %arg1: tile<ptr<f64>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f64>>
  %5 = make_tensor_view %4, shape = [1000], strides = [1] : tensor_view<1000xf64, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(256), padding_value = zero, tensor_view<1000xf64, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(256), padding_value = zero, tensor_view<1000xf64, strides=[1]>>, tile<i32> -> tile<256xf64>, token
  %9 = constant <f64: 5.000000e-01> : tile<256xf64>
  %10 = mulf %9, %7  : tile<256xf64>
  %11 = constant <f64: 1.000000e+00> : tile<256xf64>
  %12 = constant <f64: 0.79788456080286541> : tile<256xf64>
  %13 = constant <f64: 4.471500e-02> : tile<256xf64>
  %14 = mulf %13, %7  : tile<256xf64>
  %15 = mulf %14, %7  : tile<256xf64>
  %16 = mulf %15, %7  : tile<256xf64>
  %17 = addf %7, %16  : tile<256xf64>
  %18 = mulf %12, %17  : tile<256xf64>
  %19 = tanh %18  : tile<256xf64>
  %20 = addf %11, %19  : tile<256xf64>
  %21 = mulf %10, %20  : tile<256xf64>
  %22 = assume div_by<16>, %arg1 : tile<ptr<f64>>
  %23 = make_tensor_view %22, shape = [1000], strides = [1] : tensor_view<1000xf64, strides=[1]>
  %24 = make_partition_view %23 : partition_view<tile=(256), padding_value = zero, tensor_view<1000xf64, strides=[1]>>
  %25 = store_view_tko weak %21, %24[%1] token = %8 : tile<256xf64>, partition_view<tile=(256), padding_value = zero, tensor_view<1000xf64, strides=[1]>>, tile<i32> -> token
  return
}
