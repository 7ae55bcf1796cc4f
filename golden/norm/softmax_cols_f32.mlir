entry @softmax_cols_f32(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [64, 256], strides = [256, 1] : tensor_view<64x256xf32, strides=[256,1]>
  %6 = make_partition_view %5 : partition_view<tile=(64x32), padding_value = zero, tensor_view<64x256xf32, strides=[256,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2] token = %0 : partition_view<tile=(64x32), padding_value = zero, tensor_view<64x256xf32, strides=[256,1]>>, tile<i32> -> tile<64x32xf32>, token
  %9 = reduce %7 dim=0 identities=[0xFF800000 : f32] : tile<64x32xf32> -> tile<32xf32> 
  (%10: tile<f32>, %11: tile<f32>) {
    %12 = maxf %10, %11 : tile<f32>
    yield %12 : tile<f32>
  }
  %13 = reshape %9 : tile<32xf32> -> tile<1x32xf32>
  %14 = broadcast %13 : tile<1x32xf32> -> tile<64x32xf32>
  %15 = subf %7, %14  : tile<64x32xf32>
  %16 = exp %15  : tile<64x32xf32>
  %17 = reduce %16 dim=0 identities=[0.000000e+00 : f32] : tile<64x32xf32> -> tile<32xf32> 
  (%18: tile<f32>, %19: tile<f32>) {
    %20 = addf %18, %19  : tile<f32>
    yield %20 : tile<f32>
  }
  %21 = reshape %17 : tile<32xf32> -> tile<1x32xf32>
  %22 = broadcast %21 : tile<1x32xf32> -> tile<64x32xf32>
  %23 = divf %16, %22  : tile<64x32xf32>
  %24 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %25 = make_tensor_view %24, shape = [64, 256], strides = [256, 1] : tensor_view<64x256xf32, strides=[256,1]>
  %26 = make_partition_view %25 : partition_view<tile=(64x32), padding_value = zero, tensor_view<64x256xf32, strides=[256,1]>>
  %27 = store_view_tko weak %23, %26[%1, %2] token = %8 : tile<64x32xf32>, partition_view<tile=(64x32), padding_value = zero, tensor_view<64x256xf32, strides=[256,1]>>, tile<i32> -> token
  return
}
