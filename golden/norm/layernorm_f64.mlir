entry @layernorm_f64(%arg0: tile<ptr<f64>>, %arg1: tile<ptr<f64>>, %arg2: tile<ptr<f64>>, %arg3: tile<ptr<f64>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f64>>
  %5 = make_tensor_view %4, shape = [128, 128], strides = [128, 1] : tensor_view<128x128xf64, strides=[128,1]>
  %6 = make_partition_view %5 : partition_view<tile=(16x128), padding_value = zero, tensor_view<128x128xf64, strides=[128,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2] token = %0 : partition_view<tile=(16x128), padding_value = zero, tensor_view<128x128xf64, strides=[128,1]>>, tile<i32> -> tile<16x128xf64>, token
  %9 = assume div_by<16>, %arg1 : tile<ptr<f64>>
  %10 = make_tensor_view %9, shape = [1, 128], strides = [128, 1] : tensor_view<1x128xf64, strides=[128,1]>
  %11 = make_partition_view %10 : partition_view<tile=(1x128), padding_value = zero, tensor_view<1x128xf64, strides=[128,1]>>
  %12 = constant <i32: 0> : tile<i32>
  %13, %14 = load_view_tko weak %11[%12, %2] token = %8 : partition_view<tile=(1x128), padding_value = zero, tensor_view<1x128xf64, strides=[128,1]>>, tile<i32> -> tile<1x128xf64>, token
  %15 = assume div_by<16>, %arg2 : tile<ptr<f64>>
  %16 = make_tensor_view %15, shape = [1, 128], strides = [128, 1] : tensor_view<1x128xf64, strides=[128,1]>
  %17 = make_partition_view %16 : partition_view<tile=(1x128), padding_value = zero, tensor_view<1x128xf64, strides=[128,1]>>
  %18, %19 = load_view_tko weak %17[%12, %2] token = %14 : partition_view<tile=(1x128), padding_value = zero, tensor_view<1x128xf64, strides=[128,1]>>, tile<i32> -> tile<1x128xf64>, token
  %20 = reduce %7 dim=1 identities=[0.000000e+00] : tile<16x128xf64> -> tile<16xf64> 
  (%21: tile<f64>, %22: tile<f64>) {
    %23 = addf %21, %22  : tile<f64>
    yield %23 : tile<f64>
  }
  %24 = reshape %20 : tile<16xf64> -> tile<16x1xf64>
  %25 = constant <f64: 7.812500e-03> : tile<16x1xf64>
  %26 = mulf %24, %25  : tile<16x1xf64>
  %27 = broadcast %26 : tile<16x1xf64> -> tile<16x128xf64>
  %28 = subf %7, %27  : tile<16x128xf64>
  %29 = mulf %28, %28  : tile<16x128xf64>
  %30 = reduce %29 dim=1 identities=[0.000000e+00] : tile<16x128xf64> -> tile<16xf64> 
  (%31: tile<f64>, %32: tile<f64>) {
    %33 = addf %31, %32  : tile<f64>
    yield %33 : tile<f64>
  }
  %34 = reshape %30 : tile<16xf64> -> tile<16x1xf64>
  %35 = mulf %34, %25  : tile<16x1xf64>
  %36 = constant <f64: 1.000000e-05> : tile<16x1xf64>
  %37 = addf %35, %36  : tile<16x1xf64>
  %38 = rsqrt %37 : tile<16x1xf64>
  %39 = broadcast %38 : tile<16x1xf64> -> tile<16x128xf64>
  %40 = mulf %28, %39  : tile<16x128xf64>
  %41 = broadcast %13 : tile<1x128xf64> -> tile<16x128xf64>
  %42 = mulf %40, %41  : tile<16x128xf64>
  %43 = broadcast %18 : tile<1x128xf64> -> tile<16x128xf64>
  %44 = addf %42, %43  : tile<16x128xf64>
  %45 = assume div_by<16>, %arg3 : tile<ptr<f64>>
  %46 = make_tensor_view %45, shape = [128, 128], strides = [128, 1] : tensor_view<128x128xf64, strides=[128,1]>
  %47 = make_partition_view %46 : partition_view<tile=(16x128), padding_value = zero, tensor_view<128x128xf64, strides=[128,1]>>
  %48 = store_view_tko weak %44, %47[%1, %2] token = %19 : tile<16x128xf64>, partition_view<tile=(16x128), padding_value = zero, tensor_view<128x128xf64, strides=[128,1]>>, tile<i32> -> token
  return
}
