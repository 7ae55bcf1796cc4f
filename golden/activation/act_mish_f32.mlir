entry @act_mish_f32(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [1000], strides = [1] : tensor_view<1000xf32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(256), padding_value = zero, tensor_view<1000xf32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(256), padding_value = zero, tensor_view<1000xf32, strides=[1]>>, tile<i32> -> tile<256xf32>, token
  %9 = constant <f32: 1.000000e+00> : tile<256xf32>
  %10 = exp %7  : tile<256xf32>
  %11 = addf %9, %10  : tile<256xf32>
  %12 = log %11 : tile<256xf32>
  %13 = tanh %12  : tile<256xf32>
  %14 = mulf %7, %13  : tile<256xf32>
  %15 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %16 = make_tensor_view %15, shape = [1000], strides = [1] : tensor_view<1000xf32, strides=[1]>
  %17 = make_partition_view %16 : partition_view<tile=(256), padding_value = zero, tensor_view<1000xf32, strides=[1]>>
  %18 = store_view_tko weak %14, %17[%1] token = %8 : tile<256xf32>, partition_view<tile=(256), padding_value = zero, tensor_view<1000xf32, strides=[1]>>, tile<i32> -> token
  return
}
