entry @reduce_range_rows_f32(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [64, 64], strides = [64, 1] : tensor_view<64x64xf32, strides=[64,1]>
  %6 = make_partition_view %5 : partition_view<tile=(16x64), padding_value = zero, tensor_view<64x64xf32, strides=[64,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2] token = %0 : partition_view<tile=(16x64), padding_value = zero, tensor_view<64x64xf32, strides=[64,1]>>, tile<i32> -> tile<16x64xf32>, token
  %9, %10 = reduce %7, %7 dim=1 identities=[0x7F800000 : f32, 0xFF800000 : f32] : tile<16x64xf32>, tile<16x64xf32> -> tile<16xf32>, tile<16xf32> 
  (%11: tile<f32>, %12: tile<f32>, %13: tile<f32>, %14: tile<f32>) {
    %15 = minf %12, %11 : tile<f32>
    %16 = maxf %14, %13 : tile<f32>
    yield %15, %16 : tile<f32>, tile<f32>
  }
  %17 = subf %10, %9  : tile<16xf32>
  %18 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %19 = make_tensor_view %18, shape = [64], strides = [1] : tensor_view<64xf32, strides=[1]>
  %20 = make_partition_view %19 : partition_view<tile=(16), padding_value = zero, tensor_view<64xf32, strides=[1]>>
  %21 = store_view_tko weak %17, %20[%1] token = %8 : tile<16xf32>, partition_view<tile=(16), padding_value = zero, tensor_view<64xf32, strides=[1]>>, tile<i32> -> token
  return
}
