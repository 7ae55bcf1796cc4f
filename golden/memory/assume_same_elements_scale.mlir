entry @assume_same_elements_scale(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [2048], strides = [1] : tensor_view<2048xf32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(256), padding_value = zero, tensor_view<2048xf32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(256), padding_value = zero, tensor_view<2048xf32, strides=[1]>>, tile<i32> -> tile<256xf32>, token
  %9 = iota : tile<256xi32>
  %10 = constant <i32: 8> : tile<256xi32>
  %11 = divi %9, %10 signed rounding<negative_inf> : tile<256xi32>
  %12 = assume same_elements<[8]>, %11 : tile<256xi32>
  %13 = itof %12 signed  : tile<256xi32> -> tile<256xf32>
  %14 = mulf %7, %13  : tile<256xf32>
  %15 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %16 = make_tensor_view %15, shape = [2048], strides = [1] : tensor_view<2048xf32, strides=[1]>
  %17 = make_partition_view %16 : partition_view<tile=(256), padding_value = zero, tensor_view<2048xf32, strides=[1]>>
  %18 = store_view_tko weak %14, %17[%1] token = %8 : tile<256xf32>, partition_view<tile=(256), padding_value = zero, tensor_view<2048xf32, strides=[1]>>, tile<i32> -> token
  return
}
