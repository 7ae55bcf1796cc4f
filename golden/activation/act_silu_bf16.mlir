entry @act_silu_bf16(%arg0: tile<ptr<bf16>>, %arg1: tile<ptr<bf16>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<bf16>>
  %5 = make_tensor_view %4, shape = [1000], strides = [1] : tensor_view<1000xbf16, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(256), padding_value = zero, tensor_view<1000xbf16, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(256), padding_value = zero, tensor_view<1000xbf16, strides=[1]>>, tile<i32> -> tile<256xbf16>, token
  %9 = ftof %7  : tile<256xbf16> -> tile<256xf32>
  %10 = constant <f32: 1.000000e+00> : tile<256xf32>
  %11 = negf %9 : tile<256xf32>
  %12 = exp %11  : tile<256xf32>
  %13 = addf %10, %12  : tile<256xf32>
  %14 = divf %9, %13  : tile<256xf32>
  %15 = ftof %14  : tile<256xf32> -> tile<256xbf16>
  %16 = assume div_by<16>, %arg1 : tile<ptr<bf16>>
  %17 = make_tensor_view %16, shape = [1000], strides = [1] : tensor_view<1000xbf16, strides=[1]>
  %18 = make_partition_view %17 : partition_view<tile=(256), padding_value = zero, tensor_view<1000xbf16, strides=[1]>>
  %19 = store_view_tko weak %15, %18[%1] token = %8 : tile<256xbf16>, partition_view<tile=(256), padding_value = zero, tensor_view<1000xbf16, strides=[1]>>, tile<i32> -> token
  return
}
