entry @act_leaky_relu_f64(%arg0: tile<ptr<f64>>, %arg1: tile<ptr<f64>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f64>>
  %5 = make_tensor_view %4, shape = [1000], strides = [1] : tensor_view<1000xf64, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(256), padding_value = zero, tensor_view<1000xf64, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(256), padding_value = zero, tensor_view<1000xf64, strides=[1]>>, tile<i32> -> tile<256xf64>, token
  %9 = constant <f64: 0.000000e+00> : tile<256xf64>
  %10 = cmpf greater_than ordered %7, %9 : tile<256xf64> -> tile<256xi1>
  %11 = constant <f64: 1.000000e-02> : tile<256xf64>
  %12 = mulf %7, %11  : tile<256xf64>
  %13 = select %10, %7, %12 : tile<256xi1>, tile<256xf64>
  %14 = assume div_by<16>, %arg1 : tile<ptr<f64>>
  %15 = make_tensor_view %14, shape = [1000], strides = [1] : tensor_view<1000xf64, strides=[1]>
  %16 = make_partition_view %15 : partition_view<tile=(256), padding_value = zero, tensor_view<1000xf64, strides=[1]>>
  %17 = store_view_tko weak %13, %16[%1] token = %8 : tile<256xf64>, partition_view<tile=(256), padding_value = zero, tensor_view<1000xf64, strides=[1]>>, tile<i32> -> token
  return
}
