entry @for_step2_sum(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = constant <i32: 0> : tile<i32>
  %5 = constant <i32: 16> : tile<i32>
  %6 = constant <i32: 2> : tile<i32>
  %7 = constant <f32: 0.000000e+00> : tile<256xf32>
  %8, %9 = for %10 in (%4 to %5, step %6) : tile<i32> iter_values(%11 = %7, %12 = %0) -> (tile<256xf32>, token) {
    %13 = assume div_by<16>, %arg0 : tile<ptr<f32>>
    %14 = make_tensor_view %13, shape = [4096], strides = [1] : tensor_view<4096xf32, strides=[1]>
    %15 = make_partition_view %14 : partition_view<tile=(256), padding_value = zero, tensor_view<4096xf32, strides=[1]>>
    %16, %17 = load_view_tko weak %15[%10] token = %12 : partition_view<tile=(256), padding_value = zero, tensor_view<4096xf32, strides=[1]>>, tile<i32> -> tile<256xf32>, token
    %18 = addf %11, %16  : tile<256xf32>
    continue %18, %17 : tile<256xf32>, token
  }
  %19 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %20 = make_tensor_view %19, shape = [256], strides = [1] : tensor_view<256xf32, strides=[1]>
  %21 = make_partition_view %20 : partition_view<tile=(256), padding_value = zero, tensor_view<256xf32, strides=[1]>>
  %22 = store_view_tko weak %8, %21[%1] token = %9 : tile<256xf32>, partition_view<tile=(256), padding_value = zero, tensor_view<256xf32, strides=[1]>>, tile<i32> -> token
  return
}
