entry @attn_oneblock_f32(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>, %arg2: tile<ptr<f32>>, %arg3: tile<ptr<f32>>, %arg4: tile<f32>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [64, 32], strides = [32, 1] : tensor_view<64x32xf32, strides=[32,1]>
  %6 = make_partition_view %5 : partition_view<tile=(64x32), padding_value = zero, tensor_view<64x32xf32, strides=[32,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2] token = %0 : partition_view<tile=(64x32), padding_value = zero, tensor_view<64x32xf32, strides=[32,1]>>, tile<i32> -> tile<64x32xf32>, token
  %9 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %10 = make_tensor_view %9, shape = [64, 32], strides = [32, 1] : tensor_view<64x32xf32, strides=[32,1]>
  %11 = make_partition_view %10 : partition_view<tile=(64x32), padding_value = zero, tensor_view<64x32xf32, strides=[32,1]>>
  %12, %13 = load_view_tko weak %11[%1, %2] token = %8 : partition_view<tile=(64x32), padding_value = zero, tensor_view<64x32xf32, strides=[32,1]>>, tile<i32> -> tile<64x32xf32>, token
  %14 = assume div_by<16>, %arg2 : tile<ptr<f32>>
  %15 = make_tensor_view %14, shape = [64, 32], strides = [32, 1] : tensor_view<64x32xf32, strides=[32,1]>
  %16 = make_partition_view %15 : partition_view<tile=(64x32), padding_value = zero, tensor_view<64x32xf32, strides=[32,1]>>
  %17, %18 = load_view_tko weak %16[%1, %2] token = %13 : partition_view<tile=(64x32), padding_value = zero, tensor_view<64x32xf32, strides=[32,1]>>, tile<i32> -> tile<64x32xf32>, token
  %19 = permute %12 [1, 0] : tile<64x32xf32> -> tile<32x64xf32>
  %20 = constant <f32: 0.000000e+00> : tile<64x64xf32>
  %21 = mmaf %7, %19, %20 : tile<64x32xf32>, tile<32x64xf32>, tile<64x64xf32>
  %22 = reshape %arg4 : tile<f32> -> tile<1x1xf32>
  %23 = broadcast %22 : tile<1x1xf32> -> tile<64x64xf32>
  %24 = mulf %21, %23  : tile<64x64xf32>
  %25 = reduce %24 dim=1 identities=[0xFF800000 : f32] : tile<64x64xf32> -> tile<64xf32> 
  (%26: tile<f32>, %27: tile<f32>) {
    %28 = maxf %26, %27 : tile<f32>
    yield %28 : tile<f32>
  }
  %29 = reshape %25 : tile<64xf32> -> tile<64x1xf32>
  %30 = broadcast %29 : tile<64x1xf32> -> tile<64x64xf32>
  %31 = subf %24, %30  : tile<64x64xf32>
  %32 = exp %31  : tile<64x64xf32>
  %33 = reduce %32 dim=1 identities=[0.000000e+00 : f32] : tile<64x64xf32> -> tile<64xf32> 
  (%34: tile<f32>, %35: tile<f32>) {
    %36 = addf %34, %35  : tile<f32>
    yield %36 : tile<f32>
  }
  %37 = reshape %33 : tile<64xf32> -> tile<64x1xf32>
  %38 = broadcast %37 : tile<64x1xf32> -> tile<64x64xf32>
  %39 = divf %32, %38  : tile<64x64xf32>
  %40 = constant <f32: 0.000000e+00> : tile<64x32xf32>
  %41 = mmaf %39, %17, %40 : tile<64x64xf32>, tile<64x32xf32>, tile<64x32xf32>
  %42 = assume div_by<16>, %arg3 : tile<ptr<f32>>
  %43 = make_tensor_view %42, shape = [64, 32], strides = [32, 1] : tensor_view<64x32xf32, strides=[32,1]>
  %44 = make_partition_view %43 : partition_view<tile=(64x32), padding_value = zero, tensor_view<64x32xf32, strides=[32,1]>>
  %45 = store_view_tko weak %41, %44[%1, %2] token = %18 : tile<64x32xf32>, partition_view<tile=(64x32), padding_value = zero, tensor_view<64x32xf32, strides=[32,1]>>, tile<i32> -> token
  return
}
