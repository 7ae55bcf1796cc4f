entry @insert_rows_f32(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [64, 64], strides = [64, 1] : tensor_view<64x64xf32, strides=[64,1]>
  %6 = make_partition_view %5 : partition_view<tile=(8x64), padding_value = zero, tensor_view<64x64xf32, strides=[64,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2] token = %0 : partition_view<tile=(8x64), padding_value = zero, tensor_view<64x64xf32, strides=[64,1]>>, tile<i32> -> tile<8x64xf32>, token
  %9 = constant <f32: 0.000000e+00> : tile<32x64xf32>
  %10 = constant <i32: 4> : tile<i32>
  %11 = remi %1, %10 signed : tile<i32>
  %12 = constant <i32: 0> : tile<i32>
  %13 = insert %7, %9[%11, %12] : tile<8x64xf32>, tile<32x64xf32>
  %14 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %15 = make_tensor_view %14, shape = [256, 64], strides = [64, 1] : tensor_view<256x64xf32, strides=[64,1]>
  %16 = make_partition_view %15 : partition_view<tile=(32x64), padding_value = zero, tensor_view<256x64xf32, strides=[64,1]>>
  %17 = store_view_tko weak %13, %16[%1, %2] token = %8 : tile<32x64xf32>, partition_view<tile=(32x64), padding_value = zero, tensor_view<256x64xf32, strides=[64,1]>>, tile<i32> -> token
  return
}
