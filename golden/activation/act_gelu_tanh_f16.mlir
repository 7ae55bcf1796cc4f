entry @act_gelu_tanh_f16(%arg0: tile<ptr<f16>>, %arg1: tile<ptr<f16>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f16>>
  %5 = make_tensor_view %4, shape = [1000], strides = [1] : tensor_view<1000xf16, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(256), padding_value = zero, tensor_view<1000xf16, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(256), padding_value = zero, tensor_view<1000xf16, strides=[1]>>, tile<i32> -> tile<256xf16>, token
  %9 = constant <f32: 5.000000e-01> : tile<256xf32>
  %10 = ftof %7  : tile<256xf16> -> tile<256xf32>
  %11 = mulf %9, %10  : tile<256xf32>
  %12 = constant <f32: 1.000000e+00> : tile<256xf32>
  %13 = constant <f32: 0.797884583> : tile<256xf32>
  %14 = constant <f32: 4.471500e-02> : tile<256xf32>
  %15 = mulf %14, %10  : tile<256xf32>
  %16 = mulf %15, %10  : tile<256xf32>
  %17 = mulf %16, %10  : tile<256xf32>
  %18 = addf %10, %17  : tile<256xf32>
  %19 = mulf %13, %18  : tile<256xf32>
  %20 = tanh %19  : tile<256xf32>
  %21 = addf %12, %20  : tile<256xf32>
  %22 = mulf %11, %21  : tile<256xf32>
  %23 = ftof %22  : tile<256xf32> -> tile<256xf16>
  %24 = assume div_by<16>, %arg1 : tile<ptr<f16>>
  %25 = make_tensor_view %24, shape = [1000], strides = [1] : tensor_view<1000xf16, strides=[1]>
  %26 = make_partition_view %25 : partition_view<tile=(256), padding_value = zero, tensor_view<1000xf16, strides=[1]>>
  %27 = store_view_tko weak %23, %26[%1] token = %8 : tile<256xf16>, partition_view<tile=(256), padding_value = zero, tensor_view<1000xf16, strides=[1]>>, tile<i32> -> token
  return
}
