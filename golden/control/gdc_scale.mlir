entry @gdc_scale(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = gdc_wait_tko token = %0 -> token
  %5 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %6 = make_tensor_view %5, shape = [1024], strides = [1] : tensor_view<1024xf32, strides=[1]>
  %7 = make_partition_view %6 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>
  %8, %9 = load_view_tko weak %7[%1] token = %4 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token
  %10 = gdc_launch_dependents_tko token = %9 -> token
  %11 = constant <f32: 5.000000e-01> : tile<128xf32>
  %12 = mulf %8, %11  : tile<128xf32>
  %13 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %14 = make_tensor_view %13, shape = [1024], strides = [1] : tensor_view<1024xf32, strides=[1]>
  %15 = make_partition_view %14 : partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>
  %16 = store_view_tko weak %12, %15[%1] token = %10 : tile<128xf32>, partition_view<tile=(128), padding_value = zero, tensor_view<1024xf32, strides=[1]>>, tile<i32> -> token
  return
}
