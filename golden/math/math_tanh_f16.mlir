entry @math_tanh_f16(%arg0: tile<ptr<f16>>, %arg1: tile<ptr<f16>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f16>>
  %5 = make_tensor_view %4, shape = [768], strides = [1] : tensor_view<768xf16, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(256), padding_value = zero, tensor_view<768xf16, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(256), padding_value = zero, tensor_view<768xf16, strides=[1]>>, tile<i32> -> tile<256xf16>, token
  %9 = tanh %7  : tile<256xf16>
  %10 = assume div_by<16>, %arg1 : tile<ptr<f16>>
  %11 = make_tensor_view %10, shape = [768], strides = [1] : tensor_view<768xf16, strides=[1]>
  %12 = make_partition_view %11 : partition_view<tile=(256), padding_value = zero, tensor_view<768xf16, strides=[1]>>
  %13 = store_view_tko weak %9, %12[%1] token = %8 : tile<256xf16>, partition_view<tile=(256), padding_value = zero, tensor_view<768xf16, strides=[1]>>, tile<i32> -> token
  return
}
