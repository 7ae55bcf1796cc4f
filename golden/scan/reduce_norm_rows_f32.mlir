entry @reduce_norm_rows_f32(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [64, 64], strides = [64, 1] : tensor_view<64x64xf32, strides=[64,1]>
  %6 = make_partition_view %5 : partition_view<tile=(16x64), padding_value = zero, tensor_view<64x64xf32, strides=[64,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2] token = %0 : partition_view<tile=(16x64), padding_value = zero, tensor_view<64x64xf32, strides=[64,1]>>, tile<i32> -> tile<16x64xf32>, token
  %9 = reduce %7 dim=1 identities=[0.000000e+00 : f32] : tile<16x64xf32> -> tile<16xf32> 
  (%10: tile<f32>, %11: tile<f32>) {
    %12 = mulf %11, %11  : tile<f32>
    %13 = mulf %10, %10  : tile<f32>
    %14 = addf %12, %13  : tile<f32>
    %15 = sqrt %14  : tile<f32>
    yield %15 : tile<f32>
  }
  %16 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %17 = make_tensor_view %16, shape = [64], strides = [1] : tensor_view<64xf32, strides=[1]>
  %18 = make_partition_view %17 : partition_view<tile=(16), padding_value = zero, tensor_view<64xf32, strides=[1]>>
  %19 = store_view_tko weak %9, %18[%1] token = %8 : tile<16xf32>, partition_view<tile=(16), padding_value = zero, tensor_view<64xf32, strides=[1]>>, tile<i32> -> token
  return
}
