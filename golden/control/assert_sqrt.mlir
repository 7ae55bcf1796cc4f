entry @assert_sqrt(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [1024], strides = [1] : tensor_view<1024xf32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(256), padding_value = zero, tensor_view<1024xf32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(256), padding_value = zero, tensor_view<1024xf32, strides=[1]>>, tile<i32> -> tile<256xf32>, token
  %9 = constant <f32: 0.000000e+00> : tile<256xf32>
  %10 = cmpf greater_than_or_equal ordered %7, %9 : tile<256xf32> -> tile<256xi1>
  assert %10, "assert_sqrt: a negative input" : tile<256xi1>
  %11 = sqrt %7  : tile<256xf32>
  %12 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %13 = make_tensor_view %12, shape = [1024], strides = [1] : tensor_view<1024xf32, strides=[1]>
  %14 = make_partition_view %13 : partition_view<tile=(256), padding_value = zero, tensor_view<1024xf32, strides=[1]>>
  %15 = store_view_tko weak %11, %14[%1] token = %8 : tile<256xf32>, partition_view<tile=(256), padding_value = zero, tensor_view<1024xf32, strides=[1]>>, tile<i32> -> token
  return
}
