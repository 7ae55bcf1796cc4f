entry @layernorm_f16(%arg0: tile<ptr<f16>>, %arg1: tile<ptr<f16>>, %arg2: tile<ptr<f16>>, %arg3: tile<ptr<f16>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f16>>
  %5 = make_tensor_view %4, shape = [128, 128], strides = [128, 1] : tensor_view<128x128xf16, strides=[128,1]>
  %6 = make_partition_view %5 : partition_view<tile=(16x128), padding_value = zero, tensor_view<128x128xf16, strides=[128,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2] token = %0 : partition_view<tile=(16x128), padding_value = zero, tensor_view<128x128xf16, strides=[128,1]>>, tile<i32> -> tile<16x128xf16>, token
  %9 = assume div_by<16>, %arg1 : tile<ptr<f16>>
  %10 = make_tensor_view %9, shape = [1, 128], strides = [128, 1] : tensor_view<1x128xf16, strides=[128,1]>
  %11 = make_partition_view %10 : partition_view<tile=(1x128), padding_value = zero, tensor_view<1x128xf16, strides=[128,1]>>
  %12 = constant <i32: 0> : tile<i32>
  %13, %14 = load_view_tko weak %11[%12, %2] token = %8 : partition_view<tile=(1x128), padding_value = zero, tensor_view<1x128xf16, strides=[128,1]>>, tile<i32> -> tile<1x128xf16>, token
  %15 = assume div_by<16>, %arg2 : tile<ptr<f16>>
  %16 = make_tensor_view %15, shape = [1, 128], strides = [128, 1] : tensor_view<1x128xf16, strides=[128,1]>
  %17 = make_partition_view %16 : partition_view<tile=(1x128), padding_value = zero, tensor_view<1x128xf16, strides=[128,1]>>
  %18, %19 = load_view_tko weak %17[%12, %2] token = %14 : partition_view<tile=(1x128), padding_value = zero, tensor_view<1x128xf16, strides=[128,1]>>, tile<i32> -> tile<1x128xf16>, token
  %20 = ftof %7  : tile<16x128xf16> -> tile<16x128xf32>
  %21 = reduce %20 dim=1 identities=[0.000000e+00 : f32] : tile<16x128xf32> -> tile<16xf32> 
  (%22: tile<f32>, %23: tile<f32>) {
    %24 = addf %22, %23  : tile<f32>
    yield %24 : tile<f32>
  }
  %25 = reshape %21 : tile<16xf32> -> tile<16x1xf32>
  %26 = constant <f32: 7.812500e-03> : tile<16x1xf32>
  %27 = mulf %25, %26  : tile<16x1xf32>
  %28 = broadcast %27 : tile<16x1xf32> -> tile<16x128xf32>
  %29 = subf %20, %28  : tile<16x128xf32>
  %30 = mulf %29, %29  : tile<16x128xf32>
  %31 = reduce %30 dim=1 identities=[0.000000e+00 : f32] : tile<16x128xf32> -> tile<16xf32> 
  (%32: tile<f32>, %33: tile<f32>) {
    %34 = addf %32, %33  : tile<f32>
    yield %34 : tile<f32>
  }
  %35 = reshape %31 : tile<16xf32> -> tile<16x1xf32>
  %36 = mulf %35, %26  : tile<16x1xf32>
  %37 = constant <f32: 9.99999974E-6> : tile<16x1xf32>
  %38 = addf %36, %37  : tile<16x1xf32>
  %39 = rsqrt %38 : tile<16x1xf32>
  %40 = broadcast %39 : tile<16x1xf32> -> tile<16x128xf32>
  %41 = mulf %29, %40  : tile<16x128xf32>
  %42 = ftof %13  : tile<1x128xf16> -> tile<1x128xf32>
  %43 = broadcast %42 : tile<1x128xf32> -> tile<16x128xf32>
  %44 = mulf %41, %43  : tile<16x128xf32>
  %45 = ftof %18  : tile<1x128xf16> -> tile<1x128xf32>
  %46 = broadcast %45 : tile<1x128xf32> -> tile<16x128xf32>
  %47 = addf %44, %46  : tile<16x128xf32>
  %48 = ftof %47  : tile<16x128xf32> -> tile<16x128xf16>
  %49 = assume div_by<16>, %arg3 : tile<ptr<f16>>
  %50 = make_tensor_view %49, shape = [128, 128], strides = [128, 1] : tensor_view<128x128xf16, strides=[128,1]>
  %51 = make_partition_view %50 : partition_view<tile=(16x128), padding_value = zero, tensor_view<128x128xf16, strides=[128,1]>>
  %52 = store_view_tko weak %48, %51[%1, %2] token = %19 : tile<16x128xf16>, partition_view<tile=(16x128), padding_value = zero, tensor_view<128x128xf16, strides=[128,1]>>, tile<i32> -> token
  return
}
