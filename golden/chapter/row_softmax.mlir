entry @row_softmax(%arg0: tile<ptr<f64>>, %arg1: tile<ptr<f64>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f64>>
  %5 = make_tensor_view %4, shape = [256, 64], strides = [64, 1] : tensor_view<256x64xf64, strides=[64,1]>
  %6 = make_partition_view %5 : partition_view<tile=(32x64), padding_value = zero, tensor_view<256x64xf64, strides=[64,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2] token = %0 : partition_view<tile=(32x64), padding_value = zero, tensor_view<256x64xf64, strides=[64,1]>>, tile<i32> -> tile<32x64xf64>, token
  %9 = reduce %7 dim=1 identities=[0xFFF0000000000000 : f64] : tile<32x64xf64> -> tile<32xf64> 
  (%10: tile<f64>, %11: tile<f64>) {
    %12 = maxf %10, %11 : tile<f64>
    yield %12 : tile<f64>
  }
  %13 = reshape %9 : tile<32xf64> -> tile<32x1xf64>
  %14 = broadcast %13 : tile<32x1xf64> -> tile<32x64xf64>
  %15 = subf %7, %14  : tile<32x64xf64>
  %16 = exp %15  : tile<32x64xf64>
  %17 = reduce %16 dim=1 identities=[0.000000e+00] : tile<32x64xf64> -> tile<32xf64> 
  (%18: tile<f64>, %19: tile<f64>) {
    %20 = addf %18, %19  : tile<f64>
    yield %20 : tile<f64>
  }
  %21 = reshape %17 : tile<32xf64> -> tile<32x1xf64>
  %22 = broadcast %21 : tile<32x1xf64> -> tile<32x64xf64>
  %23 = divf %16, %22  : tile<32x64xf64>
  %24 = assume div_by<16>, %arg1 : tile<ptr<f64>>
  %25 = make_tensor_view %24, shape = [256, 64], strides = [64, 1] : tensor_view<256x64xf64, strides=[64,1]>
  %26 = make_partition_view %25 : partition_view<tile=(32x64), padding_value = zero, tensor_view<256x64xf64, strides=[64,1]>>
  %27 = store_view_tko weak %23, %26[%1, %2] token = %8 : tile<32x64xf64>, partition_view<tile=(32x64), padding_value = zero, tensor_view<256x64xf64, strides=[64,1]>>, tile<i32> -> token
  return
}
