entry @cumsum_cols_f32_rev(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [64, 64], strides = [64, 1] : tensor_view<64x64xf32, strides=[64,1]>
  %6 = make_partition_view %5 : partition_view<tile=(64x16), padding_value = zero, tensor_view<64x64xf32, strides=[64,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2] token = %0 : partition_view<tile=(64x16), padding_value = zero, tensor_view<64x64xf32, strides=[64,1]>>, tile<i32> -> tile<64x16xf32>, token
  %9 = scan %7 dim=0 reverse=true identities=[0.000000e+00 : f32] : tile<64x16xf32> -> tile<64x16xf32> 
  (%10: tile<f32>, %11: tile<f32>) {
    %12 = addf %11, %10  : tile<f32>
    yield %12 : tile<f32>
  }
  %13 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %14 = make_tensor_view %13, shape = [64, 64], strides = [64, 1] : tensor_view<64x64xf32, strides=[64,1]>
  %15 = make_partition_view %14 : partition_view<tile=(64x16), padding_value = zero, tensor_view<64x64xf32, strides=[64,1]>>
  %16 = store_view_tko weak %9, %15[%1, %2] token = %8 : tile<64x16xf32>, partition_view<tile=(64x16), padding_value = zero, tensor_view<64x64xf32, strides=[64,1]>>, tile<i32> -> token
  return
}
