entry @pad_nan_mean(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [8, 100], strides = [100, 1] : tensor_view<8x100xf32, strides=[100,1]>
  %6 = make_partition_view %5 : partition_view<tile=(1x128), padding_value = nan, tensor_view<8x100xf32, strides=[100,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2] token = %0 : partition_view<tile=(1x128), padding_value = nan, tensor_view<8x100xf32, strides=[100,1]>>, tile<i32> -> tile<1x128xf32>, token
  %9 = cmpf equal ordered %7, %7 : tile<1x128xf32> -> tile<1x128xi1>
  %10 = constant <f32: 0.000000e+00> : tile<1x128xf32>
  %11 = select %9, %7, %10 : tile<1x128xi1>, tile<1x128xf32>
  %12 = reduce %11 dim=1 identities=[0.000000e+00 : f32] : tile<1x128xf32> -> tile<1xf32> 
  (%13: tile<f32>, %14: tile<f32>) {
    %15 = addf %13, %14  : tile<f32>
    yield %15 : tile<f32>
  }
  %16 = reshape %12 : tile<1xf32> -> tile<1x1xf32>
  %17 = exti %9 unsigned : tile<1x128xi1> -> tile<1x128xi32>
  %18 = reduce %17 dim=1 identities=[0 : i32] : tile<1x128xi32> -> tile<1xi32> 
  (%19: tile<i32>, %20: tile<i32>) {
    %21 = addi %19, %20 : tile<i32>
    yield %21 : tile<i32>
  }
  %22 = reshape %18 : tile<1xi32> -> tile<1x1xi32>
  %23 = itof %22 signed  : tile<1x1xi32> -> tile<1x1xf32>
  %24 = divf %16, %23  : tile<1x1xf32>
  %25 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %26 = make_tensor_view %25, shape = [8, 1], strides = [1, 1] : tensor_view<8x1xf32, strides=[1,1]>
  %27 = make_partition_view %26 : partition_view<tile=(1x1), padding_value = zero, tensor_view<8x1xf32, strides=[1,1]>>
  %28 = store_view_tko weak %24, %27[%1, %2] token = %8 : tile<1x1xf32>, partition_view<tile=(1x1), padding_value = zero, tensor_view<8x1xf32, strides=[1,1]>>, tile<i32> -> token
  return
}
