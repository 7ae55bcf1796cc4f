entry @act_relu_f16(%arg0: tile<ptr<f16>>, %arg1: tile<ptr<f16>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f16>>
  %5 = make_tensor_view %4, shape = [1000], strides = [1] : tensor_view<1000xf16, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(256), padding_value = zero, tensor_view<1000xf16, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(256), padding_value = zero, tensor_view<1000xf16, strides=[1]>>, tile<i32> -> tile<256xf16>, token
  %9 = ftof %7  : tile<256xf16> -> tile<256xf32>
  %10 = constant <f32: 0.000000e+00> : tile<256xf32>
  %11 = maxf %9, %10 : tile<256xf32>
  %12 = ftof %11  : tile<256xf32> -> tile<256xf16>
  %13 = assume div_by<16>, %arg1 : tile<ptr<f16>>
  %14 = make_tensor_view %13, shape = [1000], strides = [1] : tensor_view<1000xf16, strides=[1]>
  %15 = make_partition_view %14 : partition_view<tile=(256), padding_value = zero, tensor_view<1000xf16, strides=[1]>>
  %16 = store_view_tko weak %12, %15[%1] token = %8 : tile<256xf16>, partition_view<tile=(256), padding_value = zero, tensor_view<1000xf16, strides=[1]>>, tile<i32> -> token
  return
}
