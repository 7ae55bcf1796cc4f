entry @softmax(%arg0: tile<ptr<f64>>, %arg1: tile<ptr<f64>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f64>>
  %5 = make_tensor_view %4, shape = [3], strides = [1] : tensor_view<3xf64, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(4), padding_value = neg_inf, tensor_view<3xf64, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(4), padding_value = neg_inf, tensor_view<3xf64, strides=[1]>>, tile<i32> -> tile<4xf64>, token
  %9 = reduce %7 dim=0 identities=[0xFFF0000000000000 : f64] : tile<4xf64> -> tile<f64> 
  (%10: tile<f64>, %11: tile<f64>) {
    %12 = maxf %10, %11 : tile<f64>
    yield %12 : tile<f64>
  }
  %13 = reshape %9 : tile<f64> -> tile<1xf64>
  %14 = broadcast %13 : tile<1xf64> -> tile<4xf64>
  %15 = subf %7, %14  : tile<4xf64>
  %16 = exp %15  : tile<4xf64>
  %17 = reduce %16 dim=0 identities=[0.000000e+00] : tile<4xf64> -> tile<f64> 
  (%18: tile<f64>, %19: tile<f64>) {
    %20 = addf %18, %19  : tile<f64>
    yield %20 : tile<f64>
  }
  %21 = reshape %17 : tile<f64> -> tile<1xf64>
  %22 = broadcast %21 : tile<1xf64> -> tile<4xf64>
  %23 = divf %16, %22  : tile<4xf64>
  %24 = assume div_by<16>, %arg1 : tile<ptr<f64>>
  %25 = make_tensor_view %24, shape = [3], strides = [1] : tensor_view<3xf64, strides=[1]>
  %26 = make_partition_view %25 : partition_view<tile=(4), padding_value = zero, tensor_view<3xf64, strides=[1]>>
  %27 = store_view_tko weak %23, %26[%1] token = %8 : tile<4xf64>, partition_view<tile=(4), padding_value = zero, tensor_view<3xf64, strides=[1]>>, tile<i32> -> token
  return
}
