entry @horner_f32(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [1000], strides = [1] : tensor_view<1000xf32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xf32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token
  %9 = constant <f32: 2.500000e-01> : tile<128xf32>
  %10 = constant <f32: -5.000000e-01> : tile<128xf32>
  %11 = fma %7, %9, %10  : tile<128xf32>
  %12 = constant <f32: 1.000000e+00> : tile<128xf32>
  %13 = fma %11, %7, %12  : tile<128xf32>
  %14 = constant <f32: 2.000000e+00> : tile<128xf32>
  %15 = fma %13, %7, %14  : tile<128xf32>
  %16 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %17 = make_tensor_view %16, shape = [1000], strides = [1] : tensor_view<1000xf32, strides=[1]>
  %18 = make_partition_view %17 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xf32, strides=[1]>>
  %19 = store_view_tko weak %15, %18[%1] token = %8 : tile<128xf32>, partition_view<tile=(128), padding_value = zero, tensor_view<1000xf32, strides=[1]>>, tile<i32> -> token
  return
}
