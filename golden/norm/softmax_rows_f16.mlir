entry @softmax_rows_f16(%arg0: tile<ptr<f16>>, %arg1: tile<ptr<f16>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f16>>
  %5 = make_tensor_view %4, shape = [128, 128], strides = [128, 1] : tensor_view<128x128xf16, strides=[128,1]>
  %6 = make_partition_view %5 : partition_view<tile=(16x128), padding_value = zero, tensor_view<128x128xf16, strides=[128,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2] token = %0 : partition_view<tile=(16x128), padding_value = zero, tensor_view<128x128xf16, strides=[128,1]>>, tile<i32> -> tile<16x128xf16>, token
  %9 = ftof %7  : tile<16x128xf16> -> tile<16x128xf32>
  %10 = reduce %9 dim=1 identities=[0xFF800000 : f32] : tile<16x128xf32> -> tile<16xf32> 
  (%11: tile<f32>, %12: tile<f32>) {
    %13 = maxf %11, %12 : tile<f32>
    yield %13 : tile<f32>
  }
  %14 = reshape %10 : tile<16xf32> -> tile<16x1xf32>
  %15 = broadcast %14 : tile<16x1xf32> -> tile<16x128xf32>
  %16 = subf %9, %15  : tile<16x128xf32>
  %17 = exp %16  : tile<16x128xf32>
  %18 = reduce %17 dim=1 identities=[0.000000e+00 : f32] : tile<16x128xf32> -> tile<16xf32> 
  (%19: tile<f32>, %20: tile<f32>) {
    %21 = addf %19, %20  : tile<f32>
    yield %21 : tile<f32>
  }
  %22 = reshape %18 : tile<16xf32> -> tile<16x1xf32>
  %23 = broadcast %22 : tile<16x1xf32> -> tile<16x128xf32>
  %24 = divf %17, %23  : tile<16x128xf32>
  %25 = ftof %24  : tile<16x128xf32> -> tile<16x128xf16>
  %26 = assume div_by<16>, %arg1 : tile<ptr<f16>>
  %27 = make_tensor_view %26, shape = [128, 128], strides = [128, 1] : tensor_view<128x128xf16, strides=[128,1]>
  %28 = make_partition_view %27 : partition_view<tile=(16x128), padding_value = zero, tensor_view<128x128xf16, strides=[128,1]>>
  %29 = store_view_tko weak %25, %28[%1, %2] token = %8 : tile<16x128xf16>, partition_view<tile=(16x128), padding_value = zero, tensor_view<128x128xf16, strides=[128,1]>>, tile<i32> -> token
  return
}
