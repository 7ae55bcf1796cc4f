entry @rmsnorm_bf16(%arg0: tile<ptr<bf16>>, %arg1: tile<ptr<bf16>>, %arg2: tile<ptr<bf16>>, %arg3: tile<ptr<bf16>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<bf16>>
  %5 = make_tensor_view %4, shape = [128, 128], strides = [128, 1] : tensor_view<128x128xbf16, strides=[128,1]>
  %6 = make_partition_view %5 : partition_view<tile=(16x128), padding_value = zero, tensor_view<128x128xbf16, strides=[128,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2] token = %0 : partition_view<tile=(16x128), padding_value = zero, tensor_view<128x128xbf16, strides=[128,1]>>, tile<i32> -> tile<16x128xbf16>, token
  %9 = assume div_by<16>, %arg1 : tile<ptr<bf16>>
  %10 = make_tensor_view %9, shape = [1, 128], strides = [128, 1] : tensor_view<1x128xbf16, strides=[128,1]>
  %11 = make_partition_view %10 : partition_view<tile=(1x128), padding_value = zero, tensor_view<1x128xbf16, strides=[128,1]>>
  %12 = constant <i32: 0> : tile<i32>
  %13, %14 = load_view_tko weak %11[%12, %2] token = %8 : partition_view<tile=(1x128), padding_value = zero, tensor_view<1x128xbf16, strides=[128,1]>>, tile<i32> -> tile<1x128xbf16>, token
  %15 = assume div_by<16>, %arg2 : tile<ptr<bf16>>
  %16 = make_tensor_view %15, shape = [1, 128], strides = [128, 1] : tensor_view<1x128xbf16, strides=[128,1]>
  %17 = make_partition_view %16 : partition_view<tile=(1x128), padding_value = zero, tensor_view<1x128xbf16, strides=[128,1]>>
  %18, %19 = load_view_tko weak %17[%12, %2] token = %14 : partition_view<tile=(1x128), padding_value = zero, tensor_view<1x128xbf16, strides=[128,1]>>, tile<i32> -> tile<1x128xbf16>, token
  %20 = ftof %7  : tile<16x128xbf16> -> tile<16x128xf32>
  %21 = mulf %20, %20  : tile<16x128xf32>
  %22 = reduce %21 dim=1 identities=[0.000000e+00 : f32] : tile<16x128xf32> -> tile<16xf32> 
  (%23: tile<f32>, %24: tile<f32>) {
    %25 = addf %23, %24  : tile<f32>
    yield %25 : tile<f32>
  }
  %26 = reshape %22 : tile<16xf32> -> tile<16x1xf32>
  %27 = constant <f32: 7.812500e-03> : tile<16x1xf32>
  %28 = mulf %26, %27  : tile<16x1xf32>
  %29 = constant <f32: 9.99999974E-6> : tile<16x1xf32>
  %30 = addf %28, %29  : tile<16x1xf32>
  %31 = rsqrt %30 : tile<16x1xf32>
  %32 = broadcast %31 : tile<16x1xf32> -> tile<16x128xf32>
  %33 = mulf %20, %32  : tile<16x128xf32>
  %34 = ftof %13  : tile<1x128xbf16> -> tile<1x128xf32>
  %35 = broadcast %34 : tile<1x128xf32> -> tile<16x128xf32>
  %36 = mulf %33, %35  : tile<16x128xf32>
  %37 = ftof %36  : tile<16x128xf32> -> tile<16x128xbf16>
  %38 = assume div_by<16>, %arg3 : tile<ptr<bf16>>
  %39 = make_tensor_view %38, shape = [128, 128], strides = [128, 1] : tensor_view<128x128xbf16, strides=[128,1]>
  %40 = make_partition_view %39 : partition_view<tile=(16x128), padding_value = zero, tensor_view<128x128xbf16, strides=[128,1]>>
  %41 = store_view_tko weak %37, %40[%1, %2] token = %19 : tile<16x128xbf16>, partition_view<tile=(16x128), padding_value = zero, tensor_view<128x128xbf16, strides=[128,1]>>, tile<i32> -> token
  return
}
