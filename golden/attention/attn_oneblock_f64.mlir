entry @attn_oneblock_f64(%arg0: tile<ptr<f64>>, %arg1: tile<ptr<f64>>, %arg2: tile<ptr<f64>>, %arg3: tile<ptr<f64>>, %arg4: tile<f64>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f64>>
  %5 = make_tensor_view %4, shape = [64, 32], strides = [32, 1] : tensor_view<64x32xf64, strides=[32,1]>
  %6 = make_partition_view %5 : partition_view<tile=(64x32), padding_value = zero, tensor_view<64x32xf64, strides=[32,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2] token = %0 : partition_view<tile=(64x32), padding_value = zero, tensor_view<64x32xf64, strides=[32,1]>>, tile<i32> -> tile<64x32xf64>, token
  %9 = assume div_by<16>, %arg1 : tile<ptr<f64>>
  %10 = make_tensor_view %9, shape = [64, 32], strides = [32, 1] : tensor_view<64x32xf64, strides=[32,1]>
  %11 = make_partition_view %10 : partition_view<tile=(64x32), padding_value = zero, tensor_view<64x32xf64, strides=[32,1]>>
  %12, %13 = load_view_tko weak %11[%1, %2] token = %8 : partition_view<tile=(64x32), padding_value = zero, tensor_view<64x32xf64, strides=[32,1]>>, tile<i32> -> tile<64x32xf64>, token
  %14 = assume div_by<16>, %arg2 : tile<ptr<f64>>
  %15 = make_tensor_view %14, shape = [64, 32], strides = [32, 1] : tensor_view<64x32xf64, strides=[32,1]>
  %16 = make_partition_view %15 : partition_view<tile=(64x32), padding_value = zero, tensor_view<64x32xf64, strides=[32,1]>>
  %17, %18 = load_view_tko weak %16[%1, %2] token = %13 : partition_view<tile=(64x32), padding_value = zero, tensor_view<64x32xf64, strides=[32,1]>>, tile<i32> -> tile<64x32xf64>, token
  %19 = permute %12 [1, 0] : tile<64x32xf64> -> tile<32x64xf64>
  %20 = constant <f64: 0.000000e+00> : tile<64x64xf64>
  %21 = mmaf %7, %19, %20 : tile<64x32xf64>, tile<32x64xf64>, tile<64x64xf64>
  %22 = reshape %arg4 : tile<f64> -> tile<1x1xf64>
  %23 = broadcast %22 : tile<1x1xf64> -> tile<64x64xf64>
  %24 = mulf %21, %23  : tile<64x64xf64>
  %25 = reduce %24 dim=1 identities=[0xFFF0000000000000 : f64] : tile<64x64xf64> -> tile<64xf64> 
  (%26: tile<f64>, %27: tile<f64>) {
    %28 = maxf %26, %27 : tile<f64>
    yield %28 : tile<f64>
  }
  %29 = reshape %25 : tile<64xf64> -> tile<64x1xf64>
  %30 = broadcast %29 : tile<64x1xf64> -> tile<64x64xf64>
  %31 = subf %24, %30  : tile<64x64xf64>
  %32 = exp %31  : tile<64x64xf64>
  %33 = reduce %32 dim=1 identities=[0.000000e+00] : tile<64x64xf64> -> tile<64xf64> 
  (%34: tile<f64>, %35: tile<f64>) {
    %36 = addf %34, %35  : tile<f64>
    yield %36 : tile<f64>
  }
  %37 = reshape %33 : tile<64xf64> -> tile<64x1xf64>
  %38 = broadcast %37 : tile<64x1xf64> -> tile<64x64xf64>
  %39 = divf %32, %38  : tile<64x64xf64>
  %40 = constant <f64: 0.000000e+00> : tile<64x32xf64>
  %41 = mmaf %39, %17, %40 : tile<64x64xf64>, tile<64x32xf64>, tile<64x32xf64>
  %42 = assume div_by<16>, %arg3 : tile<ptr<f64>>
  %43 = make_tensor_view %42, shape = [64, 32], strides = [32, 1] : tensor_view<64x32xf64, strides=[32,1]>
  %44 = make_partition_view %43 : partition_view<tile=(64x32), padding_value = zero, tensor_view<64x32xf64, strides=[32,1]>>
  %45 = store_view_tko weak %41, %44[%1, %2] token = %18 : tile<64x32xf64>, partition_view<tile=(64x32), padding_value = zero, tensor_view<64x32xf64, strides=[32,1]>>, tile<i32> -> token
  return
}
