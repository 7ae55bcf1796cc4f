entry @inbounds_f32(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [1024], strides = [1] : tensor_view<1024xf32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), tensor_view<1024xf32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 inbounds = [true] : partition_view<tile=(128), tensor_view<1024xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token
  %9 = constant <f32: 5.000000e-01> : tile<128xf32>
  %10 = subf %7, %9  : tile<128xf32>
  %11 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %12 = make_tensor_view %11, shape = [1024], strides = [1] : tensor_view<1024xf32, strides=[1]>
  %13 = make_partition_view %12 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>
  %14 = store_view_tko weak %10, %13[%1] token = %8 inbounds = [true] : tile<128xf32>, partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>, tile<i32> -> token
  return
}
