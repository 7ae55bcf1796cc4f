entry @rmsnorm_f32_pad(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>, %arg2: tile<ptr<f32>>, %arg3: tile<ptr<f32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [128, 100], strides = [100, 1] : tensor_view<128x100xf32, strides=[100,1]>
  %6 = make_partition_view %5 : partition_view<tile=(16x128), padding_value = zero, tensor_view<128x100xf32, strides=[100,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2] token = %0 : partition_view<tile=(16x128), padding_value = zero, tensor_view<128x100xf32, strides=[100,1]>>, tile<i32> -> tile<16x128xf32>, token
  %9 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %10 = make_tensor_view %9, shape = [1, 100], strides = [100, 1] : tensor_view<1x100xf32, strides=[100,1]>
  %11 = make_partition_view %10 : partition_view<tile=(1x128), padding_value = zero, tensor_view<1x100xf32, strides=[100,1]>>
  %12 = constant <i32: 0> : tile<i32>
  %13, %14 = load_view_tko weak %11[%12, %2] token = %8 : partition_view<tile=(1x128), padding_value = zero, tensor_view<1x100xf32, strides=[100,1]>>, tile<i32> -> tile<1x128xf32>, token
  %15 = assume div_by<16>, %arg2 : tile<ptr<f32>>
  %16 = make_tensor_view %15, shape = [1, 100], strides = [100, 1] : tensor_view<1x100xf32, strides=[100,1]>
  %17 = make_partition_view %16 : partition_view<tile=(1x128), padding_value = zero, tensor_view<1x100xf32, strides=[100,1]>>
  %18, %19 = load_view_tko weak %17[%12, %2] token = %14 : partition_view<tile=(1x128), padding_value = zero, tensor_view<1x100xf32, strides=[100,1]>>, tile<i32> -> tile<1x128xf32>, token
  %20 = mulf %7, %7  : tile<16x128xf32>
  %21 = reduce %20 dim=1 identities=[0.000000e+00 : f32] : tile<16x128xf32> -> tile<16xf32> 
  (%22: tile<f32>, %23: tile<f32>) {
    %24 = addf %22, %23  : tile<f32>
    yield %24 : tile<f32>
  }
  %25 = reshape %21 : tile<16xf32> -> tile<16x1xf32>
  %26 = constant <f32: 0.00999999977> : tile<16x1xf32>
  %27 = mulf %25, %26  : tile<16x1xf32>
  %28 = constant <f32: 9.99999974E-6> : tile<16x1xf32>
  %29 = addf %27, %28  : tile<16x1xf32>
  %30 = rsqrt %29 : tile<16x1xf32>
  %31 = broadcast %30 : tile<16x1xf32> -> tile<16x128xf32>
  %32 = mulf %7, %31  : tile<16x128xf32>
  %33 = broadcast %13 : tile<1x128xf32> -> tile<16x128xf32>
  %34 = mulf %32, %33  : tile<16x128xf32>
  %35 = assume div_by<16>, %arg3 : tile<ptr<f32>>
  %36 = make_tensor_view %35, shape = [128, 100], strides = [100, 1] : tensor_view<128x100xf32, strides=[100,1]>
  %37 = make_partition_view %36 : partition_view<tile=(16x128), padding_value = zero, tensor_view<128x100xf32, strides=[100,1]>>
  %38 = store_view_tko weak %34, %37[%1, %2] token = %19 : tile<16x128xf32>, partition_view<tile=(16x128), padding_value = zero, tensor_view<128x100xf32, strides=[100,1]>>, tile<i32> -> token
  return
}
