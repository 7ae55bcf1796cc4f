entry @if_sign_f32(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [1024], strides = [1] : tensor_view<1024xf32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(64), padding_value = zero, tensor_view<1024xf32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(64), padding_value = zero, tensor_view<1024xf32, strides=[1]>>, tile<i32> -> tile<64xf32>, token
  %9 = reduce %7 dim=0 identities=[0.000000e+00 : f32] : tile<64xf32> -> tile<f32> 
  (%10: tile<f32>, %11: tile<f32>) {
    %12 = addf %10, %11  : tile<f32>
    yield %12 : tile<f32>
  }
  %13 = constant <f32: 0.000000e+00> : tile<f32>
  %14 = cmpf greater_than ordered %9, %13 : tile<f32> -> tile<i1>
  %15 = if %14 -> (tile<64xf32>) {
    yield %7 : tile<64xf32>
  } else {
    %16 = negf %7 : tile<64xf32>
    yield %16 : tile<64xf32>
  }
  %17 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %18 = make_tensor_view %17, shape = [1024], strides = [1] : tensor_view<1024xf32, strides=[1]>
  %19 = make_partition_view %18 : partition_view<tile=(64), padding_value = zero, tensor_view<1024xf32, strides=[1]>>
  %20 = store_view_tko weak %15, %19[%1] token = %8 : tile<64xf32>, partition_view<tile=(64), padding_value = zero, tensor_view<1024xf32, strides=[1]>>, tile<i32> -> token
  return
}
