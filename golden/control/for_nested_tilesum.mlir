entry @for_nested_tilesum(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = constant <i32: 0> : tile<i32>
  %5 = constant <i32: 4> : tile<i32>
  %6 = constant <i32: 1> : tile<i32>
  %7 = constant <f32: 0.000000e+00> : tile<64x64xf32>
  %8, %9 = for %10 in (%4 to %5, step %6) : tile<i32> iter_values(%11 = %7, %12 = %0) -> (tile<64x64xf32>, token) {
    %13, %14 = for %15 in (%4 to %5, step %6) : tile<i32> iter_values(%16 = %11, %17 = %12) -> (tile<64x64xf32>, token) {
      %18 = assume div_by<16>, %arg0 : tile<ptr<f32>>
      %19 = make_tensor_view %18, shape = [256, 256], strides = [256, 1] : tensor_view<256x256xf32, strides=[256,1]>
      %20 = make_partition_view %19 : partition_view<tile=(64x64), padding_value = zero, tensor_view<256x256xf32, strides=[256,1]>>
      %21, %22 = load_view_tko weak %20[%10, %15] token = %17 : partition_view<tile=(64x64), padding_value = zero, tensor_view<256x256xf32, strides=[256,1]>>, tile<i32> -> tile<64x64xf32>, token
      %23 = addf %16, %21  : tile<64x64xf32>
      continue %23, %22 : tile<64x64xf32>, token
    }
    continue %13, %14 : tile<64x64xf32>, token
  }
  %24 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %25 = make_tensor_view %24, shape = [64, 64], strides = [64, 1] : tensor_view<64x64xf32, strides=[64,1]>
  %26 = make_partition_view %25 : partition_view<tile=(64x64), padding_value = zero, tensor_view<64x64xf32, strides=[64,1]>>
  %27 = store_view_tko weak %8, %26[%1, %2] token = %9 : tile<64x64xf32>, partition_view<tile=(64x64), padding_value = zero, tensor_view<64x64xf32, strides=[64,1]>>, tile<i32> -> token
  return
}
